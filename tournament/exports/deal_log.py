"""The workbook's deal log (牌局记录) and what the adjustments did, so an auditor can reconcile every
level from the workbook alone.

Each game's sheet (``tournament.exports.workbook.DEAL_LOGS``) lists, match by match:

- every deal as the rules core recorded it (levels as A, K, Q, J), with the reasons it was
  corrected (更正) — read from the deal's audit history, where each correction left its reason;
- the deals deleted (已删除) — an undo is the deletion of the last deal, with the reason the referee
  gave — with their reason, from the same history;
- the adjustments the rules core applied (a forfeited first deal, a level penalty, a deduction, a
  forfeit), after the deal they follow, with the levels after them — a Tractor pair 17 minutes late
  loses its first deal and the opponents go up one level, and that level is here.

Nothing is recomputed: the records are the stored snapshots' (``Deal.record``, ``Match.state``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import F, QuerySet
from django.utils import translation

from scoring.levels import level_label
from scoring.seats import Seat, Side
from scoring.snapshot import DealSnapshot
from tournament.exports import headers as h
from tournament.exports.headers import Language
from tournament.exports.selectors import MatchPlace
from tournament.games import GUANDAN, TRACTOR
from tournament.matches.models import Adjustment, Deal
from tournament.matches.snapshot_reads import adjustment_effects_get
from tournament.people import person_name_expression

if TYPE_CHECKING:
    from tournament.exports.workbook import _Context
    from tournament.exports.xlsx import Book

CHUNK = 5000


def level_text(value: Any) -> str | None:
    """A level as everywhere else: 14 → "A", 13 → "K" (docs/rules.md §1); None stays empty."""
    if value is None:
        return None
    try:
        return level_label(int(value))
    except (TypeError, ValueError, KeyError):
        return str(value)


@dataclass(frozen=True, slots=True)
class _Extra:
    """A line of the deal log that is not a deal now in the match: a deleted deal or an adjustment."""

    after_deal: int
    values: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Changes:
    corrections: dict[int, str]
    """Deal id → its corrections' reasons, oldest first."""
    extras: dict[int, list[_Extra]]
    """Match id → its deleted deals and applied adjustments, in the order they happened."""


def _deal_changes(context: _Context, language: Language, outcome_text: Any) -> _Changes:
    """The corrections and deletions (undos among them) of the event's deals, from their audit history
    (few rows: only deals that changed after they were entered are read)."""
    history = Deal.history.model.objects.filter(match__round__stage__tournament=context.tournament)
    changed = history.filter(history_type__in=["~", "-"]).values("id")
    corrections: dict[int, list[str]] = defaultdict(list)
    extras: dict[int, list[_Extra]] = defaultdict(list)
    previous: dict[int, Any] = {}
    rows = (
        history.filter(id__in=changed)
        .order_by("id", "history_date", "history_id")
        .annotate(author=person_name_expression("history_user"))
        .values_list(
            "id",
            "match_id",
            "number",
            "outcome",
            "history_type",
            "history_change_reason",
            "author",
            "history_date",
        )
    )
    for deal_id, match_id, number, outcome, kind, reason, user, at in rows.iterator(chunk_size=CHUNK):
        if kind == "~" and deal_id in previous and outcome != previous[deal_id]:
            corrections[deal_id].append(reason or "")
        elif kind == "-":
            extras[match_id].append(
                _Extra(
                    after_deal=number - 1,
                    values={
                        "deal": number,
                        "change": h.word("deleted", language),
                        # what was entered, so the deal can be told apart from the one now in its place
                        "change_reason": " · ".join(part for part in (reason, outcome_text(outcome)) if part),
                        "entered_by": user,
                        "entered_at": at,
                    },
                )
            )
        previous[deal_id] = outcome
    return _Changes(
        corrections={pk: "; ".join(text for text in reasons if text) for pk, reasons in corrections.items()},
        extras=extras,
    )


def _adjustment_lines(context: _Context, extras: dict[int, list[_Extra]]) -> None:
    """The adjustments the rules core applied, as lines after the deal they follow."""
    effects = adjustment_effects_get(tournament_id=context.tournament.pk)
    if not effects:
        return
    language = context.language
    adjustments = Adjustment.objects.filter(pk__in=list(effects)).order_by("created_at", "id")
    for pk, match_id, pair_id, kind, minutes, reason, user, at in adjustments.annotate(
        author=person_name_expression("created_by")
    ).values_list("id", "match_id", "pair_id", "kind", "minutes_late", "reason", "author", "created_at"):
        effect = effects[pk]
        pair = context.pairs.get(pair_id)
        what = h.word(kind, language)
        if minutes:
            what = h.word("minutes_late", language, what=what, minutes=minutes)
        who = f"#{pair.number} {pair.name}" if pair else ""
        levels_after = effect.levels_after or (None, None)
        extras[match_id].append(
            _Extra(
                after_deal=effect.after_deal,
                values={
                    "change": h.word(f"effect_{effect.effect}", language),
                    "change_reason": " · ".join(part for part in (who, what, reason) if part),
                    "upgrade": effect.amount if effect.effect != "warning" else None,
                    "ns_after": level_text(levels_after[0]),
                    "ew_after": level_text(levels_after[1]),
                    "entered_by": user,
                    "entered_at": at,
                },
            )
        )


def _extra_row(columns: tuple[h.Column, ...], place: MatchPlace, match_id: int, extra: _Extra) -> list[Any]:
    values = {"match": match_id, "stage": place.stage, "round": place.round_label, "table": place.table, **extra.values}
    return [values.get(column.key) for column in columns]


def _write(
    book: Book,
    context: _Context,
    columns: tuple[h.Column, ...],
    deals: Iterable[tuple[int, int, int, list[Any]]],
    outcome_text: Any,
) -> None:
    """Write the deal rows (match id, deal number, deal id, row without the change columns) with the
    changes and adjustments of each match merged in where they happened."""
    language = context.language
    sheet = book.columns_sheet(h.sheet_name("deals", language), columns, language)
    with translation.override("zh-hans" if language == "zh" else "en"):  # the entered deal's words
        changes = _deal_changes(context, language, outcome_text)
    _adjustment_lines(context, changes.extras)
    extras = {match_id: sorted(lines, key=lambda line: line.after_deal) for match_id, lines in changes.extras.items()}
    missing = MatchPlace("", 0, None)
    places = context.places
    corrections = changes.corrections
    change_word = h.word("corrected", language)
    append = sheet.append
    advance = context.progress.advance
    current: int | None = None
    pending: list[_Extra] = []

    def flush(match_id: int | None, before: int | None) -> None:
        while pending and (before is None or pending[0].after_deal < before):
            append(_extra_row(columns, places.get(match_id or 0, missing), match_id or 0, pending.pop(0)))

    for match_id, number, deal_id, row in deals:
        if match_id != current:
            flush(current, None)
            current = match_id
            pending[:] = extras.pop(match_id, [])
        flush(match_id, number)
        reason = corrections.get(deal_id)
        append([*row, change_word if reason is not None else None, reason or None])
        advance()
    flush(current, None)
    # matches with nothing entered but an adjustment (a forfeit before deal 1, a deleted only deal)
    for match_id in sorted(extras, key=lambda pk: _place_key(places.get(pk, missing), pk)):
        pending[:] = extras[match_id]
        flush(match_id, None)


def _place_key(place: MatchPlace, match_id: int) -> tuple[Any, ...]:
    return (place.stage, place.round, place.table if place.table is not None else 1 << 30, match_id)


def ordered_deals(context: _Context) -> QuerySet[Deal]:
    """The event's deals in the workbook's order: stage, round, table (unnumbered last), match, deal."""
    return Deal.objects.filter(match__round__stage__tournament=context.tournament).order_by(
        "match__round__stage__order",
        "match__round__number",
        F("match__table__number").asc(nulls_last=True),
        "match_id",
        "number",
    )


def guandan_deals_write(book: Book, context: _Context) -> None:
    """The deal log of a Guandan event (``tournament.games.GUANDAN``'s sheet)."""
    language = context.language
    side_words: dict[str | None, str] = {"NS": h.word("NS", language), "EW": h.word("EW", language)}
    sides = side_words.get  # the words of its rows: sides, and seats in a finishing order

    def order_text(order: Iterable[str]) -> str:
        """A finishing order by seat names, first out first: "北 › 东 › 南 › 西" (never letters)."""
        return " › ".join(h.word(seat, language) for seat in order)

    missing = MatchPlace("", 0, None)
    places = context.places

    def rows() -> Iterable[tuple[int, int, int, list[Any]]]:
        # the record says it all but for a flagged deal (no record): only those read what was entered
        entered = dict(ordered_deals(context).filter(flagged=True).values_list("id", "outcome"))
        deals = (
            ordered_deals(context)
            .annotate(author=person_name_expression("entered_by"))
            .values_list("id", "match_id", "number", "game_number", "record", "flagged", "author", "entered_at")
        )
        for deal_id, match_id, number, game, stored, flagged, user, entered_at in deals.iterator(chunk_size=CHUNK):
            place = places.get(match_id, missing)
            record = DealSnapshot.from_json(stored)
            head = [match_id, place.stage, place.round_label, place.table, number]
            if record is None:  # flagged: what the referee entered
                outcome = entered.get(deal_id)
                order = outcome.get("order") if isinstance(outcome, dict) else None
                anti_tribute = bool(outcome.get("anti_tribute", False)) if isinstance(outcome, dict) else False
                body = [game, None, None, order_text(order) if isinstance(order, list) else None]
                body += [None] * 6 + [anti_tribute, None, None]
            else:
                levels_after = record.levels_after
                body = [
                    record.game if record.game is not None else game,
                    level_text(record.level),
                    sides(record.sets_level),
                    order_text(record.order),
                    sides(record.winner),
                    record.upgrade,
                    record.a_attempt,
                    record.passed_a,
                    record.reset,
                    record.extra,
                    record.anti_tribute,
                    level_text(levels_after.NS) if levels_after else None,
                    level_text(levels_after.EW) if levels_after else None,
                ]
            yield match_id, number, deal_id, [*head, *body, flagged, user, entered_at]

    _write(book, context, h.DEALS, rows(), GUANDAN.outcome_text)


_DECLARER_SIDE = {**{side.name: side.name for side in Side}, **{seat.value: seat.side.name for seat in Seat}}
"""A Tractor declarer as entered (a side or a seat) → its side, as the rules core seats them (docs/rules.md §1)."""


def _tractor_row(context: _Context, record: DealSnapshot | None, entered: dict[str, Any]) -> list[Any]:
    """A Tractor deal's columns after the deal number (seed 001): who declared, the defenders' points
    as entered, the bottom and penalties, the points the table was read with and its verdict. A
    flagged deal (no record) shows what was entered."""
    language = context.language
    word = context.word
    if record is not None:
        bottom_text = h.word("bottom", language, **record.bottom) if record.bottom is not None else None
        declarer = record.declarer
    else:
        entered_bottom = entered.get("bottom")
        bottom_text = (
            f"{entered_bottom.get('points')} ({entered_bottom.get('capture')})"
            if isinstance(entered_bottom, dict)
            else None
        )
        declarer = entered.get("declarer")
    levels_after = record.levels_after if record is not None else None
    result = ("kept_a" if record.passed_a else record.result) if record is not None else None
    return [
        level_text(record.level) if record else None,
        word(_DECLARER_SIDE.get(declarer or "")),
        word((record.declarer_seat if record else None) or (declarer if declarer in ("N", "E", "S", "W") else None)),
        record.defender_points if record else entered.get("defender_points"),
        bottom_text,
        record.penalty_points if record else None,
        record.total_points if record else None,
        word(result),
        record.upgrade if record else None,
        word((record.revoke if record else None) or entered.get("revoke")),
        record.wrong_bottom if record else bool(entered.get("wrong_bottom")),
        word((record.wrong_count if record else None) or entered.get("wrong_count")),
        record.extra if record else None,
        level_text(levels_after.NS) if levels_after else None,
        level_text(levels_after.EW) if levels_after else None,
    ]


def tractor_deals_write(book: Book, context: _Context) -> None:
    """The deal log of a Tractor event (``tournament.games.TRACTOR``'s sheet)."""
    missing = MatchPlace("", 0, None)
    places = context.places

    def rows() -> Iterable[tuple[int, int, int, list[Any]]]:
        deals = (
            ordered_deals(context)
            .annotate(author=person_name_expression("entered_by"))
            .values_list("id", "match_id", "number", "record", "outcome", "flagged", "author", "entered_at")
        )
        for deal_id, match_id, number, record, outcome, flagged, user, entered_at in deals.iterator(chunk_size=CHUNK):
            place = places.get(match_id, missing)
            entered = outcome if isinstance(outcome, dict) else {}
            body = _tractor_row(context, DealSnapshot.from_json(record), entered)
            row = [match_id, place.stage, place.round_label, place.table, number, *body, flagged, user, entered_at]
            yield match_id, number, deal_id, row

    _write(book, context, h.DEALS_TRACTOR, rows(), TRACTOR.outcome_text)
