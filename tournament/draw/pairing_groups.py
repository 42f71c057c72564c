"""Grouped round robins and walkovers — pure functions on :class:`Draw` values, no Django.

The draw service (:mod:`tournament.draw.services`) calls them: :func:`snake_groups` deals the
pairs into groups when round 1 is drawn, :func:`groups_round` merges the groups' rounds into one,
:func:`walkovers` takes withdrawn pairs out of a drawn round.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from tournament.draw.pairing_types import Draw, DrawWarning, Entrant, OptionValue, Pairing

__all__ = ["groups_round", "snake_groups", "walkovers"]


def snake_groups(entrants: list[Entrant], groups: int, seed: int) -> dict[str, int]:
    """Pair id (as a string, the JSON key) → group 1…``groups``, dealt in snake order.

    The order is by seed (the organiser's, or the advancement rank), then standings rank, then
    lots drawn with ``seed``: 1st → group 1, …, ``groups``-th → group ``groups``, the next one
    → group ``groups`` again and back up to group 1 (1 2 3 3 2 1 1 2 3 …).
    """
    lots = [e.id for e in entrants]
    random.Random(seed).shuffle(lots)
    lot = {pair_id: k for k, pair_id in enumerate(lots)}
    unknown = len(entrants) + 1
    ordered = sorted(entrants, key=lambda e: (e.seed or unknown, e.rank or unknown, lot[e.id]))
    group_of: dict[str, int] = {}
    for k, entrant in enumerate(ordered):
        lap, place = divmod(k, groups)
        group_of[str(entrant.id)] = groups - place if lap % 2 else place + 1
    return group_of


def groups_round(schedules: list[tuple[Draw, ...]], number: int, groups: int) -> Draw:
    """Round ``number`` of every group's schedule as one round: tables group by group, byes last."""
    rounds = [schedule[number - 1] for schedule in schedules if number <= len(schedule)]
    tables = [p for draw in rounds for p in draw.pairings if p.ew is not None]
    byes = [p for draw in rounds for p in draw.pairings if p.ew is None]
    numbered = [dataclasses.replace(p, table=table) for table, p in enumerate(tables, start=1)]
    numbers: dict[str, OptionValue] = {}
    for draw in rounds:
        group_numbers = draw.notes["numbers"]  # each group's round robin notes its pairs' numbers
        assert isinstance(group_numbers, dict)
        numbers.update(group_numbers)
    sizes = [schedule[0].options["group_size"] for schedule in schedules]
    return Draw(
        algorithm=rounds[0].algorithm,
        round_number=number,
        seed=rounds[0].seed,
        options={**rounds[0].options, "groups": groups, "group_size": sizes},
        pairings=tuple(numbered + byes),
        notes={"numbers": numbers},
    )


def walkovers(draw: Draw, gone: set[int]) -> Draw:
    """The draw with withdrawn pairs taken out: their opponents get a walkover — a row without a
    table like a bye, listed in ``notes["walkovers"]`` (pair → the withdrawn opponent) so the
    standings count it as a forfeit win (docs/rules.md §5), not as a bye."""
    if not gone.intersection(e for p in draw.pairings for e in p.entrants):
        return draw
    tables: list[Pairing] = []
    byes: list[Pairing] = []
    walkovers: dict[str, Any] = {}
    for p in draw.pairings:
        present = [e for e in p.entrants if e not in gone]
        if len(present) == 2:
            tables.append(p)
        elif present:
            warnings = p.warnings if p.ew is None else (DrawWarning.of("walkover", present[0]),)
            byes.append(Pairing(None, present[0], None, warnings, p.bracket_match, p.third_place))
            if p.ew is not None:
                absent = p.ew if present[0] == p.ns else p.ns
                walkovers[str(present[0])] = absent
    renumbered = [
        dataclasses.replace(p, table=number, warnings=tuple(dataclasses.replace(w, table=number) for w in p.warnings))
        for number, p in enumerate(tables, start=1)
    ]
    notes = {**draw.notes, "walkovers": walkovers} if walkovers else draw.notes
    return dataclasses.replace(draw, pairings=tuple(renumbered + byes), notes=notes)
