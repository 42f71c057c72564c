"""Results flowing in, for Dou Dizhu: the standings of a points stage are a coalesced build of the standings
version — a deal inside a table rebuilds nothing, the table's last deal shows on the next page once
the window has passed — and the draw's live points a coalesced build of the public version."""

from __future__ import annotations

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.games.doudizhu_event import drawn_round
from tournament.matches import services
from tournament.matches.models import MatchStatus
from tournament.standings import doudizhu_public
from tournament.standings.cache import public_version_get

pytestmark = pytest.mark.django_db

DEAL = {"landlord": "E", "bid": 3, "bombs": 0, "spring": False, "winner": "landlord"}
WINDOW = 3.0


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: an earlier test's versions and builds, under the same
    database ids, must not be served here."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def builds(monkeypatch):
    made: list[str] = []
    standings, tables = doudizhu_public.standings_table_get, doudizhu_public.round_tables_get

    def counted_standings(*, stage_id):
        made.append("standings")
        return standings(stage_id=stage_id)

    def counted_tables(*, round_id):
        made.append("tables")
        return tables(round_id=round_id)

    monkeypatch.setattr(doudizhu_public, "standings_table_get", counted_standings)
    monkeypatch.setattr(doudizhu_public, "round_tables_get", counted_tables)
    return made


def test_a_deal_inside_a_table_leaves_the_standings_build_and_the_last_deal_moves_it(
    client, event, boss, builds, settings
):
    settings.PUBLIC_REBUILD_SECONDS = WINDOW
    tournament, stage = event
    round_ = drawn_round(stage, user=boss)
    match = round_.matches.order_by("table__number").first()
    page = reverse("standings:stage_standings", args=[tournament.pk, stage.pk])
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        first = client.get(page).content.decode()
        assert builds.count("standings") == 1
        standings = public_version_get(tournament_id=tournament.pk, scope="standings")
        services.deal_record(match_id=match.pk, outcome=DEAL)
        assert public_version_get(tournament_id=tournament.pk, scope="standings") == standings
        clock.shift(WINDOW + 1)
        assert client.get(page).content.decode() == first
        assert builds.count("standings") == 1  # nothing it counts moved: no rebuild

        deals = 1
        while match.status != MatchStatus.FINISHED:
            match = services.deal_record(match_id=match.pk, outcome=DEAL).match
            deals += 1
        assert public_version_get(tournament_id=tournament.pk, scope="standings") > standings
        clock.shift(WINDOW + 1)
        shown = client.get(page).content.decode()
        assert builds.count("standings") == 2 and shown != first
        points = 3 * 2 * deals  # the landlord won every deal at bid 3 against two farmers
        assert f">{points}<" in shown or f">+{points}<" in shown


def test_the_draws_live_points_are_rebuilt_at_most_once_a_window(client, event, boss, builds, settings):
    settings.PUBLIC_REBUILD_SECONDS = WINDOW
    tournament, stage = event
    round_ = drawn_round(stage, user=boss)
    match = round_.matches.order_by("table__number").first()
    page = reverse("standings:draw", args=[tournament.pk])
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        client.get(page)
        assert builds.count("tables") == 1
        services.deal_record(match_id=match.pk, outcome=DEAL)
        client.get(page)
        assert builds.count("tables") == 1  # within the window: the last complete build
        clock.shift(WINDOW + 1)
        client.get(page)
        assert builds.count("tables") == 2
