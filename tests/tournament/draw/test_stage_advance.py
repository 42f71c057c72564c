"""Stage advancement: the top K by the rules core's standings, seeded by rank; overrides audited."""

from __future__ import annotations

import pytest

from tests.factories import organiser
from tests.tournament.draw.conftest import make_field, win
from tournament.draw.services import round_draw, round_publish, stage_bracket
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.matches.models import RoundEntry
from tournament.registration.models import PairStatus
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db


def played_swiss(pairs: int = 8, rounds: int = 3):
    tournament = make_field(pairs)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    for number in range(1, rounds + 1):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for k, match in enumerate(round_.matches.filter(ew_pair__isnull=False).order_by("id")):
            win(match, "NS" if k % 2 else "EW")
    return tournament, stage


def ranking(stage) -> list[int]:
    return [int(row.entrant) for row in stage_standings(stage=stage).standings.rows]


def test_the_top_k_advance_seeded_by_rank_into_a_fixed_bracket():
    boss = organiser()
    tournament, stage = played_swiss()
    final = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    stage_advance(stage=stage, next_stage=final, user=boss)
    final.refresh_from_db()
    top = ranking(stage)[:4]
    assert final.options["entrants"] == top
    record = final.options["advancement"]
    assert record["by_rank"] == top and record["count"] == 4 and record["by"] == boss.pk
    first = round_draw(stage=final, seed=1)
    bracket = stage_bracket(stage=final)
    assert bracket is not None and list(bracket.seeds) == top  # seed 1 = rank 1
    tables = {m.table.number: {m.ns_pair_id, m.ew_pair_id} for m in first.matches.all()}
    assert tables == {1: {top[0], top[3]}, 2: {top[1], top[2]}}
    assert final.history.filter(history_user=boss, history_change_reason__startswith="advance").exists()


def test_an_override_needs_a_reason_and_is_recorded():
    boss = organiser()
    tournament, stage = played_swiss()
    nxt = stage_create(tournament=tournament, name="决赛阶段", format="swiss")
    order = ranking(stage)
    with pytest.raises(UserError) as no_reason:
        stage_advance(stage=stage, next_stage=nxt, overrides=[(order[3], order[4])], user=boss)
    assert no_reason.value.code == "reason_required" and no_reason.value.fields == {"reason": ["Give a reason."]}
    stage_advance(
        stage=stage, next_stage=nxt, overrides=[(order[3], order[4])], reason="第4名弃权，由第5名递补", user=boss
    )
    nxt.refresh_from_db()
    assert nxt.options["entrants"] == [*order[:3], order[4]]
    assert nxt.options["advancement"]["overrides"] == [[order[3], order[4]]]
    assert nxt.history.first().history_change_reason == "第4名弃权，由第5名递补"
    with pytest.raises(UserError):  # the pair leaving must be advancing
        stage_advance(stage=stage, next_stage=nxt, overrides=[(order[6], order[7])], reason="x", user=boss)
    first = round_draw(stage=nxt, seed=1)
    assert set(RoundEntry.objects.filter(round=first).values_list("pair_id", flat=True)) == set(
        nxt.options["entrants"]
    )
    top = first.matches.get(table__number=1)
    assert {top.ns_pair_id, top.ew_pair_id} == {order[0], order[1]}  # ranked by seed until a result


def test_withdrawn_pairs_do_not_advance_and_the_stage_must_be_over():
    boss = organiser()
    tournament, stage = played_swiss()
    nxt = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    order = ranking(stage)
    tournament.pairs.filter(pk=order[0]).update(status=PairStatus.WITHDRAWN)
    stage_advance(stage=stage, next_stage=nxt, count=2, user=boss)
    nxt.refresh_from_db()
    stage.refresh_from_db()
    # The stage's one ranking lists the withdrawn pair last; a full tie at the cut was decided by
    # lots recorded with the stage (docs/rules.md §5), not by the text order of pair ids.
    after = ranking(stage)
    assert after[-1] == order[0]
    assert nxt.options["entrants"] == after[:2]
    assert nxt.options["advancement"]["lots_seed"] == stage.options.get("lots_seed")
    with pytest.raises(UserError):
        stage_advance(stage=stage, next_stage=nxt, count=99, user=boss)
    round_draw(stage=nxt, seed=1)
    with pytest.raises(UserError) as error:  # the next stage has started
        stage_advance(stage=stage, next_stage=nxt, count=2, user=boss)
    assert error.value.code == "next_stage_started"
    later = stage_create(tournament=tournament, name="决赛", format="swiss")
    with pytest.raises(UserError) as error:  # the knockout is drawn, not played
        stage_advance(stage=nxt, next_stage=later, count=2, user=boss)
    assert error.value.code == "stage_not_finished"
    with pytest.raises(UserError) as error:  # a later stage is drawn from its advanced entrants only
        round_draw(stage=later, seed=1)
    assert error.value.code == "not_advanced" and "淘汰赛" in error.value.message
    with pytest.raises(UserError):  # backwards
        stage_advance(stage=later, next_stage=stage, count=2, user=boss)
