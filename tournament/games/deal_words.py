"""The pages' sentences that name a deal, in each game's own word (docs/design.md: kinds are objects, not
flags): Guandan and Tractor say 副, Dou Dizhu says 局 (docs/rules.md §10). A page reads
``game.deal_words[key]`` (in a template ``{% deal_words game "key" number=3 %}``), never the sentence of
another game. The offline queue's words (``queue_*``) are the browser's templates, with ``{n}`` and
``{reason}`` filled in by static/js/deal_queue.js."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, npgettext_lazy, pgettext_lazy

DEAL_WORDS: Mapping[str, Promise] = {
    "undo": _("Undo last deal"),
    "undo_number": _("Undo deal %(number)s"),
    "undone": _("Last deal undone."),
    "undo_reason": _("Give a reason to undo the last deal."),
    "recorded": _("Deal %(number)d recorded."),
    "confirmed": _("Deal %(number)d confirmed."),
    "corrected": _("Deal %(number)d corrected."),
    "deleted": _("Deal %(number)d deleted."),
    "delete_number": _("Delete deal %(number)s"),
    "pending": ngettext_lazy(
        "Includes %(n)s deal awaiting confirmation.", "Includes %(n)s deals awaiting confirmation.", "n"
    ),
    "claims_pending": ngettext_lazy("%(n)s awaiting confirmation", "%(n)s awaiting confirmation", "n"),
    "waits": _("Cannot be confirmed yet: deals count in order — deal %(number)s is confirmed first."),
    "waits_disputed": _(
        "Cannot be confirmed yet: deal %(number)s is disputed, and deals count in order — a referee settles "
        "deal %(number)s first."
    ),
    "queue_waiting_one": _("1 deal waiting to send"),
    "queue_waiting_many": _("{n} deals waiting to send"),
    "queue_accepted": _("Deal {n}: accepted"),
    "queue_already": _("Deal {n}: already recorded"),
    "queue_refused": _("Deal {n}: refused — {reason}"),
    "queue_deal": _("Deal {n}"),
    "queue_held": _("the deals after deal {n} wait until it is edited or discarded"),
    "deal": _("Deal %(number)d"),
    "entry_deal": _("Players' entry, deal %(number)d"),
    "comes_first": _("Deal %(number)d comes first: answer it before this one."),
    "missing": _("Deal %(number)d has no entry now: a referee enters it at the table first."),
    "recorded_meanwhile": _("Deal %(number)d was recorded meanwhile by someone else."),
    "entered_other_side": _(
        "Deal %(number)d was entered on the other side's phone at the same time: check that entry "
        "and confirm it if it is right, or dispute it."
    ),
    "entered_your_side": _("Deal %(number)d was entered by your side at the same time: it waits for the other side."),
    "already_recorded": _("Deal %(number)d is already recorded: check it against yours."),
}
"""A deal as Guandan and Tractor name it (副)."""

DOUDIZHU_DEAL_WORDS: Mapping[str, Promise] = {
    "undo": pgettext_lazy("doudizhu", "Undo last deal"),
    "undo_number": pgettext_lazy("doudizhu", "Undo deal %(number)s"),
    "undone": pgettext_lazy("doudizhu", "Last deal undone."),
    "undo_reason": pgettext_lazy("doudizhu", "Give a reason to undo the last deal."),
    "recorded": pgettext_lazy("doudizhu", "Deal %(number)d recorded."),
    "confirmed": pgettext_lazy("doudizhu", "Deal %(number)d confirmed."),
    "corrected": pgettext_lazy("doudizhu", "Deal %(number)d corrected."),
    "deleted": pgettext_lazy("doudizhu", "Deal %(number)d deleted."),
    "delete_number": pgettext_lazy("doudizhu", "Delete deal %(number)s"),
    "pending": npgettext_lazy(
        "doudizhu", "Includes %(n)s deal awaiting confirmation.", "Includes %(n)s deals awaiting confirmation.", "n"
    ),
    "claims_pending": npgettext_lazy("doudizhu", "%(n)s awaiting confirmation", "%(n)s awaiting confirmation", "n"),
    "waits": pgettext_lazy(
        "doudizhu", "Cannot be confirmed yet: deals count in order — deal %(number)s is confirmed first."
    ),
    "waits_disputed": pgettext_lazy(
        "doudizhu",
        "Cannot be confirmed yet: deal %(number)s is disputed, and deals count in order — a referee settles "
        "deal %(number)s first.",
    ),
    "queue_waiting_one": pgettext_lazy("doudizhu", "1 deal waiting to send"),
    "queue_waiting_many": pgettext_lazy("doudizhu", "{n} deals waiting to send"),
    "queue_accepted": pgettext_lazy("doudizhu", "Deal {n}: accepted"),
    "queue_already": pgettext_lazy("doudizhu", "Deal {n}: already recorded"),
    "queue_refused": pgettext_lazy("doudizhu", "Deal {n}: refused — {reason}"),
    "queue_deal": pgettext_lazy("doudizhu", "Deal {n}"),
    "queue_held": pgettext_lazy("doudizhu", "the deals after deal {n} wait until it is edited or discarded"),
    "deal": pgettext_lazy("doudizhu", "Deal %(number)d"),
    "entry_deal": pgettext_lazy("doudizhu", "Players' entry, deal %(number)d"),
    "comes_first": pgettext_lazy("doudizhu", "Deal %(number)d comes first: answer it before this one."),
    "missing": pgettext_lazy("doudizhu", "Deal %(number)d has no entry now: a referee enters it at the table first."),
    "recorded_meanwhile": pgettext_lazy("doudizhu", "Deal %(number)d was recorded meanwhile by someone else."),
    "entered_other_side": pgettext_lazy(
        "doudizhu",
        "Deal %(number)d was entered on the other side's phone at the same time: check that entry "
        "and confirm it if it is right, or dispute it.",
    ),
    "entered_your_side": pgettext_lazy(
        "doudizhu", "Deal %(number)d was entered by your side at the same time: it waits for the other side."
    ),
    "already_recorded": pgettext_lazy("doudizhu", "Deal %(number)d is already recorded: check it against yours."),
}
"""A deal as Dou Dizhu names it (局)."""

assert DEAL_WORDS.keys() == DOUDIZHU_DEAL_WORDS.keys(), "every game names the same sentences"
