"""A Dou Dizhu event finishes by itself when its final table is signed off, as a Guandan event does when
its knockout final is (docs/rules.md §10: the final ranks the finalists; the event's settings page
promises the move): not before every round of the final is signed off, and never after a points stage
that is not a final."""

from __future__ import annotations

import pytest

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches import services
from tournament.registration.models import Tournament, TournamentStatus
from tournament.standings.selectors import stage_decided_get

pytestmark = pytest.mark.django_db

DEAL = {"landlord": "E", "bid": 2, "winner": "landlord"}


def _status(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def _final_of(tournament, stage, boss, *, rounds: int = 1):
    final = stage_create(
        tournament=tournament, name="决赛", format="points", options={"rounds": rounds, "final": True}, user=boss
    )
    return stage_advance(stage=stage, next_stage=final, count=3, user=boss)


def test_signing_off_the_final_table_finishes_the_event(boss, django_capture_on_commit_callbacks):
    tournament, stage = doudizhu_event(players=6, boss=boss, options={"rounds": 1})
    with django_capture_on_commit_callbacks(execute=True):
        play_round(drawn_round(stage, user=boss), user=boss)
    final = _final_of(tournament, stage, boss)
    with django_capture_on_commit_callbacks(execute=True):
        table = drawn_round(final, user=boss).matches.get()
        for _ in range(3):
            services.deal_record(match_id=table.pk, outcome=DEAL, user=boss)
    assert _status(tournament) == TournamentStatus.RUNNING  # played out, not signed off yet
    assert not stage_decided_get(stage=final)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_sign_off(match_id=table.pk, user=boss)
    assert stage_decided_get(stage=final)
    assert _status(tournament) == TournamentStatus.FINISHED


def test_a_final_of_two_rounds_is_not_decided_by_its_first(boss, django_capture_on_commit_callbacks):
    tournament, stage = doudizhu_event(players=6, boss=boss, options={"rounds": 1})
    with django_capture_on_commit_callbacks(execute=True):
        play_round(drawn_round(stage, user=boss), user=boss)
    final = _final_of(tournament, stage, boss, rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(drawn_round(final, user=boss), user=boss)
    assert not stage_decided_get(stage=final)
    assert _status(tournament) == TournamentStatus.RUNNING
    with django_capture_on_commit_callbacks(execute=True):
        play_round(drawn_round(final, user=boss), user=boss)
    assert _status(tournament) == TournamentStatus.FINISHED


def test_a_last_points_stage_that_is_not_a_final_is_finished_by_the_organiser(boss, django_capture_on_commit_callbacks):
    tournament, stage = doudizhu_event(players=6, boss=boss, options={"rounds": 1})
    with django_capture_on_commit_callbacks(execute=True):
        play_round(drawn_round(stage, user=boss), user=boss)
    assert not stage_decided_get(stage=stage)
    assert _status(tournament) == TournamentStatus.RUNNING
