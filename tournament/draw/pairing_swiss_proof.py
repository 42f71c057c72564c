"""What a Swiss draw proves: how many leading criteria are optimal over *every* pairing
(``notes["proven"]``; docs/swiss-draw.md, "What is proven").

A draw above ``DENSE_LIMIT`` is the optimum over its candidate tables only. A criterion of its
vector (docs/swiss-draw.md, 4; the order excluded) is proven optimal over every pairing that
ties the draw on the criteria before it when it ties the *class bound*
(:mod:`tournament.draw.pairing_swiss_classes`) or sits at a lower bound every such pairing
obeys: the fewest rematches (a seed reaches it), no clash (or the fewest, when a seed proves
it, or the department floor), no severe seat table, each boundary crossed only as often as its
parity forces or as :func:`crossings_forced` shows, no skip, no seat strain. The count stops at
the first criterion that is neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from tournament.draw.pairing_swiss_candidates import DENSE_LIMIT, SwissField
from tournament.draw.pairing_swiss_classes import ClassBound, ClassProblem
from tournament.draw.pairing_swiss_seeds import maximum_matching
from tournament.draw.pairing_types import OptionValue

__all__ = ["criteria_proven", "crossings_forced"]

_FORCED_SIDE = 1000  # the proof of forced crossings looks at sides of up to this many entrants
_REBOUNDS = 2  # the class bound is asked again at most this often in a proof

Vector = tuple[int, ...]


def criteria_proven(
    field: SwissField,
    members: list[int],
    groups: list[int],
    value: Vector,
    notes: dict[str, OptionValue],
    *,
    classes: ClassProblem | None,
    bound: ClassBound | None,
    class_problem: Callable[[], ClassProblem | None],
) -> int:
    """How many leading criteria of ``value`` (the draw's vector, order last) are proven optimal.

    All of them for an ``"exact"`` draw. ``classes`` and ``bound``: the class bound's programme
    of ``members`` and its minimum, when the draw asked it; ``class_problem`` makes the programme
    for a draw in blocks, which asks it only at the first criterion the other proofs leave open.
    Where the class bound is below a criterion proven the other way (it forgets who has met
    whom), it is asked again with the draw's counts held up to there, at most ``_REBOUNDS`` times.
    """
    criteria = len(value) - 1
    if notes["optimality"] == "exact":
        return criteria
    sizes = Counter(groups)
    least = bound.vector if bound is not None else []
    rebounds = _REBOUNDS if classes is not None else 0
    fewest = bool(notes.get("fewest_department_clashes"))
    blocks = "blocks" in notes  # their class bound is asked only when it is needed
    for t in range(1, criteria):
        if least[: t - 1] != list(value[1:t]) and rebounds and classes is not None:
            rebounds -= 1
            least = classes.bound(fixed=value[1:t]).vector
        if least[:t] == list(value[1 : t + 1]) or _at_lower_bound(field, members, groups, sizes, value, t, fewest):
            continue
        if blocks:
            blocks = False
            classes = class_problem()
            if classes is not None:
                rebounds = _REBOUNDS - 1
                least = classes.bound(fixed=value[1:t]).vector
                if least[:t] == list(value[1 : t + 1]):
                    continue
        return t
    return criteria


def _at_lower_bound(
    field: SwissField,
    members: list[int],
    groups: list[int],
    sizes: Counter[int],
    value: Vector,
    t: int,
    fewest_clashes: bool,
) -> bool:
    """Whether criterion ``t`` of the draw (its vector ``value``, the criteria before ``t``
    proven) is at a lower bound every such pairing obeys; ``fewest_clashes``: a seed proved the
    fewest clashes."""
    boundaries = max(groups)
    if t == 1:
        return value[1] == 0 or fewest_clashes or value[1] == field.department_floor(members)
    if t == 2 or t >= 3 + boundaries:  # severe seats, skips, seat strain: proven at 0
        return value[t] == 0
    boundary = t - 3
    above = sum(sizes[g] for g in range(boundary + 1))
    if value[t] == above % 2:
        return True
    slack = value[0] + value[1] + value[2]
    return crossings_forced(field, members, groups, boundary, count=value[t], slack=slack)


def crossings_forced(
    field: SwissField, members: Sequence[int], groups: Sequence[int], boundary: int, *, count: int, slack: int
) -> bool:
    """Whether every pairing that ties the draw on the criteria before ``boundary`` (they are
    proven) crosses it at least ``count`` times.

    Such a pairing has as many rematch, clash and severe tables as the draw: at most
    ``slack`` tables that are not *clean* (no rematch, no clash when protected, no severe
    seats). Of its tables inside one side of the boundary (the entrants above it, or
    those below), the clean ones form a clean matching of that side, so there are at most
    ν + slack of them, ν the side's largest clean matching, and it crosses the boundary
    at least |side| - 2(ν + slack) times. Proven when that reaches ``count`` on either side
    (ν only where the matching is proven maximum). Only sides of up to ``_FORCED_SIDE``
    entrants are tried, the smaller first (a field's forced floaters come from its few top
    or bottom pairs that have met or share a department; a matching per boundary of
    thousands would cost more than the draw).
    """

    def clean(a: int, b: int) -> bool:
        return b not in field.opponents[a] and not field.same_department(a, b) and not field.severe(a, b)

    sides = (
        [i for i, g in zip(members, groups, strict=True) if g <= boundary],
        [i for i, g in zip(members, groups, strict=True) if g > boundary],
    )
    for side in sorted(sides, key=len):
        limit = (len(side) - count) // 2 - slack  # the most clean tables inside that proves it
        if limit < 0 or len(side) > _FORCED_SIDE:
            continue
        mate, maximum = maximum_matching(side, clean, most=limit + 1, exact=len(side) <= DENSE_LIMIT)
        if maximum and len(mate) // 2 <= limit:
            return True
    return False
