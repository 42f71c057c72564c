"""A Tractor deal entered on the referee's match page — a form (declarer, defenders' points,
bottom capture, penalties, revoke) previewed by the rules core — and a full match through the pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.match import replay_json
from tests.factories import english_client
from tournament.games import TRACTOR
from tournament.matches.models import Deal, MatchStatus

pytestmark = pytest.mark.django_db

PENALTY_FIELDS = [
    f"penalty_{side}_{kind}"
    for side in ("ns", "ew")
    for kind in ("exposed_card", "out_of_turn", "failed_throw", "wrong_follow")
]


@pytest.fixture
def client(ref):
    client = english_client()
    client.force_login(ref)
    return client


def fields(**values) -> dict:
    """The deal form's fields as the browser sends them (empty ones too)."""
    data = {"declarer": "", "defender_points": "", "bottom_points": "", "capture": "", "revoke": ""}
    data.update({name: "" for name in PENALTY_FIELDS})
    data.update({key: "" if value is None else str(value) for key, value in values.items()})
    return data


def page(client, match, **values):
    url = reverse("matches:match", args=[match.pk])
    return client.get(url, fields(**values) if values else {})


def enter(client, match, **values):
    """Enter one deal as the page does: preview (GET), then post what the confirm form carries."""
    context = page(client, match, **values).context
    assert context["preview"] is not None and not context["preview"].error, context["preview"]
    form = context["entry_form"]
    data = {field.html_name: "" if field.value() is None else field.value() for field in form.tractor_fields()}
    data.update(version=context["match"].version, idempotency_key=context["idempotency_key"])
    return client.post(reverse("matches:deal_create", args=[match.pk]), data)


def test_the_page_shows_the_tractor_form_not_the_seat_taps(client, match):
    response = page(client, match)
    body = response.content.decode()
    assert response.context["game"] is TRACTOR  # the game's entry (tournament.games)
    assert 'name="defender_points"' in body and "seat-grid" not in body
    assert "First deal: enter who won the declaration" in body


@pytest.mark.parametrize(
    ("points", "verdict", "ns", "ew"),
    [
        (0, "Declarers N/S go up 3", "5", "2"),
        (-55, "Declarers N/S go up 3", "5", "2"),
        (-60, "Declarers N/S go up 4", "6", "2"),
        (355, "Defenders E/W take over (上台) and go up 3", "2", "5"),
        (360, "Defenders E/W take over (上台) and go up 4", "2", "6"),
        (120, "Defenders E/W take over (上台)", "2", "2"),
    ],
)
def test_preview_reads_the_seed_001_table(client, match, points, verdict, ns, ew):
    response = page(client, match, declarer="N", defender_points=points)
    preview = response.context["preview"]
    assert not preview.error
    assert preview.record["total_points"] == points
    body = response.content.decode()
    assert verdict in body
    assert f"N/S {ns} – E/W {ew}" in body
    assert Deal.objects.count() == 0  # a preview writes nothing


def test_preview_names_who_declares_next_after_an_upgrade_and_after_a_fall(client, match):
    up = page(client, match, declarer="N", defender_points=60).context["preview"]
    assert (up.record["next_declarer"], up.record["next_declarer_seat"]) == ("NS", "S")  # the partner
    fall = page(client, match, declarer="N", defender_points=125).context["preview"]
    assert fall.record["next_declarer"] == "EW"
    assert fall.record["next_declarer_seat"] == fall.result["next_deal"]["declarer_seat"] != "S"
    assert "Next: deal 2, E/W" in page(client, match, declarer="N", defender_points=125).content.decode()


def test_bottom_capture_and_penalties_are_added_by_the_rules_core(client, match):
    preview = page(
        client,
        match,
        declarer="N",
        defender_points=40,
        bottom_points=25,
        capture="tractor_2_pairs",
        penalty_ns_exposed_card=1,
        penalty_ew_out_of_turn=2,
    ).context["preview"]
    assert preview.record["bottom"] == {"points": 25, "capture": "tractor_2_pairs", "multiplier": 5, "total": 125}
    assert preview.record["penalty_points"] == 20 - 40  # declarers' offence adds, defenders' subtracts
    assert preview.record["total_points"] == 40 + 125 - 20


def test_a_declarers_revoke_makes_them_fall_and_the_defenders_go_up_only_from_120(client, match):
    """Seed 001 §17 (docs/rules.md §9): 满120分，防家升级 — under 120 the defenders only take over."""
    preview = page(client, match, declarer="N", defender_points=10, revoke="NS").context["preview"]
    assert preview.record["revoke"] == "NS"
    assert (preview.record["result"], preview.record["upgrade"]) == ("defenders_take_over", 0)
    assert preview.record["next_declarer"] == "EW"
    high = page(client, match, declarer="N", defender_points=185, revoke="NS").context["preview"]
    assert (high.record["result"], high.record["upgrade"]) == ("defenders_up", 1)


def test_a_defenders_revoke_sends_the_declarers_up_by_the_table(client, match):
    preview = page(client, match, declarer="N", defender_points=10, revoke="EW").context["preview"]
    assert (preview.record["result"], preview.record["upgrade"]) == ("declarers_up", 2)  # 5–55: +2


def test_a_wrong_bottom_and_a_wrong_count_are_entries_with_their_labels(client, match):
    html = page(client, match).content.decode()
    assert "wrong number of bottom cards" in html and "Wrong card count" in html
    bottom = page(client, match, declarer="N", defender_points=40, wrong_bottom="on").context["preview"]
    assert bottom.record["wrong_bottom"] is True and bottom.record["result"] == "defenders_take_over"
    both = page(client, match, declarer="N", defender_points=40, wrong_count="both")
    assert both.context["preview"].record["result"] == "replayed"
    assert "the deal is replayed" in both.content.decode()
    one = page(client, match, declarer="N", defender_points=40, wrong_count="NS").context["preview"]
    assert one.record["wrong_count"] == "NS" and one.record["result"] == "defenders_take_over"


def test_the_first_deal_needs_a_declarer_later_ones_are_prefilled(client, match):
    response = page(client, match, defender_points=60)
    assert response.context["preview"] is None
    assert "Who declares the first deal" in response.content.decode()
    assert enter(client, match, declarer="N", defender_points=60).status_code == 302
    form = page(client, match).context["entry_form"]
    assert form.initial["declarer"] == "S"  # declarers up → the declarer's partner (seed 001 §8)


def test_a_declarer_against_the_rotation_is_refused(client, match):
    enter(client, match, declarer="N", defender_points=60)
    response = page(client, match, declarer="E", defender_points=60)
    assert response.context["preview"].error
    assert "rotation" in response.context["preview"].error


def test_a_bad_post_answers_400_and_writes_nothing(client, match):
    url = reverse("matches:deal_create", args=[match.pk])
    response = client.post(url, {**fields(declarer="N", defender_points=62), "version": 0})
    assert response.status_code == 400
    assert "multiple of 5" in response.content.decode()
    assert Deal.objects.count() == 0


# A full match: N/S 2→5→9, E/W take over, N/S take it back 9→Q, Q→A, then keep their A
# (seed 001 has no end; docs/rules.md §9 by analogy).
FULL_MATCH = [
    {"declarer": "N", "defender_points": 0},
    {"defender_points": -40, "penalties": [("ew", "exposed_card")]},
    {"defender_points": 125},  # E/W take over
    {"defender_points": 300},  # N/S defend with 300: they take over and go up 3
    {"defender_points": 20, "bottom": (10, "pair")},
    {"defender_points": 5},  # N/S declare at their own A and keep it: game won
]


def _form_values(deal: dict) -> dict:
    values = {"defender_points": deal["defender_points"]}
    if "declarer" in deal:
        values["declarer"] = deal["declarer"]
    for side, kind in deal.get("penalties", []):
        key = f"penalty_{side}_{kind}"
        values[key] = values.get(key, 0) + 1
    if "bottom" in deal:
        values["bottom_points"], values["capture"] = deal["bottom"]
    return values


def _core_deal(deal: dict) -> dict:
    core = {key: value for key, value in deal.items() if key in ("declarer", "defender_points")}
    if "penalties" in deal:
        core["penalties"] = [{"side": side.upper(), "kind": kind} for side, kind in deal["penalties"]]
    if "bottom" in deal:
        core["bottom"] = {"points": deal["bottom"][0], "capture": deal["bottom"][1]}
    return core


def core_result(deals: list[dict]) -> dict:
    return replay_json({"profile": "tractor-3deck", "deals": [_core_deal(deal) for deal in deals]}).to_json()


def test_a_full_tractor_match_through_the_pages_ends_in_the_rules_cores_result(client, match):
    expected = core_result(FULL_MATCH)
    assert expected["status"] == "finished"
    for number, deal in enumerate(FULL_MATCH, 1):
        values = _form_values(deal)
        if "declarer" not in values:  # leave the rotation's prefilled declarer as it is
            values["declarer"] = page(client, match).context["entry_form"].initial["declarer"]
        response = enter(client, match, **values)
        assert response.status_code == 302, response.content.decode()[:2000]
        assert match.deals.count() == number
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert (match.winner, match.result_reason) == (expected["winner"], expected["reason"])
    assert match.state["levels"] == expected["levels"]
    stored = [deal.record for deal in match.deals.order_by("number")]
    for mine, core in zip(stored, expected["deals"], strict=True):
        assert {k: v for k, v in mine.items() if k != "declarer_seat" and k != "next_declarer_seat"} == {
            k: v for k, v in core.items() if k != "declarer_seat" and k != "next_declarer_seat"
        }
    body = page(client, match).content.decode()
    assert "N/S wins (passed A)" in body
    # the deal log shows the declarer and the points the rules core read each deal with, not an order
    assert "North · 0<" in body and "· 125<" in body
    assert "· -60 (-40 in tricks, penalties -20)<" in body  # E/W exposed a card: 20 off the defenders
    assert "· 50 (20 in tricks, bottom +30)<" in body  # bottom 10 captured with a pair: ×3
    # sign off
    response = client.post(reverse("matches:sign_off", args=[match.pk]), {"version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_correct_a_tractor_deal_on_its_page(client, match):
    enter(client, match, declarer="N", defender_points=60)
    enter(client, match, declarer="S", defender_points=60)
    url = reverse("matches:deal_edit", args=[match.pk, 2])
    response = client.get(url)
    assert response.status_code == 200
    assert response.context["entry_form"].initial["defender_points"] == 60
    preview = client.get(url, fields(declarer="S", defender_points=0)).context["preview"]
    assert preview.record["upgrade"] == 3
    match.refresh_from_db()
    data = {**fields(declarer="S", defender_points=0), "version": match.version, "reason": "miscounted"}
    assert client.post(url, data).status_code == 302
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 2 + 1 + 3, "EW": 2}
    assert match.deals.get(number=2).outcome == {"declarer": "S", "defender_points": 0}
