"""A deal in words, per game: as the referee entered it (the deal history, the audit) and its
verdict as the rules core recorded it. ``tournament.games`` names each game's pair of texts.

Nothing here computes a rule: the verdict is read from the rules core's record of the deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.snapshot import DealSnapshot
from tournament import labels


def guandan_outcome_text(outcome: Any) -> str:
    """A Guandan deal as entered: its finishing order in the interface language, "北 › 东 › 南 › 西" /
    "N › E › S › W" (RULES.md §1), as the public deal history writes it."""
    order = outcome.get("order", []) if isinstance(outcome, dict) else outcome
    return " › ".join(labels.seat(seat) for seat in order or [])


def guandan_record_text(record: Any) -> str:
    """Guandan's verdict is its levels after the deal, which the deal history already shows."""
    return ""


def tractor_outcome_text(outcome: Any) -> str:
    """A Tractor deal as entered, in a line: "N/S (N) declares · defenders 125 · bottom 20×3 · …"."""
    if not isinstance(outcome, dict):
        return ""
    parts = []
    declarer = outcome.get("declarer")
    if declarer:
        parts.append(str(_("%(who)s declares") % {"who": declarer}))
    parts.append(str(_("defenders %(points)s") % {"points": outcome.get("defender_points")}))
    bottom = outcome.get("bottom")
    if isinstance(bottom, dict):
        parts.append(
            str(
                _("bottom %(points)s (%(capture)s)")
                % {"points": bottom.get("points"), "capture": bottom.get("capture")}
            )
        )
    for penalty in outcome.get("penalties") or []:
        parts.append(str(_("penalty %(side)s %(kind)s") % {"side": penalty.get("side"), "kind": penalty.get("kind")}))
    parts += [str(fault) for fault in labels.tractor_faults(outcome)]
    return " · ".join(parts)


def tractor_record_text(record: Any) -> str:
    """A Tractor deal's verdict from the seed-001 table: who goes up, or the defenders take over (上台).
    ``record``: a stored record read back (``Deal.snapshot``), or a preview's record as the fold wrote it."""
    if isinstance(record, Mapping):
        record = DealSnapshot.from_json(record)
    if not isinstance(record, DealSnapshot) or not record.tractor:
        return ""
    declarer = labels.side(record.declarer)
    defenders = labels.side("EW" if record.declarer == "NS" else "NS")
    result, upgrade = record.result, record.upgrade
    faults = labels.tractor_faults(
        {"revoke": record.revoke, "wrong_bottom": record.wrong_bottom, "wrong_count": record.wrong_count}
    )
    if result == "replayed":  # seed 001 §18: a wrong card count in both sides' hands
        return str(_("Wrong card count in both sides' hands: the deal is replayed, nothing changes"))
    prefix = _("%(faults)s: the deal ends. ") % {"faults": "; ".join(faults)} if faults else ""
    if record.passed_a:
        text = _("%(side)s keep their A: game won") % {"side": declarer}
    elif result == "declarers_up":
        text = _("Declarers %(side)s go up %(n)d") % {"side": declarer, "n": upgrade}
    elif result == "defenders_take_over":
        text = _("Defenders %(side)s take over (上台)") % {"side": defenders}
    else:
        text = _("Defenders %(side)s take over (上台) and go up %(n)d") % {"side": defenders, "n": upgrade}
    return f"{prefix}{text}"
