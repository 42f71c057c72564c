"""One answer to each question (docs/design.md): a stage's ranking (groups
included), a bracket's state and a knockout's placings are the same on the public page, in
advancement, the next round's draw, prizes, the public API and the workbook.

Every event here is built through the services (draw, deals, sign-off, withdrawal, advancement)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.standings import rank
from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw.services import bracket_after_result, round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.exports import headers as h
from tournament.exports.prizes import TierData, prize_stage_set, prize_tiers_award, prize_tiers_set
from tournament.matches.models import Match
from tournament.matches.services import match_sign_off
from tournament.registration.models import Pair
from tournament.registration.services import pair_withdraw
from tournament.rules import rules_for_stage
from tournament.standings.public import bracket_get, draw_list, standings_get
from tournament.standings.selectors import stage_match_records, stage_ranking_get

pytestmark = pytest.mark.django_db


# -- building events -----------------------------------------------------------------------------------


def group_of(stage) -> dict[int, int]:
    stage.refresh_from_db()
    return {int(pair_id): group for pair_id, group in stage.options["group_of"].items()}


def play_round_robin(stage, rounds: int, winner_of=None, *, before_round=None) -> None:
    """Draw, publish and sign off ``rounds`` rounds; ``winner_of(match, groups)`` picks "NS"/"EW"
    (default: the lower pair id wins, so each group ranks without ties)."""
    for number in range(1, rounds + 1):
        if before_round is not None:
            before_round(number)
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        of = group_of(stage) if stage.options.get("groups", 1) > 1 else {}
        for match in round_.matches.filter(ew_pair__isnull=False).order_by("id"):
            side = winner_of(match, of) if winner_of else ("NS" if match.ns_pair_id < match.ew_pair_id else "EW")
            confirm(match, side)


def grouped_stage(pairs: int = 8, groups: int = 2, **kwargs):
    tournament = make_field(pairs, seeds=True)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": groups})
    play_round_robin(stage, rounds=3, **kwargs)
    stage.refresh_from_db()
    return tournament, stage


def page_lines(stage):
    return standings_get(tournament_id=stage.tournament_id, stage_id=stage.pk).lines


def sheet(tournament, stage):
    rows = read_book(build(tournament=tournament))[h.sheet_name("standings", "zh", stage=stage.name)]
    header = rows[0]
    return header, rows[1:]


def api(client, name, **kwargs):
    return client.get(reverse(f"api:public:{name}", kwargs=kwargs)).json()


def publish(round_):
    assert round_ is not None
    return round_publish(round_=round_)


def played(round_):
    return list(round_.matches.filter(ew_pair__isnull=False).order_by("bracket_slot", "id"))


# -- a full tie at the advancement cut -----------------------------------------------------------------


def cycle(match, of):
    """In each group of three (ids p0 < p1 < p2): p0 beats p1, p1 beats p2, p2 beats p0 — every pair
    one win, one loss and one bye by the same margin: a full tie on every tie-breaker."""
    members = sorted(pair for pair, group in of.items() if group == of[match.ns_pair_id])
    i, j = members.index(match.ns_pair_id), members.index(match.ew_pair_id)
    return "NS" if (j - i) % 3 == 1 else "EW"


def test_a_full_tie_at_the_cut_is_decided_by_recorded_lots_and_the_page_shows_them():
    tournament, stage = grouped_stage(pairs=6, groups=2, winner_of=cycle)
    before = page_lines(stage)
    assert all(line.rank == 1 and line.shared for line in before)  # no lots drawn yet: shared 1st
    final = stage_create(tournament=tournament, name="决赛", format="knockout")
    stage_advance(stage=stage, next_stage=final, count=1, user=organiser())
    stage.refresh_from_db()
    final.refresh_from_db()
    seed = stage.options["lots_seed"]
    assert isinstance(seed, int) and final.options["advancement"]["lots_seed"] == seed  # the lot is recorded
    lines = page_lines(stage)
    lots_column = [column.name for column in standings_get(tournament_id=tournament.pk, stage_id=stage.pk).columns]
    for group in (1, 2):
        group_lines = [line for line in lines if line.group == group]
        assert [line.rank for line in group_lines] == [1, 2, 3] and not any(line.shared for line in group_lines)
        assert all(line.values[lots_column.index("lots")] is not None for line in group_lines)
    winners = [line.pair_id for line in lines if line.rank == 1]
    assert final.options["entrants"] == winners  # the page's 1st of each group is the one advancing
    # Reproducible: the rules core with the recorded seed gives the same lots.
    records = stage_match_records(stage=stage)
    of = group_of(stage)
    for group, winner in zip((1, 2), winners, strict=True):
        members = [str(pair) for pair in sorted(p for p, g in of.items() if g == group)]
        again = rank(
            entrants=members,
            results=[r for r in records if r.ns in members],
            options=rules_for_stage(stage),
            lots_seed=seed,
        )
        assert again.rows[0].entrant == str(winner) and not again.rows[0].shared


# -- the workbook and prizes over a grouped stage -------------------------------------------------------


def test_the_workbook_and_prizes_rank_a_grouped_stage_by_group_place():
    tournament, stage = grouped_stage()
    lines = page_lines(stage)
    header, rows = sheet(tournament, stage)
    group_column, place_column = header.index("组别"), header.index("阶段名次")
    number = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))  # the sheet's pair no.
    assert [(row[0], row[1], row[group_column], row[2]) for row in rows] == [
        (line.rank, "是" if line.shared else "否", line.group, number[line.pair_id]) for line in lines
    ]
    runners_up = [line.pair_id for line in lines if line.rank == 2]
    winners = [line.pair_id for line in lines if line.rank == 1]
    assert len(winners) == len(runners_up) == 2
    by_pair = {pk: row for row in rows for pk, no in number.items() if no == row[2]}
    assert all(by_pair[pair][0] == 2 and by_pair[pair][place_column] >= 3 for pair in runners_up)
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("金奖", 2), TierData("银奖", 2)])
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None
    assert {a.pair.id for a in awards.awards if a.tier == "金奖"} == set(winners)  # every group's winner
    assert {a.pair.id for a in awards.awards if a.tier == "银奖"} == set(runners_up)


# -- a withdrawn pair ----------------------------------------------------------------------------------


def test_a_withdrawn_pair_is_marked_last_in_its_group_and_its_opponent_wins_by_forfeit(client):
    tournament = make_field(8, seeds=True)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": 2})
    state: dict[str, int] = {}

    def top_wins(match, of):
        state.setdefault("gone", min(p for p, g in of.items() if g == 1))
        if state["gone"] in (match.ns_pair_id, match.ew_pair_id):
            return "NS" if match.ns_pair_id == state["gone"] else "EW"
        return "NS" if match.ns_pair_id < match.ew_pair_id else "EW"

    def withdraw_before_round_3(number):
        if number == 3:
            pair_withdraw(pair=tournament.pairs.get(pk=state["gone"]))

    play_round_robin(stage, rounds=3, winner_of=top_wins, before_round=withdraw_before_round_3)
    gone = state["gone"]
    third = stage.rounds.get(number=3)
    walkover = third.matches.get(ew_pair__isnull=True)
    assert third.draw_options["walkovers"] == {str(walkover.ns_pair_id): gone}
    ranking = stage_ranking_get(stage=stage)
    rows = {row.entrant: row for row in ranking.standings.rows}
    opponent = rows[str(walkover.ns_pair_id)]
    assert opponent.byes == 0 and opponent.played == 3  # a forfeit win, not a bye
    assert rows[str(gone)].losses == 1 and rows[str(gone)].wins == 2
    lines = [line for line in page_lines(stage) if line.group == 1]
    assert lines[-1].pair_id == gone and lines[-1].withdrawn and lines[-1].rank == 4
    assert not any(line.withdrawn for line in lines[:-1])
    api_rows = [
        row
        for row in api(client, "standings", tournament_id=tournament.pk, stage_id=stage.pk)["results"]
        if row["group"] == 1
    ]
    assert [(row["pair_id"], row["rank"], row["withdrawn"]) for row in api_rows] == [
        (line.pair_id, line.rank, line.withdrawn) for line in lines
    ]
    row = next(row for row in draw_list(tournament_id=tournament.pk, round_id=third.pk) if row.match_id == walkover.pk)
    assert row.is_bye and row.walkover_over == tournament.pairs.get(pk=gone).name  # the draw shows a walkover
    results = read_book(build(tournament=tournament))[h.sheet_name("results", "zh")]
    row = next(row for row in results[1:] if row[0] == walkover.pk)
    assert row[6] == tournament.pairs.get(pk=gone).number  # the withdrawn pair, by its number in the event
    assert row[results[0].index("胜负原因")] == "弃权"  # a forfeit win, not a bye
    final = stage_create(tournament=tournament, name="决赛", format="knockout")
    stage_advance(stage=stage, next_stage=final, count=1, user=organiser())
    final.refresh_from_db()
    assert gone not in final.options["entrants"]
    assert final.options["entrants"][0] == lines[0].pair_id  # the page's 1st of the group advances


# -- knockouts: confirmed results only, walkovers ------------------------------------------------------


def fixed_knockout(pairs: int, *, third_place: bool = False):
    tournament = make_field(pairs, seeds=True)
    stage = stage_create(
        tournament=tournament,
        name="淘汰赛",
        format="knockout",
        options={"bracket": "fixed", "third_place": third_place},
    )
    first = publish(round_draw(stage=stage, seed=1))
    return tournament, stage, first


def test_a_final_awaiting_sign_off_names_no_champion_anywhere(client):
    tournament, stage, first = fixed_knockout(4)
    nxt = None
    for match in played(first):
        nxt = bracket_after_result(match=confirm(match)) or nxt
    final = played(publish(nxt))[0]
    win(final, "EW")  # entered, not signed off
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion is None
    box = bracket.rounds[-1].matches[0]
    assert box.winner == "EW" and box.awaiting_sign_off and len(bracket.rounds) == 2
    data = api(client, "bracket", tournament_id=tournament.pk, stage_id=stage.pk)
    assert data["champion"] is None
    assert data["rounds"][-1]["matches"][0]["winner"] == "EW" and data["rounds"][-1]["matches"][0]["confirmed"] is False
    placings = stage_ranking_get(stage=stage).standings.rows
    assert [(row.rank, row.shared) for row in placings[:2]] == [(1, True), (1, True)]
    _header, rows = sheet(tournament, stage)
    assert [(row[0], row[1]) for row in rows[:2]] == [(1, "是"), (1, "是")]  # shared: 是 (yes)
    prize_tiers_set(tournament=tournament, tiers=[TierData("冠军", 1)])
    assert prize_tiers_award(tournament=tournament).problem is not None  # not awarded on an unconfirmed final
    page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, stage.pk])).content.decode()
    assert 'class="champion"' not in page and 'class="tag muted small awaiting"' in page

    match_sign_off(match_id=final.pk)
    champion = final.ew_pair_id
    page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, stage.pk])).content.decode()
    assert 'class="champion"' in page and "awaiting" not in page
    assert bracket_get(tournament_id=tournament.pk, stage_id=stage.pk).champion.pair_id == champion
    assert api(client, "bracket", tournament_id=tournament.pk, stage_id=stage.pk)["champion"]["pair_id"] == champion
    placings = stage_ranking_get(stage=stage).standings.rows
    assert placings[0].entrant == str(champion) and (placings[0].rank, placings[0].shared) == (1, False)
    assert placings[1].entrant == str(final.ns_pair_id) and placings[1].rank == 2
    _header, rows = sheet(tournament, stage)
    assert rows[0][2] == Pair.objects.get(pk=champion).number and rows[0][0] == 1  # the event's pair number
    awards = prize_tiers_award(tournament=tournament)
    assert [(a.tier, a.pair.id) for a in awards.awards] == [("冠军", champion)]


def test_when_a_finalist_withdraws_the_other_is_champion_and_the_withdrawn_pair_second():
    tournament, stage, first = fixed_knockout(4)
    semis = played(first)
    assert bracket_after_result(match=confirm(semis[0])) is None
    gone = Match.objects.get(pk=semis[0].pk).ns_pair
    pair_withdraw(pair=gone)
    # The bracket awards the final by walkover: nothing is left to draw.
    assert bracket_after_result(match=confirm(semis[1])) is None
    with pytest.raises(UserError) as error:
        round_draw(stage=stage)
    assert error.value.code == "bracket_complete"
    other = semis[1].ns_pair_id
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion is not None and bracket.champion.pair_id == other
    assert len(bracket.rounds) == 1  # no final "to be decided" forever
    placings = stage_ranking_get(stage=stage).standings.rows
    assert [(row.entrant, row.rank, row.shared) for row in placings[:2]] == [
        (str(other), 1, False),
        (str(gone.pk), 2, False),
    ]


def test_when_a_finalist_of_a_redrawn_knockout_withdraws_the_other_is_champion():
    tournament = make_field(4)
    stage = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    first = publish(round_draw(stage=stage, seed=3))
    winners = [confirm(match).ns_pair for match in played(first)]
    pair_withdraw(pair=winners[0])
    with pytest.raises(UserError) as error:
        round_draw(stage=stage, seed=4)
    assert error.value.code == "bracket_complete"
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion is not None and bracket.champion.pair_id == winners[1].pk
    assert len(bracket.rounds) == 1  # no final "to be decided" forever
    placings = stage_ranking_get(stage=stage).standings.rows
    assert [(row.entrant, row.rank) for row in placings[:2]] == [(str(winners[1].pk), 1), (str(winners[0].pk), 2)]


def test_a_bye_bracket_with_a_third_place_walkover_has_no_invented_round():
    tournament, stage, first = fixed_knockout(3, third_place=True)
    semi = played(first)[0]
    final_round = publish(bracket_after_result(match=confirm(semi)))
    loser = semi.ew_pair_id
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert len(bracket.rounds) == 2 and [len(r.matches) for r in bracket.rounds] == [2, 1]
    assert bracket.third_place is not None and bracket.third_place.ns.pair_id == loser
    final = played(final_round)[0]
    confirm(final)
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion.pair_id == final.ns_pair_id and len(bracket.rounds) == 2
    placings = stage_ranking_get(stage=stage).standings.rows
    assert [(row.entrant, row.rank, row.shared) for row in placings] == [
        (str(final.ns_pair_id), 1, False),
        (str(final.ew_pair_id), 2, False),
        (str(loser), 3, False),
    ]


# -- one event, every reader ---------------------------------------------------------------------------


def test_one_event_groups_then_knockout_every_reader_agrees(client):
    boss = organiser()
    tournament, groups = grouped_stage()
    knockout = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "third_place": True}
    )
    lines = page_lines(groups)
    # The public API and the workbook show the page's ranking.
    api_rows = api(client, "standings", tournament_id=tournament.pk, stage_id=groups.pk)["results"]
    assert [(r["pair_id"], r["rank"], r["group"], r["withdrawn"]) for r in api_rows] == [
        (line.pair_id, line.rank, line.group, line.withdrawn) for line in lines
    ]
    header, rows = sheet(tournament, groups)
    assert [(row[2], row[0], row[header.index("组别")]) for row in rows] == [
        (line.pair_number, line.rank, line.group) for line in lines
    ]
    # Advancement takes the page's top two of each group, seeded by group place then group.
    stage_advance(stage=groups, next_stage=knockout, count=2, user=boss)
    knockout.refresh_from_db()
    place = {(line.group, line.rank): line.pair_id for line in lines}
    expected = [place[(1, 1)], place[(2, 1)], place[(1, 2)], place[(2, 2)]]
    assert knockout.options["entrants"] == expected
    ranking = stage_ranking_get(stage=groups).ranking
    assert [int(entrant) for entrant in ranking.advancing(2)] == expected
    # Prizes over the group stage: the stage place (group place, then across groups).
    prize_stage_set(tournament=tournament, stage=groups)
    prize_tiers_set(tournament=tournament, tiers=[TierData("小组第一", 2)])
    assert {a.pair.id for a in prize_tiers_award(tournament=tournament).awards} == set(expected[:2])
    # The next round's draft: the advanced pairs, seeded in that order.
    first = round_draw(stage=knockout, seed=7)
    knockout.refresh_from_db()
    assert knockout.options["bracket_record"]["seeds"] == expected
    assert set(first.entries.values_list("pair_id", flat=True)) == set(expected)
    publish(first)
    nxt = None
    for match in played(first):
        nxt = bracket_after_result(match=confirm(match, "EW")) or nxt
    final_round = publish(nxt)
    for match in played(final_round):
        confirm(match)
    final = final_round.matches.get(bracket_slot=1)
    third_place = final_round.matches.get(bracket_slot=2)
    order = [final.ns_pair_id, final.ew_pair_id, third_place.ns_pair_id, third_place.ew_pair_id]
    # The bracket page, the API, the placings, the workbook and the prizes name the same four.
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=knockout.pk)
    assert bracket.champion.pair_id == order[0] and len(bracket.rounds) == 2
    assert bracket.third_place.match_id == third_place.pk
    assert api(client, "bracket", tournament_id=tournament.pk, stage_id=knockout.pk)["champion"]["pair_id"] == order[0]
    placings = stage_ranking_get(stage=knockout).standings.rows
    assert [(int(row.entrant), row.rank) for row in placings] == list(zip(order, (1, 2, 3, 4), strict=True))
    _header, rows = sheet(tournament, knockout)
    number = dict(Pair.objects.filter(pk__in=order).values_list("pk", "number"))  # the sheet's pair numbers
    assert [(row[2], row[0]) for row in rows] == list(zip([number[pk] for pk in order], (1, 2, 3, 4), strict=True))
    prize_stage_set(tournament=tournament, stage=None)  # the last stage: the knockout
    prize_tiers_set(tournament=tournament, tiers=[TierData("冠军", 1), TierData("亚军", 1), TierData("季军", 1)])
    awards = prize_tiers_award(tournament=tournament).awards
    assert [(a.tier, a.pair.id) for a in awards] == [("冠军", order[0]), ("亚军", order[1]), ("季军", order[2])]
