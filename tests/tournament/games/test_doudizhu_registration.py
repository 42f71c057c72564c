"""A Dou Dizhu event's entrants are individuals — registered, imported (one row per player, no
partner column), checked in and withdrawn like pairs, in the words of players."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tournament.registration.models import PairStatus, Tournament
from tournament.registration.roster import RosterImportError, roster_import, roster_template
from tournament.registration.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def ddz(boss) -> Tournament:
    return tournament_create(name="斗地主", rule_profile="doudizhu", game="doudizhu", organiser=boss)


def _book(rows: list[list[object]]) -> io.BytesIO:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    buffer.seek(0)
    return buffer


def test_the_organiser_registers_edits_checks_in_and_withdraws_a_player(client, boss, ddz):
    client.force_login(boss)
    url = reverse("registration:pairs", args=[ddz.pk])
    page = client.get(url).content.decode()
    assert "添加选手" in page and 'name="second_name"' not in page
    answer = client.post(url, {"first_name": "王芳", "first_employee_number": "A1", "first_department": "工会"})
    assert answer.status_code == 302
    entrant = ddz.pairs.get()
    assert entrant.name == "王芳" and entrant.members.count() == 1
    edit = reverse("registration:pair_edit", args=[ddz.pk, entrant.pk])
    assert client.post(edit, {"first_name": "王芳芳", "first_employee_number": "A1", "seed": 1}).status_code == 302
    entrant.refresh_from_db()
    assert (entrant.name, entrant.seed) == ("王芳芳", 1)
    toggle = reverse("registration:checkin_toggle", args=[ddz.pk, entrant.pk])
    client.post(toggle, {})
    entrant.refresh_from_db()
    assert entrant.status == PairStatus.CHECKED_IN
    client.post(reverse("registration:pair_withdraw", args=[ddz.pk, entrant.pk]))
    entrant.refresh_from_db()
    assert entrant.status == PairStatus.WITHDRAWN


def test_the_roster_of_individuals_has_no_partner_column(ddz):
    template = load_workbook(io.BytesIO(roster_template(kind="players"))).active
    assert [cell.value for cell in template[1]] == ["姓名", "工号", "部门", "手机"]
    result = roster_import(
        tournament=ddz,
        file=_book([["姓名", "工号", "部门", "手机"], ["甲", "1", "A", ""], ["乙", "2", "A", ""], ["丙", "3", "", ""]]),
    )
    assert (result.players, result.pairs) == (3, 3)
    assert sorted(ddz.pairs.values_list("name", flat=True)) == ["丙", "乙", "甲"]
    assert all(entrant.members.count() == 1 for entrant in ddz.pairs.all())


def test_a_partner_cell_in_an_individual_roster_is_refused_with_its_row(ddz):
    with pytest.raises(RosterImportError) as refused:
        roster_import(tournament=ddz, file=_book([["姓名", "工号", "搭档工号"], ["甲", "1", "2"], ["乙", "2", ""]]))
    assert [error.row for error in refused.value.errors] == [2]
    assert not ddz.pairs.exists()


def test_the_organiser_adds_a_points_stage_draws_and_publishes_a_three_seat_round(client, boss, ddz):
    from tournament.registration.services import PlayerData, player_enter

    for number in range(1, 8):
        player_enter(tournament=ddz, player=PlayerData(name=f"P{number}"))
    client.force_login(boss)
    stages = reverse("draw:stages", args=[ddz.pk])
    form = client.get(stages).content.decode()
    assert 'name="cuts"' in form and 'name="bracket"' not in form
    bad = client.post(stages, {"name": "积分赛", "rounds": 3, "cuts": "1:2"})
    assert bad.status_code == 200 and not ddz.stages.exists()  # a cut keeps at least 3
    answer = client.post(stages, {"name": "积分赛", "rounds": 3, "cuts": "1:6, 2：3"})
    assert answer.status_code == 302
    stage = ddz.stages.get()
    assert stage.format == "points" and stage.options["cuts"] == [
        {"after_round": 1, "keep": 6},
        {"after_round": 2, "keep": 3},
    ]
    drawn = client.post(reverse("draw:round_generate", args=[ddz.pk, stage.pk]), {"seed": 5})
    assert drawn.status_code == 302
    round_ = stage.rounds.get()
    page = client.get(reverse("draw:round", args=[ddz.pk, round_.pk])).content.decode()
    assert ">东<" in page and "E · 东" not in page and "three-seats-v1" in page and "轮空" in page
    client.post(reverse("draw:round_publish", args=[ddz.pk, round_.pk]))
    round_.refresh_from_db()
    assert round_.status == "published"


def test_the_round_page_shows_the_players_event_numbers_not_database_ids(boss):
    from django.test import Client

    from tests.factories import PairFactory, TournamentFactory
    from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
    from tournament.matches.models import MatchSeat

    other = TournamentFactory()
    for _ in range(5):
        PairFactory(tournament=other)  # ids taken: this event's players' ids are not their numbers
    tournament, stage = doudizhu_event(players=10, boss=boss)
    round_ = drawn_round(stage, user=boss)
    client = Client()
    client.force_login(boss)
    page = client.get(reverse("draw:round", args=[tournament.pk, round_.pk])).content.decode()
    seat = MatchSeat.objects.filter(match__round=round_).select_related("pair").first()
    assert seat.pair.number != seat.pair.pk
    assert f"#{seat.pair.number} {seat.pair.name}" in page and f"#{seat.pair.pk} {seat.pair.name}" not in page
