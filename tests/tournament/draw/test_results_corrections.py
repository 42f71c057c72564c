"""Results stay true after a correction (docs/corrections.md).

Swiss → knockout → unlock and correct a round-1 match: the unlock lists what depends on it and
needs the acknowledgement, the clock stays stopped, the re-sign-off flags the knockout whose
advancing set changed (or re-advances one not yet drawn), a knockout's next match follows a
changed winner or the sign-off is refused; and one policy for results awaiting sign-off.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.advancement_flags import advancement_flag_resolve, stage_open_advancement_flag
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_advancing_now, stage_create
from tournament.errors import UserError
from tournament.matches import selectors
from tournament.matches.corrections import match_dependents
from tournament.matches.errors import MatchRefused
from tournament.matches.models import (
    AdvancementFlagStatus,
    Correction,
    CorrectionStatus,
    Match,
    MatchStatus,
    RoundEntry,
    RoundStatus,
)
from tournament.matches.services import deal_record, deal_undo, match_sign_off, match_unlock
from tournament.registration.models import ProvisionalResults
from tournament.standings.selectors import stage_bracket_state_get, stage_ranking_get

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(django_capture_on_commit_callbacks):
    """The sign-off hooks run after the commit (``match_confirmed``): here, each write's callbacks
    run when it returns, as they would once its transaction commits."""
    global COMMITS
    COMMITS = django_capture_on_commit_callbacks
    yield


COMMITS = None


def signed(match_id: int, user=None) -> Match:
    with COMMITS(execute=True):
        return match_sign_off(match_id=match_id, user=user)


def swiss(pairs: int = 8, rounds: int = 3, *, sign: bool = True):
    tournament = make_field(pairs)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    for number in range(1, rounds + 1):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for k, match in enumerate(round_.matches.filter(ew_pair__isnull=False).order_by("id")):
            (confirm if sign else win)(match, "NS" if k % 2 else "EW")
    return tournament, stage


def knockout(tournament, **options):
    return stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", **options}
    )


def flip(match: Match, *, user=None) -> Match:
    """The correction: every deal taken back, the other side wins them all, signed off again."""
    match.refresh_from_db()
    loser_side = "EW" if match.winner == "NS" else "NS"
    while match.deals.exists():
        deal_undo(match_id=match.pk, user=user, reason="录错了")
    win(match, loser_side)
    return signed(match.pk, user)


def test_an_unlock_that_later_rounds_depend_on_lists_them_and_needs_the_acknowledgement():
    tournament, stage = swiss(rounds=2)
    boss = organiser()
    tournament.organisers.add(boss)
    match = Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).first()
    dependents = match_dependents(match=match)
    assert dependents.later_rounds == (2,) and dependents.any
    with pytest.raises(MatchRefused) as refused:
        match_unlock(match_id=match.pk, reason="记错了", user=boss)
    assert refused.value.code == "dependents"
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and not Correction.objects.exists()  # nothing changed
    match_unlock(match_id=match.pk, reason="记错了", user=boss, dependents_seen=True)
    match.refresh_from_db()
    correction = Correction.objects.get(match=match)
    assert correction.status == CorrectionStatus.OPEN and correction.dependents["later_rounds"] == [2]
    assert correction.before["winner"] in (match.ns_pair_id, match.ew_pair_id)
    assert match.status == MatchStatus.FINISHED and match.reopened_at is not None
    assert match.round.status == RoundStatus.FINISHED  # the finished round is not reopened
    match_sign_off(match_id=match.pk, user=boss)
    correction.refresh_from_db()
    match.refresh_from_db()
    assert correction.status == CorrectionStatus.CLOSED and correction.changes["winner_changed"] is False
    assert match.reopened_at is None


def test_a_match_reopened_for_correction_never_restarts_its_clock():
    _tournament, stage = swiss(rounds=1)
    match = Match.objects.filter(round__stage=stage, ew_pair__isnull=False).first()
    past = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(started_at=past - timedelta(minutes=40), clock_ends_at=past)
    match_unlock(match_id=match.pk, reason="补录")
    deal_undo(match_id=match.pk, reason="更正")  # the match is no longer over: it is being corrected, not played
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    match.refresh_from_db()
    assert match.time_called_at is None and match.time_called_during_deal is None  # no time call
    clock = selectors.match_clock(match=match)
    assert clock.reopened and clock.seconds_left is None and not clock.time_called


def test_the_scenario_swiss_then_knockout_then_a_round_1_correction_flags_the_advancement(client):
    tournament, stage = swiss()
    boss = organiser()
    tournament.organisers.add(boss)
    final = knockout(tournament)
    stage_advance(stage=stage, next_stage=final, user=boss)
    round_publish(round_=round_draw(stage=final, seed=1))
    final.refresh_from_db()
    advanced = list(final.options["entrants"])
    flagged = None
    for match in Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).order_by("id"):
        assert match_dependents(match=match).later_stages[0].drawn
        match_unlock(match_id=match.pk, reason="记分有误", user=boss, dependents_seen=True)
        flip(match, user=boss)
        now = stage_advancing_now(next_stage=final)
        flag = stage_open_advancement_flag(stage=final)
        # flagged exactly when the corrected standings advance other pairs
        assert (flag is not None) == (set(now) != set(advanced))
        if flag is not None:
            flagged = flag
            break
    assert flagged is not None, "no round-1 correction changed who advances"
    assert flagged.advanced == advanced and set(flagged.now_advancing) == set(now)
    assert flagged.correction is not None and flagged.correction.match_id == match.pk
    final.refresh_from_db()
    assert final.options["entrants"] == advanced  # a drawn stage is never silently re-seeded
    # the same truth on the organiser's page, the API and the workbook
    client.force_login(boss)
    page = client.get(f"/t/{tournament.pk}/manage/stages/{final.pk}/")
    assert page.status_code == 200 and page.context["flag"].id == flagged.pk
    api = client.get(f"/api/public/tournaments/{tournament.pk}/stages/{stage.pk}/standings/")
    assert api.status_code == 200
    ranks = [line["pair_id"] for line in api.json()["results"]]
    assert [int(row.entrant) for row in stage_ranking_get(stage=stage).standings.rows] == ranks
    overview = client.get(f"/api/public/tournaments/{tournament.pk}/").json()
    assert {s["id"]: s["advancement_changed"] for s in overview["stages"]} == {stage.pk: False, final.pk: True}
    bracket_page = client.get(f"/t/{tournament.pk}/bracket/{final.pk}/").content.decode()
    assert "advancement-changed" in bracket_page
    # keep, with a reason (a redraw is refused: the stage has no result yet, so it is allowed here)
    with pytest.raises(UserError):
        advancement_flag_resolve(stage=final, choice="keep", reason=" ", user=boss)
    advancement_flag_resolve(stage=final, choice="redraw", reason="按更正后的名次重新晋级", user=boss)
    final.refresh_from_db()
    flagged.refresh_from_db()
    assert flagged.status == AdvancementFlagStatus.REDRAWN and set(final.options["entrants"]) == set(now)
    assert not final.rounds.exists()
    assert flagged.history.filter(history_change_reason="按更正后的名次重新晋级").exists()
    overview = client.get(f"/api/public/tournaments/{tournament.pk}/").json()
    assert not any(s["advancement_changed"] for s in overview["stages"])  # decided: no flag any more


def test_a_later_stage_not_yet_drawn_is_advanced_again():
    tournament, stage = swiss()
    boss = organiser()
    final = knockout(tournament)
    stage_advance(stage=stage, next_stage=final, user=boss)
    for match in Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).order_by("id"):
        final.refresh_from_db()
        before = list(final.options["entrants"])
        match_unlock(match_id=match.pk, reason="记分有误", dependents_seen=True)
        flip(match)
        final.refresh_from_db()
        assert set(final.options["entrants"]) == set(stage_advancing_now(next_stage=final))
        assert stage_open_advancement_flag(stage=final) is None
        if set(final.options["entrants"]) != set(before):
            assert Correction.objects.get(match=match).changes["advanced_again"] == [final.pk]
            return
    pytest.fail("no round-1 correction changed who advances")


def test_a_kept_advancement_needs_a_reason_and_a_played_stage_cannot_be_drawn_again():
    tournament, stage = swiss()
    boss = organiser()
    final = knockout(tournament)
    stage_advance(stage=stage, next_stage=final, user=boss)
    first = round_publish(round_=round_draw(stage=final, seed=1))
    confirm(first.matches.filter(ew_pair__isnull=False).first())
    for match in Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).order_by("id"):
        match_unlock(match_id=match.pk, reason="记分有误", dependents_seen=True)
        flip(match)
        if stage_open_advancement_flag(stage=final) is not None:
            break
    else:
        pytest.fail("no round-1 correction changed who advances")
    with pytest.raises(UserError) as refused:
        advancement_flag_resolve(stage=final, choice="redraw", reason="重抽", user=boss)
    assert refused.value.code == "stage_played"
    flag = advancement_flag_resolve(stage=final, choice="keep", reason="淘汰赛已开赛，维持原签表", user=boss)
    assert flag.status == AdvancementFlagStatus.KEPT and flag.decided_by == boss
    assert stage_open_advancement_flag(stage=final) is None


def semi_finals(*, third_place: bool = True):
    tournament = make_field(4, seeds=True)
    stage = knockout(tournament, seeding="seeds", third_place=third_place)
    semis = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in semis.matches.order_by("table__number"):
        win(match)
        signed(match.pk)
    final_round = stage.rounds.get(number=2)  # drawn by the sign-off hook
    return tournament, stage, semis, round_publish(round_=final_round)


def test_a_changed_semi_final_winner_moves_into_the_final_not_yet_started():
    _tournament, _stage, semis, final_round = semi_finals()
    semi = semis.matches.order_by("table__number").first()
    old_winner, old_loser = semi.ns_pair_id, semi.ew_pair_id  # NS won every deal
    dependents = match_dependents(match=semi)
    assert len(dependents.successors) == 2 and not dependents.successor_started
    match_unlock(match_id=semi.pk, reason="记分有误", dependents_seen=True)
    flip(semi)
    in_final = {pair for m in final_round.matches.all() for pair in (m.ns_pair_id, m.ew_pair_id)}
    assert old_loser in in_final and old_winner in in_final  # one in the final, one for third
    final = final_round.matches.get(table__number=1)
    third = final_round.matches.get(table__number=2)
    assert old_loser in (final.ns_pair_id, final.ew_pair_id)
    assert old_winner in (third.ns_pair_id, third.ew_pair_id)
    entries = {(e.match_id, e.pair_id, e.side) for e in RoundEntry.objects.filter(round=final_round)}
    assert entries == {
        (m.pk, pair, side)
        for m in (final, third)
        for pair, side in ((m.ns_pair_id, "NS"), (m.ew_pair_id, "EW"))
    }
    assert set(Correction.objects.get(match=semi).changes["bracket_followed"]) == {final.pk, third.pk}


def test_a_semi_final_cannot_change_its_winner_once_the_final_is_played():
    """The issue's second case: the final published and played, a semi-final corrected."""
    _tournament, stage, semis, final_round = semi_finals()
    final = final_round.matches.get(table__number=1)
    third = final_round.matches.get(table__number=2)
    for match in (final, third):
        win(match)
        signed(match.pk)
    champion = stage_bracket_state_get(stage=stage).champion
    placings_before = [row.entrant for row in stage_ranking_get(stage=stage).standings.rows]
    semi = semis.matches.order_by("table__number").first()
    dependents = match_dependents(match=semi)
    assert dependents.placings_decided and dependents.successor_started
    match_unlock(match_id=semi.pk, reason="记分有误", dependents_seen=True)
    with pytest.raises(MatchRefused) as refused:
        flip(semi)
    assert refused.value.code == "successor_started"
    semi.refresh_from_db()
    assert semi.status == MatchStatus.FINISHED  # not signed off with a result the final contradicts
    # while the semi-final is reopened the bracket decides on confirmed results only: no champion
    # is named, and nobody outside the final is placed first
    assert stage_bracket_state_get(stage=stage).champion is None
    finalists = {str(final.ns_pair_id), str(final.ew_pair_id)}
    rows = stage_ranking_get(stage=stage).standings.rows
    assert not (rows[0].rank == 1 and rows[0].entrant not in finalists)
    # restoring the result lets it be signed off again; the placings are as before
    while semi.deals.exists():
        deal_undo(match_id=semi.pk, reason="更正")
    win(semi, "NS")
    signed(semi.pk)
    assert Correction.objects.get(match=semi).status == CorrectionStatus.CLOSED
    assert stage_bracket_state_get(stage=stage).champion == champion
    rows = stage_ranking_get(stage=stage).standings.rows
    assert [row.entrant for row in rows] == placings_before and rows[0].entrant == champion


def test_results_awaiting_sign_off_count_marked_or_not_at_all_as_the_event_chooses(client):
    tournament, stage = swiss(rounds=1, sign=False)
    unsigned = Match.objects.filter(round__stage=stage, ew_pair__isnull=False).first()
    standings = stage_ranking_get(stage=stage)
    assert {str(unsigned.ns_pair_id), str(unsigned.ew_pair_id)} <= standings.provisional
    assert sum(row.played for row in standings.standings.rows) == 8
    api = client.get(f"/api/public/tournaments/{tournament.pk}/stages/{stage.pk}/standings/")
    assert api.status_code == 200
    lines = {line["pair_id"]: line for line in api.json()["results"]}
    assert lines[unsigned.ns_pair_id]["provisional"] is True
    tournament.provisional_results = ProvisionalResults.SIGNED_OFF
    tournament.save()
    standings = stage_ranking_get(stage=stage)
    assert standings.provisional == frozenset() and sum(row.played for row in standings.standings.rows) == 0
    match_sign_off(match_id=unsigned.pk)
    standings = stage_ranking_get(stage=stage)
    assert sum(row.played for row in standings.standings.rows) == 2


def test_the_workbook_marks_results_awaiting_sign_off():
    from tournament.exports.workbook import workbook_build

    tournament, stage = swiss(rounds=1, sign=False)
    signed = Match.objects.filter(round__stage=stage, ew_pair__isnull=False).order_by("id")
    for match in signed[1:]:
        match_sign_off(match_id=match.pk)
    unsigned = signed[0]
    target = io.BytesIO()
    workbook_build(tournament=tournament, target=target)
    book = load_workbook(io.BytesIO(target.getvalue()))
    sheet = book["预赛排名"]
    header = [cell.value for cell in sheet[1]]
    column, pair_column = header.index("待确认"), header.index("对号")
    marked = {row[pair_column].value for row in sheet.iter_rows(min_row=2) if row[column].value == "是"}
    assert marked == {unsigned.ns_pair.number, unsigned.ew_pair.number}  # pairs by their event numbers


def test_the_unlock_page_and_the_api_show_the_dependents_first(client):
    from django.urls import reverse
    from rest_framework.test import APIClient

    tournament, stage = swiss(rounds=2)
    boss = organiser()
    tournament.organisers.add(boss)
    final = knockout(tournament)
    stage_advance(stage=stage, next_stage=final, user=boss)
    round_publish(round_=round_draw(stage=final, seed=1))
    match = Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).first()
    client.force_login(boss)
    url = reverse("matches:unlock", args=[match.pk])
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and "淘汰赛" in text and "dependents_seen" in text
    assert page.context["dependents"].later_rounds == (2,)
    refused = client.post(url, {"reason": "记错了"})
    assert refused.status_code == 400
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    done = client.post(url, {"reason": "记错了", "dependents_seen": "on"})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.reopened_at is not None
    detail = client.get(reverse("matches:match", args=[match.pk]))
    assert "reopened" in detail.content.decode()  # the clock says so, no countdown
    signed(match.pk, boss)

    api = APIClient()
    api.force_authenticate(boss)
    other = Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).exclude(pk=match.pk)[0]
    seen = api.get(reverse("api:unlock", args=[other.pk]))
    assert seen.status_code == 200 and seen.data["any"] and seen.data["later_rounds"] == [2]
    assert seen.data["later_stages"] == [{"id": final.pk, "name": "淘汰赛", "drawn": True}]
    blocked = api.post(reverse("api:unlock", args=[other.pk]), {"reason": "x"}, format="json")
    assert blocked.status_code == 409 and blocked.data["error"]["code"] == "dependents"
    ok = api.post(reverse("api:unlock", args=[other.pk]), {"reason": "x", "dependents_seen": True}, format="json")
    assert ok.status_code == 200 and ok.data["status"] == "finished"


def test_the_organiser_sets_the_policy_on_the_event_page(client):
    from django.urls import reverse

    tournament, _stage = swiss(rounds=1, sign=False)
    boss = organiser()
    tournament.organisers.add(boss)
    client.force_login(boss)
    data = {"name": tournament.name, "rule_profile": tournament.rule_profile, "provisional_results": "signed_off"}
    assert client.post(reverse("matches:event", args=[tournament.pk]), data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.provisional_results == ProvisionalResults.SIGNED_OFF
    bad = client.post(reverse("matches:event", args=[tournament.pk]), {**data, "provisional_results": "x"})
    assert bad.status_code == 200 and "provisional_results" in bad.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.provisional_results == ProvisionalResults.SIGNED_OFF
