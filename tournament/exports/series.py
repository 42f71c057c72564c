"""A series of events and the rating across it (docs/rules.md §12.3, §12.4): the writes and the one answer
to "the series' ranking" and "the series' ratings" that its pages, its workbook sheet and the command ask.

The rules are the core's (``scoring.series``): this module feeds it each finished event's final placings
(the prize order, ``prizes.prize_order_get``: a knockout's places, then the stage before it) of players,
and the confirmed matches of the series' events. A player is the same across events when the roster gave
the same employee number; a player without one is never merged with anybody (a key of its own).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.series import EventPlacing, PointsTable, RatedMatch, SeriesRow, ratings_rebuild, series_ranking
from tournament.audit import history_author
from tournament.errors import UserError, user_error
from tournament.exports.models import Series, SeriesEvent, SeriesRating
from tournament.exports.prizes import prize_order_get, prize_stage
from tournament.matches.models import Adjustment, AdjustmentKind, Match, MatchStatus
from tournament.people import Actor, signed_in
from tournament.registration.models import Game, PairMember, Tournament, TournamentStatus
from tournament.registration.text import clean_text

COUNTED = (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)
"""An event counts in its series once it is finished (its placings final)."""


def _refused(error: ScoringError) -> UserError:
    refusal = user_error(error)
    assert refusal is not None  # a ScoringError always maps
    return refusal


# -- writes ------------------------------------------------------------------------------------------


def series_create(*, name: str, game: str = Game.GUANDAN, user: Actor | None = None) -> Series:
    """A new series of ``game`` (its events are added one by one), with the default points table."""
    cleaned = clean_text(name)[:120]
    if not cleaned:
        raise UserError("bad_input", _("Give the series a name."), fields={"name": [_("Required.")]})
    if game not in Game.values:
        raise UserError("bad_input", _("Unknown game."))
    with transaction.atomic():
        series = Series(name=cleaned, game=game, lots_seed=secrets.randbits(31))
        history_author(series, user, "created")
        series.save()
        account = signed_in(user)
        if account is not None:
            series.organisers.add(account)
    return series


def series_points_set(
    *, series: Series, table: Any, show_rating: bool | None = None, user: Actor | None = None
) -> Series:
    """Set the placing → points table (docs/rules.md §12.3); a table with a gap, negative points or a worse
    place earning more is refused, nothing changed."""
    try:
        parsed = PointsTable.from_json(table)
    except ScoringError as error:
        raise _refused(error) from error
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        locked.points_table = parsed.to_json()
        if show_rating is not None:
            locked.show_rating = show_rating
        history_author(locked, user, "points table set")
        locked.save(update_fields=["points_table", "show_rating"])
    series.refresh_from_db()
    return series


def series_organised(*, user: Actor) -> QuerySet[Series]:
    """The series ``user`` organises: a series' organisers are its own (named when it is made),
    not its events' (docs/design.md: one answer to organiser rights, here for a series)."""
    account = signed_in(user)
    return Series.objects.filter(organisers=account) if account is not None else Series.objects.none()


def series_event_add(*, series: Series, tournament: Tournament, user: Actor | None = None) -> SeriesEvent:
    """Count ``tournament`` in ``series``: refused (nothing changed) when it is of another game or counted
    already."""
    if tournament.game != series.game:
        raise UserError(
            "series_game",
            _("%(event)s is a %(game)s event; this series counts %(series_game)s events only.")
            % {
                "event": tournament.name,
                "game": Game(tournament.game).label,
                "series_game": Game(series.game).label,
            },
            status=409,
        )
    with transaction.atomic():
        if SeriesEvent.objects.filter(series=series, tournament=tournament).exists():
            raise UserError("series_event_twice", _("This event is in the series already."), status=409)
        entry = SeriesEvent(series=series, tournament=tournament)
        history_author(entry, user, "event added")
        entry.save()
        series_ratings_rebuild(series=series)
    return entry


def series_event_remove(*, series: Series, tournament_id: int, user: Actor | None = None) -> None:
    with transaction.atomic():
        entry = SeriesEvent.objects.filter(series=series, tournament_id=tournament_id).first()
        if entry is None:
            raise UserError("not_found", _("This event is not in the series."), status=404)
        history_author(entry, user, "event removed")
        entry.delete()
        series_ratings_rebuild(series=series)


# -- who is who ----------------------------------------------------------------------------------------


def player_key(*, employee_number: str, player_id: int) -> str:
    """A player's key across the series: the employee number; without one, a key of the player's own (never
    merged, even with a player of the same name)."""
    return employee_number if employee_number else f"#{player_id}"


def _members(tournament_ids: list[int]) -> tuple[dict[int, list[str]], dict[str, str]]:
    """Each entrant's players' keys, and each key's name (the last event's)."""
    keys: dict[int, list[str]] = defaultdict(list)
    names: dict[str, str] = {}
    rows = (
        PairMember.objects.filter(pair__tournament_id__in=tournament_ids)
        .order_by("pair__tournament__created_at", "pair_id", "slot")
        .values_list("pair_id", "player_id", "player__employee_number", "player__name")
    )
    for pair_id, player_id, number, name in rows:
        key = player_key(employee_number=number, player_id=player_id)
        keys[pair_id].append(key)
        names[key] = name
    return keys, names


def _events(series: Series) -> list[Tournament]:
    return list(series.events.order_by("starts_on", "created_at", "id"))


# -- the ranking ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeriesLine:
    row: SeriesRow
    name: str


@dataclass(frozen=True, slots=True)
class SeriesStandings:
    series: Series
    events: list[Tournament]
    counted: list[Tournament]
    lines: list[SeriesLine]
    table: PointsTable


def series_placings(*, series: Series) -> list[EventPlacing]:
    """Every player's final place in each finished event of the series (the prize order)."""
    counted = [event for event in _events(series) if event.status in COUNTED]
    keys, _names = _members([event.pk for event in counted])
    placings = []
    for event in counted:
        stage = prize_stage(tournament=event)
        if stage is None:
            continue
        for row in prize_order_get(stage=stage).standings.rows:
            for key in keys.get(int(row.entrant), []):
                placings.append(EventPlacing(str(event.pk), key, row.rank))
    return placings


def series_standings_get(*, series: Series) -> SeriesStandings:
    """The series ranking (docs/rules.md §12.3), the one answer its page and workbook sheet show."""
    events = _events(series)
    counted = [event for event in events if event.status in COUNTED]
    _keys, names = _members([event.pk for event in counted])
    table = PointsTable.from_json(series.points_table)
    rows = series_ranking(placings=series_placings(series=series), table=table, lots_seed=series.lots_seed)
    return SeriesStandings(
        series=series,
        events=events,
        counted=counted,
        lines=[SeriesLine(row=row, name=names.get(row.player, row.player)) for row in rows],
        table=table,
    )


# -- the rating ----------------------------------------------------------------------------------------


def series_rated_matches(*, series: Series) -> tuple[list[RatedMatch], dict[str, str]]:
    """The series' confirmed matches played at a table (no bye, no forfeit), in the order their results
    were confirmed, as the rules core rates them; and each player's name."""
    ids = [event.pk for event in _events(series)]
    keys, names = _members(ids)
    forfeit = Adjustment.objects.filter(match=OuterRef("pk"), kind=AdjustmentKind.FORFEIT)
    rows = (
        Match.objects.filter(round__stage__tournament_id__in=ids, status=MatchStatus.CONFIRMED, ew_pair__isnull=False)
        .exclude(Exists(forfeit))
        .order_by("signed_off_at", "id")
        .values_list("ns_pair_id", "ew_pair_id", "winner")
    )
    matches = []
    for ns, ew, winner in rows.iterator(chunk_size=2000):
        ns_keys, ew_keys = tuple(keys.get(ns, ())), tuple(keys.get(ew, ()))
        if not ns_keys or not ew_keys:
            continue
        first, second = (ew_keys, ns_keys) if winner == "EW" else (ns_keys, ew_keys)
        matches.append(RatedMatch(first, second, drawn=winner == ""))
    return matches, names


def series_ratings_rebuild(*, series: Series) -> list[SeriesRating]:
    """Rebuild the series' ratings from scratch (docs/rules.md §12.4) and store them: called whenever a match
    of one of its events is confirmed, and by ``manage.py series_rating_rebuild``."""
    matches, names = series_rated_matches(series=series)
    ratings = ratings_rebuild(matches)
    rows = [
        SeriesRating(
            series=series,
            player=player,
            name=names.get(player, player)[:60],
            mu=rating.mu,
            sigma=rating.sigma,
            matches=rating.matches,
        )
        for player, rating in ratings.items()
    ]
    with transaction.atomic():
        SeriesRating.objects.filter(series=series).delete()
        SeriesRating.objects.bulk_create(rows, batch_size=1000)
    return rows


def series_ratings_shown(*, series: Series) -> list[SeriesRating]:
    """The stored ratings, best μ − 3σ first (the public page's list)."""
    return sorted(SeriesRating.objects.filter(series=series), key=lambda row: (-row.shown, row.player))


@dataclass(frozen=True, slots=True)
class SeriesListed:
    series: Series
    events: int
    counted: int  # its finished events, which count


def series_listed(*, limit: int = 20) -> list[SeriesListed]:
    """The newest series with how many events each has and how many count (the site's home page); one query."""
    rows = Series.objects.annotate(
        event_count=Count("entries"), counted_count=Count("entries", filter=Q(entries__tournament__status__in=COUNTED))
    ).order_by("-created_at", "-id")[:limit]
    return [SeriesListed(series=row, events=row.event_count, counted=row.counted_count) for row in rows]


def series_of_event(*, tournament_id: int) -> list[Series]:
    return list(Series.objects.filter(entries__tournament_id=tournament_id))


# -- the workbook sheet ------------------------------------------------------------------------------------


def series_workbook(*, series: Series) -> bytes:
    """The series' workbook: a sheet of the ranking (one column per event's points) and, when shown, a sheet
    of the ratings (labelled a rating, μ − 3σ with the matches played)."""
    import io

    from openpyxl import Workbook
    from openpyxl.styles import Font

    standings = series_standings_get(series=series)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = _("Series ranking")[:31]
    header = [_("Rank"), _("Player"), _("Employee number"), _("Points"), _("1st places"), _("Events")]
    header += [event.name for event in standings.counted]
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for line in standings.lines:
        number = line.row.player if not line.row.player.startswith("#") else ""
        row: list[object] = [line.row.rank, _cell(line.name), number, line.row.points, line.row.firsts, line.row.events]
        row += [line.row.by_event.get(str(event.pk), "") for event in standings.counted]
        sheet.append(row)
    if series.show_rating:
        ratings = book.create_sheet(_("Rating")[:31])
        ratings.append([_("Player"), _("Employee number"), _("Rating (μ − 3σ)"), "μ", "σ", _("Matches played")])
        for cell in ratings[1]:
            cell.font = Font(bold=True)
        for rating in series_ratings_shown(series=series):
            number = rating.player if not rating.player.startswith("#") else ""
            ratings.append(
                [
                    _cell(rating.name),
                    number,
                    round(rating.shown, 2),
                    round(rating.mu, 2),
                    round(rating.sigma, 2),
                    rating.matches,
                ]
            )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _cell(text: str) -> str:
    """A name as a cell: a leading =, +, - or @ is kept as text, never read as a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
