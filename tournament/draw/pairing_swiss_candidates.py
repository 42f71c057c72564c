"""The Swiss engine's field and its candidate tables (docs/swiss-draw.md, "Candidate tables").

:class:`SwissField` is the ranked field with integer indices; :func:`candidate_tables` the tables
the staged matching chooses from: every allowed table up to ``DENSE_LIMIT`` entrants, a chosen
set above. Split from :mod:`tournament.draw.pairing_swiss` so that each module holds one job; what
the candidates guarantee is in ``docs/swiss-draw.md``.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.draw.pairing_swiss_stages import ORDER_CAP, SEAT_STRAIN_CAP, Table
from tournament.draw.pairing_types import DrawError, Entrant

DENSE_LIMIT = 400
"""Up to this many entrants to pair (bye excluded), every allowed table is a candidate (swiss.v4;
swiss.v3: 200). 400 entrants: about 80,000 tables, ~0.5 s of rustworkx."""
_NEAR = 8  # sparse candidates: every allowed table within this many ranks below …
_QUOTA = [12, 4, 3, 0]  # … then the first tables of each kind: clean, strain, clash, both …
SCAN = 600  # … looked for at most this many ranks down (clean ones) …
_SCAN_OTHER = 64  # … or this many (the other kinds, once the clean quota is full)
_CLASS_GROUPS = 2  # class candidates: the entrant's own group and this many below …
_CLASS_QUOTA = 1  # … the nearest allowed members of each class there …
_CLASS_SPREAD = 3  # … and this many drawn at random from the whole class …
_CLASS_LIMIT = 2000  # … up to this many entrants (beyond, their long tables slow the matching down)

ClassKey = tuple[int, frozenset[object] | None, int]  # an entrant's class (SwissField.class_key)


@dataclass(slots=True)
class SwissField:
    """The ranked field with integer indices (0 = top) and precomputed lookups."""

    entrants: list[Entrant]
    opponents: list[set[int]]
    departments: list[frozenset[object]]
    score: list[float]
    need: list[int]
    protect: bool

    @property
    def n(self) -> int:
        return len(self.entrants)

    @classmethod
    def build(cls, entrants: Sequence[Entrant], *, seed: int, protect: bool) -> SwissField:
        ids = [e.id for e in entrants]
        if len(set(ids)) != len(ids):
            raise DrawError("duplicate_entrant", "A pair appears twice in the draw.", "同一对在抽签名单中出现两次。")
        rng = random.Random(seed)
        lots = [rng.random() for _ in entrants]
        active = [(e, lot) for e, lot in zip(entrants, lots, strict=True) if not e.withdrawn]
        if len(active) < 2:
            raise DrawError("too_few_entrants", "At least two pairs are needed.", "至少需要两对参赛。")
        active.sort(key=lambda el: (-el[0].score, el[0].rank if el[0].rank > 0 else float("inf"), el[1]))
        ranked = [e for e, _lot in active]
        index = {e.id: i for i, e in enumerate(ranked)}
        opponents = [{index[o] for o in e.opponents if o in index} for e in ranked]
        return cls(
            entrants=ranked,
            opponents=opponents,
            departments=[frozenset(e.departments) for e in ranked],
            score=[float(e.score) for e in ranked],
            need=[e.seat_need for e in ranked],
            protect=protect,
        )

    def class_key(self, i: int, group: int) -> ClassKey:
        """What the criteria above the order see of entrant ``i`` in score group ``group``: its
        *class* (group, departments when protected, seat need capped as the strain caps it)."""
        need = max(-SEAT_STRAIN_CAP, min(self.need[i], SEAT_STRAIN_CAP))
        return (group, self.departments[i] if self.protect else None, need)

    def same_department(self, a: int, b: int) -> bool:
        return self.protect and not self.departments[a].isdisjoint(self.departments[b])

    def severe(self, a: int, b: int) -> bool:
        """Both pairs already sit two or more rounds more one way than the other — the same way."""
        na, nb = self.need[a], self.need[b]
        return (na >= 2 and nb >= 2) or (na <= -2 and nb <= -2)

    def department_floor(self, members: list[int]) -> int:
        """A lower bound of the same-department tables of every pairing of ``members``.

        For a department held by c of the n members: a table without a clash seats at most one
        of its members (beside one who is not), so at most n - c of them sit at such tables and
        the other c - (n - c) or more at clash tables, two a table at most. 0 when departments
        are not protected.
        """
        if not self.protect:
            return 0
        held = Counter(d for i in members for d in self.departments[i])
        n = len(members)
        return max((max(0, (2 * c - n + 1) // 2) for c in held.values()), default=0)


def candidate_units(
    field: SwissField,
    members: list[int],
    groups: list[int],
    pairs: Sequence[tuple[int, int]],
    *,
    sizes: Counter[int],
    slide: bool,
) -> list[Table]:
    """The tables at positions ``pairs`` (``p < q``) with their units of each criterion.

    One loop with everything it looks up held locally: a hard field of 5,000 pairs has over
    100,000 candidates, and a method call per table cost a tenth of the draw. ``sizes``: the
    members' group sizes; ``slide``: ``within_group == "slide"`` (docs/swiss-draw.md, 7).
    """
    f = field
    opponents, departments, need, protect = f.opponents, f.departments, f.need, f.protect
    out: list[Table] = []
    append = out.append
    for p, q in pairs:
        a, b = members[p], members[q]
        ga, gb = groups[p], groups[q]
        distance = q - p
        if slide and ga == gb:
            distance -= sizes[ga] // 2
        # Seat strain as pairing_seating.seat_conflict counts it (inlined: this runs per candidate).
        na, nb = need[a], need[b]
        same_way = (na > 0 and nb > 0) or (na < 0 and nb < 0)
        smaller = min(abs(na), abs(nb))
        squared = distance * distance
        append(
            Table(
                p,
                q,
                b in opponents[a],
                protect and not departments[a].isdisjoint(departments[b]),
                same_way and smaller >= 2,
                ga,
                gb,
                gb - ga - 1 if gb - ga > 1 else 0,
                (smaller if smaller < SEAT_STRAIN_CAP else SEAT_STRAIN_CAP) if same_way else 0,
                squared if squared < ORDER_CAP else ORDER_CAP,
            )
        )
    return out


def candidate_tables(
    field: SwissField, members: list[int], groups: list[int], *, seed: int, allow_rematches: bool
) -> set[tuple[int, int]]:
    """Candidate tables as position pairs ``(p, q)``, ``p < q`` (docs/swiss-draw.md, "Candidate tables").

    Dense up to ``DENSE_LIMIT``. Above: from each entrant down the ranking, every allowed
    table within ``_NEAR`` ranks, then the first tables of each kind up to its quota
    (``_QUOTA``: clean; seat strain only; department clash only), at most ``SCAN`` ranks
    down for clean ones and ``_SCAN_OTHER`` for the others. A table found from its upper
    side is also a candidate of its lower side, so every entrant has partners above and below.
    """
    f = field
    n = len(members)
    pairs: set[tuple[int, int]] = set()
    if n <= DENSE_LIMIT:
        for p, a in enumerate(members):
            opponents = f.opponents[a]
            pairs.update((p, q) for q in range(p + 1, n) if allow_rematches or members[q] not in opponents)
        return pairs
    protect, need, departments = f.protect, f.need, f.departments
    quota = _QUOTA if protect else [*_QUOTA[:2], 0, 0]
    for p, a in enumerate(members):
        opponents, na, da = f.opponents[a], need[a], departments[a]
        taken = [0, 0, 0, 0]  # by kind: clean, strain, clash, both
        for q in range(p + 1, min(n, p + 1 + SCAN)):
            b = members[q]
            rematch = b in opponents
            if rematch and not allow_rematches:
                continue
            if q - p <= _NEAR:
                pairs.add((p, q))
                continue
            nb = need[b]
            strained = rematch or (na > 0 and nb > 0) or (na < 0 and nb < 0)
            kind = strained + 2 * (protect and not da.isdisjoint(departments[b]))
            if taken[kind] < quota[kind]:
                taken[kind] += 1
                pairs.add((p, q))
                if taken == quota:
                    break
            if taken[0] >= quota[0] and q - p > _SCAN_OTHER:
                break
    if n <= _CLASS_LIMIT:
        _class_tables(f, members, groups, pairs, seed=seed, allow_rematches=allow_rematches)
    return pairs


def _class_tables(
    field: SwissField,
    members: list[int],
    groups: list[int],
    pairs: set[tuple[int, int]],
    *,
    seed: int,
    allow_rematches: bool,
) -> None:
    """Add each entrant's nearest ``_CLASS_QUOTA`` allowed partners of each class: above and
    below it in its own group, below it in the next ``_CLASS_GROUPS`` (docs/swiss-draw.md, "Candidate tables").

    A class is what the criteria above the order see of an entrant: score group, departments
    (when protected), seat need. Inside a class, entrants differ only by rank and opponents.
    """
    f = field
    rng = random.Random(f"swiss class tables {seed} {len(members)}")
    classes: dict[ClassKey, list[int]] = {}
    for q, b in enumerate(members):
        classes.setdefault(f.class_key(b, groups[q]), []).append(q)
    by_group: dict[int, list[list[int]]] = {}
    for (group, _departments, _need), positions in classes.items():
        by_group.setdefault(group, []).append(positions)
    for p, a in enumerate(members):
        opponents = f.opponents[a]
        g = groups[p]
        for h in range(g, g + _CLASS_GROUPS + 1):
            for positions in by_group.get(h, ()):
                below = bisect.bisect_right(positions, p)
                for k, step in ((below, 1), (below - 1, -1)) if h == g else ((below, 1),):
                    taken = 0
                    while 0 <= k < len(positions) and taken < _CLASS_QUOTA:
                        q = positions[k]
                        if q != p and (allow_rematches or members[q] not in opponents):
                            pairs.add((p, q) if p < q else (q, p))
                            taken += 1
                        k += step
                for _ in range(_CLASS_SPREAD if len(positions) > 2 * _CLASS_QUOTA + 1 else 0):
                    q = positions[rng.randrange(len(positions))]
                    if q != p and (allow_rematches or members[q] not in opponents):
                        pairs.add((p, q) if p < q else (q, p))
