"""Recorded Swiss rounds (``tests/data/swiss_rounds.json``): the inputs of rounds and what each
version of the engine drew from them.

A *field* is the entrants of one round, as rows of :data:`COLUMNS` (withdrawn pairs are left
out: the draw ignores them). A *round* names its field, the round number, the seed and the
options of ``swiss_pair``, and under ``drawn`` what each algorithm (``swiss.v1`` … the current
one) drew: ``tables`` in table order as ``[ns, ew]`` (``[ns, null]`` for the bye), the
``notes`` the tests read, and for swiss.v1 its own ``options`` (its engine choice). The
current version's entry holds every note but the ranking.

When the algorithm changes (a new ``SWISS_ALGORITHM``), record the new version's draws of every
round with ``python -m tests.tournament.draw.swiss_rounds``; the earlier versions' entries stay
as they are — they are what those versions drew, and what stored rounds of them hold.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournament.draw.pairing import SWISS_ALGORITHM, Draw, Entrant, swiss_pair

PATH = Path(__file__).resolve().parents[2] / "data" / "swiss_rounds.json"
COLUMNS = ("id", "rank", "score", "opponents", "byes", "departments", "seats_ns", "seats_ew", "last_seat")
UNCHECKED_NOTES = ("ranking", "matching", "class_bound")  # the ranking is the field's; versions of libraries


@dataclass(frozen=True)
class RecordedRound:
    entrants: list[Entrant]
    round_number: int
    seed: int
    options: dict[str, Any]
    drawn: dict[str, dict[str, Any]]

    def kwargs(self) -> dict[str, Any]:
        """``swiss_pair``'s arguments for this round."""
        return {"entrants": self.entrants, "round_number": self.round_number, "seed": self.seed, **self.options}

    def draw(self) -> Draw:
        """The current engine's draw of this round."""
        return swiss_pair(**self.kwargs())


def entrant_of(row: list[Any]) -> Entrant:
    values = dict(zip(COLUMNS, row, strict=True))
    return Entrant(
        **{**values, "opponents": frozenset(values["opponents"]), "departments": frozenset(values["departments"])}
    )


def row_of(entrant: Entrant) -> list[Any]:
    values = {name: getattr(entrant, name) for name in COLUMNS}
    values["opponents"] = sorted(entrant.opponents, key=_order)
    values["departments"] = sorted(entrant.departments, key=_order)
    return [values[name] for name in COLUMNS]


def _order(value: object) -> tuple[bool, object]:
    return isinstance(value, str), value  # ids and departments are numbers or strings


def tables_of(draw: Draw) -> list[list[Any]]:
    """A draw's tables as recorded: ``[ns, ew]`` in table order, the bye last."""
    return [[p.ns, p.ew] for p in draw.pairings]


def notes_of(draw: Draw) -> dict[str, Any]:
    """A draw's notes as recorded (JSON values; the ranking left out)."""
    notes: dict[str, Any] = json.loads(json.dumps(draw.notes))
    notes.pop("ranking", None)
    return notes


def checked_notes(notes: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in notes.items() if k not in UNCHECKED_NOTES}


def recorded_rounds(algorithm: str | None = None) -> Iterator[RecordedRound]:
    """Every recorded round (those ``algorithm`` drew, when given)."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    fields = [[entrant_of(row) for row in field] for field in data["fields"]]
    for case in data["rounds"]:
        if algorithm is None or algorithm in case["drawn"]:
            yield RecordedRound(
                entrants=fields[case["field"]],
                round_number=case["round_number"],
                seed=case["seed"],
                options=case["options"],
                drawn=case["drawn"],
            )


def record_current() -> None:
    """Record the current version's draw of every round (see the module docstring)."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    rounds = list(recorded_rounds())
    for case, recorded in zip(data["rounds"], rounds, strict=True):
        draw = recorded.draw()
        case["drawn"][SWISS_ALGORITHM] = {"tables": tables_of(draw), "notes": notes_of(draw)}
    write(data)


def write(data: dict[str, Any]) -> None:
    """The file, one field row, round or table list per line (diffs stay readable)."""
    lines = [
        "{",
        f'"about": {json.dumps(data["about"], ensure_ascii=False)},',
        '"columns": ' + json.dumps(COLUMNS) + ",",
    ]
    lines.append('"fields": [')
    for k, field in enumerate(data["fields"]):
        rows = ",\n".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in field)
        lines.append("[\n" + rows + "\n]" + ("," if k < len(data["fields"]) - 1 else ""))
    lines.append("],")
    lines.append('"rounds": [')
    for k, case in enumerate(data["rounds"]):
        lines.append(
            json.dumps(case, ensure_ascii=False, separators=(",", ":")) + ("," if k < len(data["rounds"]) - 1 else "")
        )
    lines.append("]")
    lines.append("}")
    PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record_current()
