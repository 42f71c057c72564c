"""Each profile's rulebook options played on the referee's web form and through the API: the stored
result is the CLI's.

Each match is entered deal by deal the way a referee does (the page's preview, then its confirm form;
the API with the version it last read) and the stored snapshot must equal ``scoring.match.replay_json``
of the same input — from ``tests/data/replay.json`` where the worked example exists.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.match import replay_json
from tests.factories import english_client, referee, table_match
from tournament.matches.clock import match_call_time
from tournament.matches.models import Match

pytestmark = pytest.mark.django_db

EXAMPLES = json.loads((Path(__file__).parents[2] / "data" / "replay.json").read_text(encoding="utf-8"))


def example(fragment: str) -> dict[str, Any]:
    """The worked example whose ``why`` names the rule (one, or the test data changed under us)."""
    [found] = [case["input"] for case in EXAMPLES if fragment in case["why"]]
    return found


CASES = {
    # seed 002's upgrades (+5/+3/+1) and its reset to 2 under timed-40
    "upgrades +5": example("Seed 002 upgrades (+5/+3/+1)"),
    # seed 002: 降至2的一队中有一家取得上游时，从3开始打 (a_reset upgrade_from_2)
    "a_reset upgrade_from_2": example("Seed 002's reset rule"),
    # seed 003: 打A时，只要己方不出现末游就算通过 (a_pass side_not_last) under timed-90
    "a_pass side_not_last": example("Seed 003's pass rule"),
    # seed 003: 三次打不过从头开始打2 (a_reset to_2)
    "a_reset to_2": example("Seed 003's reset"),
    # seed 003: 先升级的为获胜方 — an extra deal nobody goes up in decides nothing
    "extra deal, nobody goes up": example("Seed 003's extra deal goes to the side that goes up first"),
    # docs/rules.md §6: the referee records 抗贡 with the deal it applies to (no worked example: built here)
    "anti-tribute": {
        "profile": "timed-40",
        "deals": [
            {"order": ["N", "S"]},
            {"order": ["E", "N", "W"], "anti_tribute": True},
            {"order": ["N", "E", "S"]},
        ],
    },
}


@pytest.fixture
def ref():
    return referee(username="ref")


def _call_time_if_due(match: Match, case: dict[str, Any], deals_entered: int) -> None:
    """Time is called during deal k by the match clock itself (its cap passed while deal k is played)."""
    if case.get("time_called_during_deal") == deals_entered + 1:
        match.refresh_from_db()
        assert match.clock_ends_at is not None  # the first deal started the clock
        assert match_call_time(match_id=match.pk, now=match.clock_ends_at)


def _web_enter(client: Any, match: Match, deal: dict[str, Any]) -> None:
    order = "".join(deal["order"])
    page = client.get(reverse("matches:match", args=[match.pk]), {"order": order})
    context = page.context
    assert context["preview"] is not None and not context["preview"].error, context["preview"]
    html = page.content.decode()
    # the anti-tribute box is offered exactly when a tribute is due before this deal (docs/rules.md §6)
    assert ('name="anti_tribute"' in html) == (context["tribute"] is not None)
    data = {"order": order, "version": context["match"].version, "idempotency_key": context["idempotency_key"]}
    if deal.get("anti_tribute"):
        data["anti_tribute"] = "1"
    response = client.post(reverse("matches:deal_create", args=[match.pk]), data)
    assert response.status_code == 302, response.content.decode()[:400]


def _api_enter(client: APIClient, match: Match, deal: dict[str, Any]) -> None:
    version = client.get(reverse("api:match", args=[match.pk])).data["version"]
    body = {**deal, "expected_version": version, "idempotency_key": uuid.uuid4().hex}
    response = client.post(reverse("api:deals", args=[match.pk]), body, format="json")
    assert response.status_code == 201, response.data
    assert response.data["deal"]["record"]["anti_tribute"] is bool(deal.get("anti_tribute"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_played_on_the_web_form_the_stored_result_is_the_clis(ref, name):
    case = CASES[name]
    match = table_match(profile=case["profile"], overrides=case.get("rules"), referee_user=ref)
    client = english_client()
    client.force_login(ref)
    for entered, deal in enumerate(case["deals"]):
        _call_time_if_due(match, case, entered)
        _web_enter(client, match, deal)
    match.refresh_from_db()
    assert match.state == replay_json(case).to_json()


@pytest.mark.parametrize("name", sorted(CASES))
def test_played_through_the_api_the_stored_result_is_the_clis(ref, name):
    case = CASES[name]
    match = table_match(profile=case["profile"], overrides=case.get("rules"), referee_user=ref)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ref)[0].key}")
    for entered, deal in enumerate(case["deals"]):
        _call_time_if_due(match, case, entered)
        _api_enter(client, match, deal)
    match.refresh_from_db()
    assert match.state == replay_json(case).to_json()


def test_the_anti_tribute_shows_in_both_deal_histories(ref):
    match = table_match(profile="timed-40", referee_user=ref)
    client = english_client()
    client.force_login(ref)
    for deal in CASES["anti-tribute"]["deals"]:
        _web_enter(client, match, deal)
    referee_page = client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert referee_page.count("anti-tribute (抗贡)") == 1
    public = english_client().get(
        reverse("standings:match", args=[match.round.stage.tournament_id, match.pk])
    ).content.decode()
    assert public.count("anti-tribute (抗贡)") == 1
    pair = english_client().get(
        reverse("standings:pair", args=[match.round.stage.tournament_id, match.ns_pair_id])
    ).content.decode()
    assert "anti-tribute (抗贡)" in pair
    api = APIClient().get(reverse("api:public:match", args=[match.round.stage.tournament_id, match.pk]))
    assert [deal["anti_tribute"] for deal in api.json()["deals"]] == [False, True, False]


def test_an_anti_tribute_on_a_games_first_deal_is_refused_and_changes_nothing(ref):
    match = table_match(profile="timed-40", referee_user=ref)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ref)[0].key}")
    body = {"order": ["N", "S"], "anti_tribute": True, "expected_version": 0}
    response = client.post(reverse("api:deals", args=[match.pk]), body, format="json")
    assert response.status_code == 400 and response.data["error"]["code"] == "invalid_deal"
    web = english_client()
    web.force_login(ref)
    refused = web.post(
        reverse("matches:deal_create", args=[match.pk]), {"order": "NS", "version": 0, "anti_tribute": "1"}
    )
    assert refused.status_code == 400
    assert not match.deals.exists()


def test_a_correction_can_record_or_remove_an_anti_tribute(ref):
    match = table_match(profile="timed-40", referee_user=ref)
    client = english_client()
    client.force_login(ref)
    for deal in CASES["anti-tribute"]["deals"]:
        _web_enter(client, match, deal)
    edit = reverse("matches:deal_edit", args=[match.pk, 2])
    page = client.get(edit, {"order": "ENW"}).content.decode()
    assert 'name="anti_tribute" value="1" checked' in page  # prefilled from the deal as recorded
    match.refresh_from_db()
    response = client.post(edit, {"order": "ENW", "reason": "no jokers after all", "version": match.version})
    assert response.status_code == 302
    assert match.deals.get(number=2).outcome == {"order": ["E", "N", "W"]}
    match.refresh_from_db()
    deals = [{"order": ["N", "S"]}, {"order": ["E", "N", "W"]}, {"order": ["N", "E", "S"]}]
    assert match.state == replay_json({"profile": "timed-40", "deals": deals}).to_json()
    first = client.get(reverse("matches:deal_edit", args=[match.pk, 1]), {"order": "NS"}).content.decode()
    assert 'name="anti_tribute"' not in first  # no tribute is due before a game's first deal
