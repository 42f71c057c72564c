"""The wrong-code limit under a burst, as in production: PostgreSQL, the shared Redis cache, the
whole middleware stack. Forty phones guess at once, each with its own made-up X-Forwarded-For and
no cookie: the table lets through its free wrong codes and one more, never the burst."""

from __future__ import annotations

import pytest
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
    table_codes.code_limit_lift(match_id=match.pk)  # match ids repeat across runs on the shared Redis
    token = table_token(round_=match.round, table_id=match.table_id)
    url = reverse("matches:table_identify", args=[token])

    def guess(n: int):
        return lambda: english_client().post(url, {"code": f"{n:06d}x"}, HTTP_X_FORWARDED_FOR=f"10.9.{n}.1")

    answers = [value.status_code for kind, value in together(*(guess(n) for n in range(GUESSES))) if kind == "ok"]
    assert len(answers) == GUESSES and set(answers) <= {400, 429}
    checked = answers.count(400)
    assert 1 <= checked <= table_codes.TABLE_FREE + 1
    assert table_codes.code_limit_get(match_id=match.pk).wrong == checked
    # and then the table is paused for everyone until a referee lifts it — or counts on, below the pause
    seat = pe.table_players(match=match)[0]
    right = english_client().post(url, {"code": seat.player.employee_number}, HTTP_X_FORWARDED_FOR="10.9.200.1")
    assert right.status_code == (429 if checked == table_codes.TABLE_FREE + 1 else 302)
