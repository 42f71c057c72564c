"""One truth after a correction (docs/design.md, one answer to each question): a semi-final corrected
after the final round was drawn moves its pairs into the final and the third-place match, and every
reader — the bracket page, the API, the placings, prizes, the organiser's draw page, the workbook and the
event's status — then finds the final, the third-place match, the champion and the placings 1 to 4
(docs/rules.md §4 "Tournament structures": the third-place match is played in the final round)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.draw.conftest import make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw.selectors import round_lines
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports import headers as h
from tournament.exports.prizes import TierData, prize_stage_set, prize_tiers_award, prize_tiers_set
from tournament.exports.round_sheets import round_draw_build
from tournament.matches.models import Match
from tournament.matches.services import deal_undo, match_sign_off, match_unlock
from tournament.registration.models import Pair, TournamentStatus
from tournament.standings.public import bracket_get, draw_list
from tournament.standings.selectors import stage_bracket_state_get, stage_ranking_get

pytestmark = pytest.mark.django_db


def test_a_corrected_semi_final_still_ends_in_a_champion_and_four_placings(client, django_capture_on_commit_callbacks):
    def signed(match: Match) -> Match:
        with django_capture_on_commit_callbacks(execute=True):  # the sign-off hooks run after the commit
            return match_sign_off(match_id=match.pk)

    tournament = make_field(4, seeds=True)
    stage = stage_create(
        tournament=tournament,
        name="淘汰赛",
        format="knockout",
        options={"bracket": "fixed", "seeding": "seeds", "third_place": True},
    )
    semis = round_publish(round_=round_draw(stage=stage, seed=1))
    semi_1, semi_2 = semis.matches.order_by("table__number")
    for match in (semi_1, semi_2):
        win(match, "NS")
        signed(match)
    final_round = round_publish(round_=stage.rounds.get(number=2))  # drawn by the sign-off hook
    # the correction: semi-final 1 is unlocked and E/W wins it after all
    match_unlock(match_id=semi_1.pk, reason="记分有误", dependents_seen=True)
    while semi_1.deals.exists():
        deal_undo(match_id=semi_1.pk, reason="录错了")
    win(semi_1, "EW")
    signed(semi_1)
    semi_1.refresh_from_db()
    semi_2.refresh_from_db()
    final = final_round.matches.get(bracket_slot=1)
    third = final_round.matches.get(bracket_slot=2)
    assert {final.ns_pair_id, final.ew_pair_id} == {semi_1.ew_pair_id, semi_2.ns_pair_id}
    assert {third.ns_pair_id, third.ew_pair_id} == {semi_1.ns_pair_id, semi_2.ew_pair_id}
    # the organiser's draw page marks the third-place match, not the final
    assert [(line.match.pk, line.third_place) for line in round_lines(round_=final_round)] == [
        (final.pk, False),
        (third.pk, True),
    ]
    # the public draw page, its data and the printed draw sheet mark the same match
    rows = draw_list(tournament_id=tournament.pk, round_id=final_round.pk)
    assert {row.match_id: row.third_place for row in rows} == {final.pk: False, third.pk: True}
    draw_page = client.get(reverse("standings:draw_round", args=[tournament.pk, final_round.pk])).content.decode()
    assert draw_page.count('class="small third-place"') == 1
    numbers = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    out = io.BytesIO()
    round_draw_build(round=final_round, target=out)
    out.seek(0)
    draw_sheet = list(load_workbook(out, read_only=True).active.iter_rows(values_only=True))
    assert {row[2]: row[-1] for row in draw_sheet[1:]} == {
        numbers[final.ns_pair_id]: None,
        numbers[third.ns_pair_id]: "三四名决赛",
    }
    win(final, "NS")
    signed(final)
    win(third, "EW")
    signed(third)

    order = [final.ns_pair_id, final.ew_pair_id, third.ew_pair_id, third.ns_pair_id]
    state = stage_bracket_state_get(stage=stage)
    assert (state.champion, state.third, state.fourth, state.pending) == (*(str(order[k]) for k in (0, 2, 3)), 0)
    # the placings (advancement, the next draw, prizes read them)
    placings = stage_ranking_get(stage=stage).standings.rows
    assert [(row.entrant, row.rank) for row in placings] == [(str(pair), rank) for rank, pair in enumerate(order, 1)]
    # the public bracket page and the API
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion is not None and bracket.champion.pair_id == order[0]
    assert bracket.third_place is not None and bracket.third_place.match_id == third.pk
    assert [box.match_id for box in bracket.rounds[-1].matches] == [final.pk]
    data = client.get(reverse("api:public:bracket", args=[tournament.pk, stage.pk])).json()
    assert data["champion"]["pair_id"] == order[0] and data["third_place"]["match_id"] == third.pk
    page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, stage.pk])).content.decode()
    assert 'class="champion"' in page
    # the public placings page (the API has no placings of a knockout: its bracket above)
    placings_page = client.get(reverse("exports:stage_placings", args=[tournament.pk, stage.pk]))
    assert [(row["id"], row["rank"]) for row in placings_page.context["rows"]] == list(
        zip(order, (1, 2, 3, 4), strict=True)
    )
    # prizes
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("冠军", 1), TierData("亚军", 1), TierData("季军", 1)])
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None
    assert [(award.tier, award.pair.id) for award in awards.awards] == list(
        zip(("冠军", "亚军", "季军"), order, strict=False)
    )
    # the workbook's placings
    rows = read_book(build(tournament=tournament))[h.sheet_name("standings", "zh", stage=stage.name)]
    assert [(row[0], row[2]) for row in rows[1:]] == [(rank, numbers[pair]) for rank, pair in enumerate(order, 1)]
    # the event is finished
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_re_drawn_knockout_keeps_its_third_place_match_through_a_correction(django_capture_on_commit_callbacks):
    """Re-drawn every round (seed 004), the third-place match is the one the draw marked by its pairs: a
    corrected semi-final moves a pair out of it, and the record follows."""
    tournament = make_field(4, seeds=True)
    stage = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"third_place": True})
    semis = round_publish(round_=round_draw(stage=stage, seed=2))
    semi_1, semi_2 = semis.matches.order_by("table__number")
    for match in (semi_1, semi_2):
        win(match, "NS")
        match_sign_off(match_id=match.pk)
    final_round = round_publish(round_=round_draw(stage=stage, seed=3))
    final, third = final_round.matches.order_by("table__number")
    assert [line.third_place for line in round_lines(round_=final_round)] == [False, True]
    match_unlock(match_id=semi_1.pk, reason="记分有误", dependents_seen=True)
    while semi_1.deals.exists():
        deal_undo(match_id=semi_1.pk, reason="录错了")
    win(semi_1, "EW")
    with django_capture_on_commit_callbacks(execute=True):
        match_sign_off(match_id=semi_1.pk)
    final_round.refresh_from_db()
    third.refresh_from_db()
    assert set(final_round.draw_options["third_place_pairs"]) == {third.ns_pair_id, third.ew_pair_id}
    assert semi_1.ns_pair_id in (third.ns_pair_id, third.ew_pair_id)
    assert [line.third_place for line in round_lines(round_=final_round)] == [False, True]
    for match, side in ((final, "NS"), (third, "EW")):
        win(match, side)
        match_sign_off(match_id=match.pk)
    final.refresh_from_db()
    state = stage_bracket_state_get(stage=stage)
    assert state.champion == str(final.ns_pair_id) and state.third == str(third.ew_pair_id) and state.pending == 0
