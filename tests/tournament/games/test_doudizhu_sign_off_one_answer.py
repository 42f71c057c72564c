"""One answer to a Dou Dizhu table awaiting sign-off (docs/corrections.md, the event's policy) and to a
correction after the final was drawn: the stage's ranking, the public standings, the API, the workbook
and advancement follow the event's ``provisional_results`` as every other game does, mark a player whose
points count an unsigned table 待确认, and a final drawn before a correction says so on its public page
and its workbook sheet as on the organiser's page and the API. Every event is built through the services."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournament.exports.conftest import build, read_book
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round, play_table
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.exports.prizes import TierData, prize_stage_set, prize_tiers_award, prize_tiers_set
from tournament.matches import services
from tournament.matches.models import MatchSeat, MatchStatus
from tournament.registration.lifecycle import tournament_update
from tournament.registration.models import Pair
from tournament.registration.services import PlayerData, player_enter, tournament_create
from tournament.standings.doudizhu_public import standings_table_get
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db

DEALS = [{"landlord": "E", "bid": 3, "winner": "landlord"}] * 3


def _another_event_first(boss):
    """Players of an earlier event, so a player's database id is not their number in the event below."""
    other = tournament_create(name="另一场", rule_profile="doudizhu", game="doudizhu", organiser=boss)
    for number in range(1, 5):
        player_enter(tournament=other, player=PlayerData(name=f"旁人{number}", employee_number=f"X{number:03d}"))


def _one_table_unsigned(boss, *, policy: str):
    """Nine players, round 1: tables 1 and 2 signed off, table 3 played to the end and not signed off."""
    tournament, stage = doudizhu_event(players=9, boss=boss, options={"rounds": 2})
    tournament_update(tournament=tournament, name=tournament.name, provisional_results=policy, user=boss)
    round_ = drawn_round(stage, seed=5, user=boss)
    tables = list(round_.matches.order_by("table__number"))
    for match in tables[:2]:
        play_table(match, DEALS, user=boss)
    for deal in DEALS:
        services.deal_record(match_id=tables[2].pk, outcome=deal, user=boss)
    tables[2].refresh_from_db()
    assert tables[2].status == MatchStatus.FINISHED  # played to the end, awaiting sign-off
    unsigned = {str(pk) for pk in MatchSeat.objects.filter(match=tables[2]).values_list("pair_id", flat=True)}
    return tournament, stage, unsigned


def _readers(client, tournament, stage):
    """Player id (text) → (points, awaiting sign-off) on the ranking, the public page, the API, the workbook."""
    standings = stage_ranking_get(stage=stage)
    ranking = {
        row.entrant: (row.match_points, row.entrant in standings.provisional) for row in standings.standings.rows
    }
    table = standings_table_get(stage_id=stage.pk)
    public = {str(line.pair_id): (line.points, line.provisional) for line in table.lines}
    api = APIClient().get(reverse("api:public:player_standings", args=[tournament.pk, stage.pk])).data
    served = {str(line["pair_id"]): (line["points"], line["provisional"]) for line in api["lines"]}
    numbers = {number: str(pk) for pk, number in Pair.objects.filter(tournament=tournament).values_list("id", "number")}
    sheet = next(rows for rows in read_book(build(tournament=tournament)).values() if rows and "地主胜局" in rows[0])
    at = sheet[0].index("选手编号"), sheet[0].index("积分"), sheet[0].index("待确认")
    book = {numbers[row[at[0]]]: (row[at[1]], row[at[2]] == "是") for row in sheet[1:]}
    page = client.get(reverse("standings:stage_standings", args=[tournament.pk, stage.pk])).content.decode()
    return ranking, public, served, book, page


def _prizes_agree(tournament, stage, best: int):
    """The prizes over the stage give the public page's ``best`` players (the same counted tables)."""
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("一等奖", best)])
    awards = prize_tiers_award(tournament=tournament)
    lines = standings_table_get(stage_id=stage.pk).lines
    assert lines[best - 1].rank < lines[best].rank  # no tie across the tier
    assert awards.problem is None and {a.pair.id for a in awards.awards} == {line.pair_id for line in lines[:best]}


def test_signed_off_only_leaves_an_unsigned_table_out_everywhere_and_advancement_waits(client, boss):
    tournament, stage, unsigned = _one_table_unsigned(boss, policy="signed_off")
    ranking, public, served, book, _page = _readers(client, tournament, stage)
    assert ranking == {key: (float(points), marked) for key, (points, marked) in public.items()}
    assert public == served == book
    assert {player for player, (points, _marked) in public.items() if points == 0} == unsigned  # not counted
    assert not any(marked for _points, marked in public.values())  # nothing counted awaits sign-off
    _prizes_agree(tournament, stage, best=2)  # the two landlords of the signed-off tables
    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    with pytest.raises(UserError) as refused:
        stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    assert refused.value.code == "results_unsigned"


def test_an_unsigned_table_counts_marked_on_every_reader(client, boss):
    tournament, stage, unsigned = _one_table_unsigned(boss, policy="marked")
    ranking, public, served, book, page = _readers(client, tournament, stage)
    assert ranking == {key: (float(points), marked) for key, (points, marked) in public.items()}
    assert public == served == book
    assert {player for player, (_points, marked) in public.items() if marked} == unsigned
    assert all(points != 0 for player, (points, _marked) in public.items() if player in unsigned)  # counted
    assert page.count("provisional") == len(unsigned)  # the 待确认 tag on each of their lines
    # a player's own page and the big screen say it too
    for player in (*unsigned, next(iter(set(public) - unsigned))):
        mine = client.get(reverse("standings:pair", args=[tournament.pk, int(player)])).content.decode()
        assert ("provisional" in mine) == (player in unsigned)
    screen = client.get(reverse("standings:screen", args=[tournament.pk])).content.decode()
    assert screen.count("provisional") == len(unsigned)
    _prizes_agree(tournament, stage, best=3)  # the three landlords, the unsigned table's among them
    # advancement counts the unsigned table as the pages do: its landlord is among the three best
    best = [line.pair_id for line in standings_table_get(stage_id=stage.pk).lines[:3]]
    assert set(best) & {int(player) for player in unsigned}
    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    final.refresh_from_db()
    assert set(final.settings.entrants) == set(best)


def test_a_correction_after_the_final_was_drawn_is_flagged_on_every_reader(
    client, boss, django_capture_on_commit_callbacks
):
    _another_event_first(boss)
    tournament, stage = doudizhu_event(players=9, boss=boss, options={"rounds": 1})
    round_ = drawn_round(stage, seed=5, user=boss)
    play_round(round_, user=boss)
    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    final.refresh_from_db()
    drawn_round(final, user=boss)
    # The correction: table 1's W seat, not E, won every deal as landlord at bid 3 — now the best of all.
    table = round_.matches.order_by("table__number").first()
    services.match_unlock(match_id=table.pk, reason="记分有误", user=boss, dependents_seen=True)
    while table.deals.exists():
        services.deal_undo(match_id=table.pk, user=boss, reason="记分有误")
    for _ in range(3):
        services.deal_record(match_id=table.pk, outcome={"landlord": "W", "bid": 3, "winner": "landlord"}, user=boss)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_sign_off(match_id=table.pk, user=boss)
    # the organiser's page and the API said so already
    client.force_login(boss)
    organiser = client.get(reverse("draw:stage", args=[tournament.pk, final.pk])).content.decode()
    assert "advancement-flag" in organiser
    overview = APIClient().get(reverse("api:public:tournament", args=[tournament.pk])).data
    assert next(item for item in overview["stages"] if item["id"] == final.pk)["advancement_changed"]
    # the final's public standings and its workbook sheet too
    client.logout()
    page = client.get(reverse("standings:stage_standings", args=[tournament.pk, final.pk])).content.decode()
    assert "advancement-changed" in page
    book = read_book(build(tournament=tournament))
    title = next(name for name, rows in book.items() if rows and "地主胜局" in rows[0] and "决赛" in name)
    assert any(row and any(isinstance(cell, str) and "晋级" in cell for cell in row) for row in book[title])
    # the standings sheet's player number is the registration sheet's
    numbers = {pk: number for pk, number in Pair.objects.filter(tournament=tournament).values_list("id", "number")}
    assert set(numbers) != set(numbers.values())  # ids are not numbers here: the sheet must say which
    sheet = book[next(name for name, rows in book.items() if rows and "地主胜局" in rows[0] and "决赛" not in name)]
    at = sheet[0].index("选手编号"), sheet[0].index("选手")
    names = dict(Pair.objects.filter(tournament=tournament).values_list("name", "number"))
    assert {row[at[1]]: row[at[0]] for row in sheet[1:] if row[at[1]]} == names
