"""The workbook's account of the correction flags (docs/corrections.md).

Read from the one reader the pages and the API use (``matches.correction_selectors.stage_flags_get``),
never recomputed: on the standings sheet of each flagged stage, after its rows, one line per flag
(the stage's advancement changed, or a round drawn from changed standings; its state: awaiting the
organiser, drawn again, kept with a reason), and a sheet 更正标记 listing every flag with the pairs
in and out, the places changed, the corrected match, the decision and its reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.exports import headers as h
from tournament.exports.headers import Column, Language
from tournament.exports.xlsx import Book, StreamedSheet
from tournament.matches.correction_selectors import FlagPair, StageFlag
from tournament.matches.models import AdvancementFlagStatus

FLAGS = (
    Column("stage", "阶段", "Stage", 12),
    Column("kind", "类别", "Kind", 20),
    h.ROUND,
    Column("status", "状态", "State", 16),
    Column("leaving", "移出", "Out", 30),
    Column("joining", "移入", "In", 30),
    Column("moved", "名次变动", "Places changed", 36),
    Column("match", "更正的比赛", "Corrected match", 10),
    Column("reason", "理由", "Reason", 30),
    Column("decided_at", "决定时间", "Decided at", 17, "datetime"),
)


def flag_kind_text(flag: StageFlag, language: Language) -> str:
    if flag.is_round:
        return h.word("flag_round", language, round=flag.round_number)
    return h.word("flag_advancement", language)


def flag_status_text(flag: StageFlag, language: Language) -> str:
    if flag.status == AdvancementFlagStatus.OPEN:
        return h.word("flag_open", language)
    if flag.status == AdvancementFlagStatus.KEPT:
        return h.word("flag_kept", language)
    return h.word("flag_redrawn_round" if flag.is_round else "flag_redrawn", language)


def _pairs(pairs: Sequence[FlagPair], language: Language) -> str | None:
    if not pairs:
        return None
    separator = "、" if language == "zh" else "; "
    return separator.join(h.word("pair_ref", language, number=pair.number or "?", name=pair.name) for pair in pairs)


def _moved(flag: StageFlag, language: Language) -> str | None:
    if not flag.moved:
        return None
    separator = "、" if language == "zh" else "; "
    return separator.join(
        h.word(
            "pair_moved",
            language,
            number=c.pair.number or "?",
            before=c.before or "—",
            after=c.after or "—",
            before_points="—" if c.before_points is None else c.before_points,
            after_points="—" if c.after_points is None else c.after_points,
        )
        for c in flag.moved
    )


def stage_flag_notes_write(sheet: StreamedSheet, flags: Sequence[StageFlag], language: Language) -> None:
    """After a stage's standings: a blank row, then one line per flag of the stage."""
    if not flags:
        return
    sheet.append([])
    for flag in flags:
        text = h.word(
            "flag_note",
            language,
            kind=flag_kind_text(flag, language),
            status=flag_status_text(flag, language),
        )
        if flag.leaving or flag.joining:
            text += h.word(
                "flag_note_pairs",
                language,
                out=_pairs(flag.leaving, language) or "—",
                into=_pairs(flag.joining, language) or "—",
            )
        if flag.tie_lots_seed is not None:
            text += h.word("flag_note_tie", language, seed=flag.tie_lots_seed)
        if flag.reason and flag.status == AdvancementFlagStatus.KEPT:
            text += h.word("flag_note_reason", language, reason=flag.reason)
        sheet.append([text + h.word("flag_note_see", language)])


def flags_sheet_write(book: Book, language: Language, flags: Sequence[tuple[str, StageFlag]]) -> None:
    """The sheet 更正标记: every flag of the event (``(stage name, flag)``), in stage order."""
    if not flags:
        return
    sheet = book.sheet(
        h.sheet_name("corrections", language),
        header=h.titles(FLAGS, language),
        widths=h.widths(FLAGS),
        styles=h.styles(FLAGS),
    )
    for stage_name, flag in flags:
        sheet.append(
            [
                stage_name,
                flag_kind_text(flag, language),
                flag.round_number,
                flag_status_text(flag, language),
                _pairs(flag.leaving, language),
                _pairs(flag.joining, language),
                _moved(flag, language),
                flag.match_id,
                flag.reason or None,
                flag.decided_at,
            ]
        )
