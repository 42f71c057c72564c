"""A round of pairs' draw rows are rendered in Python (``public_tags.draw_rows``): the same bytes as the
row's template (``public/_draw_row.html``, which still renders a team round's rows) for every kind of
table — played, playing, pending, signed off, forfeited by one side or both, on points or on levels, a
bye, a walkover, the third-place match, with and without an area — in both languages."""

from __future__ import annotations

import itertools

import pytest
from django.template.loader import get_template
from django.utils import translation

from tournament.standings.public_types import DrawRow, PublicSide
from tournament.standings.templatetags.public_tags import _pair_row_html, url_around

NS = PublicSide(11, "张伟 / Li <Na>", 3)
EW = PublicSide(12, "O'Brien & 王芳", 4)


def rows() -> list[DrawRow]:
    played = itertools.product(
        ("pending", "running", "finished", "confirmed"),
        ("", "NS", "EW"),
        (None, (2, 2), (10, 14)),
        (None, (6, 3)),
        ("", "forfeit", "passed_a"),
    )
    out = [
        DrawRow(
            match_id=100 + number,
            table=number % 40 or None,
            area="东区 <1>" if number % 3 else "",
            ns=NS,
            ew=EW,
            status=status,
            winner=winner,
            levels=levels,
            points=points,
            bracket_slot=None,
            reason=reason,
            third_place=number % 7 == 0,
        )
        for number, (status, winner, levels, points, reason) in enumerate(played)
    ]
    bye = PublicSide(None, "")
    out.append(DrawRow(1, 0, "", NS, bye, "finished", "NS", None, None, None))
    out.append(DrawRow(2, None, "北区", NS, bye, "confirmed", "NS", None, None, None, walkover_over="Gone & Away"))
    return out


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_pairs_draw_row_is_the_templates_bytes(language: str) -> None:
    template = get_template("public/_draw_row.html")
    pair, match = url_around("standings:pair", 7), url_around("standings:match", 7)
    with translation.override(language):
        for row in rows():
            expected = template.render(
                {
                    "row": row,
                    "ns_url": f"{pair[0]}{row.ns.pair_id}{pair[1]}",
                    "ew_url": f"{pair[0]}{row.ew.pair_id}{pair[1]}",
                    "match_url": f"{match[0]}{row.match_id}{match[1]}",
                    "team_url": "",
                }
            ).strip("\n")
            assert _pair_row_html(row, pair, match) == expected, row
