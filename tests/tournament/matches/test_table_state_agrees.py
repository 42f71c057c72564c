"""The players' page, the referee's page and the organiser's progress board say the same state of a
table in every state of a match: not started, in play, a deal awaiting confirmation, disputed, time
called, finished (awaiting sign-off), signed off — one answer (``board.table_state``), one word.

Before, the players' page said 未开始 beside a confirmed deal until reloaded, the board said 进行中
for a disputed table, and the players' page showed A–A with no result where the referee's page said
南北 获胜（过A）."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import organiser, referee, round_match
from tests.tournament.matches.test_player_entry import players_match
from tests.tournament.matches.test_time_due import finished
from tournament.matches import clock, services
from tournament.matches import player_entry as pe
from tournament.matches.models import Match
from tournament.matches.table_links import table_token

pytestmark = pytest.mark.django_db

NS_WINS = {"order": ["N", "S"]}


def _enter(match: Match) -> int:
    north = pe.table_players(match=match)[0]
    number = len(match.deals.all()) + 1
    return pe.deal_claim_enter(
        match_id=match.pk, outcome=NS_WINS, player_id=north.player.pk, number=number, idempotency_key=f"k{number}"
    ).claim.pk


def _not_started(match: Match) -> None:
    pass


def _in_play(match: Match) -> None:
    clock.match_start(match_id=match.pk)
    services.deal_record(match_id=match.pk, outcome=NS_WINS)


def _deal_pending(match: Match) -> None:
    _in_play(match)
    _enter(match)


def _disputed(match: Match) -> None:
    _in_play(match)
    claim_id = _enter(match)
    east = pe.table_players(match=match)[1]
    pe.deal_claim_dispute(
        match_id=match.pk, claim_id=claim_id, player_id=east.player.pk, counter_outcome={"order": ["E", "W"]}
    )


def _time_called(match: Match) -> None:
    _in_play(match)
    clock.match_call_now(match_id=match.pk, reason="the room closes")


def _finished(match: Match) -> None:
    clock.match_start(match_id=match.pk)
    finished(match)


def _signed_off(match: Match) -> None:
    _finished(match)
    services.match_sign_off(match_id=Match.objects.get(pk=match.pk).pk)


STATES = [
    ("not started", _not_started, "not_started", 0),
    ("in play", _in_play, "playing", 0),
    ("deal pending", _deal_pending, "playing", 1),
    ("disputed", _disputed, "disputed", 0),
    ("time called", _time_called, "time_called", 0),
    ("finished", _finished, "awaiting", 0),
    ("signed off", _signed_off, "confirmed", 0),
]

_STATE = re.compile(r'id="table-state" data-state="([a-z_]+)" data-claims-pending="(\d+)"[^>]*>([^<]*)<')


def _state(html: str) -> tuple[str, int, str]:
    found = _STATE.search(html)
    assert found, "no table state on the page"
    return found[1], int(found[2]), " ".join(found[3].split())


def _board_state(html: str, match: Match) -> tuple[str, int, str]:
    row = html[html.index(f'href="/referee/matches/{match.pk}/"') :]
    found = re.search(r'data-state="([a-z_]+)" data-claims-pending="(\d+)">([^<]*)<', row)
    assert found
    return found[1], int(found[2]), " ".join(found[3].split())


def _result(html: str) -> str:
    found = re.search(r'<p class="result"[^>]*>([^<]*)</p>', html)
    return found[1].strip() if found else ""


@pytest.mark.parametrize(("name", "drive", "code", "pending"), STATES, ids=[state[0] for state in STATES])
def test_the_three_pages_say_the_same_state(client, name, drive, code, pending):
    ref = referee(username="ref")
    boss = organiser(username="boss")
    match = players_match(referee_user=ref, organiser_user=boss)
    round_match(round_=match.round)  # another table plays on: the round (and the table's link) stays open
    drive(match)
    match = Match.objects.get(pk=match.pk)
    token = table_token(round_=match.round, table_id=match.table_id)

    players = client.get(reverse("matches:table", args=[token])).content.decode()
    client.force_login(ref)
    referee_page = client.get(reverse("matches:match", args=[match.pk])).content.decode()
    client.force_login(boss)
    board = client.get(
        reverse("matches:progress_board", args=[match.round.stage.tournament_id, match.round_id])
    ).content.decode()

    said = {"players": _state(players), "referee": _state(referee_page), "board": _board_state(board, match)}
    assert {page: state[:2] for page, state in said.items()} == {page: (code, pending) for page in said}, name
    assert len({state[2] for state in said.values()}) == 1  # the same words (Chinese: the default language)
    # once finished, the players read the result as the referee does (never A–A and nothing else)
    assert _result(players) == _result(referee_page)
    if code in ("awaiting", "confirmed"):
        assert "南北 获胜" in _result(players)
