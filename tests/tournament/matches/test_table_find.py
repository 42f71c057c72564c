"""A phone that cannot scan the QR code: the table card prints a short address and the table's code
beside its number; typing them opens the table's page. Wrong codes are counted like the seat PINs':
per table number being guessed and per phone, never per address; a referee or organiser lifts them."""

from __future__ import annotations

import time

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse

from tests.factories import english_client, organiser, referee, round_match
from tests.tournament.matches.test_table_codes import _full_width, players_match
from tournament.matches import table_codes
from tournament.matches.models import RoundStatus
from tournament.matches.table_links import table_code, table_codes_of, table_link_revoke, table_token

pytestmark = pytest.mark.django_db

FIND = "/table/"


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    cache.clear()


def _open(client, number, code, **headers):
    return client.post(reverse("matches:table_find"), {"table": str(number), "code": code}, **headers)


def _code(match) -> str:
    return table_codes_of(round_=match.round)[match.table_id]


def _wrong(code: str, n: int) -> str:
    guess = f"{(int(code) + 1 + n) % 10**6:06d}"
    assert guess != code
    return guess


def test_the_cards_print_the_short_address_and_each_tables_code():
    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    other = round_match(round_=match.round)
    office = english_client()
    office.force_login(boss)
    tournament = match.round.stage.tournament
    body = office.get(reverse("matches:table_cards", args=[tournament.pk, match.round_id])).content.decode()
    assert reverse("matches:table_find") == FIND
    assert f"http://testserver{FIND}" in body and "Cannot scan?" in body
    codes = table_codes_of(round_=match.round)
    assert len(codes) == 2 and len(set(codes.values())) == 2
    for code in codes.values():
        assert f'data-table-code="{code}"' in body and len(code) == 6 and code.isdigit()
    assert codes[other.table_id] != codes[match.table_id]


def test_the_number_and_code_open_the_tables_page_and_nothing_else():
    match = players_match()
    other = round_match(round_=match.round)
    phone = english_client()
    assert phone.get(reverse("matches:table_find")).status_code == 200
    opened = _open(phone, match.table.number, _full_width(_code(match)))  # a Chinese keyboard's digits
    assert opened.status_code == 302
    token = table_token(round_=match.round, table_id=match.table_id)
    assert opened["Location"] == reverse("matches:table", args=[token])
    assert _open(phone, other.table.number, _code(match)).status_code == 400  # another table's code
    assert _open(phone, match.table.number, "").status_code == 400
    assert _open(phone, "twelve", _code(match)).status_code == 400
    # withdrawn: the old code stops, the new card's code opens
    old = _code(match)
    table_link_revoke(round_=match.round, table_id=match.table_id)
    assert _open(english_client(), match.table.number, old).status_code == 400
    assert _open(english_client(), match.table.number, _code(match)).status_code == 302
    # the round over: nothing opens
    type(match.round).objects.filter(pk=match.round_id).update(status=RoundStatus.FINISHED)
    assert _open(english_client(), match.table.number, _code(match)).status_code == 400
    assert table_code(round_id=match.round_id, table_id=match.table_id, generation=1) == _code(match)


def test_guesses_pause_that_table_numbers_code_and_the_phone_never_the_room():
    ref = referee(username="ref")
    match = players_match(referee_user=ref)
    other = round_match(round_=match.round)
    code = _code(match)
    with time_machine.travel(time.time(), tick=False):
        # one phone's typos pause that phone only
        typo = english_client()
        answers = [_open(typo, other.table.number, _wrong(_code(other), n)).status_code for n in range(7)]
        assert answers == [400] * (table_codes.DEVICE_FREE + 1) + [429]
        assert _open(english_client(), other.table.number, _code(other)).status_code == 302  # the room goes on
        # a guesser drops its cookies and forges its address: the table number's code pauses
        for n in range(table_codes.TARGET_FREE):
            forged = {"HTTP_X_FORWARDED_FOR": f"10.2.{n}.1"}
            assert _open(english_client(), match.table.number, _wrong(code, n), **forged).status_code == 400
        paused = _open(english_client(), match.table.number, _wrong(code, 50))
        assert paused.status_code == 429 and int(paused["Retry-After"]) == table_codes.TARGET_FIRST_PAUSE
        right = _open(english_client(), match.table.number, code)  # refused like a wrong one while paused
        assert right.status_code == 429 and "ask a referee" in right.content.decode()
        assert _open(english_client(), other.table.number, _code(other)).status_code == 302  # another table: open
    # the referee of the table lifts it from the match page
    desk = english_client()
    desk.force_login(ref)
    assert desk.post(reverse("matches:table_codes_lift", args=[match.pk])).status_code == 302
    assert _open(english_client(), match.table.number, code).status_code == 302
