"""The correction flags beyond the first ones: the workbook says a stage's advancement changed; a later
Swiss round drawn from standings a correction changed is flagged like advancement (redraw or keep,
with a reason); a started next match that stops a knockout correction can be cleared.
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.factories import RefereeAssignmentFactory, organiser, referee
from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.advancement_flags import advancement_flag_resolve, stage_open_advancement_flag
from tournament.draw.round_flags import SAME_AGAIN, round_flag_resolve
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.exports.workbook import workbook_build
from tournament.matches.clearing import match_clear
from tournament.matches.errors import MatchRefused
from tournament.matches.models import (
    AdvancementFlag,
    AdvancementFlagKind,
    AdvancementFlagStatus,
    Correction,
    Deal,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tournament.matches.services import deal_record, deal_undo, match_sign_off, match_unlock
from tournament.registration.models import Pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """The sign-off hooks run after the commit (``match_confirmed``): run them when a write returns."""
    return django_capture_on_commit_callbacks


def swiss(pairs: int = 8, rounds: int = 3):
    tournament = make_field(pairs)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    for number in range(1, rounds + 1):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for k, match in enumerate(round_.matches.filter(ew_pair__isnull=False).order_by("id")):
            confirm(match, "NS" if k % 2 else "EW")
    return tournament, stage


def flip(match: Match, commits, *, user=None) -> Match:
    """The correction: every deal taken back, the other side wins them all, signed off again."""
    match.refresh_from_db()
    loser_side = "EW" if match.winner == "NS" else "NS"
    while match.deals.exists():
        deal_undo(match_id=match.pk, user=user, reason="录错了")
    win(match, loser_side)
    with commits(execute=True):
        return match_sign_off(match_id=match.pk, user=user)


def round_one(stage) -> list[Match]:
    return list(Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).order_by("id"))


def book_of(tournament, language="zh"):
    target = io.BytesIO()
    workbook_build(tournament=tournament, target=target, language=language)
    return load_workbook(io.BytesIO(target.getvalue()))


def cells(sheet) -> list[list]:
    return [[cell.value for cell in row] for row in sheet.iter_rows()]


def numbers(pks) -> set[int]:
    return set(Pair.objects.filter(pk__in=pks).values_list("number", flat=True))


# -- 1. the workbook says the advancement changed -------------------------------------------------------


def test_the_workbook_shows_the_advancement_changed_flag_and_the_decision(commits):
    """The scenario: Swiss → knockout drawn → a round-1 correction changes who advances."""
    tournament, stage = swiss()
    boss = organiser()
    final = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    stage_advance(stage=stage, next_stage=final, user=boss)
    round_publish(round_=round_draw(stage=final, seed=1))
    for match in round_one(stage):
        match_unlock(match_id=match.pk, reason="记分有误", user=boss, dependents_seen=True)
        flip(match, commits, user=boss)
        if stage_open_advancement_flag(stage=final) is not None:
            break
    else:
        pytest.fail("no round-1 correction changed who advances")
    flag = AdvancementFlag.objects.get(stage=final, kind=AdvancementFlagKind.ADVANCEMENT)
    out = numbers(set(flag.advanced) - set(flag.now_advancing))
    into = numbers(set(flag.now_advancing) - set(flag.advanced))
    assert out and into

    book = book_of(tournament)
    assert "更正标记" in book.sheetnames
    rows = cells(book["更正标记"])
    header = rows[0]
    lines = [dict(zip(header, row, strict=True)) for row in rows[1:] if row[header.index("阶段")] == "淘汰赛"]
    assert len(lines) == 1
    line = lines[0]
    assert line["类别"] == "晋级名单已变更" and line["状态"] == "待组织者决定"
    assert {int(part.split("号")[0]) for part in line["移出"].split("、")} == out
    assert {int(part.split("号")[0]) for part in line["移入"].split("、")} == into
    assert line["更正的比赛"] == match.pk
    # and on the knockout's own standings sheet, after its rows, a line that says so
    notes = [row[0] for row in cells(book["淘汰赛排名"]) if isinstance(row[0], str) and "更正标记" in row[0]]
    assert len(notes) == 1 and "晋级名单已变更" in notes[0] and "待组织者决定" in notes[0]
    # the Swiss stage's own rows are the corrected ranking: no advancement note on its sheet
    assert not any("晋级名单已变更" in str(row[0]) for row in cells(book["预赛排名"]))

    advancement_flag_resolve(stage=final, choice="keep", reason="淘汰赛已抽签，维持原签表", user=boss)
    book = book_of(tournament)
    rows = cells(book["更正标记"])
    header = rows[0]
    line = next(dict(zip(header, row, strict=True)) for row in rows[1:] if row[header.index("阶段")] == "淘汰赛")
    assert line["状态"] == "维持原状（附理由）" and line["理由"] == "淘汰赛已抽签，维持原签表"
    assert line["决定时间"] is not None
    notes = [row[0] for row in cells(book["淘汰赛排名"]) if isinstance(row[0], str) and "更正标记" in row[0]]
    assert "维持原状" in notes[0] and "淘汰赛已抽签" in notes[0]
    english = book_of(tournament, language="en")
    rows = cells(english["Correction flags"])
    assert any(row[1] == "Advancement changed" and row[3] == "Kept, with a reason" for row in rows[1:])


def test_a_workbook_without_corrections_has_no_flags_sheet():
    tournament, _stage = swiss(rounds=1)
    assert "更正标记" not in book_of(tournament).sheetnames


# -- 2. later rounds of the same stage ------------------------------------------------------------------


def _flagged_rounds(stage) -> dict[int, AdvancementFlag]:
    return {
        flag.round_number: flag
        for flag in AdvancementFlag.objects.filter(
            stage=stage, kind=AdvancementFlagKind.ROUND, status=AdvancementFlagStatus.OPEN
        )
    }


def test_later_rounds_drawn_from_changed_standings_are_flagged_and_the_organiser_decides(client, commits):
    tournament, stage = swiss(rounds=2)
    boss = organiser()
    tournament.organisers.add(boss)
    third = round_publish(round_=round_draw(stage=stage, seed=3))  # published, nothing entered yet
    seed = third.draw_seed
    match = round_one(stage)[0]
    match_unlock(match_id=match.pk, reason="记分有误", user=boss, dependents_seen=True)
    assert set(Correction.objects.get(match=match).before["round_standings"]) == {"2", "3"}
    flip(match, commits, user=boss)  # the winner changes: two pairs' points in every later standings
    flags = _flagged_rounds(stage)
    assert set(flags) == {2, 3}
    for flag in flags.values():
        assert flag.detail["before"] != flag.detail["after"] and flag.match_id == match.pk
        assert flag.history.exists()  # audited
    assert Correction.objects.get(match=match).changes["rounds_flagged"] == [2, 3]
    before, after = flags[2].detail["before"], flags[2].detail["after"]
    changed = {pk for pk, rank, points in after if [pk, rank, points] not in before}
    assert {match.ns_pair_id, match.ew_pair_id} <= changed  # the corrected match's pairs moved

    # the organiser's pages, the public standings and the API
    client.force_login(boss)
    stage_page = client.get(reverse("draw:stage", args=[tournament.pk, stage.pk])).content.decode()
    assert stage_page.count("round-flag") == 2
    round_page = client.get(reverse("draw:round", args=[tournament.pk, third.pk]))
    assert round_page.context["flag"].round_number == 3 and 'name="choice"' in round_page.content.decode()
    public = client.get(f"/t/{tournament.pk}/standings/{stage.pk}/").content.decode()
    assert "rounds-changed" in public
    overview = client.get(f"/api/public/tournaments/{tournament.pk}/").json()
    assert {s["id"]: s["rounds_changed"] for s in overview["stages"]} == {stage.pk: [2, 3]}

    # round 2 was played: no redraw; keeping needs a reason
    second = stage.rounds.get(number=2)
    with pytest.raises(UserError) as refused:
        round_flag_resolve(round_=second, choice="redraw", reason="重抽", user=boss)
    assert refused.value.code == "round_played"
    with pytest.raises(UserError):
        round_flag_resolve(round_=second, choice="keep", reason="  ", user=boss)
    kept, _same = round_flag_resolve(round_=second, choice="keep", reason="第二轮已赛完", user=boss)
    assert kept.status == AdvancementFlagStatus.KEPT and kept.decided_by == boss

    # round 3 has no result: drawn again (the page), with its seed, as a draft to check and publish
    answer = client.post(
        reverse("draw:round_flag", args=[tournament.pk, third.pk]), {"choice": "redraw", "reason": "按更正后排名重抽"}
    )
    assert answer.status_code == 302
    assert not Round.objects.filter(pk=third.pk).exists()
    again = stage.rounds.get(number=3)
    assert again.status == RoundStatus.DRAFT and again.draw_seed == seed
    assert answer["Location"] == reverse("draw:round", args=[tournament.pk, again.pk])
    redrawn = AdvancementFlag.objects.get(pk=flags[3].pk)
    assert redrawn.status == AdvancementFlagStatus.REDRAWN and redrawn.round_id == again.pk
    assert redrawn.history.filter(history_change_reason="按更正后排名重抽").exists()
    overview = client.get(f"/api/public/tournaments/{tournament.pk}/").json()
    assert overview["stages"][0]["rounds_changed"] == []
    # the workbook lists both decisions on the flags sheet and the Swiss sheet
    rows = cells(book_of(tournament)["更正标记"])
    states = {row[2]: row[3] for row in rows[1:]}
    assert states == {2: "维持原状（附理由）", 3: "已重新抽签"}
    notes = [row[0] for row in cells(book_of(tournament)["预赛排名"]) if "更正标记" in str(row[0])]
    assert len(notes) == 2 and "第2轮按更正前的排名抽签" in notes[0]


def test_a_correction_undone_closes_the_round_flag(commits):
    _tournament, stage = swiss(rounds=2)
    match = round_one(stage)[0]
    match_unlock(match_id=match.pk, reason="记分有误", dependents_seen=True)
    flip(match, commits)
    assert set(_flagged_rounds(stage)) == {2}
    match_unlock(match_id=match.pk, reason="改回", dependents_seen=True)
    flip(match, commits)  # back to the result round 2 was drawn from
    assert _flagged_rounds(stage) == {}
    flag = AdvancementFlag.objects.get(stage=stage, kind=AdvancementFlagKind.ROUND)
    assert flag.status == AdvancementFlagStatus.KEPT and flag.decision_reason == SAME_AGAIN


def test_a_correction_that_changes_no_standings_flags_no_round(commits):
    _tournament, stage = swiss(rounds=2)
    match = round_one(stage)[0]
    match_unlock(match_id=match.pk, reason="复核", dependents_seen=True)
    with commits(execute=True):
        match_sign_off(match_id=match.pk)  # signed off again unchanged
    assert not AdvancementFlag.objects.filter(stage=stage).exists()
    assert Correction.objects.get(match=match).changes["rounds_flagged"] == []


# -- 3. clearing the started next match -------------------------------------------------------------------


def semi_finals(commits):
    tournament = make_field(4, seeds=True)
    stage = stage_create(
        tournament=tournament,
        name="淘汰赛",
        format="knockout",
        options={"bracket": "fixed", "seeding": "seeds", "third_place": True},
    )
    semis = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in semis.matches.order_by("table__number"):
        win(match)
        with commits(execute=True):
            match_sign_off(match_id=match.pk)
    final_round = round_publish(round_=stage.rounds.get(number=2))
    return tournament, stage, semis, final_round


def _correct_semi(semi: Match) -> None:
    """Unlock the semi-final and give it the other winner (not signed off yet)."""
    match_unlock(match_id=semi.pk, reason="记分有误", dependents_seen=True)
    while semi.deals.exists():
        deal_undo(match_id=semi.pk, reason="录错了")
    win(semi, "EW")


def test_a_started_final_is_cleared_from_the_refusal_and_the_bracket_follows(client, commits):
    tournament, _stage, semis, final_round = semi_finals(commits)
    boss = organiser()
    tournament.organisers.add(boss)
    semi = semis.matches.order_by("table__number").first()
    old_winner, new_winner = semi.ns_pair_id, semi.ew_pair_id
    final = final_round.matches.get(table__number=1)
    deal_record(match_id=final.pk, outcome={"order": ["N", "S"]})  # the final has started
    _correct_semi(semi)
    client.force_login(boss)
    refused = client.post(
        reverse("matches:sign_off", args=[semi.pk]), {"version": Match.objects.get(pk=semi.pk).version}
    )
    assert refused.status_code == 409
    text = refused.content.decode()
    clear_url = reverse("matches:clear", args=[final.pk])
    assert "started-successors" in text and clear_url in text  # the way forward, where the refusal is
    page = client.get(clear_url)
    assert page.status_code == 200 and page.context["deals"] == 1 and page.context["blocks"]
    final.refresh_from_db()
    assert client.post(clear_url, {"version": final.version, "reason": ""}).status_code == 400
    done = client.post(clear_url, {"version": final.version, "reason": "半决赛更正，决赛重赛"})
    assert done.status_code == 302 and done["Location"] == reverse("matches:match", args=[semi.pk])
    final.refresh_from_db()
    assert final.status == MatchStatus.PENDING and not final.deals.exists()
    assert final.started_at is None and final.clock_ends_at is None and final.state.get("deals", []) == []
    assert (
        Deal.history.filter(match_id=final.pk, history_type="-", history_change_reason="半决赛更正，决赛重赛").count()
        == 1
    )
    assert Correction.objects.get(match=semi).changes["cleared"][0]["match"] == final.pk
    with commits(execute=True):
        match_sign_off(match_id=semi.pk, user=boss)  # now the bracket follows
    final.refresh_from_db()
    assert new_winner in (final.ns_pair_id, final.ew_pair_id) and old_winner not in (final.ns_pair_id, final.ew_pair_id)


def test_clearing_is_the_organisers_or_the_chief_referees_and_refused_when_it_has_no_cause(commits):
    tournament, _stage, semis, final_round = semi_finals(commits)
    boss = organiser()
    tournament.organisers.add(boss)
    final = final_round.matches.get(table__number=1)
    deal_record(match_id=final.pk, outcome={"order": ["N", "S"]})
    with pytest.raises(MatchRefused) as refused:  # no correction waits for it
        match_clear(match_id=final.pk, reason="x")
    assert refused.value.code == "not_blocking"
    semi = semis.matches.order_by("table__number").first()
    _correct_semi(semi)
    table_referee = referee()
    RefereeAssignmentFactory(round=final_round, table=final.table, referee=table_referee)
    api = APIClient()
    api.force_authenticate(table_referee)
    url = reverse("api:clear", args=[final.pk])
    final.refresh_from_db()
    assert api.post(url, {"reason": "x", "expected_version": final.version}, format="json").status_code == 404
    api.force_authenticate(boss)
    sign_off = api.post(
        reverse("api:sign_off", args=[semi.pk]),
        {"expected_version": Match.objects.get(pk=semi.pk).version},
        format="json",
    )
    assert sign_off.status_code == 409 and sign_off.data["error"]["code"] == "successor_started"
    assert sign_off.data["error"]["started_successors"] == [final.pk]
    third = final_round.matches.get(table__number=2)
    with pytest.raises(MatchRefused) as refused:  # the third-place match waits for the semi too, but has not started
        match_clear(match_id=third.pk, reason="x")
    assert refused.value.code == "not_started"
    cleared = api.post(url, {"reason": "半决赛更正", "expected_version": final.version}, format="json")
    assert cleared.status_code == 200 and cleared.data["status"] == "pending"
    signed = api.post(
        reverse("api:sign_off", args=[semi.pk]),
        {"expected_version": Match.objects.get(pk=semi.pk).version},
        format="json",
    )
    assert signed.status_code == 200


def test_a_signed_off_next_match_must_be_unlocked_before_it_is_cleared(commits):
    _tournament, _stage, semis, final_round = semi_finals(commits)
    final = final_round.matches.get(table__number=1)
    confirm(final)
    semi = semis.matches.order_by("table__number").first()
    _correct_semi(semi)
    with pytest.raises(MatchRefused) as refused:
        match_clear(match_id=final.pk, reason="x")
    assert refused.value.code == "match_locked"
    assert Match.objects.get(pk=final.pk).deals.exists()
