"""The HTML of find-my-table answers (the list under the search box).

Built with ``format_html`` rather than a template, with the words and addresses worked out once
per worker, because the minute a draw is published this is the answer thousands of players wait
for, and a template took ten times as long for these few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import labels
from tournament.standings.public import FIND_LIMIT, SeatFound, TournamentOverview


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
        "bye": _("Bye"),
        "match_page": _("Match page"),
        "table": _("Table %(table)s"),
        "round": _("round %(number)s"),
        "side:NS": labels.side("NS"),
        "side:EW": labels.side("EW"),
    }


def seat_cards(*, tournament_id: int, seats: Sequence[SeatFound]) -> list[str]:
    """Find-my-table answers as HTML: each player, the table and seat (or a bye), the opponents
    and the match page."""
    pair_url, match_url = _id_url("standings:pair", tournament_id), _id_url("standings:match", tournament_id)
    words = _card_words(get_language())
    cards = []
    for seat in seats:
        if seat.table:
            area = format_html(' <span class="badge">{}</span>', seat.area) if seat.area else ""
            where = format_html(
                '<p class="seat-where"><span class="pub-big">{}</span>\n    <span class="pub-big">{}</span>{}</p>'
                '\n  <p>{}: <a href="{}">{}</a></p>',
                words["table"] % {"table": seat.table},
                words.get(f"side:{seat.side}", "—"),
                area,
                words["opponents"],
                pair_url(seat.opponent.pair_id),
                seat.opponent.name,
            )
        else:
            where = format_html('<p class="seat-where"><span class="pub-big">{}</span></p>', words["bye"])
        cards.append(
            format_html(
                '<li class="card found-seat" data-match="{}">\n'
                '  <p class="seat-who"><strong>{}</strong> <span class="muted">{}</span></p>\n  {}\n'
                '  <p class="muted small">{} · {} · <a href="{}">{}</a></p>\n</li>',
                seat.match_id,
                seat.player_name,
                seat.pair_name,
                where,
                seat.stage_name,
                words["round"] % {"number": seat.round_number},
                match_url(seat.match_id),
                words["match_page"],
            )
        )
    return cards


def find_results_html(*, overview: TournamentOverview, query: str, seats: Sequence[SeatFound]) -> SafeString:
    """What a search gives: the seats found, a friendly line when nobody matches, a hint when the
    list is cut at :data:`FIND_LIMIT`; nothing before a search."""
    if not query:
        return SafeString("")
    if not overview.current_rounds:
        return format_html('\n  <p class="muted">{}</p>\n', _("The draw of the first round is not published yet."))
    cards = seat_cards(tournament_id=overview.id, seats=seats)
    if cards:
        items = format_html_join("\n  ", "{}", ((card,) for card in cards))
    else:
        nobody = _("Nobody in the current round matches “%(query)s”.") % {"query": query}
        items = format_html('<li class="muted">{}</li>', nobody)
    more = ""
    if len(cards) >= FIND_LIMIT:
        text = _("Only the first %(limit)s are shown: type more of the name.") % {"limit": FIND_LIMIT}
        more = format_html('\n  <p class="muted small">{}</p>', text)
    return format_html('\n  <ul class="found">\n  {}\n  </ul>{}\n', items, more)
