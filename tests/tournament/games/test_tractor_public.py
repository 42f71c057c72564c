"""The public match page and API show a Tractor deal in Tractor terms (declarer, defenders'
points) where Guandan shows a finishing order."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import english_client
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db


def test_public_match_page_and_api_show_declarer_and_defenders_points(match):
    tournament_id = match.round.stage.tournament_id
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 125})
    deal_record(match_id=match.pk, outcome={"defender_points": 60, "bottom": {"points": 10, "capture": "single"}})
    page = english_client().get(reverse("standings:match", args=[tournament_id, match.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Declarer · defenders' points" in body and "Finishing order" not in body
    assert "North · 125<" in body and "· 80 (60 in tricks, bottom +20)<" in body
    assert "next deal at 3 (E/W)" in body  # E/W took over and went up: they declare at their level
    answer = APIClient().get(reverse("api:public:match", kwargs={"tournament_id": tournament_id, "match_id": match.pk}))
    assert answer.status_code == 200
    deals = answer.data["deals"]
    assert (deals[0]["declarer"], deals[0]["declarer_seat"], deals[0]["total_points"]) == ("NS", "N", 125)
    assert (deals[1]["declarer"], deals[1]["defender_points"], deals[1]["total_points"]) == ("EW", 60, 80)
    assert deals[0]["result"] == "defenders_take_over" and deals[0]["order"] == []


def test_the_referee_and_the_public_page_show_a_deal_in_one_wording_and_one_figure(match, ref):
    """The referee's list read "defenders 60" for a deal the public page showed at 135; both
    now show the rules core's figure, in Tractor words, on Chinese pages too (no internal codes)."""
    from django.test import Client
    from django.utils import translation

    from tournament.deal_texts import tractor_deal_text

    deal_record(
        match_id=match.pk,
        outcome={
            "declarer": "N",
            "defender_points": 60,
            "bottom": {"points": 25, "capture": "pair"},
            "penalties": [{"side": "EW", "kind": "exposed_card"}],
        },
    )
    deal = match.deals.get()
    referee = Client()
    referee.force_login(ref)
    public = Client().get(reverse("standings:match", args=[match.round.stage.tournament_id, match.pk]))
    mine = referee.get(reverse("matches:match", args=[match.pk]))
    for response in (public, mine):
        body = response.content.decode()
        assert "北 · 115（牌分 60，抠底 +75，罚分 -20）" in body  # 60 + 25×3 − 20 (E/W defend and exposed)
        assert "庄家 · 防家得分" in body  # seed 001 says 防家 (defenders), as the sheets do
        for code in ("exposed_card", "pair", ">N ", " EW ", "闲家"):
            assert code not in body.split("<tbody>", 1)[-1].split("</tbody>", 1)[0], code
    with translation.override("en"):
        assert tractor_deal_text(deal.outcome, deal.record) == "North · 115 (60 in tricks, bottom +75, penalties -20)"
