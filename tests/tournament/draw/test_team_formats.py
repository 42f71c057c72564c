"""A round robin and a knockout of teams (团体对抗, docs/rules.md §11) through the services: every team
meets every other once; a fixed bracket of teams goes on by itself, a drawn knockout team match waits
for its tie-break deal, and the option checks that keep a team knockout on a fixed bracket."""

from __future__ import annotations

import itertools

import pytest

from scoring.team_matches import TeamMatchStatus
from tests.factories import PairFactory, TournamentFactory
from tests.tournament.team_play import EW_WINS, NS_WINS, play, x_wins
from tournament.draw.round_flags import round_flag_resolve
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create, stage_delete
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.draw.team_matches import team_line_up_set
from tournament.errors import UserError
from tournament.matches.models import (
    AdvancementFlag,
    AdvancementFlagKind,
    AdvancementFlagStatus,
    Correction,
    Deal,
    Round,
    RoundStatus,
    TeamLineUp,
    TeamMatch,
)
from tournament.matches.services import deal_undo, match_sign_off, match_unlock
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.models import Team, TeamMember
from tournament.registration.teams import team_create, team_substitute_add
from tournament.standings.selectors import stage_decided_get
from tournament.standings.team_matches import stage_team_bracket_get, stage_team_matches_get

pytestmark = pytest.mark.django_db


def _event(teams: int, format: str, options: dict | None = None):
    event = TournamentFactory()
    made = [
        team_create(tournament=event, name=f"队{n + 1}", pairs=[PairFactory(tournament=event) for _ in range(2)])
        for n in range(teams)
    ]
    stage = stage_create(tournament=event, name="团体", format=format, options={"team_match": True, **(options or {})})
    return event, stage, made


def _level(row):
    """One table each by the same margin: a drawn team match under ``tables``."""
    play(row.table_a, NS_WINS)
    play(row.table_b, NS_WINS)
    team_match_sign_off(team_match=row)


def test_team_matches_are_offered_in_a_swiss_a_round_robin_of_one_group_and_a_fixed_bracket():
    event = TournamentFactory()
    team_create(tournament=event, name="甲", pairs=[PairFactory(tournament=event) for _ in range(2)])
    knockout = stage_create(tournament=event, name="淘汰", format="knockout", options={"team_match": True})
    assert knockout.settings.fixed_bracket and knockout.settings.team_match is not None
    with pytest.raises(UserError) as refused:
        stage_create(tournament=event, name="x", format="knockout", options={"team_match": True, "bracket": "redraw"})
    assert "bracket" in refused.value.fields
    with pytest.raises(UserError) as refused:
        stage_create(tournament=event, name="x", format="round_robin", options={"team_match": True, "groups": 2})
    assert "groups" in refused.value.fields
    assert event.stages.count() == 1  # nothing made by a refusal


def test_a_round_robin_of_teams_meets_every_team_once_then_is_complete():
    _, stage, teams = _event(4, "round_robin")
    met = []
    for _number in range(3):
        round_ = round_draw(stage=stage, seed=11)
        round_publish(round_=round_)
        rows = list(TeamMatch.objects.filter(round=round_))
        assert len(rows) == 2 and all(row.table_a and row.table_b for row in rows)
        for row in rows:
            met.append(frozenset((row.team_x_id, row.team_y_id)))
            x_wins(row)
    assert sorted(map(sorted, met)) == sorted(sorted(p) for p in itertools.combinations([t.pk for t in teams], 2))
    with pytest.raises(UserError) as refused:
        round_draw(stage=stage, seed=11)
    assert refused.value.code == "stage_complete"
    standings = stage_team_matches_get(stage=stage).standings
    assert sum(row.match_points for row in standings.rows) == 6 * 2


def test_a_round_robin_of_five_teams_gives_each_a_bye_and_counts_it():
    _, stage, _teams = _event(5, "round_robin")
    round_ = round_draw(stage=stage, seed=2)
    bye = TeamMatch.objects.get(round=round_, team_y=None)
    assert stage_team_matches_get(stage=stage).standings.row(str(bye.team_x_id)).match_points == 2


def test_a_knockout_of_teams_goes_on_by_itself_and_a_drawn_team_match_waits_for_its_tie_break_deal(
    django_capture_on_commit_callbacks,
):
    event, stage, _teams = _event(4, "knockout", {"third_place": True})
    first = round_draw(stage=stage, seed=5)
    stage.refresh_from_db()
    assert stage.settings.bracket_record["slots"]  # the bracket, drawn once, of teams
    rows = list(TeamMatch.objects.filter(round=first).order_by("bracket_slot"))
    assert [row.bracket_slot for row in rows] == [1, 2]
    round_publish(round_=first)
    decided, drawn = rows
    x_wins(decided)
    with pytest.raises(UserError) as refused:  # not level: no tie-break deal
        team_match_extra_deal_record(team_match=decided, side="NS")
    assert refused.value.code == "no_extra_deal_due"
    _level(drawn)
    line = next(line for line in stage_team_matches_get(stage=stage).matches if line.id == drawn.pk)
    assert line.result.status is TeamMatchStatus.NEEDS_EXTRA_DEAL and line.result.winner is None
    assert not Round.objects.filter(stage=stage, number=2).exists()  # the bracket waits for it
    from django.test import Client

    public = Client(headers={"Accept-Language": "en"})
    public.cookies["django_language"] = "en"
    page = public.get(f"/t/{event.pk}/teams/{stage.pk}/").content.decode()
    assert "Tables level: a tie-break deal at table a decides" in page  # not "Playing": both tables are over
    page = public.get(f"/t/{event.pk}/team-matches/{drawn.pk}/").content.decode()
    assert "Tables level: a tie-break deal at table a decides" in page and "Playing" not in page
    names = dict(Team.objects.values_list("pk", "name"))
    waits = f"tie-break deal at table a of {names[drawn.team_x_id]} v {names[drawn.team_y_id]}"
    assert waits in public.get(f"/t/{event.pk}/placings/").content.decode()  # not "once its final is confirmed"
    with pytest.raises(UserError) as refused:
        round_draw(stage=stage, seed=5)
    assert refused.value.code == "round_not_finished"
    with pytest.raises(UserError):
        team_match_extra_deal_record(team_match=drawn, side="north")
    drawn.refresh_from_db()
    assert drawn.extra_deal == ""  # nothing changed

    team_match_extra_deal_record(team_match=drawn, side="EW")  # Y1 (E/W at table a) wins the deal
    for url in (f"/t/{event.pk}/teams/{stage.pk}/", f"/t/{event.pk}/team-matches/{drawn.pk}/"):
        assert "(on the tie-break deal)" in public.get(url).content.decode()  # why a level team match was won
    final_round = Round.objects.get(stage=stage, number=2)
    assert final_round.status == RoundStatus.DRAFT
    final, third = TeamMatch.objects.filter(round=final_round).order_by("bracket_slot")
    assert {final.team_x_id, final.team_y_id} == {decided.team_x_id, drawn.team_y_id}
    assert {third.team_x_id, third.team_y_id} == {decided.team_y_id, drawn.team_x_id}
    assert TeamMatch.history.filter(id=drawn.pk, extra_deal="EW").exists()  # audited

    round_publish(round_=final_round)
    with django_capture_on_commit_callbacks(execute=True):
        x_wins(third)
        _level(final)
    assert not stage_decided_get(stage=stage)  # the final waits for its tie-break deal
    public.cookies["django_language"] = "zh-hans"
    waits = f"名次等待 {names[final.team_x_id]} 对 {names[final.team_y_id]} 的决胜"
    assert waits in public.get(f"/t/{event.pk}/placings/").content.decode()
    event.refresh_from_db()
    assert event.status == "running"
    team_match_extra_deal_record(team_match=final, side="NS")  # X1 (N/S at table a) wins it
    state = stage_team_bracket_get(stage=stage)
    assert state is not None and state.current_round is None
    assert state.matches[(2, 1)].advances == final.team_x_id
    assert state.matches[(2, 2)].advances == third.team_x_id
    assert stage_decided_get(stage=stage)
    event.refresh_from_db()
    assert event.status == "finished"  # the last stage decided finishes the event, as a pairs' knockout


def test_a_corrected_table_flags_the_next_team_round_drawn_from_the_standings_it_changed(
    django_capture_on_commit_callbacks,
):
    _, stage, _teams = _event(4, "swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=3))
    rows = list(TeamMatch.objects.filter(round=first).order_by("number"))
    for row in rows:
        x_wins(row)
    second = round_draw(stage=stage, seed=4)  # a draft, drawn from round 1's team standings
    corrected = rows[0].table_a
    match_unlock(match_id=corrected.pk, reason="记分有误", dependents_seen=True)
    kept = Correction.objects.get(match=corrected).before["round_standings"]["2"]
    assert [row[0] for row in kept] == [int(r.team) for r in stage_team_matches_get(stage=stage).standings.rows]
    while Deal.objects.filter(match=corrected).exists():
        deal_undo(match_id=corrected.pk, reason="录错了")
    play(corrected, EW_WINS)  # Y wins table a now: one table each, level small points, a drawn team match
    with django_capture_on_commit_callbacks(execute=True):
        match_sign_off(match_id=corrected.pk)
    flag = AdvancementFlag.objects.get(stage=stage, kind=AdvancementFlagKind.ROUND)
    assert flag.round_id == second.pk and flag.status == AdvancementFlagStatus.OPEN
    points = {team: mp for team, _rank, mp in flag.detail["after"]}
    assert points[rows[0].team_x_id] == points[rows[0].team_y_id] == 1  # the corrected team match is drawn
    # the organiser draws the team round again from the corrected standings, with its seed
    _flag, again = round_flag_resolve(round_=second, choice="redraw", reason="按更正后排名重抽", user=None)
    assert again.number == 2 and again.draw_seed == second.draw_seed
    assert TeamMatch.objects.filter(round=again).count() == 2


def test_a_registered_substitute_comes_in_between_rounds_and_nobody_else_does():
    event, stage, teams = _event(2, "swiss")
    team = teams[0]
    substitute = PairFactory(tournament=event)
    team_substitute_add(team=team, pair=substitute)
    stranger = PairFactory(tournament=event)  # in no team
    round_ = round_draw(stage=stage, seed=1)
    row = TeamMatch.objects.get(round=round_)
    first, second = (m.pair for m in team.members.filter(substitute=False).order_by("position"))
    with pytest.raises(UserError) as refused:
        team_line_up_set(round_=round_, team=team, first=stranger, second=second)
    assert refused.value.code == "line_up_foreign"
    team_line_up_set(round_=round_, team=team, first=first, second=substitute)  # the substitute for pair 2
    seated = TeamMatch.objects.select_related("table_a", "table_b").get(pk=row.pk)
    table = seated.table_b if seated.team_x_id == team.pk else seated.table_a
    assert substitute.pk in (table.ns_pair_id, table.ew_pair_id)
    round_publish(round_=round_)
    with pytest.raises(UserError) as refused:  # the published round's line-up is fixed
        team_line_up_set(round_=round_, team=team, first=first, second=second)
    assert refused.value.code == "line_up_published"
    assert TeamLineUp.objects.get(round=round_, team=team).second_id == substitute.pk  # nothing changed


def test_the_organiser_records_a_drawn_knockout_team_matchs_tie_break_deal_on_its_page(client):
    """The team match page offers the tie-break deal's form only while the team match waits for one
    (docs/rules.md §11), shows a refusal on the page (nothing changed), and records the winning side."""
    from django.urls import reverse

    from tests.factories import organiser

    event, stage, _teams = _event(2, "knockout")
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    round_ = round_draw(stage=stage, seed=5)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    url = reverse("draw:round_team_matches", args=[event.pk, round_.pk])
    client.cookies["django_language"] = "en"
    assert "Which side won the tie-break deal?" not in client.get(url).content.decode()  # tables still playing
    _level(row)
    page = client.get(url).content.decode()
    assert "Which side won the tie-break deal?" in page and f'id="extra-deal-{row.pk}"' in page
    assert "played at table a (table 1)" in page and row.table_a.ns_pair.name in page

    response = client.post(url, {"action": "extra_deal", "team_match": row.pk}, follow=True)  # no side chosen
    assert response.status_code == 200 and "Say which side won the tie-break deal" in response.content.decode()
    row.refresh_from_db()
    assert row.extra_deal == ""

    client.cookies["django_language"] = "zh-hans"
    page = client.get(url).content.decode()
    assert "加赛一副哪一方获胜？" in page and "记录加赛结果" in page
    response = client.post(url, {"action": "extra_deal", "team_match": row.pk, "side": "EW"}, follow=True)
    page = response.content.decode()
    assert "加赛一副的胜方已记录" in page and "加赛一副哪一方获胜？" not in page
    row.refresh_from_db()
    assert row.extra_deal == "EW"
    y = row.team_y.name  # Y1 sits E/W at table a: its team goes through
    assert f"{y} 胜（加赛决胜）" in page  # a full-width bracket brings its own space

    client.cookies["django_language"] = "en"
    response = client.post(url, {"action": "extra_deal", "team_match": row.pk, "side": "NS"}, follow=True)
    assert "is not waiting for a tie-break deal" in response.content.decode()  # already decided: refused
    row.refresh_from_db()
    assert row.extra_deal == "EW"
    assert f"{y} wins (on the tie-break deal)" in response.content.decode()


def test_the_stage_form_offers_team_matches_and_says_why_it_refuses_them():
    """A first-time organiser makes a stage of team matches on the stages page (the decider chosen, a
    knockout of teams on its fixed bracket whatever the bracket menu says); while a team has one member
    (made before any stage played team matches) a stage of team matches is refused on its field, nothing
    made."""
    from django.urls import reverse

    from tests.factories import english_client, organiser

    event = TournamentFactory()
    boss = organiser()
    event.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    for name in ("甲", "乙"):
        team_create(tournament=event, name=name, pairs=[PairFactory(tournament=event) for _ in range(2)])
    url = reverse("draw:stages", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'name="team_match"' in page and 'name="team_decider"' in page
    form = {"name": "团体瑞士", "format": "swiss", "department_rounds": 0, "team_match": "1", "team_decider": "total"}
    assert client.post(url, form).status_code == 302
    swiss = event.stages.get(name="团体瑞士")
    assert swiss.settings.team_match is not None and swiss.settings.team_options.team_decider.value == "total"
    knockout = {**form, "name": "团体淘汰", "format": "knockout", "bracket": "redraw", "team_decider": "tables"}
    assert client.post(url, knockout).status_code == 302
    assert event.stages.get(name="团体淘汰").settings.fixed_bracket
    assert "team matches, each at two tables" in client.get(url).content.decode()
    for stage in event.stages.all():  # made by mistake: no stage plays team matches now
        stage_delete(stage=stage)
    team_create(tournament=event, name="丙", pairs=[PairFactory(tournament=event)])
    refused = client.post(url, {**form, "name": "又一个"})
    assert refused.status_code == 200
    assert "A team has at least two members; these have fewer: 丙." in refused.content.decode()
    assert not event.stages.filter(name="又一个").exists()


def test_the_wall_sheet_of_a_team_round_names_each_pairs_team_and_each_tables_team_match():
    from django.urls import reverse

    from tests.factories import english_client, organiser

    event, stage, teams = _event(2, "swiss")
    round_ = round_draw(stage=stage, seed=1)
    boss = organiser()
    event.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    page = client.get(reverse("draw:sheet", args=[event.pk, round_.pk])).content.decode()
    assert "Team match 1 · table a" in page and "Team match 1 · table b" in page
    assert page.count(f"<small>{teams[0].name}</small>") == 2  # its two pairs, at tables a and b
    assert page.count(f'<small class="muted">{teams[1].name}</small>') == 2  # and in the find-your-table list


def test_a_team_of_one_left_out_of_a_team_draw_is_named_on_the_stage_and_at_the_draw():
    """A team of one pair is not drawn into team matches: said at the draw and on the stage page, not left
    out without a word. No write makes one while a stage plays team matches (they are refused, see the
    teams' services' tests): this is a team of one kept from before that rule, made in the database."""
    from django.urls import reverse

    from tests.factories import english_client, organiser

    event, stage, _teams = _event(2, "swiss")
    lone = Team.objects.create(tournament=event, number=event.teams.count() + 1, name="新队")
    TeamMember.objects.create(team=lone, pair=PairFactory(tournament=event), position=1)
    boss = organiser()
    event.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    drawn = client.post(reverse("draw:round_generate", args=[event.pk, stage.pk]), {"seed": 1}, follow=True)
    assert "Not drawn, fewer than two members: 新队." in drawn.content.decode()
    assert not TeamMatch.objects.filter(team_x__name="新队").exists()
    page = client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()
    assert "Not drawn, fewer than two members: 新队." in page
    # named by mistake: the team of one, drawn by nobody, is deleted; a team that plays is not
    from tournament.registration.teams import team_delete

    team_delete(team=event.teams.get(name="新队"))
    with pytest.raises(UserError):
        team_delete(team=event.teams.get(name="队1"))


@pytest.mark.parametrize(("teams", "name"), [(2, "Final"), (3, "Semi-finals"), (4, "Semi-finals")])
def test_a_knockout_round_of_teams_is_named_by_the_teams_still_in(teams, name):
    """Two teams field four pairs: the knockout of two teams is its final, not a semi-final."""
    from django.utils import translation

    from tournament.labels import round_name
    from tournament.matches.selectors import round_knockout_pairs

    _, stage, _made = _event(teams, "knockout")
    round_ = Round.objects.get(pk=round_draw(stage=stage, seed=1).pk)
    with translation.override("en"):
        assert round_name(number=1, knockout_pairs=round_knockout_pairs(round_=round_)) == name
