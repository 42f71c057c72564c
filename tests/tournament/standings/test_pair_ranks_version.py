"""The ranks part of a pair's page is versioned on what it shows (its rank, movement and record in
each stage): a standings build that leaves a pair's line as it was leaves that pair's ranks poll a
204, and the pairs whose line moved get their new line. Its HTML, rendered in Python, is what the
template rendered before, byte for byte, in both languages."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import translation

from tests.tournament.standings.events import play_out, swiss_event
from tournament.standings.public import RankShown, pair_ranks_get, pair_ranks_shown, standings_get
from tournament.standings.templatetags.public_tags import pair_ranks_html

pytestmark = pytest.mark.django_db

FRAGMENT = (Path(__file__).resolve().parents[2] / "data" / "pair_ranks_fragment.html").read_text(encoding="utf-8")
"""The template the Python rendering replaced (``templates/public/_pair_ranks.html`` before)."""


def ranks_poll(client, event, pair_id: int) -> str:
    page = client.get(reverse("standings:pair", args=(event.tournament.pk, pair_id))).content.decode()
    path = reverse("standings:pair_ranks", args=(event.tournament.pk, pair_id))
    found = re.search(rf'hx-get="({re.escape(path)}\?v=[^"]+)"', page)
    assert found, "no ranks poll"
    return found.group(1)


def test_a_build_that_leaves_a_pairs_line_leaves_its_ranks_poll_a_204(client):
    event = swiss_event()
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    first, here = event.second.matches.exclude(ew_pair=None).order_by("table__number")[:2]
    play_out(first)  # the round's first result: every line's movement is measured from here on
    polls = {pair.pk: ranks_poll(client, event, pair.pk) for pair in event.pairs}
    for url in polls.values():
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
    before = standings_get(tournament_id=tournament_id, stage_id=stage_id)

    play_out(here, winner="EW")  # a new build: the two pairs' records move, and some ranks with them

    after = standings_get(tournament_id=tournament_id, stage_id=stage_id)
    moved = {
        pair_id
        for pair_id in polls
        if pair_ranks_shown(pair_id=pair_id, tables=[before]) != pair_ranks_shown(pair_id=pair_id, tables=[after])
    }
    assert {here.ns_pair_id, here.ew_pair_id} <= moved < set(polls)
    for pair_id, url in polls.items():
        answer = client.get(url, headers={"HX-Request": "true"})
        if pair_id in moved:
            assert answer.status_code == 200, pair_id
            wins, draws, losses = (getattr(after.line_of(pair_id), name) for name in ("wins", "draws", "losses"))
            assert f"· {wins}-{draws}-{losses}</p>" in answer.content.decode()
        else:
            assert answer.status_code == 204, pair_id


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_ranks_part_is_the_template_it_replaced(language):
    event = swiss_event()
    here = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    play_out(here)
    table = standings_get(tournament_id=event.tournament.pk, stage_id=event.first.stage_id)
    assert table is not None
    stage, line = pair_ranks_get(pair_id=here.ns_pair_id, tables=[table])[0]
    other = replace(stage, id=99, name="决赛 & <A>")
    variants = {
        "real": [(stage, line)],
        "none": [],
        "provisional, down": [(stage, replace(line, provisional=True, rank=5, previous_rank=2))],
        "two stages": [(stage, replace(line, previous_rank=line.rank)), (other, replace(line, previous_rank=None))],
    }
    overview = SimpleNamespace(id=event.tournament.pk)
    url = "/t/1/pairs/2/ranks/?v=r0a&b"
    with translation.override(language):
        for name, ranks in variants.items():
            expected = (
                engines["django"]
                .from_string(FRAGMENT)
                .render({"ranks": ranks, "overview": overview, "poll_url": url, "poll_seconds": 5})
            )
            shown = tuple(
                RankShown(s.id, s.name, ln.rank, ln.provisional, ln.movement, ln.wins, ln.draws, ln.losses)
                for s, ln in ranks
            )
            assert pair_ranks_html(shown, tournament_id=overview.id, poll_url=url, poll_seconds=5) == expected, name
