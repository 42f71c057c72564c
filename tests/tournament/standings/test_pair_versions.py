"""A deal moves what it concerns and nothing else: its match's page and its two pairs' pages (their
own versions) and the live levels (the public version); every other pair's page, and its poll's 204,
holds. A finished or signed-off match moves the standings; a pair's ranks follow them on their own
part of its page. Never a stale page after a change that concerns it."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.standings.events import play_out, swiss_event
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_record, match_sign_off
from tournament.registration.models import PairMember
from tournament.registration.services import PlayerData, pair_update
from tournament.signals import public_pages_bump
from tournament.standings.cache import own_key, own_versions_get, public_version_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return swiss_event()


def two_matches(event) -> tuple[Match, Match]:
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    return matches[0], matches[1]


def pair_url(event, pair_id: int) -> str:
    return reverse("standings:pair", args=(event.tournament.pk, pair_id))


def poll_url(page: str, path: str) -> str:
    """The ``hx-get`` of the live fragment polling ``path`` (with its ``v=``)."""
    found = re.search(rf'hx-get="({re.escape(path)}\?v=[^"]+)"', page)
    assert found, f"no poll of {path}"
    return found.group(1).replace("&amp;", "&")


def poll(client, url: str):
    return client.get(url, headers={"HX-Request": "true"})


def pair_token(event, pair_id: int) -> str:
    key = own_key(tournament_id=event.tournament.pk, kind="pair", pk=pair_id)
    versions = own_versions_get(tournament_id=event.tournament.pk, keys=[key])
    return f"c{versions['common']}.p{versions[key]}"


def test_a_deal_at_one_table_leaves_another_tables_pair_pages_and_their_polls_alone(client, event):
    here, there = two_matches(event)
    other = there.ns_pair_id
    before = pair_token(event, other)
    page = client.get(pair_url(event, other)).content.decode()
    polled = poll_url(page, pair_url(event, other))
    assert poll(client, polled).status_code == 204

    live_before = public_version_get(tournament_id=event.tournament.pk)
    deal_record(match_id=here.pk, outcome={"order": ["N", "S"]})

    assert pair_token(event, other) == before
    assert poll(client, polled).status_code == 204  # still what the phone shows
    assert public_version_get(tournament_id=event.tournament.pk) != live_before  # the live line moved
    other_match = reverse("standings:match", args=(event.tournament.pk, there.pk))
    match_poll = poll_url(client.get(other_match).content.decode(), other_match)
    deal_record(match_id=here.pk, outcome={"order": ["N", "S"]})
    assert poll(client, match_poll).status_code == 204


def test_a_deal_moves_its_own_pairs_pages_and_match_page(client, event):
    here, _there = two_matches(event)
    match_url = reverse("standings:match", args=(event.tournament.pk, here.pk))
    match_poll = poll_url(client.get(match_url).content.decode(), match_url)
    polls, deals = {}, {}
    for pair_id in (here.ns_pair_id, here.ew_pair_id):
        page = client.get(pair_url(event, pair_id)).content.decode()
        deals[pair_id] = page.count("data-deal=")  # its round-1 match's
        polls[pair_id] = poll_url(page, pair_url(event, pair_id))
        assert poll(client, polls[pair_id]).status_code == 204

    deal_record(match_id=here.pk, outcome={"order": ["N", "S"]})

    for pair_id, url in polls.items():
        answer = poll(client, url)
        assert answer.status_code == 200 and answer.content.decode().count("data-deal=") == deals[pair_id] + 1
    answer = poll(client, match_poll)
    assert answer.status_code == 200 and 'data-deal="1"' in answer.content.decode()


def test_a_pair_pages_unchanged_poll_reads_no_database(client, event):
    _here, there = two_matches(event)
    page = client.get(pair_url(event, there.ns_pair_id)).content.decode()
    polled = poll_url(page, pair_url(event, there.ns_pair_id))
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, polled).status_code == 204
    assert len(queries) == 0


def test_a_sign_off_moves_the_standings_and_the_pairs_ranks_follow(client, event):
    here, there = two_matches(event)
    other = there.ns_pair_id
    page = client.get(pair_url(event, other)).content.decode()
    ranks_url = reverse("standings:pair_ranks", args=(event.tournament.pk, other))
    ranks_poll = poll_url(page, ranks_url)
    assert poll(client, ranks_poll).status_code == 204
    shown = re.search(r'id="pair-ranks".*?</div>', page, re.S).group(0)

    standings_before = public_version_get(tournament_id=event.tournament.pk, scope="standings")
    finished = play_out(here)  # N/S win: the other pair's rank may move, its own page does not
    assert finished.status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED)
    assert public_version_get(tournament_id=event.tournament.pk, scope="standings") != standings_before
    signed_before = public_version_get(tournament_id=event.tournament.pk, scope="standings")
    if finished.status == MatchStatus.FINISHED:
        match_sign_off(match_id=finished.pk)
        assert public_version_get(tournament_id=event.tournament.pk, scope="standings") != signed_before

    answer = poll(client, ranks_poll)  # a new standings build: the ranks part is sent again
    assert answer.status_code == 200
    assert 'id="pair-ranks"' in answer.content.decode()
    assert answer.content.decode() != shown
    # the winners' page shows their result and their rank at once
    winners = client.get(pair_url(event, here.ns_pair_id)).content.decode()
    assert "rank" in winners and 'data-deal="1"' in winners


def test_a_rename_and_a_clock_change_reach_every_pairs_page(client, event):
    _here, there = two_matches(event)
    other = there.ns_pair_id
    polled = poll_url(client.get(pair_url(event, other)).content.decode(), pair_url(event, other))
    pair = there.ns_pair
    members = [member.player for member in PairMember.objects.filter(pair=pair).order_by("slot")]
    first, second = (PlayerData(name=p.name, employee_number=p.employee_number) for p in members)
    renamed = PlayerData(name="新名字", employee_number=first.employee_number)
    pair_update(pair=pair, first=renamed, second=second, seed=None)
    answer = poll(client, polled)
    assert answer.status_code == 200 and "新名字" in answer.content.decode()

    polled = poll_url(answer.content.decode(), pair_url(event, other))
    assert poll(client, polled).status_code == 204
    public_pages_bump(tournament_id=event.tournament.pk, seating=False)  # a clock change, say
    assert poll(client, polled).status_code == 200


def test_a_pair_page_built_afresh_reads_the_pair_with_its_players_then_its_matches(client, event):
    here, there = two_matches(event)
    client.get(pair_url(event, here.ns_pair_id))  # the frame, the layout and the standings build kept
    with CaptureQueriesContext(connection) as queries:
        assert client.get(pair_url(event, there.ns_pair_id)).status_code == 200
    assert len(queries) == 2, [query["sql"][:80] for query in queries.captured_queries]


def test_every_pairs_page_shares_one_layout_with_its_own_title(client, event, monkeypatch):
    """The layout around a pair's page is rendered once for all pairs (its title is a hole), not once per pair."""
    from tournament.standings import shell

    layouts: list[str] = []
    render = shell.render_to_string

    def counted(template: str, *args, **kwargs) -> str:
        layouts.append(template)
        return render(template, *args, **kwargs)

    monkeypatch.setattr(shell, "render_to_string", counted)
    here, there = two_matches(event)
    pairs = [here.ns_pair, here.ew_pair, there.ns_pair]
    pages = [client.get(pair_url(event, pair.pk)).content.decode() for pair in pairs]
    assert layouts == ["public/page.html"]
    for pair, page in zip(pairs, pages, strict=True):
        assert f"<title>{pair.name} · {event.tournament.name}</title>" in page
