"""Drawing a three-seat round (Dou Dizhu, docs/rules.md §10): the players still in, at tables of three.

``round_draw`` (``tournament.draw.services``) comes here for a points stage: the same lock, the same
draft → publish life, the same record of the draw (``draw_algorithm`` ``three-seats-v1``, its options,
its seed). The draw itself is the pure :func:`tournament.draw.pairing_three_seats.three_seat_draw`;
this module feeds it from the database (ranks from the stage's one ranking, ``stage_ranking_get``; byes
and past table-mates from the :class:`~tournament.matches.models.MatchSeat` rows) and writes its tables,
matches (no sides: the event's game says it is a table of three) and seats. A bye is a seat without a match.

A points stage's options (:func:`points_stage_options`): ``rounds`` (how many rounds it has, 1–20),
``cuts`` (``[{"after_round": r, "keep": k}]``, docs/rules.md §10: keep the top ``k`` after round ``r``), and
``final`` (the final table: ranked by its own points, tie-broken by the stage before).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.draw.pairing_three_seats import ThreeSeatDraw, ThreeSeatPlayer, three_seat_draw
from tournament.draw.tables import table_ids_ensure
from tournament.errors import UserError
from tournament.matches.models import Match, MatchSeat, MatchStatus, Round, RoundStatus, Stage
from tournament.matches.stage_options import DrawOptions
from tournament.people import Actor
from tournament.rules import rules_for_stage
from tournament.standings.selectors import stage_ranking_get

MAX_ROUNDS = 20


def points_stage_options(given: Mapping[str, Any]) -> dict[str, str]:
    """Field → message for what is wrong with a points stage's options as given (empty when nothing is)."""
    errors: dict[str, str] = {}
    rounds = given.get("rounds")
    if rounds is not None and (
        isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS
    ):
        errors["rounds"] = _("A points stage has 1 to %(max)d rounds.") % {"max": MAX_ROUNDS}
    cuts = given.get("cuts", [])
    seen: set[int] = set()
    if not isinstance(cuts, list):
        errors["cuts"] = _("Cuts are a list of rounds and how many players each keeps.")
        return errors
    last_keep = None
    for cut in cuts:
        after, keep = (cut.get("after_round"), cut.get("keep")) if isinstance(cut, Mapping) else (None, None)
        if (
            not isinstance(after, int)
            or not isinstance(keep, int)
            or isinstance(after, bool)
            or isinstance(keep, bool)
            or after < 1
            or keep < 3
            or after in seen
            or (isinstance(rounds, int) and after >= rounds)
        ):
            errors["cuts"] = _(
                "Each cut is after a round before the stage's last and keeps at least 3 players, once per round."
            )
            break
        if last_keep is not None and keep >= last_keep:
            errors["cuts"] = _("Each cut keeps fewer players than the one before.")
            break
        seen.add(after)
        last_keep = keep
    if not isinstance(given.get("final", False), bool):
        errors["final"] = _("Choose whether this is the final table.")
    return errors


def _still_in(stage: Stage, pair_ids: list[int]) -> tuple[list[int], dict[str, int], str]:
    """The players to draw (cut players left out), their ranks, and a due cut that cannot be made."""
    standings = stage_ranking_get(stage=stage)
    ranking = standings.players
    if ranking is None:
        return pair_ids, {}, ""
    played = any(row.rounds for row in ranking.players.rows)
    ranks = {row.player: row.rank for row in ranking.players.rows} if played else {}
    return [pk for pk in pair_ids if ranking.still_in(str(pk))], ranks, ranking.pending_cut


def three_seat_players(*, stage: Stage, pair_ids: list[int]) -> tuple[list[ThreeSeatPlayer], str]:
    """The draw's view of the players still in (rank, byes, past table-mates), and a pending cut."""
    ids, ranks, pending = _still_in(stage, pair_ids)
    byes: dict[int, int] = defaultdict(int)
    tables: dict[int, list[int]] = defaultdict(list)
    rounds: dict[int, int] = {}
    for match_id, pair_id, number in MatchSeat.objects.filter(round__stage=stage).values_list(
        "match_id", "pair_id", "round__number"
    ):
        if match_id is None:
            byes[pair_id] += 1
        else:
            tables[match_id].append(pair_id)
            rounds[match_id] = number
    last = max(rounds.values(), default=0)
    mates: dict[int, set[int]] = defaultdict(set)
    last_mates: dict[int, set[int]] = defaultdict(set)
    for match_id, seated in tables.items():
        for player in seated:
            others = {other for other in seated if other != player}
            mates[player] |= others
            if rounds[match_id] == last:
                last_mates[player] |= others
    players = [
        ThreeSeatPlayer(
            id=pk,
            rank=ranks.get(str(pk), 0),
            byes=byes[pk],
            mates=frozenset(mates[pk]),
            last_mates=frozenset(last_mates[pk]),
        )
        for pk in ids
    ]
    return players, pending


def three_seat_round_create(*, stage: Stage, pair_ids: list[int], number: int, seed: int, user: Actor | None) -> Round:
    """Draw round ``number`` of a points stage as a draft (call inside ``round_draw``'s lock)."""
    rounds = stage.settings.rounds
    if rounds is not None and number > rounds:
        raise UserError("stage_complete", _("This stage has %(n)d rounds; they are all drawn.") % {"n": rounds})
    players, pending = three_seat_players(stage=stage, pair_ids=pair_ids)
    if pending:
        raise UserError("cut_pending", _("The cut cannot be made yet: %(why)s") % {"why": pending})
    if len(players) < 3:
        raise UserError("too_few_players", _("A three-seat round needs at least 3 players."))
    reseat = rules_for_stage(stage).reseat
    draw = three_seat_draw(players=players, round_number=number, seed=seed, reseat=reseat)
    round_ = Round(
        stage=stage,
        number=number,
        status=RoundStatus.DRAFT,
        time_cap_minutes=rules_for_stage(stage).time_cap_minutes,
        draw_algorithm=draw.algorithm,
        draw_options=DrawOptions.from_stored(draw.options).to_stored(),
        draw_seed=seed,
    )
    history_author(round_, user)
    round_.save()
    three_seat_round_write(round_=round_, draw=draw)
    return round_


def three_seat_round_write(*, round_: Round, draw: ThreeSeatDraw) -> None:
    """Bulk-write a three-seat draw's tables, matches and seats (one seat per player per round)."""
    numbers = [table.table for table in draw.tables]
    existing = table_ids_ensure(tournament_id=round_.stage.tournament_id, numbers=numbers)
    matches = [
        Match(round=round_, table_id=existing[table.table], status=MatchStatus.PENDING)
        for table in draw.tables
    ]
    Match.objects.bulk_create(matches)
    seats = [
        MatchSeat(round=round_, match=match, seat=letter, pair_id=pair_id)
        for match, table in zip(matches, draw.tables, strict=True)
        for letter, pair_id in zip(("E", "S", "W"), table.seats, strict=True)
    ]
    seats += [MatchSeat(round=round_, match=None, seat="", pair_id=pair_id) for pair_id in draw.byes]
    MatchSeat.objects.bulk_create(seats)
