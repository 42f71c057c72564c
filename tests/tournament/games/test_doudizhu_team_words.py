"""A Dou Dizhu event's team total (docs/rules.md §11) sums its players' points and deals won, and every
page that shows it says so in the page's language: the public team standings, the big screen, the
organiser's stage page, the team prizes and the workbook's team sheet print the words the team total gives
(a pairs' event: match points and small points), never a choice of their own."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.draw.stages import stage_teams_set
from tournament.exports.prizes import TierData, team_prize_tiers_set
from tournament.registration.teams import team_create
from tournament.standings.teams import stage_team_total_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def teams_event(boss):
    tournament, stage = doudizhu_event(players=9, boss=boss, options={"rounds": 2})
    play_round(drawn_round(stage, seed=5, user=boss), user=boss)
    players = list(tournament.pairs.order_by("pk"))
    team_create(tournament=tournament, name="甲队", pairs=players[:3])
    team_create(tournament=tournament, name="乙队", pairs=players[3:6])
    stage_teams_set(stage=stage, team_total=True, user=boss)
    team_prize_tiers_set(tournament=tournament, tiers=[TierData(name="团体冠军", pair_count=1)])
    return tournament, stage


def _pages(client: Client, tournament, stage) -> dict[str, str]:
    team_standings = reverse("standings:stage_team_standings", args=[tournament.pk, stage.pk])
    return {
        "public": client.get(team_standings).content.decode(),
        "screen": client.get(reverse("standings:screen", args=[tournament.pk])).content.decode(),
        "stage": client.get(reverse("draw:stage", args=[tournament.pk, stage.pk])).content.decode(),
        "prizes": client.get(reverse("exports:prizes", args=[tournament.pk])).content.decode(),
    }


@pytest.mark.parametrize(("language", "titles"), [("zh", ("积分", "胜局")), ("en", ("Points", "Deals won"))])
def test_the_workbooks_team_sheet_titles_its_columns_in_the_team_totals_words(teams_event, language, titles):
    from tests.tournament.exports.conftest import build, read_book

    tournament, stage = teams_event
    book = read_book(build(tournament=tournament, language=language))
    rows = book[f"{stage.name}团体排名" if language == "zh" else f"{stage.name} teams"]
    total = stage_team_total_get(stage=stage)
    assert rows[0][4:6] == titles
    assert [row[4:6] for row in rows[1:]] == [(line.points, line.small_points) for line in total.lines]


def test_the_team_total_gives_its_words(teams_event):
    _tournament, stage = teams_event
    total = stage_team_total_get(stage=stage)
    assert total is not None and total.entrants == "players" and len(total.lines) == 2
    with translation.override("zh-hans"):
        assert (str(total.words.points), str(total.words.second)) == ("积分", "胜局")
    with translation.override("en"):
        assert (str(total.words.points), str(total.words.second)) == ("Points", "Deals won")


@pytest.mark.parametrize(
    ("language", "points", "second", "ranked_by", "pairs_words"),
    [
        ("zh-hans", "积分", "胜局", "排名依据：积分 › 胜局数", ("场分", "小分")),
        ("en", "Points", "Deals won", "Ranked by: points › deals won", ("Match points", "Small points")),
    ],
)
def test_every_page_of_the_team_total_reads_points_and_deals_won(
    teams_event, boss, language, points, second, ranked_by, pairs_words
):
    tournament, stage = teams_event
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(boss)
    pages = _pages(client, tournament, stage)
    def headed(word: str, page: str) -> bool:  # a column heading (the organiser's may fold away on a phone)
        return re.search(rf'<th scope="col" class="num[\w -]*">{re.escape(word)}</th>', page) is not None

    for name in ("public", "screen", "stage"):
        assert headed(points, pages[name]) and headed(second, pages[name]), name
        assert not any(headed(word, pages[name]) for word in pairs_words), name
    assert ranked_by in pages["public"]
    assert f'<th scope="col">{points}</th>' in pages["prizes"]
    assert f'<th scope="col">{pairs_words[0]}</th>' not in pages["prizes"]
