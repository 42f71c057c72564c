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
from tournament.standings import cache as public_cache
from tournament.standings import public_cache as cached_reads
from tournament.standings.public import RankShown, pair_ranks_get, pair_ranks_index, pair_ranks_shown, standings_get
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
        if pair_ranks_shown(pair_id=pair_id, indexes=[pair_ranks_index(before)])
        != pair_ranks_shown(pair_id=pair_id, indexes=[pair_ranks_index(after)])
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


def test_a_pairs_ranks_come_from_the_builds_index_in_every_worker(client, builds, monkeypatch, settings):
    """The worker that builds a stage's standings stores each pair's line as its ranks show it (the
    build's ranks index) beside the build: every other worker shows a pair's ranks from that, never
    loading the build's 5,000 lines, and after a rebuild from the new build's."""
    settings.PUBLIC_REBUILD_SECONDS = 0
    event = swiss_event()
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    first, here = event.second.matches.exclude(ew_pair=None).order_by("table__number")[:2]
    play_out(first)
    polls = {pair.pk: ranks_poll(client, event, pair.pk) for pair in event.pairs}  # the first page builds
    assert builds == [stage_id]
    loaded: list[str] = []
    held = public_cache._held_build

    def loading(tournament_id: int, key: str, version: int) -> object:
        loaded.append(key)
        return held(tournament_id, key, version)

    monkeypatch.setattr(public_cache, "_held_build", loading)

    def another_worker() -> None:
        for memo in (public_cache.build_memo, public_cache.local_memo, cached_reads.ranks_memo):
            memo._entries.clear()

    for played in (first, here):
        if played is here:
            play_out(here, winner="EW")  # a result: the next request rebuilds, and stores the new index
            client.get(reverse("standings:pair", args=(tournament_id, here.ns_pair_id)))
            assert builds == [stage_id, stage_id]
        another_worker()
        table = standings_get(tournament_id=tournament_id, stage_id=stage_id)
        assert table is not None
        for pair_id, url in polls.items():
            answer = client.get(url.split("?")[0], headers={"HX-Request": "true"}).content.decode()
            line = table.line_of(pair_id)
            assert f"rank {line.rank}" in answer and f"· {line.wins}-{line.draws}-{line.losses}</p>" in answer
    assert loaded == [] and builds == [stage_id, stage_id]
