"""What the public pages say of a result: a pair's own score first, a forfeit as a forfeit,
a first round's standings without a movement note on every line, 已到时 once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournament.standings.events import swiss_event
from tournament.matches.services import adjustment_record, deal_record
from tournament.standings.results import forfeit_text, forfeited_by, pair_result

NS_ID, EW_ID = 1, 2


def view(**fields):
    """A public match view (``MatchView``'s fields that the result reads)."""
    base = {
        "ns": SimpleNamespace(pair_id=NS_ID),
        "ew": SimpleNamespace(pair_id=EW_ID),
        "status": "finished",
        "winner": "NS",
        "reason": "higher_level",
        "levels": (12, 9),
        "points": None,
        "is_bye": False,
        "walkover_over": "",
    }
    return SimpleNamespace(**{**base, **fields})


def test_each_pair_reads_its_own_score_first():
    match = view()
    assert (pair_result(match, NS_ID).outcome, pair_result(match, NS_ID).score) == ("won", ("Q", "9"))
    assert (pair_result(match, EW_ID).outcome, pair_result(match, EW_ID).score) == ("lost", ("9", "Q"))
    assert pair_result(match, EW_ID).side == "EW"
    points = view(points=(9, 6), winner="EW", reason="points")
    assert pair_result(points, EW_ID).score == ("6", "9") and pair_result(points, EW_ID).outcome == "won"


def test_a_match_in_play_or_not_started_is_not_a_result_yet():
    assert pair_result(view(status="running", winner=""), NS_ID).outcome == ""
    assert pair_result(view(status="running", winner=""), NS_ID).score == ("Q", "9")  # the live levels
    assert pair_result(view(status="pending", winner="", levels=(2, 2)), EW_ID).score is None
    assert pair_result(view(winner="", reason="draw"), EW_ID).outcome == "draw"
    assert pair_result(view(is_bye=True), NS_ID).outcome == "bye"
    assert pair_result(view(is_bye=True, walkover_over="王/李"), NS_ID).outcome == "walkover"  # the opponent withdrew


def test_a_forfeit_reads_as_a_forfeit_never_as_its_levels():
    match = view(winner="NS", reason="forfeit", levels=(2, 2))
    assert forfeited_by(match) == "EW"
    own, theirs = pair_result(match, EW_ID), pair_result(match, NS_ID)
    assert (own.outcome, own.forfeit, own.score) == ("lost", "own", None)
    assert (theirs.outcome, theirs.forfeit, theirs.score) == ("won", "opponent", None)
    both = view(winner="", reason="forfeit", levels=(2, 2))
    assert forfeited_by(both) == "both"
    assert pair_result(both, NS_ID).outcome == "lost"  # a double forfeit is a loss for both (docs/rules.md §5)
    assert forfeited_by(view()) == "" and forfeit_text(view()) == ""
    with translation.override("zh-hans"):
        assert forfeit_text(match) == "东西弃权" and forfeit_text(both) == "双方弃权"
        assert own.forfeit_text == "弃权" and theirs.forfeit_text == "对手弃权"
    with translation.override("en"):
        assert forfeit_text(match) == "E/W forfeit"


@pytest.mark.django_db
def test_the_public_pages_of_a_forfeited_match_say_forfeit(client):
    event = swiss_event()
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="forfeit", reason="absent")
    t = event.tournament.pk
    draw = client.get(reverse("standings:draw_round", args=[t, event.second.pk])).content.decode()
    assert "E/W forfeit" in draw
    pair = client.get(reverse("standings:pair", args=[t, match.ew_pair_id])).content.decode()
    assert 'class="badge forfeit">forfeit<' in pair and "2 : 2" not in pair
    page = client.get(reverse("standings:match", args=[t, match.pk])).content.decode()
    assert page.count('class="badge forfeit"') == 1 and "pub-big" not in page
    assert "Forfeit · E/W · Reason: absent" in page  # the adjustment by its label, not the code "forfeit:"


@pytest.mark.django_db
def test_failed_a_attempts_are_marked_in_the_public_history(client):
    event = swiss_event()
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    for order in (["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "W"]):  # timed-40: at A, then fails
        deal_record(match_id=match.pk, outcome={"order": order})
    page = client.get(reverse("standings:match", args=[event.tournament.pk, match.pk])).content.decode()
    assert page.count('class="a-note a-failed">A failed<') == 1
    chinese = Client().get(reverse("standings:match", args=[event.tournament.pk, match.pk])).content.decode()
    assert "打A失败" in chinese and "北 › 东 › 西" in chinese


@pytest.mark.django_db
def test_a_first_rounds_standings_say_no_earlier_round_once():
    event = swiss_event()
    stage = event.first.stage
    html = Client().get(reverse("standings:stage_standings", args=[event.tournament.pk, stage.pk])).content.decode()
    assert html.count("没有上一轮") == 1  # the note above the table, not each of the 8 lines
