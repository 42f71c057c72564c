"""Who a phone speaks for at a table: the code check takes what a Chinese keyboard types, and
guessing a seat's PIN is not feasible within a round, while one phone's typos pause that phone only.

Full-width digits (１２３４) and an employee number like 张三01 reached ``hmac.compare_digest`` as
non-ASCII ``str`` and raised TypeError: a 500 for the whole table. The wrong codes were counted per
table and per address — an address the client wrote itself (a PIN fell in 790 tries), and one a
whole room shares (one phone's typos locked the table for everyone)."""

from __future__ import annotations

import time

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse

from tests.factories import english_client, referee, table_match
from tournament.matches import player_entry as pe
from tournament.matches import table_codes
from tournament.matches.models import Deal, Match
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    cache.clear()


def players_match(**kwargs) -> Match:
    match = table_match(**kwargs)
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


# -- the limit on wrong codes: per table and per phone, never per address ----------------------------


def _identify(client, token, code, **headers):
    return client.post(reverse("matches:table_identify", args=[token]), {"code": code}, **headers)


def _wrong(n: int) -> str:
    return f"9{n:05d}x"  # never a PIN (digits only) nor an employee number of the factories


def test_seat_pins_are_six_digits():
    match = players_match()
    for seat in pe.table_players(match=match):
        pin = pe.seat_pin(player_id=seat.player.pk)
        assert len(pin) == pe.PIN_DIGITS == 6 and pin.isdigit()
        assert pe.player_identify(match=match, code=pin).player == seat.player


def test_one_phones_mistakes_pause_that_phone_only():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    other = players_match()
    other_token = table_token(round_=other.round, table_id=other.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    phone = english_client()
    with time_machine.travel(time.time(), tick=False):  # Retry-After counts whole seconds: the clock held still
        answers = [_identify(phone, token, _wrong(n)).status_code for n in range(table_codes.DEVICE_FREE + 2)]
        assert answers == [400] * (table_codes.DEVICE_FREE + 1) + [429]  # the first past the free ones pauses
        paused = _identify(phone, token, seats["N"].player.employee_number)  # the right code waits too
        assert paused.status_code == 429 and int(paused["Retry-After"]) == table_codes.DEVICE_FIRST_PAUSE
    # every other phone in the room — the same address — at this table and at another: not paused
    assert _identify(english_client(), token, seats["E"].player.employee_number).status_code == 302
    other_seat = pe.table_players(match=other)[0]
    assert _identify(english_client(), other_token, other_seat.player.employee_number).status_code == 302
    # the phone's pause ends, and a right code then resets its count
    with time_machine.travel(time.time() + table_codes.DEVICE_FIRST_PAUSE + 1, tick=False):
        assert _identify(phone, token, seats["N"].player.employee_number).status_code == 302
        assert _identify(phone, token, _wrong(99)).status_code == 400


def test_guesses_from_many_phones_pause_the_table_for_longer_each_time():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    start = time.time()
    with time_machine.travel(start, tick=False) as clock:
        # a guesser drops its cookies each time (a new phone) and writes a new address each time
        for n in range(table_codes.TABLE_FREE):
            forged = {"HTTP_X_FORWARDED_FOR": f"10.0.{n}.1"}
            assert _identify(english_client(), token, _wrong(n), **forged).status_code == 400
        # a right code between guesses does not reset the table's count
        assert _identify(english_client(), token, seats["N"].player.employee_number).status_code == 302
        assert _identify(english_client(), token, _wrong(50)).status_code == 400  # the 11th: paused 15 s
        refused = _identify(english_client(), token, seats["E"].player.employee_number)
        assert refused.status_code == 429 and int(refused["Retry-After"]) == table_codes.TABLE_FIRST_PAUSE
        pauses = []
        for n in range(6):
            clock.shift(pauses[-1] + 1 if pauses else table_codes.TABLE_FIRST_PAUSE + 1)
            assert _identify(english_client(), token, _wrong(60 + n)).status_code == 400
            pauses.append(int(_identify(english_client(), token, _wrong(70 + n))["Retry-After"]))
        assert pauses == [30, 60, 120, 240, 480, 960]  # doubling, up to an hour
    assert table_codes.code_limit_get(match_id=match.pk).wrong == table_codes.TABLE_FREE + 7


def test_the_confirm_form_counts_its_codes_too():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "S"]}, player_id=seats["N"].player.pk, number=1,
        idempotency_key="k1",
    ).claim
    phone = english_client()
    url = reverse("matches:table_confirm", args=[token, claim.pk])
    answers = [phone.post(url, {"code": _wrong(n)}).status_code for n in range(table_codes.DEVICE_FREE + 2)]
    assert answers[-1] == 429 and set(answers[:-1]) == {400}
    assert phone.post(url, {"code": seats["E"].player.employee_number}).status_code == 429
    assert not Deal.objects.exists()


def test_a_referee_of_the_table_sees_the_wrong_codes_and_lifts_the_pause():
    ref = referee(username="ref")
    match = players_match(referee_user=ref)
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    for n in range(table_codes.TABLE_FREE + 1):
        _identify(english_client(), token, _wrong(n))
    assert _identify(english_client(), token, seats["W"].player.employee_number).status_code == 429
    page = english_client()
    page.force_login(ref)
    body = page.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "11 wrong employee numbers or PINs" in body and "Lift the code limit" in body
    stranger = english_client()
    stranger.force_login(referee(username="elsewhere"))
    assert stranger.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code in (403, 404)
    assert _identify(english_client(), token, seats["W"].player.employee_number).status_code == 429
    assert page.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code == 302
    assert _identify(english_client(), token, seats["W"].player.employee_number).status_code == 302
    assert table_codes.code_limit_get(match_id=match.pk).wrong == 0
    assert "Lift the code limit" not in page.get(reverse("matches:match", args=[match.pk])).content.decode()
