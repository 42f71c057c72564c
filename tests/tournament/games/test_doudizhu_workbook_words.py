"""An event of individuals (Dou Dizhu) in the organiser's words: the door counts players, not pairs, and the
workbook's registration, adjustments and awards sheets have a player's columns (number, name, department)
— no partner, no second player, no pair number, no levels to the opponents or N/S levels after."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.exports.prizes import TierData, prize_tiers_set
from tournament.exports.workbook import workbook_build
from tournament.matches import services
from tournament.registration.services import pair_check_in

pytestmark = pytest.mark.django_db

PAIR_HEADERS = ("对号", "对名", "搭档", "选手2", "部门2", "对方升级", "南北级数", "东西级数", "Partner")


def _sheets(tournament, language="zh"):
    buffer = io.BytesIO()
    workbook_build(tournament=tournament, target=buffer, language=language)
    buffer.seek(0)
    book = load_workbook(buffer, read_only=True)
    return {name: [list(row) for row in book[name].iter_rows(values_only=True)] for name in book.sheetnames}


def test_the_door_counts_players_to_come_and_withdrawn(client, boss):
    tournament, _stage = doudizhu_event(players=9, boss=boss)
    first = tournament.pairs.order_by("number").first()
    pair_check_in(pair=first)
    client.force_login(boss)
    body = client.get(reverse("registration:checkin", args=[tournament.pk])).content.decode()
    assert "8 人未到" in body and "0 人退赛" in body
    assert "对未到" not in body and "对退赛" not in body
    english = client.get(reverse("registration:checkin", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200


def test_the_workbook_has_a_players_columns_for_an_event_of_individuals(boss):
    tournament, stage = doudizhu_event(players=9, boss=boss)
    round_ = drawn_round(stage, seed=3, user=boss)
    table = round_.matches.order_by("table__number").first()
    south = table.seats.get(seat="S")
    services.adjustment_record(
        match_id=table.pk, pair_id=south.pair_id, kind="penalty", points=5, reason="拖延", user=boss
    )
    play_round(round_, user=boss)
    prize_tiers_set(tournament=tournament, tiers=[TierData(name="一等奖", pair_count=1)])
    sheets = _sheets(tournament)
    registration, adjustments, awards = sheets["参赛名单"], sheets["调整与处罚"], sheets["获奖名单"]
    for rows in (registration, adjustments, awards):
        for header in PAIR_HEADERS:
            assert header not in rows[0], (header, rows[0])
    assert registration[0] == ["姓名", "工号", "部门", "手机", "选手编号", "种子", "状态"]
    assert len(registration) == 10 and {row[4] for row in registration[1:]} == set(range(1, 10))
    header = adjustments[0]
    assert "选手编号" in header and "选手" in header and "扣分" in header
    row = dict(zip(header, adjustments[1], strict=True))
    assert row["选手编号"] == south.pair.number and row["选手"] == south.pair.name and row["扣分"] == 5
    assert awards[0] == ["奖项", "名次", "选手编号", "选手", "部门"]
    assert awards[1][0] == "一等奖" and awards[1][1] == 1 and isinstance(awards[1][2], int)
    english = _sheets(tournament, language="en")
    assert english["Registration"][0][4] == "Player no." and "Partner employee number" not in english["Registration"][0]
    assert english["Awards"][0] == ["Prize", "Rank", "Player no.", "Player", "Department"]
