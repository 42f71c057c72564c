"""One Dou Dizhu table played through the referee's web form and through the API, with
the preview before confirming, a correction, undo and sign-off; both equal the rules core's replay."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.match import replay_json
from tournament.matches.models import Deal, MatchStatus

pytestmark = pytest.mark.django_db

DEALS = [
    {"landlord": "E", "bid": 3, "bombs": 1, "spring": False, "winner": "landlord"},
    {"landlord": "S", "bid": 2, "bombs": 0, "spring": False, "winner": "farmers"},
    {"landlord": "W", "bid": 1, "bombs": 2, "spring": True, "winner": "landlord"},
]


def _query(deal: dict) -> dict:
    query = {"landlord": deal["landlord"], "bid": deal["bid"], "bombs": deal["bombs"], "winner": deal["winner"]}
    if deal["spring"]:
        query["spring"] = "on"
    return query


def test_a_table_played_through_the_web_form(client, ref, table):
    client.force_login(ref)
    url = reverse("matches:match", args=[table.pk])
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "地主" in body and 'name="bombs"' in body and 'data-step="1"' in body
    for seat in table.seats.all():
        assert seat.pair.name in body
    for number, deal in enumerate(DEALS, 1):
        preview = client.get(url, _query(deal))
        text = preview.content.decode()
        assert preview.status_code == 200 and "preview-points" in text
        assert Deal.objects.filter(match=table).count() == number - 1  # a preview writes nothing
        table.refresh_from_db()
        answer = client.post(
            reverse("matches:deal_create", args=[table.pk]),
            {**_query(deal), "version": table.version, "idempotency_key": f"web-{number}"},
        )
        assert answer.status_code == 302, answer.content.decode()[:500]
    table.refresh_from_db()
    expected = replay_json({"profile": "doudizhu", "deals": DEALS}).to_json()
    assert table.state == expected
    assert table.status == MatchStatus.FINISHED
    # a correction with its preview, then sign-off
    edit = reverse("matches:deal_edit", args=[table.pk, 2])
    shown = client.get(edit, {**_query({**DEALS[1], "winner": "landlord"})})
    assert shown.status_code == 200 and "preview-points" in shown.content.decode()
    saved = client.post(
        edit, {**_query({**DEALS[1], "winner": "landlord"}), "version": table.version, "reason": "录错胜方"}
    )
    assert saved.status_code == 302
    table.refresh_from_db()
    corrected = replay_json(
        {"profile": "doudizhu", "deals": [DEALS[0], {**DEALS[1], "winner": "landlord"}, DEALS[2]]}
    ).to_json()
    assert table.state == corrected
    signed = client.post(reverse("matches:sign_off", args=[table.pk]), {"version": table.version})
    assert signed.status_code == 302
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED


def test_a_bad_deal_on_the_web_form_is_a_clear_error_and_nothing_is_written(client, ref, table):
    client.force_login(ref)
    answer = client.post(
        reverse("matches:deal_create", args=[table.pk]),
        {"landlord": "E", "bid": 2, "bombs": 99, "version": 0},
    )
    assert answer.status_code == 400
    assert not table.deals.exists()


def _device(user) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api


def test_a_table_played_through_the_api(ref, table):
    api = _device(ref)
    detail = api.get(reverse("api:match", args=[table.pk])).data
    assert [seat["seat"] for seat in detail["seats"]] == ["E", "S", "W"]
    preview = api.post(reverse("api:deal_preview", args=[table.pk]), DEALS[0], format="json")
    assert preview.status_code == 200, preview.data
    assert preview.data["record"]["points"] == {"E": 12, "S": -6, "W": -6}
    for deal in DEALS:
        version = api.get(reverse("api:match", args=[table.pk])).data["version"]
        answer = api.post(reverse("api:deals", args=[table.pk]), {**deal, "expected_version": version}, format="json")
        assert answer.status_code == 201, answer.data
    table.refresh_from_db()
    assert table.state == replay_json({"profile": "doudizhu", "deals": DEALS}).to_json()
    detail = api.get(reverse("api:match", args=[table.pk])).data
    assert detail["deals"][0]["record"]["landlord"] == "E"
    assert [seat["points"] for seat in detail["seats"]] == list(table.state["points"].values())
    stale = api.post(reverse("api:deals", args=[table.pk]), {**DEALS[0], "expected_version": 0}, format="json")
    assert stale.status_code == 409
    bad = api.post(reverse("api:deal_preview", args=[table.pk]), {"landlord": "N", "winner": "landlord"}, format="json")
    assert bad.status_code == 400
    corrected = api.put(
        reverse("api:deal", args=[table.pk, 2]),
        {**DEALS[1], "winner": "landlord", "reason": "录错胜方", "expected_version": detail["version"]},
        format="json",
    )
    assert corrected.status_code == 200, corrected.data
    assert corrected.data["deals"][1]["record"]["winner"] == "landlord"
    detail = corrected.data
    undo = api.post(
        reverse("api:undo", args=[table.pk]), {"expected_version": detail["version"], "reason": "录错了"}, format="json"
    )
    assert undo.status_code == 200, undo.data
    table.refresh_from_db()
    assert table.deals.count() == 2 and table.status == MatchStatus.RUNNING


def test_a_late_player_forfeits_the_round_through_the_adjustments_page(client, boss, table):
    client.force_login(boss)
    url = reverse("matches:adjustments", args=[table.pk])
    page = client.get(url).content.decode()
    assert "缺席（本轮弃权）" in page and 'name="levels"' not in page
    seat_w = table.seats.get(seat="W")
    answer = client.post(
        url, {"version": table.version, "side": "W", "kind": "late_arrival", "minutes_late": 15, "reason": "迟到15分钟"}
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.table_snapshot.forfeited == ("W",)
    assert table.table_snapshot.points == (0, 0, -6)
    assert table.adjustments.get().pair_id == seat_w.pair_id
    assert table.status == MatchStatus.FINISHED


def test_undo_on_the_web_form_asks_a_reason_and_a_finished_rounds_table_is_read_only(client, ref, table):
    from tournament.matches import services
    from tournament.matches.models import RoundStatus

    client.force_login(ref)
    services.deal_record(match_id=table.pk, outcome=DEALS[0])
    services.deal_record(match_id=table.pk, outcome=DEALS[1])
    table.refresh_from_db()
    page = client.get(reverse("matches:match", args=[table.pk])).content.decode()
    assert 'class="inline-form undo-form"' in page and 'name="reason"' in page
    undo = reverse("matches:deal_undo", args=[table.pk])
    refused = client.post(undo, {"version": table.version})
    assert refused.status_code == 400 and table.deals.count() == 2  # no reason: nothing undone
    undone = client.post(undo, {"version": table.version, "reason": "录错了"})
    assert undone.status_code == 302 and table.deals.count() == 1
    table.round.__class__.objects.filter(pk=table.round_id).update(status=RoundStatus.FINISHED)
    read = client.get(reverse("matches:match", args=[table.pk]))
    html = read.content.decode()
    assert read.status_code == 200 and read.context["read_only"] is True and "read-only" in html
    assert 'name="reason"' not in html and reverse("matches:deal_edit", args=[table.pk, 1]) not in html


def test_a_farmers_win_preview_and_a_farmers_spring_in_chinese(client, ref, table):
    """The preview of a farmers' win says the farmers won; their spring is written 反春, the landlord's 春天."""
    from django.utils import translation

    from tournament.deal_texts import doudizhu_outcome_text

    client.force_login(ref)
    farmers = {"landlord": "S", "bid": 2, "bombs": 0, "spring": True, "winner": "farmers"}
    text = client.get(reverse("matches:match", args=[table.pk]), _query(farmers)).content.decode()
    assert "preview-points" in text and "农民获胜" in text
    with translation.override("zh-hans"):
        assert "反春" in doudizhu_outcome_text(farmers) and "春天" not in doudizhu_outcome_text(farmers)
        landlord = {**farmers, "winner": "landlord"}
        assert "春天" in doudizhu_outcome_text(landlord) and "反春" not in doudizhu_outcome_text(landlord)
    with translation.override("en"):
        assert "counter-spring" in doudizhu_outcome_text(farmers)
