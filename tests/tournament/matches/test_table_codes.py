"""Who a phone speaks for at a table: the code check takes what a Chinese keyboard types.

Full-width digits (１２３４) and an employee number like 张三01 reached ``hmac.compare_digest`` as
non-ASCII ``str`` and raised TypeError: a 500 for the whole table."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import english_client, table_match
from tournament.matches import player_entry as pe
from tournament.matches.models import Match
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    cache.clear()


def players_match() -> Match:
    match = table_match()
    tournament = match.round.stage.tournament
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    return Match.objects.select_related("round__stage__tournament").get(pk=match.pk)


def _full_width(text: str) -> str:
    return "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)


def test_full_width_digits_and_chinese_employee_numbers_identify():
    match = players_match()
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north = seats["N"].player
    north.employee_number = "张三01"
    north.save()
    pin = pe.seat_pin(player_id=seats["E"].player.pk)
    assert pe.player_identify(match=match, code=_full_width(pin)).player == seats["E"].player
    assert pe.player_identify(match=match, code="张三０１").player == north
    assert pe.player_identify(match=match, code=" 张三 01 ").player == north
    assert pe.player_identify(match=match, code="李四01") is None


def test_the_table_page_answers_a_non_ascii_code_not_a_server_error():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    client = english_client(raise_request_exception=False)
    url = reverse("matches:table_identify", args=[token])
    assert client.post(url, {"code": "李四01"}).status_code == 400
    assert client.post(url, {"code": "１２３４５６７"}).status_code == 400
    pin = pe.seat_pin(player_id=seats["S"].player.pk)
    assert client.post(url, {"code": _full_width(pin)}).status_code == 302
