"""Tractor faults as seed 001 has them (docs/rules.md §9) — a declarer's revoke (§17), a wrong number
of bottom cards (§9.1), a wrong card count (§18) — entered on the referee's page and through the API; the
stored result is the CLI's (``scoring.match.replay_json``), and the faults show in Tractor terms in both
deal histories and the workbook's deal log."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.match import replay_json
from tests.factories import english_client
from tournament.exports import headers as h
from tournament.exports.workbook import workbook_build
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db

FAULTS = [
    {"declarer": "N", "defender_points": 10, "revoke": "NS"},  # declarers' revoke under 120: they fall, +0
    {"defender_points": 40, "wrong_bottom": True},  # §9.1: the declarers (E/W) fall
    {"defender_points": 60, "wrong_count": "both"},  # §18: replayed, nothing changes
    {"defender_points": 185, "revoke": "NS"},  # the declarers' revoke from 120: the defenders go up
    {"defender_points": 20, "wrong_count": "EW"},  # one side's wrong count: its revoke
]
EXPECTED = replay_json({"profile": "tractor-3deck", "deals": FAULTS}).to_json()


def _form_fields(deal: dict) -> dict:
    data = {"declarer": deal.get("declarer", ""), "defender_points": deal["defender_points"]}
    data["revoke"] = deal.get("revoke", "")
    data["wrong_count"] = deal.get("wrong_count", "")
    if deal.get("wrong_bottom"):
        data["wrong_bottom"] = "on"  # a ticked checkbox
    return data


def test_faults_entered_on_the_page_are_stored_as_the_cli_replays_them(ref, match):
    client = english_client()
    client.force_login(ref)
    url = reverse("matches:match", args=[match.pk])
    for deal in FAULTS:
        context = client.get(url, _form_fields(deal)).context
        assert context["preview"] is not None and not context["preview"].error, context["preview"]
        form = context["entry_form"]
        confirm = {field.html_name: "" if field.value() is None else field.value() for field in form.tractor_fields()}
        confirm.update(version=context["match"].version, idempotency_key=context["idempotency_key"])
        assert client.post(reverse("matches:deal_create", args=[match.pk]), confirm).status_code == 302
    match.refresh_from_db()
    assert match.state == EXPECTED
    assert [deal.outcome for deal in match.deals.order_by("number")] == FAULTS
    html = client.get(url).content.decode()
    assert "revoke (藏张) by N/S" in html and "wrong number of bottom cards (留错底牌)" in html
    assert "the deal is replayed" in html and "wrong card count (牌张数目不符) in E/W&#x27;s hands" in html


def test_faults_sent_through_the_api_are_stored_as_the_cli_replays_them(ref, match):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ref)[0].key}")
    for deal in FAULTS:
        version = client.get(reverse("api:match", args=[match.pk])).data["version"]
        body = {**deal, "expected_version": version}
        response = client.post(reverse("api:deals", args=[match.pk]), body, format="json")
        assert response.status_code == 201, response.data
    match.refresh_from_db()
    assert match.state == EXPECTED
    records = [deal["record"] for deal in response.data["match"]["deals"]]
    assert [record["result"] for record in records] == [
        "defenders_take_over",
        "defenders_take_over",
        "replayed",
        "defenders_up",
        "defenders_take_over",
    ]
    assert records[2]["winner"] is None and records[1]["wrong_bottom"] is True
    conflicting = {"defender_points": 20, "wrong_count": "both", "revoke": "NS", "expected_version": 5}
    refused = client.post(reverse("api:deals", args=[match.pk]), conflicting, format="json")
    assert refused.status_code == 400 and match.deals.count() == len(FAULTS)


def test_the_public_match_page_and_the_workbook_show_the_faults(ref, match):
    for deal in FAULTS:
        deal_record(match_id=match.pk, outcome=deal, user=ref)
    public = english_client().get(reverse("standings:match", args=[match.round.stage.tournament_id, match.pk]))
    html = public.content.decode()
    assert "revoke (藏张) by N/S" in html and "wrong number of bottom cards" in html and "replayed" in html
    api = APIClient().get(reverse("api:public:match", args=[match.round.stage.tournament_id, match.pk])).json()
    faults = [(deal["revoke"], deal["wrong_bottom"], deal["wrong_count"], deal["result"]) for deal in api["deals"]]
    assert faults == [
        ("NS", False, None, "defenders_take_over"),
        (None, True, None, "defenders_take_over"),
        (None, False, "both", "replayed"),
        ("NS", False, None, "defenders_up"),
        (None, False, "EW", "defenders_take_over"),
    ]
    for language in ("zh", "en"):
        target = io.BytesIO()
        workbook_build(tournament=match.round.stage.tournament, target=target, language=language)
        book = load_workbook(io.BytesIO(target.getvalue()), read_only=True)
        log = [tuple(row) for row in book[h.sheet_name("deals", language)].iter_rows(values_only=True)]
        book.close()
        column = {key.key: index for index, key in enumerate(h.DEALS_TRACTOR)}
        assert log[0] == tuple(h.titles(h.DEALS_TRACTOR, language))
        ns = h.word("NS", language)
        assert [row[column["revoke"]] for row in log[1:]] == [ns, None, None, ns, None]
        no, yes = h.word("no", language), h.word("yes", language)
        assert [row[column["wrong_bottom"]] for row in log[1:]] == [no, yes, no, no, no]
        assert [row[column["wrong_count"]] for row in log[1:]] == [
            None,
            None,
            h.word("both", language),
            None,
            h.word("EW", language),
        ]
        assert log[3][column["tractor_result"]] == ("重打" if language == "zh" else "Replayed")
