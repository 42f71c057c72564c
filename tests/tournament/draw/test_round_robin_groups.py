"""Round robin in groups (stage option ``groups``): a circle schedule per group, top K of each advance."""

from __future__ import annotations

import itertools

import pytest

from tests.factories import organiser
from tests.tournament.draw.conftest import make_field, win
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.matches.models import Round
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db


def play_stage(stage, *, rounds: int) -> list[Round]:
    """Draw, publish and play ``rounds`` rounds: the better-numbered table side alternates."""
    played = []
    for number in range(1, rounds + 1):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for k, match in enumerate(round_.matches.filter(ew_pair__isnull=False).order_by("id")):
            win(match, "NS" if k % 2 else "EW")
        played.append(round_)
    return played


def group_of(stage) -> dict[int, int]:
    stage.refresh_from_db()
    return {int(pair_id): group for pair_id, group in stage.options["group_of"].items()}


@pytest.mark.parametrize(("pairs", "groups"), [(11, 2), (12, 3), (7, 2)])
def test_every_pair_meets_its_group_exactly_once_and_nobody_else(pairs, groups):
    tournament = make_field(pairs, seeds=True)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": groups})
    first = round_draw(stage=stage, seed=5)
    of = group_of(stage)
    members = {g: sorted(p for p, x in of.items() if x == g) for g in range(1, groups + 1)}
    assert set(of) == set(tournament.pairs.values_list("id", flat=True))
    sizes = sorted(len(m) for m in members.values())
    assert sizes[-1] - sizes[0] <= 1
    # Snake order by seed: seed 1 → group 1, seed `groups` → the last group, seed `groups + 1` → the last too.
    by_seed = dict(tournament.pairs.values_list("seed", "id"))
    assert of[by_seed[1]] == 1 and of[by_seed[groups]] == groups and of[by_seed[groups + 1]] == groups
    first.delete()
    rounds_needed = max(len(m) - 1 + len(m) % 2 for m in members.values())
    met: list[frozenset[int]] = []
    byes: dict[int, int] = {p: 0 for p in of}
    for round_ in play_stage(stage, rounds=rounds_needed):
        assert group_of(stage) == of  # fixed at round 1, reused by later rounds
        matches = list(round_.matches.select_related("table").order_by("table__number"))
        tables = [m for m in matches if m.ew_pair_id is not None]
        assert [m.table.number for m in tables] == list(range(1, len(tables) + 1))
        assert [of[m.ns_pair_id] for m in tables] == sorted(of[m.ns_pair_id] for m in tables)  # group by group
        for m in matches:
            if m.ew_pair_id is None:
                byes[m.ns_pair_id] += 1
            else:
                assert of[m.ns_pair_id] == of[m.ew_pair_id], "a table across two groups"
                met.append(frozenset((m.ns_pair_id, m.ew_pair_id)))
    expected = [frozenset(t) for m in members.values() for t in itertools.combinations(m, 2)]
    assert sorted(met, key=sorted) == sorted(expected, key=sorted)  # everyone in the group exactly once
    for group in members.values():  # odd groups: one bye each per cycle, even groups none
        assert all(byes[p] == len(group) % 2 for p in group)
    with pytest.raises(UserError):
        round_draw(stage=stage, seed=99)


def test_advancement_takes_the_top_k_of_each_group_seeded_by_place_then_group():
    boss = organiser()
    tournament = make_field(8, seeds=True)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": 2})
    play_stage(stage, rounds=3)
    of = group_of(stage)
    order = [int(row.entrant) for row in stage_standings(stage=stage).standings.rows]
    first = [p for p in order if of[p] == 1]
    second = [p for p in order if of[p] == 2]
    final = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    stage_advance(stage=stage, next_stage=final, count=2, user=boss)
    final.refresh_from_db()
    assert final.options["entrants"] == [first[0], second[0], first[1], second[1]]
    record = final.options["advancement"]
    assert record["per_group"] is True and record["count"] == 2 and record["by_rank"] == final.options["entrants"]
    with pytest.raises(UserError) as error:  # more than a group holds
        stage_advance(stage=stage, next_stage=final, count=5, user=boss)
    assert "count" in error.value.fields
    stage_advance(stage=stage, next_stage=final, count=1, user=boss)  # the two group winners
    final.refresh_from_db()
    assert final.options["entrants"] == [first[0], second[0]]


def test_the_groups_option_is_validated():
    tournament = make_field(4)
    for bad in (0, -1, "2", True, 1.5):
        with pytest.raises(UserError) as error:
            stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": bad})
        assert "groups" in error.value.fields
    with pytest.raises(UserError):
        stage_create(tournament=tournament, name="预赛", format="swiss", options={"groups": 2})
    one = stage_create(tournament=tournament, name="循环赛", format="round_robin", options={"groups": 1})
    round_draw(stage=one, seed=1)
    one.refresh_from_db()
    assert "group_of" not in one.options  # one group: the plain round robin
    too_many = stage_create(tournament=make_field(4), name="小组赛", format="round_robin", options={"groups": 3})
    with pytest.raises(UserError) as error:  # four pairs cannot make three groups of two
        round_draw(stage=too_many, seed=1)
    assert error.value.code == "too_few_entrants"


def test_the_stage_form_passes_the_number_of_groups():
    from tournament.draw.forms import StageForm

    form = StageForm({"name": "小组赛", "format": "round_robin", "department_rounds": 0, "groups": 4})
    assert form.is_valid(), form.errors
    assert form.service_kwargs()["options"]["groups"] == 4
    swiss = StageForm({"name": "预赛", "format": "swiss", "department_rounds": 0, "groups": 4})
    assert swiss.is_valid() and "groups" not in swiss.service_kwargs()["options"]
