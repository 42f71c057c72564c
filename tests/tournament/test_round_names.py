"""Knockout rounds by their names: one function, used by the pages."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournament.standings.events import knockout_event, swiss_event
from tournament import labels
from tournament.matches.templatetags.rules_tags import round_name


@pytest.mark.parametrize(
    ("pairs", "zh", "en"),
    [
        (2, "决赛", "Final"),
        (3, "半决赛", "Semi-finals"),
        (4, "半决赛", "Semi-finals"),
        (5, "四分之一决赛", "Quarter-finals"),
        (8, "四分之一决赛", "Quarter-finals"),
        (16, "1/8 决赛", "1/8 final"),
        (17, "1/16 决赛", "1/16 final"),
        (64, "1/32 决赛", "1/32 final"),
    ],
)
def test_knockout_round_names(pairs, zh, en):
    with translation.override("zh-hans"):
        assert labels.knockout_round_name(pairs) == zh
    assert labels.knockout_round_name(pairs) == en


def test_other_rounds_by_number_and_the_third_place_match():
    with translation.override("zh-hans"):
        assert labels.round_name(number=3) == "第 3 轮"
        assert labels.round_name(number=3, knockout_pairs=2) == "决赛"
        assert labels.third_place_name() == "三四名决赛"


@pytest.mark.django_db
def test_rounds_of_a_knockout_are_named_from_the_pairs_still_in():
    _tournament, rounds = knockout_event(pairs=5)  # 5 pairs (a bye) → 3 (a bye) → the final
    assert [round_name(round_) for round_ in rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    event = swiss_event(pairs=4)
    assert round_name(event.second) == "Round 2"


@pytest.mark.django_db
def test_the_round_page_uses_the_names(client):
    from django.urls import reverse

    from tests.factories import organiser

    tournament, rounds = knockout_event(pairs=5)
    boss = organiser(username="boss")
    tournament.organisers.add(boss)
    client.force_login(boss)
    html = client.get(reverse("draw:round", args=[tournament.pk, rounds[-1].pk])).content.decode()
    assert "决赛" in html and "第 3 轮" not in html


@pytest.mark.django_db
def test_final_placings_of_a_finished_knockout_with_the_prize_tiers(client):
    from django.urls import reverse

    from tests.tournament.standings.events import play_out
    from tournament.exports.prizes import TierData, prize_tiers_set
    from tournament.matches.services import match_sign_off

    tournament, rounds = knockout_event(pairs=5)
    url = reverse("exports:placings", args=[tournament.pk])
    assert "决赛确认后" in client.get(url).content.decode()  # not decided yet: the final is under way
    final = rounds[-1].matches.get()
    final = play_out(final)
    match_sign_off(match_id=final.pk)
    prize_tiers_set(tournament=tournament, tiers=[TierData("一等奖", 1), TierData("二等奖", 1)])
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    champion = final.ns_pair.name  # play_out: N/S wins
    runner_up = final.ew_pair.name
    assert html.index(champion) < html.index("一等奖") < html.index(runner_up) < html.index("二等奖")
    bracket = client.get(reverse("standings:bracket", args=[tournament.pk]), follow=True).content.decode()
    assert reverse("exports:stage_placings", args=[tournament.pk, rounds[-1].stage_id]) in bracket


@pytest.mark.django_db
def test_the_draw_sheet_of_a_knockout_round_is_named_by_the_round():
    from tournament.exports.headers import round_title, sheet_name

    assert round_title(number=1, knockout_pairs=4, language="zh") == "半决赛"
    assert round_title(number=2, knockout_pairs=2, language="en") == "Final"
    assert round_title(number=2, knockout_pairs=2, language="zh", third_place=True) == "三四名决赛"
    final = round_title(number=2, knockout_pairs=2, language="zh")
    assert sheet_name("draw_knockout", "zh", stage="决赛阶段", round=final) == "决赛阶段决赛对阵"


@pytest.mark.django_db
def test_every_page_of_the_final_names_it(client):
    """The round clock, the board, the round's referees, the referee's match page and the public
    draw, overview, match page and big screen all say 决赛, never 第 3 轮."""
    from django.urls import reverse

    from tests.factories import organiser

    tournament, rounds = knockout_event(pairs=5)
    final = rounds[-1]
    match = final.matches.exclude(ew_pair=None).get()
    boss = organiser(username="boss")
    tournament.organisers.add(boss)
    client.force_login(boss)
    pages = [
        reverse("matches:round_clock", args=[tournament.pk, final.pk]),
        reverse("matches:progress_board", args=[tournament.pk, final.pk]),
        reverse("draw:referees", args=[tournament.pk, final.pk]),
        reverse("matches:match", args=[match.pk]),
        reverse("standings:draw", args=[tournament.pk]),
        reverse("standings:match", args=[tournament.pk, match.pk]),
        reverse("standings:screen", args=[tournament.pk]),
        reverse("standings:tournament", args=[tournament.pk]),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert "决赛" in html.replace("决赛阶段", ""), url  # the stage is named 决赛阶段: not that
        assert "第 3 轮" not in html and "round 3" not in html, url
