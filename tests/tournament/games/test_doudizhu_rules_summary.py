"""The rules' heading describes the scoring in force: a Dou Dizhu event scored by cards left (its event's
options over the profile) never reads the profile's "stake = bid × …" (docs/rules.md §10)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.profiles import PROFILE_INFO, PROFILES, options_for, rules_summary
from tests.factories import english_client
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
from tournament.registration.lifecycle import tournament_update


def test_the_profiles_own_options_keep_its_title():
    info = PROFILE_INFO["doudizhu"]
    assert rules_summary(profile="doudizhu", options=PROFILES["doudizhu"]) == (info.title, info.title_zh)
    assert rules_summary(profile="timed-40", options=PROFILES["timed-40"]) == (
        PROFILE_INFO["timed-40"].title,
        PROFILE_INFO["timed-40"].title_zh,
    )


def test_cards_left_by_lot_is_summarised_from_the_options():
    options = options_for(
        profile="doudizhu", overrides={"deal_scoring": "cards_left", "landlord_by": "lot", "deals": 5}
    )
    en, zh = rules_summary(profile="doudizhu", options=options)
    assert "按剩余牌数计分" in zh and "每轮5局" in zh and "轮流坐庄" in zh
    assert "叫分" not in zh and "分数 = " not in zh
    assert "scored by cards left" in en and "5 deals a round" in en and "bid" not in en and "stake" not in en


def test_a_changed_stake_states_its_base_and_cap():
    options = options_for(profile="doudizhu", overrides={"base": 2, "multiple_cap": 32})
    en, zh = rules_summary(profile="doudizhu", options=options)
    assert "bid × 2^bombs × spring × base 2" in en and "capped at 32" in en
    assert "底分2" in zh and "封顶32倍" in zh


@pytest.mark.django_db
def test_the_stage_and_public_pages_head_the_rules_with_the_scoring_in_force(client, boss):
    tournament, stage = doudizhu_event(players=9, boss=boss)
    tournament_update(
        tournament=tournament,
        name=tournament.name,
        rule_overrides={"deal_scoring": "cards_left", "landlord_by": "lot"},
        user=boss,
    )
    stage.refresh_from_db()
    assert stage.rules["deal_scoring"] == "cards_left"
    drawn_round(stage, user=boss)
    client.force_login(boss)
    pages = {
        "stage": reverse("draw:stage", args=[tournament.pk, stage.pk]),
        "standings": reverse("standings:stage_standings", args=[tournament.pk, stage.pk]),
    }
    for name, url in pages.items():
        page = client.get(url).content.decode()
        assert "按剩余牌数计分" in page, name
        assert "叫分 × 2^炸弹数" not in page and "叫分高者为地主" not in page, name
    english = english_client()
    english.force_login(boss)
    page = english.get(pages["stage"]).content.decode()
    assert "scored by cards left" in page and "stake = bid" not in page
