"""The HTML of find-my-table answers (the list under the search box).

Built from escaped values rather than a template, with the words and addresses worked out once
per worker, because the minute a draw is published this is the answer thousands of players wait
for, and a template took ten times as long for these few lines.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import lru_cache

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import labels
from tournament.registration.models import PairStatus
from tournament.standings.public_types import FIND_LIMIT, SeatFound, TournamentOverview
from tournament.standings.seating import NotSeated


@lru_cache(maxsize=1024)
def _id_url(name: str, tournament_id: int) -> Callable[[int], str]:
    """``reverse(name, args=[tournament_id, id])`` for any ``id``, reversed once per worker: for
    routes whose last argument is an ``<int:…>``."""
    marker = 2_147_483_647
    head, tail = reverse(name, args=[tournament_id, marker]).rsplit(str(marker), 1)
    return lambda id_: f"{head}{id_}{tail}"


@lru_cache(maxsize=8)
def _card_words(language: str) -> dict[str, str]:
    """The words of a find-my-table answer in ``language`` (the active one), looked up once per worker."""
    return {
        "opponents": _("Opponents"),
        "bye": _("Bye this round"),
        "team_bye": _("Your team %(team)s has a bye this round"),
        "walkover": _("Walkover this round: your opponents withdrew (a win by forfeit)"),
        "team_walkover": _("Your team %(team)s wins this round by walkover: the other team withdrew"),
        "not_checked_in": _("Registered, not checked in yet: check in at the desk to be seated."),
        "withdrawn": _("Withdrawn: this pair no longer plays."),
        "eliminated": _("Eliminated in round %(number)s of %(stage)s."),
        "not_drawn": _("Checked in, but not in the current round."),
        "not_advanced": _("Did not advance to %(stage)s: out after the stage before."),
        "team_without": _("Not in %(team)s's line-up this round: two of the team's other pairs play."),
        "match_page": _("Match page"),
        "table": _("Table %(table)s"),
        "team_match": _("Team match %(number)s: %(x)s v %(y)s · table %(table)s"),
        "side:NS": labels.side("NS"),
        "side:EW": labels.side("EW"),
    }


def _pair(number: int | None, name: str) -> str:
    """ "#12 张伟 / 李娜": the pair's number in the event, the one on the draw and the sheets."""
    return f"#{number} {name}" if number is not None else name


def standing_line(seat: NotSeated, words: dict[str, str]) -> str:
    """Where a player without a seat stands, in words (the most telling reason first)."""
    if seat.state == PairStatus.WITHDRAWN:
        return words["withdrawn"]
    if seat.eliminated_in is not None:
        return words["eliminated"] % {"number": seat.eliminated_in, "stage": seat.stage_name}
    if seat.not_advanced_into:  # a later stage takes its advanced pairs only: checking in changes nothing
        return words["not_advanced"] % {"stage": seat.not_advanced_into}
    if seat.team_without:  # its team plays this round with the pairs of its line-up: checking in changes nothing
        return words["team_without"] % {"team": seat.team_without}
    if seat.state == PairStatus.REGISTERED:
        return words["not_checked_in"]
    return words["not_drawn"]


def _e(text: object) -> str:
    """``text`` escaped as ``format_html`` escapes a value (Django's ``escape`` is ``html.escape``)."""
    return html.escape(str(text))


def seat_cards(*, tournament_id: int, seats: Sequence[SeatFound | NotSeated]) -> list[SafeString]:
    """Find-my-table answers as HTML: each player, the table and seat (or a bye), the opponents
    and the match page; for a player without a seat, where they stand. Joined from escaped values
    rather than through ``format_html`` (its escaping of each value, safe or not, was half of an
    answer's HTML)."""
    pair_url, match_url = _id_url("standings:pair", tournament_id), _id_url("standings:match", tournament_id)
    team_url = _id_url("standings:team_match", tournament_id)
    words = _card_words(get_language())
    cards: list[SafeString] = []
    for seat in seats:
        who = (
            f'  <p class="seat-who"><strong>{_e(seat.player_name)}</strong>'
            f' <span class="muted">{_e(_pair(seat.pair_number, seat.pair_name))}</span></p>\n'
        )
        if isinstance(seat, NotSeated):
            cards.append(
                mark_safe(  # every value escaped
                    f'<li class="card found-seat found-{_e(seat.state or "none")}">\n{who}'
                    f'  <p class="seat-standing">{_e(standing_line(seat, words))}</p>\n</li>'
                )
            )
            continue
        if seat.table:
            area = f' <span class="badge">{_e(seat.area)}</span>' if seat.area else ""
            opponent = pair_url(seat.opponent.pair_id) if seat.opponent.pair_id is not None else "#"
            where = (
                f'<p class="seat-where"><span class="pub-big">{_e(words["table"] % {"table": seat.table})}</span>\n'
                f'    <span class="pub-big">{_e(words.get(f"side:{seat.side}", "—"))}</span>{area}</p>\n'
                f'  <p>{_e(words["opponents"])}: <a href="{_e(opponent)}">'
                f"{_e(_pair(seat.opponent.number, seat.opponent.name))}</a></p>"
            )
        else:
            if seat.walkover:
                bye = words["team_walkover"] % {"team": seat.team_bye} if seat.team_bye else words["walkover"]
            else:
                bye = words["team_bye"] % {"team": seat.team_bye} if seat.team_bye else words["bye"]
            where = f'<p class="seat-where"><span class="pub-big">{_e(bye)}</span></p>'
        if seat.team_match is not None:
            team = seat.team_match
            named = words["team_match"] % {"number": team.number, "x": team.x, "y": team.y, "table": team.table}
            where = (
                f'<p class="seat-team-match"><a href="{_e(team_url(team.id))}"><strong>{_e(named)}</strong></a></p>'
                f"\n  {where}"
            )
        round_name = labels.round_name(number=seat.round_number, knockout_pairs=seat.round_knockout_pairs)
        cards.append(
            mark_safe(  # every value escaped
                f'<li class="card found-seat" data-match="{_e(seat.match_id)}">\n{who}  {where}\n'
                f'  <p class="muted small">{_e(seat.stage_name)} · {_e(round_name)} · '
                f'<a href="{_e(match_url(seat.match_id))}">{_e(words["match_page"])}</a></p>\n</li>'
            )
        )
    return cards


def find_results_html(
    *, overview: TournamentOverview, query: str, seats: Sequence[SeatFound | NotSeated]
) -> SafeString:
    """What a search gives: the seats found (and where players without one stand), a friendly
    line when nobody matches, a hint when the list is cut at :data:`FIND_LIMIT`; nothing before a
    search."""
    if not query:
        return SafeString("")
    not_yet = ""
    if not overview.current_rounds:
        not_yet = format_html('\n  <p class="muted">{}</p>\n', _("The draw of the first round is not published yet."))
        if not seats:
            return not_yet
    cards = seat_cards(tournament_id=overview.id, seats=seats)
    if cards:
        items = format_html_join("\n  ", "{}", ((card,) for card in cards))
    else:
        nobody = _("Nobody registered in this event matches “%(query)s”.") % {"query": query}
        items = format_html('<li class="muted">{}</li>', nobody)
    more = ""
    if len(cards) >= FIND_LIMIT:
        text = _("Only the first %(limit)s are shown: type more of the name.") % {"limit": FIND_LIMIT}
        more = format_html('\n  <p class="muted small">{}</p>', text)
    return format_html('{}\n  <ul class="found">\n  {}\n  </ul>{}\n', not_yet, items, more)
