"""The wrong-code limit under a burst, as in production: PostgreSQL, the shared Redis cache, the
whole middleware stack. Forty phones guess one seat's PIN at once, each with its own made-up
X-Forwarded-For and no cookie: the PIN lets through its free wrong codes and one more, never the
burst; the other seats are not held up."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from tests.factories import english_client
from tests.tournament.matches.test_concurrency_postgres import together
from tests.tournament.matches.test_table_codes import players_match
from tournament.matches import player_entry as pe
from tournament.matches import table_codes
from tournament.matches.table_links import table_token

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

GUESSES = 40


def test_a_burst_of_guesses_from_forged_addresses_is_counted_one_by_one():
    match = players_match()
    pe.table_codes_lift(match_id=match.pk, user=AnonymousUser())  # match ids repeat across runs on the shared Redis
    token = table_token(round_=match.round, table_id=match.table_id)
    url = reverse("matches:table_identify", args=[token])
    north, east = pe.table_players(match=match)[:2]
    pin = pe.seat_pin(player_id=north.player.pk)

    def guess(n: int):
        code = f"{(int(pin) + 1 + n) % 10**6:06d}"
        return lambda: english_client().post(url, {"code": code, "seat": "N"}, HTTP_X_FORWARDED_FOR=f"10.9.{n}.1")

    answers = [value.status_code for kind, value in together(*(guess(n) for n in range(GUESSES))) if kind == "ok"]
    assert len(answers) == GUESSES and set(answers) <= {400, 429}
    refused = answers.count(400)  # the wrong code that starts the pause is answered 429, like those after it
    (wrong,) = [row.wrong for row in pe.table_code_limits(match=match)]
    assert 1 <= wrong <= table_codes.TARGET_FREE + 1
    assert refused == (wrong - 1 if wrong > table_codes.TARGET_FREE else wrong)
    # then that PIN waits until a referee lifts it (or counts on, below the pause); the others never
    right = english_client().post(url, {"code": pin, "seat": "N"}, HTTP_X_FORWARDED_FOR="10.9.200.1")
    assert right.status_code == (429 if wrong == table_codes.TARGET_FREE + 1 else 302)
    east_pin = pe.seat_pin(player_id=east.player.pk)
    assert english_client().post(url, {"code": east_pin, "seat": "E"}).status_code == 302
