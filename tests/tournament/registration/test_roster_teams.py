"""The roster's optional team column (docs/rules.md §11): all or nothing, every problem on its row."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tests.tournament.registration.test_roster_import import workbook
from tournament.registration.models import Pair, Player, Team, TeamMember
from tournament.registration.roster import RosterImportError, roster_import
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db

HEADER = ["姓名", "工号", "部门", "搭档工号", "手机", "团体"]


def _state():
    return Player.objects.count(), Pair.objects.count(), Team.objects.count(), TeamMember.objects.count()


def test_the_team_column_makes_teams_and_places_pairs_in_order():
    event = TournamentFactory()
    existing = team_create(tournament=event, name="老将队", pairs=[PairFactory(tournament=event) for _ in range(2)])
    rows = [
        ["张伟", "1001", "财务部", "1002", "", "财务队"],
        ["李娜", "1002", "财务部", "1001", "", ""],  # the team named on one row of the pair is enough
        ["王强", "2001", "销售部", "2002", "", "财务队"],
        ["赵敏", "2002", "销售部", "", "", "财务队"],
        ["孙丽", "3001", "销售部", "3002", "", "老将队"],
        ["周杰", "3002", "销售部", "3001", "", "老将队"],
        ["吴磊", "4001", "", "4002", "", ""],
        ["郑爽", "4002", "", "4001", "", None],
    ]
    result = roster_import(tournament=event, file=workbook(rows, header=HEADER))
    assert (result.pairs, result.team_members) == (4, 3)
    new = Team.objects.get(tournament=event, name="财务队")
    assert new.number == 2
    assert [m.pair.name for m in new.members.order_by("position")] == ["张伟 / 李娜", "王强 / 赵敏"]
    assert [m.position for m in existing.members.order_by("position")] == [1, 2, 3]
    assert existing.members.last().pair.name == "孙丽 / 周杰"
    assert not TeamMember.objects.filter(pair__name="吴磊 / 郑爽").exists()
    assert TeamMember.history.count() == 5  # two made by hand, three by the import: audited


def test_a_pair_in_two_teams_and_a_team_of_one_are_refused_on_their_rows():
    event = TournamentFactory()
    rows = [
        ["张伟", "1001", "", "1002", "", "财务队"],
        ["李娜", "1002", "", "1001", "", "销售队"],  # row 3: the pair's rows name two teams
        ["王强", "2001", "", "2002", "", "销售队"],
        ["赵敏", "2002", "", "", "", ""],
        ["孙丽", "3001", "", "3002", "", "研发对"],  # row 6: a misspelt team, named by no one else
        ["周杰", "3002", "", "3001", "", "研发对"],
        ["吴磊", "4001", "", "4002", "", "研发队"],
        ["郑爽", "4002", "", "4001", "", ""],
        ["钱七", "5001", "", "5002", "", "研发队"],
        ["冯八", "5002", "", "5001", "", "x" * 81],  # row 11: too long, and a second team for the pair
    ]
    before = _state()
    with pytest.raises(RosterImportError) as refused:
        roster_import(tournament=event, file=workbook(rows, header=HEADER))
    by_row = {}
    for error in refused.value.errors:
        by_row.setdefault(error.row, []).append(error.message)
    assert any("in one team only" in message for message in by_row[2])
    assert any("in one team only" in message for message in by_row[3])
    assert any("研发对" in message and "at least two members" in message for message in by_row[6])
    assert any("longer than 80" in message for message in by_row[11])
    # the contested pairs count for neither team: 销售队 and 研发队 are then each one pair's
    assert any("销售队" in message for message in by_row[4]) and any("研发队" in message for message in by_row[8])
    assert 5 not in by_row and 9 not in by_row
    assert _state() == before


def test_a_new_team_named_by_one_pair_is_refused_but_an_existing_one_is_joined():
    event = TournamentFactory()
    team_create(tournament=event, name="老将队", pairs=[PairFactory(tournament=event) for _ in range(2)])
    rows = [["张伟", "1001", "", "1002", "", "老将队"], ["李娜", "1002", "", "1001", "", "老将队"]]
    assert roster_import(tournament=event, file=workbook(rows, header=HEADER)).team_members == 1
    rows = [["王强", "2001", "", "2002", "", "新队"], ["赵敏", "2002", "", "2001", "", "新队"]]
    before = _state()
    with pytest.raises(RosterImportError) as refused:
        roster_import(tournament=event, file=workbook(rows, header=HEADER))
    assert [error.row for error in refused.value.errors] == [2]
    assert _state() == before


def test_players_of_dou_dizhu_take_a_team_each_row():
    event = TournamentFactory(rule_profile="doudizhu")
    rows = [["甲", "1", "", "", "工会队"], ["乙", "2", "", "", "工会队"], ["丙", "3", "", "", ""]]
    result = roster_import(tournament=event, file=workbook(rows, header=["姓名", "工号", "部门", "手机", "团体"]))
    assert result.team_members == 2
    assert Team.objects.get(tournament=event).members.count() == 2


def test_an_import_leaving_a_team_short_is_refused_on_its_row_only_while_a_stage_plays_team_matches():
    """A team of none (made before any stage, by name) named by one imported entrant would be a team of
    one: while a stage plays team matches the import is refused on that row, nothing written; with only
    a team total the team is being filled, and the same rows are imported."""
    from tournament.draw.stages import stage_create

    rows = [
        ["张伟", "1001", "", "1002", "", "丙"],
        ["李娜", "1002", "", "1001", "", ""],
        ["王强", "2001", "", "2002", "", "甲"],
        ["赵敏", "2002", "", "2001", "", ""],
    ]
    for options, refused in (({"team_match": True}, True), ({"team_total": True}, False)):
        event = TournamentFactory()
        team_create(tournament=event, name="甲", pairs=[PairFactory(tournament=event) for _ in range(2)])
        team_create(tournament=event, name="乙", pairs=[PairFactory(tournament=event) for _ in range(2)])
        stage_create(tournament=event, name="第一阶段", format="swiss", options=options)
        waiting = Team.objects.create(tournament=event, number=3, name="丙")  # as made before the stage
        before = _state()
        if not refused:
            roster_import(tournament=event, file=workbook(rows, header=HEADER))
            assert waiting.members.count() == 1
            continue
        with pytest.raises(RosterImportError) as error:
            roster_import(tournament=event, file=workbook(rows, header=HEADER))
        assert [(row.row, row.message) for row in error.value.errors] == [
            (2, "丙 would have 1 member(s), but 第一阶段 plays team matches and a team has at least two.")
        ]
        assert _state() == before
