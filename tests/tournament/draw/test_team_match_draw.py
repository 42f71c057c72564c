"""Team matches (团体对抗, docs/rules.md §11) through the services: the team draw, line-ups, the two
tables as ordinary matches, the team match result, team standings, sign-off and forfeits."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_matches import team_line_up_set
from tournament.errors import UserError
from tournament.matches.models import AdjustmentKind, Match, MatchStatus, RoundEntry, TeamLineUp, TeamMatch
from tournament.matches.services import adjustment_record, deal_record
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.teams import team_create
from tournament.standings.team_matches import stage_team_matches_get

pytestmark = pytest.mark.django_db

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # timed-40: N/S passes A (13 small points)
EW_WINS = (("E", "W"), ("E", "W"), ("E", "W"), ("E", "N", "W"))


def _event(teams: int = 4, *, options: dict | None = None):
    event = TournamentFactory()
    made = []
    for number in range(teams):
        pairs = [PairFactory(tournament=event) for _ in range(2)]
        made.append(team_create(tournament=event, name=f"队{number + 1}", pairs=pairs))
    stage = stage_create(
        tournament=event, name="团体瑞士移位", format="swiss", options={"team_match": True, **(options or {})}
    )
    return event, stage, made


def _members(team):
    return [m.pair_id for m in team.members.order_by("position")]


def _play(match, orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def test_a_team_match_is_not_offered_beside_a_team_total():
    event = TournamentFactory()
    team_create(tournament=event, name="甲", pairs=[PairFactory(tournament=event) for _ in range(2)])
    with pytest.raises(UserError):
        stage_create(tournament=event, name="x", format="swiss", options={"team_match": True, "team_total": True})
    with pytest.raises(UserError):
        stage_create(tournament=event, name="x", format="swiss", options={"team_decider": "total"})


def test_the_draw_pairs_teams_and_seats_the_two_tables_as_the_rules_say():
    _, stage, teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    rows = list(TeamMatch.objects.filter(round=round_).select_related("table_a__table", "table_b__table"))
    assert len(rows) == 2 and Match.objects.filter(round=round_).count() == 4
    by_id = {team.pk: team for team in teams}
    for row in rows:
        x1, x2 = _members(by_id[row.team_x_id])
        y1, y2 = _members(by_id[row.team_y_id])
        assert (row.table_a.ns_pair_id, row.table_a.ew_pair_id) == (x1, y1)  # table a: X1 N/S v Y1 E/W
        assert (row.table_b.ns_pair_id, row.table_b.ew_pair_id) == (y2, x2)  # table b: Y2 N/S v X2 E/W
        assert row.table_b.table.number == row.table_a.table.number + 1
    assert TeamLineUp.objects.filter(round=round_).count() == 4
    assert RoundEntry.objects.filter(round=round_).count() == 8


def test_a_line_up_changes_until_publication_reseats_the_tables_and_is_audited():
    event, stage, teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    row = TeamMatch.objects.filter(round=round_).first()
    team = next(t for t in teams if t.pk == row.team_x_id)
    x1, x2 = _members(team)
    pair1, pair2 = (event.pairs.get(pk=pk) for pk in (x1, x2))
    team_line_up_set(round_=round_, team=team, first=pair2, second=pair1)
    row.refresh_from_db()
    row.table_a.refresh_from_db()
    row.table_b.refresh_from_db()
    assert row.table_a.ns_pair_id == x2 and row.table_b.ew_pair_id == x1
    assert RoundEntry.objects.get(match=row.table_a, side="NS").pair_id == x2
    assert TeamLineUp.history.filter(team=team, round=round_).count() == 2

    other = next(t for t in teams if t.pk == row.team_y_id)
    foreign = event.pairs.get(pk=_members(other)[0])
    with pytest.raises(UserError) as refused:
        team_line_up_set(round_=round_, team=team, first=foreign, second=pair1)
    assert refused.value.code == "line_up_foreign" and other.name not in refused.value.message
    row.table_a.refresh_from_db()
    assert row.table_a.ns_pair_id == x2  # nothing changed

    round_publish(round_=round_)
    with pytest.raises(UserError) as refused:
        team_line_up_set(round_=round_, team=team, first=pair1, second=pair2)
    assert refused.value.code == "line_up_published"
    assert TeamLineUp.objects.get(round=round_, team=team).first_id == x2


def test_two_tables_decide_the_team_match_and_the_team_standings_rank_it():
    _, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    round_publish(round_=round_)
    first, second = TeamMatch.objects.filter(round=round_).order_by("number")
    _play(first.table_a, NS_WINS)  # X wins table a
    _play(first.table_b, NS_WINS)  # Y (N/S at table b) wins table b: one table each
    _play(second.table_a, NS_WINS)
    _play(second.table_b, EW_WINS)  # X (E/W at table b) wins both
    played = stage_team_matches_get(stage=stage)
    one, two = played.of_round(1)
    # one table each, 13 small points each way: a draw under "tables"
    assert one.result.finished and one.result.winner is None and one.result.tables_won == (1, 1)
    assert two.result.winner == str(second.team_x_id) and two.result.tables_won == (2, 0)
    rows = played.standings.rows
    assert rows[0].team == str(second.team_x_id) and rows[0].match_points == 2 and rows[0].tables_won == 2
    assert rows[-1].team == str(second.team_y_id) and rows[-1].match_points == 0
    assert {rows[1].match_points, rows[2].match_points} == {1}


def test_the_next_round_never_pairs_two_teams_again():
    _, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=3)
    round_publish(round_=round_)
    for row in TeamMatch.objects.filter(round=round_):
        _play(row.table_a, NS_WINS)
        _play(row.table_b, EW_WINS)
        team_match_sign_off(team_match=row)
    met = {frozenset((r.team_x_id, r.team_y_id)) for r in TeamMatch.objects.filter(round=round_)}
    second = round_draw(stage=stage, seed=3)
    again = {frozenset((r.team_x_id, r.team_y_id)) for r in TeamMatch.objects.filter(round=second)}
    assert len(again) == 2 and not met & again


def test_a_team_match_with_one_table_entered_is_not_signed_off():
    _, stage, _teams = _event(2)
    round_ = round_draw(stage=stage, seed=1)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    _play(row.table_a, NS_WINS)
    with pytest.raises(UserError) as refused:
        team_match_sign_off(team_match=row)
    assert refused.value.code == "team_match_unfinished" and " b" in refused.value.message
    row.table_a.refresh_from_db()
    assert row.table_a.status == MatchStatus.FINISHED  # nothing signed off
    _play(row.table_b, NS_WINS)
    team_match_sign_off(team_match=row)
    assert set(Match.objects.filter(round=round_).values_list("status", flat=True)) == {MatchStatus.CONFIRMED}


def test_a_team_with_one_pair_present_plays_one_table_and_forfeits_the_other():
    _, stage, _teams = _event(2, options={"team_decider": "total"})
    round_ = round_draw(stage=stage, seed=1)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    _play(row.table_a, EW_WINS)  # Y1 (E/W) wins table a by passing A: Y +13
    absent = row.table_b.ew_pair_id  # X2 does not come: X forfeits table b
    adjustment_record(match_id=row.table_b.pk, pair_id=absent, kind=AdjustmentKind.FORFEIT, reason="未到")
    result = stage_team_matches_get(stage=stage).of_round(1)[0].result
    assert result.finished and result.winner == str(row.team_y_id)
    assert result.tables[1].forfeited == (str(row.team_x_id),)


def test_a_bye_is_a_team_match_win():
    _, stage, _teams = _event(3)
    round_ = round_draw(stage=stage, seed=5)
    bye = TeamMatch.objects.get(round=round_, team_y__isnull=True)
    assert bye.table_a is None
    played = stage_team_matches_get(stage=stage)
    assert played.standings.row(str(bye.team_x_id)).match_points == 2


def test_the_organisers_team_match_page_shows_both_tables_changes_line_ups_and_refuses_a_half_sign_off(client):
    from django.urls import reverse

    from tests.factories import organiser

    event, stage, teams = _event(2)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    round_ = round_draw(stage=stage, seed=1)
    row = TeamMatch.objects.get(round=round_)
    url = reverse("draw:round_team_matches", args=[event.pk, round_.pk])
    page = client.get(url).content.decode()
    assert "队1" in page and "队2" in page and "Table a" in page and "Save line-up" in page
    x = next(t for t in teams if t.pk == row.team_x_id)
    y = next(t for t in teams if t.pk == row.team_y_id)
    x1, x2 = _members(x)
    response = client.post(url, {"action": "line_up", "team": x.pk, "first": x2, "second": x1}, follow=True)
    assert "Line-up saved" in response.content.decode()
    row.table_a.refresh_from_db()
    assert row.table_a.ns_pair_id == x2
    foreign = _members(y)[0]
    response = client.post(url, {"action": "line_up", "team": x.pk, "first": foreign, "second": x1}, follow=True)
    assert response.status_code == 200 and "not one of its pairs" in response.content.decode()
    round_publish(round_=round_)
    _play(row.table_a, NS_WINS)
    response = client.post(url, {"team_match": row.pk}, follow=True)
    assert "Both tables of a team match need their result" in response.content.decode()
    client.cookies["django_language"] = "zh-hans"
    assert "团体对抗" in client.get(url).content.decode()
