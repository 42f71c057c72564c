"""The bracket: the whole tree, byes, winners, live levels, the third-place match."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, StageFactory, TournamentFactory
from tests.tournament.standings.events import knockout_event
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus, StageFormat, Table
from tournament.standings.public import bracket_get

pytestmark = pytest.mark.django_db


def finished(winner: str, ns: int = 14, ew: int = 9) -> dict:
    return {"status": "finished", "winner": winner, "reason": "passed_a", "levels": {"NS": ns, "EW": ew}, "deals": []}


def fixed_bracket():
    """Six pairs in a bracket of eight (byes to the top seeds), played to the final and the
    third-place match (final round, bracket match 2) as ``knockout_round`` draws them. Rounds 1
    and 2 are signed off; the third-place match is entered, awaiting sign-off."""
    tournament = TournamentFactory()
    stage = StageFactory(tournament=tournament, format=StageFormat.KNOCKOUT, name="淘汰赛")
    a, b, c, d, e, f = (PairFactory(tournament=tournament, name=name) for name in "ABCDEF")
    tables = [Table.objects.create(tournament=tournament, number=n) for n in (1, 2)]

    def match(round_, slot, ns, ew, *, winner="NS", table=None, status=MatchStatus.FINISHED, state=None):
        return Match.objects.create(
            round=round_,
            ns_pair=ns,
            ew_pair=ew,
            bracket_slot=slot,
            table=table,
            status=status,
            winner=winner if status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED) else "",
            state=state if state is not None else ({} if ew is None else finished(winner)),
        )

    signed = MatchStatus.CONFIRMED  # rounds 1 and 2 are signed off: their winners go on
    first = Round.objects.create(stage=stage, number=1, status=RoundStatus.FINISHED)
    match(first, 1, a, None)
    match(first, 2, b, c, table=tables[0], status=signed)
    match(first, 3, d, e, table=tables[1], winner="EW", status=signed)
    match(first, 4, f, None)
    second = Round.objects.create(stage=stage, number=2, status=RoundStatus.FINISHED)
    match(second, 1, a, b, table=tables[0], status=signed)
    match(second, 2, e, f, table=tables[1], winner="EW", status=signed)
    final = Round.objects.create(stage=stage, number=3, status=RoundStatus.RUNNING)
    running = {"status": "running", "winner": None, "levels": {"NS": 10, "EW": 12}, "deals": []}
    match(final, 1, a, f, table=tables[0], status=MatchStatus.RUNNING, state=running)
    match(final, 2, b, e, table=tables[1], winner="EW")
    return tournament, stage


def test_a_fixed_bracket_with_byes_winners_live_levels_and_third_place():
    tournament, stage = fixed_bracket()
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert [len(r.matches) for r in bracket.rounds] == [4, 2, 1]
    assert [r.remaining for r in bracket.rounds] == [6, 4, 2]
    first = bracket.rounds[0].matches
    assert [box.is_bye for box in first] == [True, False, False, True]
    assert bracket.byes == 2
    assert first[2].winner == "EW" and first[2].ew.name == "E"
    final = bracket.rounds[2].matches[0]
    assert final.is_live and final.levels == (10, 12) and {final.ns.name, final.ew.name} == {"A", "F"}
    assert bracket.third_place is not None and bracket.third_place.third_place
    assert {bracket.third_place.ns.name, bracket.third_place.ew.name} == {"B", "E"}
    assert bracket.champion is None


def test_the_bracket_page_shows_the_tree_and_marks_winners(client):
    tournament, stage = fixed_bracket()
    response = client.get(reverse("standings:bracket", args=[tournament.pk]), follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0].endswith(f"/bracket/{stage.pk}/")
    assert page.count('class="bracket-round') == 3
    assert page.count("bracket-match bye") == 2
    assert "Third-place match" in page and "Final" in page and "Semi-finals" in page
    assert page.count('<span class="visually-hidden">winner</span>') >= 4
    assert "live-match" in page and '<span class="lv">10</span>' in page and '<span class="lv">Q</span>' in page


def test_a_redrawn_knockout_shows_its_byes_and_the_rounds_still_to_come():
    tournament, rounds = knockout_event()
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=rounds[0].stage_id)
    assert [r.remaining for r in bracket.rounds] == [5, 3, 2]
    assert [sum(box.is_bye for box in r.matches) for r in bracket.rounds] == [1, 1, 0]
    assert bracket.rounds[-1].matches[0].is_live


def test_rounds_not_drawn_yet_are_empty_boxes():
    tournament, rounds = knockout_event()
    Round.objects.filter(pk=rounds[-1].pk).delete()
    Round.objects.filter(pk=rounds[-2].pk).update(status=RoundStatus.DRAFT)  # not public
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=rounds[0].stage_id)
    assert [r.drawn for r in bracket.rounds] == [True, False, False]
    assert [len(r.matches) for r in bracket.rounds] == [3, 2, 1]
    assert all(box.is_placeholder for box in bracket.rounds[1].matches)


def test_a_decided_final_names_the_champion():
    tournament, stage = fixed_bracket()
    final = Match.objects.get(round__stage=stage, round__number=3, bracket_slot=1)
    final.status, final.winner, final.state = MatchStatus.CONFIRMED, "EW", finished("EW", 9, 14)
    final.save()
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert bracket.champion is not None and bracket.champion.name == "F"


def test_the_bracket_of_another_tournament_is_404(client):
    _tournament, stage = fixed_bracket()
    other = TournamentFactory()
    assert client.get(reverse("standings:stage_bracket", args=[other.pk, stage.pk])).status_code == 404
    assert bracket_get(tournament_id=other.pk, stage_id=stage.pk) is None


def test_a_fixed_bracket_shows_who_meets_whom_in_the_rounds_to_come():
    tournament, stage = fixed_bracket()
    Match.objects.filter(round__stage=stage, round__number=3).delete()
    Round.objects.filter(stage=stage, number=3).delete()
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    final = bracket.rounds[2].matches[0]
    assert final.is_placeholder and final.ns.name == "A" and final.ew.name == "F"


@pytest.mark.parametrize(
    ("next_deal", "side"),
    [({"number": 4, "level": 12, "sets_level": "EW"}, "EW"), ({"number": 4, "level": 10, "declarer": "NS"}, "NS")],
    ids=["guandan", "tractor-declarer"],
)
def test_a_live_box_marks_the_side_whose_level_is_played_next(client, next_deal, side):
    tournament, stage = fixed_bracket()
    final = Match.objects.get(round__stage=stage, round__number=3, bracket_slot=1)
    final.state = {**final.state, "next_deal": next_deal}
    final.save()
    box = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk).rounds[2].matches[0]
    assert box.next_sets_level == side
    page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, stage.pk])).content.decode()
    live = page[page.index("live-match") :]
    live = live[: live.index("</li>")]
    slots = live.split('<span class="slot')[1:]
    marked = [("class=\"sets\"" in slot) for slot in slots]
    assert marked == ([True, False] if side == "NS" else [False, True])
    assert "The next deal is played at this level" in live
    # a finished match marks nothing
    final.status, final.winner = MatchStatus.FINISHED, "EW"
    final.save()
    assert bracket_get(tournament_id=tournament.pk, stage_id=stage.pk).rounds[2].matches[0].next_sets_level is None
