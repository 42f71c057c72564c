"""A Dou Dizhu event's page offers seed 004's options (deals per table, landlord by lot and in turn,
scoring by cards left, base, cap, bye points) and none of Guandan's; what it saves reaches the stages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, organiser
from tournament.draw.stages import stage_create

pytestmark = pytest.mark.django_db


def test_the_event_page_offers_the_games_own_options_and_saves_them(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(game="doudizhu", rule_profile="doudizhu", name="斗地主赛")
    tournament.organisers.add(boss)
    stage = stage_create(tournament=tournament, name="预赛", format="points", options={"rounds": 3})
    url = reverse("matches:event", args=[tournament.pk])
    page = client.get(url).content.decode()
    for name in ("deals", "deal_scoring", "landlord_by", "landlord_rotation", "base", "multiple_cap", "bye_points"):
        assert f'name="{name}"' in page, name
    assert 'name="a_failure_limit"' not in page and 'name="time_up_tie"' not in page
    assert "抽签确定，之后轮流坐庄" in page and "按手中剩余牌数计分（规则 004）" in page

    saved = client.post(
        url,
        {
            "name": "斗地主赛",
            "rule_profile": "doudizhu",
            "deals": "5",
            "landlord_by": "lot",
            "deal_scoring": "cards_left",
            "bye_points": "3",
        },
    )
    assert saved.status_code == 302
    tournament.refresh_from_db()
    expected = {"deals": 5, "landlord_by": "lot", "deal_scoring": "cards_left", "bye_points": 3}
    assert tournament.rule_overrides == expected
    stage.refresh_from_db()  # before the first draw the stages follow the event's rules
    assert (stage.rules["deals"], stage.rules["landlord_by"], stage.rules["deal_scoring"]) == (5, "lot", "cards_left")

    refused = client.post(url, {"name": "斗地主赛", "rule_profile": "doudizhu", "deals": "13"})
    assert refused.status_code == 200 and 'name="deals"' in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.rule_overrides["deals"] == 5


def test_a_guandan_event_keeps_its_own_options():
    from tournament.registration.forms import TournamentEditForm

    form = TournamentEditForm(game="guandan")
    assert form.offered == ("time_cap_minutes", "a_failure_limit", "time_up_tie")
    assert "landlord_by" not in form.fields
