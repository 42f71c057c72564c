"""The public API: read-only, anonymous, paginated, throttled, documented."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournament.standings.events import knockout_event, swiss_event
from tournament.matches.models import Match
from tournament.standings.public import bracket_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def event():
    return swiss_event()


def url(name, **kwargs):
    return reverse(f"api:public:{name}", kwargs=kwargs)


def test_tournaments_and_one_with_its_current_round(api, event):
    listed = api.get(url("tournaments")).json()
    assert listed["count"] == 1 and listed["results"][0]["name"] == event.tournament.name
    detail = api.get(url("tournament", tournament_id=event.tournament.pk)).json()
    assert detail["current_round"]["id"] == event.second.pk
    assert detail["current_round_progress"] == {"tables": 4, "finished": 0, "running": 0}
    assert [stage["format"] for stage in detail["stages"]] == ["swiss"]


def test_rounds_and_a_draw_paginated(api, event):
    rounds = api.get(url("rounds", tournament_id=event.tournament.pk)).json()
    assert [r["number"] for r in rounds["results"]] == [1, 2]
    draw = api.get(url("draw", tournament_id=event.tournament.pk, round_id=event.first.pk), {"page_size": 3}).json()
    assert draw["count"] == 4 and len(draw["results"]) == 3 and draw["next"]
    row = draw["results"][0]
    assert row["table"] == 1 and row["ns"]["name"] and row["ew"]["name"] and row["winner"] in ("NS", "EW")
    assert set(row["levels"]) == {"NS", "EW"}


def test_find_my_table(api, event):
    found = api.get(url("find", tournament_id=event.tournament.pk), {"q": "20005"}).json()
    assert found["count"] == 1
    seat = found["results"][0]
    assert seat["player_name"] == "张三甲" and seat["round_id"] == event.second.pk
    assert seat["side"] in ("NS", "EW") and seat["table"] >= 1 and seat["opponent"]["name"]
    assert "employee_number" not in seat


def test_find_needs_a_query(api, event):
    response = api.get(url("find", tournament_id=event.tournament.pk))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_input"
    response = api.get(url("find", tournament_id=event.tournament.pk), {"q": "x\x00y"})
    assert response.status_code == 400


def test_standings_with_every_tie_break_and_the_movement(api, event):
    body = api.get(url("standings", tournament_id=event.tournament.pk, stage_id=event.first.stage_id)).json()
    assert body["count"] == 8
    row = body["results"][0]
    assert row["rank"] == 1 and "movement" in row
    names = [tie["name"] for tie in row["tie_breaks"]]
    assert names[:3] == ["match_points", "small_points", "levels_sum"]
    assert row["tie_breaks"][0]["title_zh"] == "场分" and row["tie_breaks"][0]["value"] == 2


def test_a_match_with_its_deals_and_a_pairs_history(api, event):
    match = event.first.matches.exclude(ew_pair=None).first()
    body = api.get(url("match", tournament_id=event.tournament.pk, match_id=match.pk)).json()
    assert body["status"] == "finished" and body["winner"] in ("NS", "EW")
    assert len(body["deals"]) == match.deals.count()
    assert body["deals"][0]["number"] == 1 and body["deals"][0]["levels_after"]["NS"] >= 2
    pair = api.get(url("pair", tournament_id=event.tournament.pk, pair_id=match.ns_pair_id)).json()
    assert pair["ranks"][0]["stage_id"] == event.first.stage_id and len(pair["players"]) == 2
    history = api.get(url("pair_matches", tournament_id=event.tournament.pk, pair_id=match.ns_pair_id)).json()
    assert [m["round_number"] for m in history["results"]] == [1, 2]


def test_the_bracket(api):
    tournament, rounds = knockout_event()
    body = api.get(url("bracket", tournament_id=tournament.pk, stage_id=rounds[0].stage_id)).json()
    assert [r["remaining"] for r in body["rounds"]] == [5, 3, 2]
    assert body["byes"] == 2
    assert body["rounds"][2]["matches"][0]["status"] == "running"
    boxes = [box for round_ in body["rounds"] for box in round_["matches"]]
    assert all(box["next_sets_level"] is None for box in boxes if box["status"] != "running")
    live = bracket_get(tournament_id=tournament.pk, stage_id=rounds[0].stage_id).rounds[2].matches[0]
    assert body["rounds"][2]["matches"][0]["next_sets_level"] == live.next_sets_level


def test_unknown_or_foreign_things_are_404_in_the_error_shape(api, event):
    other = swiss_event(pairs=4, name="另一场")
    match = Match.objects.filter(round=other.first).first()
    for response in (
        api.get(url("tournament", tournament_id=999_999)),
        api.get(url("match", tournament_id=event.tournament.pk, match_id=match.pk)),
        api.get(url("standings", tournament_id=event.tournament.pk, stage_id=other.first.stage_id)),
        api.get(url("bracket", tournament_id=event.tournament.pk, stage_id=event.first.stage_id)),
        api.get(url("draw", tournament_id=event.tournament.pk, round_id=10**30)),
        api.get(url("rounds", tournament_id=event.tournament.pk), {"page": 99}),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["code"] in ("not_found", "error")


def test_read_only(api, event):
    assert api.post(url("tournaments"), {}).status_code == 405
    assert api.delete(url("tournament", tournament_id=event.tournament.pk)).status_code == 405


def test_throttled_per_address(api, event, settings):
    settings.PUBLIC_API_THROTTLE_RATE = "3/minute"
    cache.clear()
    codes = [api.get(url("tournaments")).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert api.get(url("tournaments")).json()["error"]["code"] == "throttled"


def test_the_schema_documents_the_public_api(api):
    schema = api.get(reverse("api:schema"), HTTP_ACCEPT="application/json").json()
    paths = [path for path in schema["paths"] if path.startswith("/api/public/")]
    # 10, Dou Dizhu's five (tables, players' standings, player, table, find my seat), a stage's team standings,
    # a team match stage's standings
    assert len(paths) == 17
    assert "/api/public/tournaments/{tournament_id}/stages/{stage_id}/team-matches/" in paths
    assert "/api/public/tournaments/{tournament_id}/find-seat/" in paths
    assert "/api/public/tournaments/{tournament_id}/stages/{stage_id}/teams/" in paths
    find = schema["paths"]["/api/public/tournaments/{tournament_id}/find/"]["get"]
    assert {p["name"] for p in find["parameters"]} >= {"q", "page", "page_size", "tournament_id"}
    assert api.get(reverse("api:docs")).status_code == 200
