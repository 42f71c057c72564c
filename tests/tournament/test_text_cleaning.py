"""Invisible text does not pass "required", and text-direction controls are refused in names and
reasons — by the one normalising function (``tournament.text.clean_text``) that the forms, the
roster importer and the API all reach."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, organiser, referee, table_match
from tests.tournament.registration.test_roster_import import errors_of, workbook
from tournament.matches.services import deal_record
from tournament.registration.models import Pair, Player
from tournament.registration.roster import roster_import
from tournament.text import clean_text, direction_controls

pytestmark = pytest.mark.django_db

ZWSP = "\u200b"
RLO = "\u202e"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        (ZWSP * 2, ""),  # nothing visible: empty, so "required" refuses it
        (RLO, ""),  # a lone override is nothing visible either
        ("\u3164\u2800 \u00ad", ""),  # Hangul filler, blank Braille, soft hyphen
        ("\u0301\u0301", ""),  # combining marks with nothing to sit on
        ("张\u200b伟\u2060", "张伟"),
        (" 李\t娜 \u3000", "李 娜"),  # the ideographic space is white space
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the zero-width joiner builds the emoji
        ("张三（财务）！", "张三（财务）！"),  # not NFKC: Chinese punctuation stays as typed
        ("a\u202eb", "a\u202eb"),  # kept, for the caller to refuse
    ],
)
def test_the_cleaning(typed, kept):
    assert clean_text(typed) == kept


def test_identifiers_are_nfkc():
    assert clean_text("１００１", identifier=True) == "1001"
    assert clean_text("＋86 138", identifier=True) == "+86 138"
    assert clean_text("１００１") == "１００１"  # a name keeps its full-width digits
    assert direction_controls("a\u2066b") and not direction_controls("a\u200fb")


def _boss_client(client, event):
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    return client


PAIR = {
    "first_name": "张伟",
    "first_employee_number": "1001",
    "second_name": "李娜",
    "second_employee_number": "1002",
}


def test_the_registration_form_refuses_invisible_names_and_direction_controls(client):
    event = TournamentFactory()
    client = _boss_client(client, event)
    url = reverse("registration:pairs", args=[event.pk])
    invisible = client.post(url, {**PAIR, "first_name": ZWSP * 2})
    assert invisible.status_code == 200 and "first_name" in invisible.context["form"].errors
    reversed_ = client.post(url, {**PAIR, "second_name": f"李{RLO}娜"})
    assert reversed_.status_code == 200 and "second_name" in reversed_.context["form"].errors
    assert "U+202A" in str(reversed_.context["form"].errors["second_name"])
    assert not Pair.objects.filter(tournament=event).exists()
    assert client.post(url, {**PAIR, "first_employee_number": "１００１"}).status_code == 302
    assert Player.objects.filter(tournament=event, employee_number="1001").exists()


def test_the_roster_importer_refuses_the_same():
    rows = [[ZWSP + RLO, "1001", "", "1002", ""], ["李娜", "1002", f"财务{RLO}部", "1001", ""]]
    errors = errors_of(workbook(rows))
    assert (2, "Name is required.") in errors
    assert any(row == 3 and "U+202A" in message and message.startswith("Department") for row, message in errors)
    # full-width digits in the number and the partner's number are the same player
    event = TournamentFactory()
    rows = [["张伟", "１００１", "", "1002", ""], ["李娜", "1002", "", "1001", ""]]
    roster_import(tournament=event, file=workbook(rows))
    assert Pair.objects.filter(tournament=event).count() == 1


def test_the_api_refuses_an_invisible_or_reversed_reason():
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ref)[0].key}")
    url = reverse("api:undo", args=[match.pk])
    invisible = client.post(url, {"reason": ZWSP * 2, "expected_version": 1}, format="json")
    assert invisible.status_code == 400 and invisible.json()["error"]["code"] in ("reason_required", "bad_input")
    reversed_ = client.post(url, {"reason": f"记错{RLO}了", "expected_version": 1}, format="json")
    assert reversed_.status_code == 400 and reversed_.json()["error"]["code"] == "reason_direction"
    assert client.post(url, {"reason": "记错了", "expected_version": 1}, format="json").status_code == 200
