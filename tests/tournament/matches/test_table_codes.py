"""Who a phone speaks for at a table: the code check takes what a Chinese keyboard types, and
guessing a seat's PIN is not feasible within a round, while one phone's mistakes pause that phone
(and the PIN it was typing) only — never the room, never the table.

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

from tests.factories import english_client, organiser, referee, table_match
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


# -- the limit on wrong codes: per code being guessed and per phone, never per table or address -----


def _identify(client, token, code, seat=None, **headers):
    data = {"code": code} | ({"seat": seat} if seat else {})
    return client.post(reverse("matches:table_identify", args=[token]), data, **headers)


def _wrong_pin(pin: str, n: int) -> str:
    """A six-digit code that is not ``pin``: a guess at a PIN."""
    guess = f"{(int(pin) + 1 + n) % 10**6:06d}"
    assert guess != pin
    return guess


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
        # while it waits (the clock still held: however slow the run, the pause has not run out), every
        # other phone in the room — the same address — at this table and at another is not paused
        assert _identify(english_client(), token, seats["E"].player.employee_number).status_code == 302
        other_seat = pe.table_players(match=other)[0]
        assert _identify(english_client(), other_token, other_seat.player.employee_number).status_code == 302
    # the phone's pause ends, and a right code then resets its count
    with time_machine.travel(time.time() + table_codes.DEVICE_FIRST_PAUSE + 1, tick=False):
        assert _identify(phone, token, seats["N"].player.employee_number).status_code == 302
        assert _identify(phone, token, _wrong(99)).status_code == 400


def test_guesses_at_one_seats_pin_pause_that_pin_only_for_longer_each_time():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    east_pin = pe.seat_pin(player_id=seats["E"].player.pk)
    start = time.time()
    with time_machine.travel(start, tick=False) as clock:
        # a guesser drops its cookies each time (a new phone) and writes a new address each time
        for n in range(table_codes.TARGET_FREE):
            forged = {"HTTP_X_FORWARDED_FOR": f"10.0.{n}.1"}
            assert _identify(english_client(), token, _wrong_pin(east_pin, n), "E", **forged).status_code == 400
        # a right code between guesses does not reset the count (the guesser may sit at the table)
        assert _identify(english_client(), token, seats["N"].player.employee_number).status_code == 302
        eleventh = _identify(english_client(), token, _wrong_pin(east_pin, 50), "E")
        assert eleventh.status_code == 429 and "PIN entry waits" in eleventh.content.decode()
        refused = _identify(english_client(), token, east_pin, "E")  # the right PIN waits like a wrong one
        assert refused.status_code == 429 and int(refused["Retry-After"]) == table_codes.TARGET_FIRST_PAUSE
        # nothing else at the table waits: the other seats' PINs, every employee number
        assert _identify(english_client(), token, pe.seat_pin(player_id=seats["W"].player.pk), "W").status_code == 302
        assert _identify(english_client(), token, pe.seat_pin(player_id=seats["N"].player.pk)).status_code == 302
        assert _identify(english_client(), token, seats["E"].player.employee_number).status_code == 302
        pauses = []
        for n in range(6):
            clock.shift(pauses[-1] + 1 if pauses else table_codes.TARGET_FIRST_PAUSE + 1)
            answer = _identify(english_client(), token, _wrong_pin(east_pin, 60 + n), "E")
            assert answer.status_code == 429
            pauses.append(int(answer["Retry-After"]))
        assert pauses == [30, 60, 120, 240, 480, 960]  # doubling, up to an hour
    limits = {row.seat.seat: row.wrong for row in pe.table_code_limits(match=match)}
    assert limits["E"] == table_codes.TARGET_FREE + 7


def test_a_code_that_names_no_seat_counts_against_every_pin_it_could_be_and_no_other_table():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    other = players_match()
    other_token = table_token(round_=other.round, table_id=other.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    with time_machine.travel(time.time(), tick=False):
        for n in range(table_codes.TARGET_FREE + 1):
            assert _identify(english_client(), token, f"{n:06d}").status_code in (400, 429)
        south_pin = pe.seat_pin(player_id=seats["S"].player.pk)
        assert _identify(english_client(), token, south_pin).status_code == 429  # every PIN here waits
        # an employee number is no secret to guess: it is never paused
        assert _identify(english_client(), token, seats["S"].player.employee_number).status_code == 302
        # another table's players are not held up at all
        other_seat = pe.table_players(match=other)[0]
        assert _identify(english_client(), other_token, pe.seat_pin(player_id=other_seat.player.pk)).status_code == 302
        # a mistyped employee number (no PIN's shape) is no guess at a PIN: the phone's count only
        phone = english_client()
        for n in range(table_codes.DEVICE_FREE):
            assert _identify(phone, other_token, _wrong(n)).status_code == 400
    assert {row.wrong for row in pe.table_code_limits(match=match)} == {table_codes.TARGET_FREE + 1}
    assert pe.table_code_limits(match=other) == []


def test_the_confirm_form_counts_against_the_confirming_side_only():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    claim = pe.deal_claim_enter(
        match_id=match.pk,
        outcome={"order": ["N", "S"]},
        player_id=seats["N"].player.pk,
        number=1,
        idempotency_key="k1",
    ).claim
    url = reverse("matches:table_confirm", args=[token, claim.pk])
    phone = english_client()
    answers = [phone.post(url, {"code": _wrong(n)}).status_code for n in range(table_codes.DEVICE_FREE + 2)]
    assert answers[-1] == 429 and set(answers[:-1]) == {400}
    assert phone.post(url, {"code": seats["E"].player.employee_number}).status_code == 429
    # PIN guesses on phones handed across: against the other side's PINs (E, W), not the entering side's
    north_pin = pe.seat_pin(player_id=seats["N"].player.pk)
    for n in range(table_codes.TARGET_FREE + 1):
        english_client().post(url, {"code": _wrong_pin(north_pin, n)})
    limits = {row.seat.seat: row for row in pe.table_code_limits(match=match)}
    assert set(limits) == {"E", "W"} and limits["E"].paused_minutes and limits["W"].paused_minutes
    assert _identify(english_client(), token, north_pin, "N").status_code == 302
    assert not Deal.objects.exists()


def test_a_referee_or_organiser_sees_whose_pin_is_guessed_and_lifts_the_pause_audited():
    ref = referee(username="ref")
    boss = organiser(username="boss")
    match = players_match(referee_user=ref, organiser_user=boss)
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    west_pin = pe.seat_pin(player_id=seats["W"].player.pk)
    for n in range(table_codes.TARGET_FREE + 1):
        _identify(english_client(), token, _wrong_pin(west_pin, n), "W")
    assert _identify(english_client(), token, west_pin, "W").status_code == 429
    page = english_client()
    page.force_login(ref)
    body = page.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "11 wrong codes this round" in body and "PIN entry paused" in body and "Lift the code limit" in body
    assert 'data-seat="W"' in body and 'data-seat="N"' not in body  # only the seat being guessed
    stranger = english_client()
    stranger.force_login(referee(username="elsewhere"))
    assert stranger.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code in (403, 404)
    assert _identify(english_client(), token, west_pin, "W").status_code == 429
    assert page.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code == 302
    assert _identify(english_client(), token, west_pin, "W").status_code == 302
    assert pe.table_code_limits(match=match) == []
    assert "Lift the code limit" not in page.get(reverse("matches:match", args=[match.pk])).content.decode()
    # the organiser lifts from the same page; each lift is a row of the match's history, with who
    for n in range(table_codes.TARGET_FREE + 1):
        _identify(english_client(), token, _wrong_pin(west_pin, n), "W")
    office = english_client()
    office.force_login(boss)
    assert "Lift the code limit" in office.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert office.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code == 302
    lifts = Match.history.filter(id=match.pk, history_change_reason__startswith="Wrong-code limit lifted")
    assert sorted(row.history_user.username for row in lifts) == ["boss", "ref"]
    assert any(seats["W"].player.name in row.history_change_reason for row in lifts)
    audit = office.get(reverse("matches:audit", args=[match.pk])).content.decode()
    assert "Wrong-code limit lifted" in audit
