"""A season of events (docs/rules.md §12.3, §12.4): the series ranking by employee number, its refusals, the
rating rebuilt the same by the command, the public page and the workbook sheet."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import TournamentFactory, english_client, organiser
from tournament.draw.services import bracket_after_result, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.exports.models import Series, SeriesEvent, SeriesRating
from tournament.exports.series import (
    series_create,
    series_event_add,
    series_points_set,
    series_ratings_rebuild,
    series_standings_get,
)
from tournament.matches.models import MatchStatus
from tournament.matches.services import deal_record, match_sign_off
from tournament.registration.models import Pair, PairMember, Player, TournamentStatus

pytestmark = pytest.mark.django_db


def event(pairs: Sequence[tuple[tuple[str, str], tuple[str, str]]], *, winners: Sequence[str]):
    """A finished knockout of four pairs ((name, employee number) each player); ``winners``: the side that
    wins each match in order (semi-finals, then the final)."""
    tournament = TournamentFactory(rule_profile="timed-40")
    for number, players in enumerate(pairs, 1):
        pair = Pair.objects.create(
            tournament=tournament, number=number, seed=number, name="、".join(p[0] for p in players)
        )
        for slot, (name, employee) in enumerate(players, 1):
            player = Player.objects.create(tournament=tournament, name=name, employee_number=employee)
            PairMember.objects.create(pair=pair, player=player, slot=slot)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "seeding": "seeds"}
    )
    round_ = round_draw(stage=stage, seed=1)
    results = iter(winners)
    while round_ is not None:
        round_publish(round_=round_)
        nxt = None
        for match in round_.matches.filter(ew_pair__isnull=False).order_by("table__number"):
            side = next(results)
            order = ["N", "S"] if side == "NS" else ["E", "W"]
            while match.status not in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
                match = deal_record(match_id=match.pk, outcome={"order": order}).match
            match_sign_off(match_id=match.pk)
            nxt = bracket_after_result(match=match)
        round_ = nxt
    tournament.status = TournamentStatus.FINISHED
    tournament.save()
    return tournament


WANG, LI, ZHANG, ZHAO = ("王芳", "1001"), ("李强", "1002"), ("张伟", "1003"), ("赵敏", "1004")
OTHERS = [(f"选手{n}", f"20{n:02d}") for n in range(12)]


@pytest.fixture
def season():
    first = event(
        [(WANG, LI), (ZHANG, OTHERS[0]), (ZHAO, OTHERS[1]), (OTHERS[2], OTHERS[3])], winners=["NS", "NS", "NS"]
    )
    second = event(
        [(WANG, ZHANG), (LI, OTHERS[4]), (ZHAO, OTHERS[5]), (OTHERS[6], OTHERS[7])], winners=["NS", "NS", "NS"]
    )
    # a namesake of 王芳 with another employee number is another player
    third = event(
        [(("王芳", "9999"), OTHERS[8]), (LI, ZHAO), (ZHANG, OTHERS[9]), (OTHERS[10], OTHERS[11])],
        winners=["EW", "NS", "NS"],
    )
    series = series_create(name="2026 年度积分")
    for tournament in (first, second, third):
        series_event_add(series=series, tournament=tournament)
    return series, (first, second, third)


def test_the_series_sums_each_players_points_by_employee_number(season):
    series, _events = season
    standings = series_standings_get(series=series)
    by = {line.row.player: line for line in standings.lines}
    # event 1: 王芳/李强 win; event 2: 王芳/张伟 win; event 3: 李强/赵敏 win (default table 10, 8, 6, 5 …)
    assert by["1001"].row.points == 20 and by["1001"].row.firsts == 2 and by["1001"].row.events == 2
    assert by["1002"].row.firsts == 2 and by["1002"].row.events == 3
    assert by["9999"].name == "王芳" and by["9999"].row.events == 1  # the namesake: never merged
    assert standings.lines[0].row.player == "1002"  # 李强: two firsts and three events beat 王芳's two firsts
    assert [line.row.rank for line in standings.lines] == list(range(1, len(standings.lines) + 1))


def test_a_series_refuses_another_games_event_and_bad_points_tables(season):
    series, _events = season
    tractor = TournamentFactory(rule_profile="tractor-3deck")
    with pytest.raises(UserError) as refused:
        series_event_add(series=series, tournament=tractor)
    assert refused.value.code == "series_game"
    assert not SeriesEvent.objects.filter(tournament=tractor).exists()
    before = Series.objects.get(pk=series.pk).points_table
    for table in (
        {"places": {"1": 10, "3": 6}, "others": 1},
        {"places": {"1": 10, "2": -2}, "others": 0},
        {"places": {"1": 5, "2": 8}, "others": 1},
    ):
        with pytest.raises(UserError) as refused:
            series_points_set(series=series, table=table)
        assert refused.value.status == 400
        assert Series.objects.get(pk=series.pk).points_table == before


def test_the_rating_is_kept_up_to_date_and_the_command_rebuilds_the_same(season):
    series, _events = season
    series_ratings_rebuild(series=series)
    stored = {row.player: (row.mu, row.sigma, row.matches) for row in SeriesRating.objects.filter(series=series)}
    assert stored["1002"][2] == 6  # 李强 played two matches in each event
    call_command("series_rating_rebuild", str(series.pk), stdout=io.StringIO())
    again = {row.player: (row.mu, row.sigma, row.matches) for row in SeriesRating.objects.filter(series=series)}
    assert again == stored


def test_the_public_page_the_workbook_and_the_organisers_page(season):
    series, _events = season
    series_ratings_rebuild(series=series)
    client = english_client()
    page = client.get(reverse("exports:series", args=[series.pk])).content.decode()
    assert "Series ranking" in page and "李强" in page and "A rating, not a ranking" in page
    book = load_workbook(io.BytesIO(client.get(reverse("exports:series_download", args=[series.pk])).content))
    ranking = book.worksheets[0]
    assert ranking.cell(1, 1).value == "Rank" and ranking.cell(2, 3).value == "1002"
    assert book.worksheets[1].cell(1, 3).value == "Rating (μ − 3σ)"
    user = organiser()
    series.organisers.add(user)
    client.force_login(user)
    url = reverse("exports:series_manage", args=[series.pk])
    response = client.post(url, {"action": "points", "place_1": "10", "place_2": "", "place_3": "6", "others": "1"})
    assert response.status_code == 400 and "without a gap" in response.content.decode()
    response = client.post(url, {"action": "points", "place_1": "10", "place_2": "6", "place_3": "", "others": "1"})
    assert response.status_code == 302  # blank last places end the table
    response = client.post(url, {"action": "points", "place_1": "10", "place_2": "-3", "others": "1"})
    assert response.status_code == 400 and "never negative" in response.content.decode()
    assert Series.objects.get(pk=series.pk).points_table == {"places": {"1": 10, "2": 6}, "others": 1}
    stranger = english_client()
    stranger.force_login(organiser())
    assert stranger.get(url).status_code == 404


def test_the_home_page_lists_the_series_and_its_page_names_the_events_still_to_count(season):
    """A visitor finds a series from the home page; its page names the events that count once finished, and
    its organisers find their page from it."""
    series, (first, _second, _third) = season
    first.status = TournamentStatus.RUNNING
    first.save()
    client = english_client()
    home = client.get(reverse("home")).content.decode()
    assert reverse("exports:series", args=[series.pk]) in home
    assert "3 events · 2 finished events counted" in home
    page = client.get(reverse("exports:series", args=[series.pk])).content.decode()
    assert "Counted once finished:" in page and first.name in page
    manage = reverse("exports:series_manage", args=[series.pk])
    assert manage not in page
    user = organiser()
    series.organisers.add(user)
    client.force_login(user)
    assert manage in client.get(reverse("exports:series", args=[series.pk])).content.decode()  # its organisers' way in
