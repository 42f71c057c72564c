"""A deal in words, per game: as the referee entered it (the deal history, the audit) and its
verdict as the rules core recorded it. ``tournament.games`` names each game's pair of texts.

Nothing here computes a rule: the verdict is read from the rules core's record of the deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.doudizhu_snapshot import TableDealSnapshot
from scoring.snapshot import DealSnapshot
from tournament import labels


def guandan_outcome_text(outcome: Any) -> str:
    """A Guandan deal as entered: its finishing order in the interface language, "北 › 东 › 南 › 西" /
    "N › E › S › W" (docs/rules.md §1), as the public deal history writes it."""
    order = outcome.get("order", []) if isinstance(outcome, dict) else outcome
    return _order_text(order or (), labels.seat_names())


def _order_text(order: Sequence[Any], names: Mapping[str, str]) -> str:
    """A finishing order in the seats' ``names`` (:func:`tournament.labels.seat_names`)."""
    return " › ".join(names.get(str(seat), str(seat)) for seat in order)


def guandan_record_text(record: Any) -> str:
    """Guandan's verdict is its levels after the deal, which the deal history already shows."""
    return ""


def _penalties_text(penalties: Any) -> list[str]:
    """ "E/W: exposed card ×2" per side and infraction (seed 001: 20 points each)."""
    counts: dict[tuple[str, str], int] = {}
    for penalty in penalties or []:
        if isinstance(penalty, Mapping):
            key = (str(penalty.get("side")), str(penalty.get("kind")))
            counts[key] = counts.get(key, 0) + 1
    texts = []
    for (side, kind), count in counts.items():
        what = labels.infraction(kind) if count == 1 else f"{labels.infraction(kind)} ×{count}"
        texts.append(str(_("%(side)s: %(infraction)s") % {"side": labels.side(side), "infraction": what}))
    return texts


def tractor_outcome_text(outcome: Any) -> str:
    """A Tractor deal as entered, in Tractor words: "North declares · defenders won 60 in tricks ·
    bottom 25, pair ×3 · E/W: exposed card · revoke (藏张) by N/S" — no internal codes."""
    if not isinstance(outcome, dict):
        return ""
    parts = []
    declarer = outcome.get("declarer")
    if declarer:
        parts.append(str(_("%(who)s declares") % {"who": labels.declarer(declarer)}))
    parts.append(str(_("defenders won %(points)s in tricks") % {"points": outcome.get("defender_points")}))
    bottom = outcome.get("bottom")
    if isinstance(bottom, dict):
        parts.append(
            str(
                _("bottom %(points)s, %(capture)s")
                % {"points": bottom.get("points"), "capture": labels.capture(bottom.get("capture"))}
            )
        )
    parts += _penalties_text(outcome.get("penalties"))
    parts += [str(fault) for fault in labels.tractor_faults(outcome)]
    return " · ".join(parts)


def tractor_points_text(
    *, total: int | None, in_tricks: int | None, bottom: int | None = None, penalties: int | None = None
) -> str:
    """The defenders' points a Tractor deal was read with (seed 001 §4) — the one figure the referee's
    deal list and the public page both show — and, when the bottom or penalties moved it, how it
    adds up: "135 (60 in tricks, bottom +75)", "−60 (−40 in tricks, penalties −20)"."""
    if total is None:
        return "—"
    parts = []
    if bottom:
        parts.append(str(_("bottom %(points)s") % {"points": f"{bottom:+d}"}))
    if penalties:
        parts.append(str(_("penalties %(points)s") % {"points": f"{penalties:+d}"}))
    if not parts:
        return str(total)
    tricks = str(_("%(points)s in tricks") % {"points": in_tricks})
    separator = pgettext("list separator", ", ")
    return str(_("%(total)s (%(parts)s)") % {"total": total, "parts": separator.join([tricks, *parts])})


def tractor_deal_text(outcome: Any, record: Any) -> str:
    """A Tractor deal in the deal lists: who declared and the points the table was read with, from the
    rules core's record (the entered deal when it has none: a flagged deal)."""
    if isinstance(record, Mapping):
        record = DealSnapshot.from_json(record)
    if not isinstance(record, DealSnapshot) or not record.tractor:
        return tractor_outcome_text(outcome)
    return f"{labels.declarer(record.declarer, record.declarer_seat)} · {tractor_record_points(record)}"


def tractor_record_points(record: Any) -> str:
    """The points of a Tractor record (stored, or a preview's) as the deal lists show them."""
    if isinstance(record, Mapping):
        record = DealSnapshot.from_json(record)
    if not isinstance(record, DealSnapshot):
        return "—"
    bottom = record.bottom.get("total") if isinstance(record.bottom, Mapping) else None
    return tractor_points_text(
        total=record.total_points,
        in_tricks=record.defender_points,
        bottom=bottom if isinstance(bottom, int) else None,
        penalties=record.penalty_points,
    )


def guandan_deal_text(outcome: Any, record: Any) -> str:
    """A Guandan deal in the deal lists: its finishing order as entered — the rules core's record
    keeps it (the public page has only the record); a flagged deal has only the entry."""
    if isinstance(record, Mapping):
        record = DealSnapshot.from_json(record)
    if isinstance(record, DealSnapshot) and record.order:
        return guandan_outcome_text(record.order)
    return guandan_outcome_text(outcome)


def guandan_deal_texts(records: Sequence[Any]) -> list[str]:
    """:func:`guandan_deal_text` of each record of a deal list (the public deal history: records
    alone), the seats' names read once for the list and each finishing order written once: a pair's
    first view lists some thirty deals, and the names looked up per deal (the active language's,
    each time) were a fifth of its rendering."""
    names = labels.seat_names()
    written: dict[tuple[Any, ...], str] = {}
    texts = []
    for record in records:
        if isinstance(record, Mapping):
            record = DealSnapshot.from_json(record)
        order = record.order if isinstance(record, DealSnapshot) else ()
        text = written.get(order)
        if text is None:
            text = written[order] = _order_text(order, names)
        texts.append(text)
    return texts


def tractor_deal_texts(records: Sequence[Any]) -> list[str]:
    """:func:`tractor_deal_text` of each record of a deal list (the public deal history: records alone)."""
    return [tractor_deal_text(None, record) for record in records]


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


def doudizhu_outcome_text(outcome: Any) -> str:
    """A Dou Dizhu deal as entered: "E landlord · bid 3 · 1 bomb · spring · landlord won" (the farmers'
    spring is a "counter-spring"), or the cards left per seat (docs/rules.md §10)."""
    if not isinstance(outcome, Mapping):
        return ""
    # seats in the page's language: 东/南/西 on a Chinese page, E/S/W on an English one
    parts = [str(_("%(seat)s landlord") % {"seat": labels.seat(outcome.get("landlord", ""))})]
    cards_left = outcome.get("cards_left")
    if isinstance(cards_left, Mapping):
        parts.append(
            str(
                _("cards left %(counts)s")
                % {"counts": " ".join(f"{labels.seat(seat)} {n}" for seat, n in cards_left.items())}
            )
        )
        return " · ".join(parts)
    parts.append(str(_("bid %(bid)s") % {"bid": outcome.get("bid", 1)}))
    bombs = outcome.get("bombs") or 0
    if bombs:
        parts.append(str(_("bombs %(n)s") % {"n": bombs}))
    winner = outcome.get("winner")
    if outcome.get("spring"):  # the farmers' spring is a counter-spring (反春)
        parts.append(str(_("counter-spring") if winner == "farmers" else _("spring")))
    if winner == "landlord":
        parts.append(str(_("the landlord won")))
    elif winner == "farmers":
        parts.append(str(_("the farmers won")))
    return " · ".join(parts)


def doudizhu_deal_text(outcome: Any, record: Any) -> str:
    """A Dou Dizhu deal in the deal lists: as entered (its points are the table's own columns)."""
    return doudizhu_outcome_text(outcome)


def doudizhu_deal_texts(records: Sequence[Any]) -> list[str]:
    """:func:`doudizhu_deal_text` of each record of a deal list (records alone: the entries' words are
    not in them)."""
    return [doudizhu_deal_text(None, record) for record in records]


def doudizhu_record_text(record: Any) -> str:
    """A Dou Dizhu deal's verdict: the multiple and stake (stake scoring) and the points per seat."""
    deal = TableDealSnapshot.from_json(record) if isinstance(record, Mapping) else record
    if not isinstance(deal, TableDealSnapshot):
        return ""
    points = " ".join(f"{labels.seat(seat)} {value:+d}" for seat, value in zip("ESW", deal.points, strict=True))
    if deal.multiple is None:
        return points
    return str(
        _("×%(multiple)d, stake %(stake)d: %(points)s")
        % {"multiple": deal.multiple, "stake": deal.stake, "points": points}
    )
