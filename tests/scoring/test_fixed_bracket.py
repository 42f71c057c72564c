"""A fixed knockout bracket in the rules core (docs/rules.md §4 "Tournament structures", §7 "A knockout
match lost by both"): :func:`scoring.bracket.fixed_bracket_state` decides its matches by the same rule
as :func:`scoring.bracket.bracket_state`, so the next draw and the public bracket never disagree."""

from __future__ import annotations

import random

import pytest

from scoring.bracket import BracketMismatch, KnockoutResult, MatchRef, bracket_state, fixed_bracket_state
from scoring.seats import Side

SLOTS_4 = ("A", "D", "B", "C")  # seeds A, B, C, D: semi-finals A v D and B v C
SEEDS_4 = ("A", "B", "C", "D")


def test_a_semi_final_lost_by_both_sends_nobody_on_and_the_finalist_gets_a_bye() -> None:
    state = fixed_bracket_state(slots=SLOTS_4, seeds=SEEDS_4, third_place=False, winners={(1, 1): "A", (1, 2): None})
    semi = state.matches[(1, 2)]
    assert semi.decided and semi.played and semi.advances is None and semi.loser is None
    final = state.matches[(2, 1)]
    assert (final.ns, final.ew, final.advances, final.decided) == ("A", None, "A", True)
    assert not final.walkover  # nobody was there to lose: a bye
    assert state.current_round is None


def test_a_withdrawn_pair_loses_its_unplayed_match_by_walkover() -> None:
    state = fixed_bracket_state(
        slots=SLOTS_4, seeds=SEEDS_4, third_place=True, winners={(1, 1): "A", (1, 2): "B"}, withdrawn={"B"}
    )
    final = state.matches[(2, 1)]
    assert final.advances == "A" and final.walkover and not final.played
    third = state.matches[(2, 2)]
    assert third.third_place and (third.ns, third.ew) == ("C", "D") and not third.decided
    assert state.current_round == 2


def test_the_third_place_match_waits_for_both_semi_finals_and_is_decided_like_any_other() -> None:
    one_semi = fixed_bracket_state(slots=SLOTS_4, seeds=SEEDS_4, third_place=True, winners={(1, 1): "A"})
    assert (2, 2) not in one_semi.matches and one_semi.current_round == 1
    winners: dict[MatchRef, str | None] = {(1, 1): "A", (1, 2): "C", (2, 1): "A", (2, 2): "B"}
    done = fixed_bracket_state(slots=SLOTS_4, seeds=SEEDS_4, third_place=True, winners=winners)
    assert done.current_round is None
    assert (done.matches[(2, 2)].advances, done.matches[(2, 2)].loser) == ("B", "D")
    # the third-place match lost by both decides it too: nobody is 3rd, nothing waits
    winners[(2, 2)] = None
    assert fixed_bracket_state(slots=SLOTS_4, seeds=SEEDS_4, third_place=True, winners=winners).current_round is None


@pytest.mark.parametrize(
    ("winners", "reason"),
    [
        ({(3, 1): "A"}, "unknown_match"),
        ({(1, 1): "B"}, "winner_not_in_match"),
        ({(2, 1): "A"}, "round_not_ready"),
    ],
)
def test_results_that_do_not_fit_are_refused_with_a_reason(winners: dict[MatchRef, str | None], reason: str) -> None:
    with pytest.raises(BracketMismatch) as caught:
        fixed_bracket_state(slots=SLOTS_4, seeds=SEEDS_4, third_place=False, winners=winners)
    assert caught.value.reason == reason and caught.value.message_zh


def test_a_bye_cannot_be_lost_by_both() -> None:
    with pytest.raises(BracketMismatch) as caught:
        fixed_bracket_state(slots=("A", None), seeds=("A",), third_place=False, winners={(1, 1): None})
    assert caught.value.reason == "winner_not_in_match"


@pytest.mark.parametrize("seed", range(40))
def test_both_views_of_a_fixed_bracket_agree(seed: int) -> None:
    """Played out at random (double forfeits and withdrawals included), the fixed bracket's matches read
    back as drawn matches give the same champion, third and fourth in :func:`bracket_state`."""
    rng = random.Random(seed)
    pairs = [f"p{i}" for i in range(1, rng.randint(3, 12) + 1)]
    size = 1 << (len(pairs) - 1).bit_length()
    slots: list[str | None] = [*pairs, *([None] * (size - len(pairs)))]
    rng.shuffle(slots)
    withdrawn = set(rng.sample(pairs, rng.choice((0, 0, 1))))
    winners: dict[MatchRef, str | None] = {}
    while (
        state := fixed_bracket_state(slots=slots, seeds=pairs, third_place=True, winners=winners, withdrawn=withdrawn)
    ).current_round is not None:
        for ref, match in state.matches.items():
            if ref[0] == state.current_round and not match.decided:
                winners[ref] = None if rng.random() < 0.1 else rng.choice((match.ns, match.ew))
    results = [
        KnockoutResult(
            round=match.round,
            ns=match.ns if match.ns is not None else match.ew,
            ew=match.ew if match.ns is not None else None,
            winner=None if match.advances is None else Side.NS if match.advances == match.ns else Side.EW,
            confirmed=match.played,
            third_place=match.third_place,
        )
        for match in state.matches.values()
        if match.played or match.advances is not None
    ]
    drawn = bracket_state(entrants=pairs, results=results, withdrawn=withdrawn)
    final = state.matches[(size.bit_length() - 1, 1)]
    third = state.matches.get((size.bit_length() - 1, 2))
    assert drawn.champion == final.advances
    assert drawn.pending == 0
    if third is not None and third.played:
        assert (drawn.third, drawn.fourth) == (third.advances, third.loser)
