"""The limit on wrong table codes: guessing a seat's PIN within a round is not feasible, and one
phone's typos never lock anyone else out (docs/player-entry.md, docs/threats.md).

A player identifies at a table with their employee number or the PIN on their seat slip
(``player_entry.player_identify``). Every wrong code is counted twice, in the shared cache:

- **per table** (the match: the codes of its four seats are what is being guessed), whatever the
  phone or its address: :data:`TABLE_FREE` wrong codes are free, then each further one pauses code
  entry at that table for twice as long as the one before (from :data:`TABLE_FIRST_PAUSE` up to
  :data:`TABLE_MAX_PAUSE`). A right code does not reset it — a player of the table could otherwise
  identify as themselves between guesses — only a referee does (:func:`code_limit_lift`). Within a
  three-hour round that leaves some twenty guesses against 10⁶ PINs per seat.
- **per phone** (its session: the device, never the room's shared address): :data:`DEVICE_FREE`
  wrong codes, then that phone alone waits, doubling from :data:`DEVICE_FIRST_PAUSE` up to
  :data:`DEVICE_MAX_PAUSE`; a right code resets it. A phone whose player mistypes pauses itself
  long before the table's free codes are spent, so one phone's mistakes stop that phone only.

A phone that refuses cookies is a new device each time: the table's count still holds it.

Each check runs under a short lock per table (the cache's atomic ``add``), so a burst of parallel
guesses is counted one by one, never all let through at once; a guess arriving while another is
checked is answered "try again". What the counts are filed under includes a generation the referee's
lift moves, so lifting forgets every count of that table at once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.utils.translation import gettext as _

from tournament.errors import UserError

__all__ = [
    "CodeLimit",
    "code_attempt",
    "code_limit_get",
    "code_limit_lift",
]

T = TypeVar("T")

TABLE_FREE = 10
TABLE_FIRST_PAUSE = 15.0
TABLE_MAX_PAUSE = 3600.0
DEVICE_FREE = 5
DEVICE_FIRST_PAUSE = 30.0
DEVICE_MAX_PAUSE = 600.0
KEPT_SECONDS = 12 * 3600
"""How long the counts are kept after the last wrong code (longer than a round)."""
LOCK_SECONDS = 10


@dataclass(frozen=True, slots=True)
class CodeLimit:
    """What the wrong codes of one table (or one phone at it) stand at."""

    wrong: int = 0
    paused_until: float = 0.0

    def wait(self, now: float) -> float:
        return max(0.0, self.paused_until - now)

    def after_wrong(self, now: float, *, free: int, first: float, most: float) -> CodeLimit:
        wrong = self.wrong + 1
        over = wrong - free
        pause = min(most, first * 2 ** (over - 1)) if over > 0 else 0.0
        return CodeLimit(wrong=wrong, paused_until=now + pause if pause else self.paused_until)


def _generation_key(match_id: int) -> str:
    return f"table-codes:{match_id}:generation"


def _keys(match_id: int, device: str | None) -> tuple[str, str | None]:
    generation = cache.get(_generation_key(match_id)) or 0
    base = f"table-codes:{match_id}:g{generation}"
    return f"{base}:table", (f"{base}:device:{device}" if device else None)


def _paused(code: str, message: str, wait: float) -> UserError:
    seconds = max(1, math.ceil(wait))
    text = message % {"seconds": seconds, "minutes": math.ceil(seconds / 60)}
    return UserError(code, text, status=429, headers={"Retry-After": str(seconds)})


def code_attempt(
    *, match_id: int, device: str | None, device_start: Callable[[], str], check: Callable[[], T | None]
) -> T | None:
    """Run ``check`` (the code's lookup: None for a wrong code) if neither this table nor this phone
    (``device``: its session key; None for a phone without one yet, which ``device_start`` gives it
    at its first wrong code) is paused, and count a wrong code against both. Raises
    :class:`UserError` 429 (``table_codes_paused``, ``device_codes_paused``, ``table_codes_busy``)
    with ``Retry-After`` instead of running ``check``."""
    lock_key = f"table-codes:{match_id}:lock"
    if not cache.add(lock_key, 1, timeout=LOCK_SECONDS):
        raise _paused("table_codes_busy", _("Another code is being checked at this table: try again."), 1)
    try:
        table_key, device_key = _keys(match_id, device)
        found = cache.get_many([key for key in (table_key, device_key) if key])
        table: CodeLimit = found.get(table_key) or CodeLimit()
        phone: CodeLimit = (found.get(device_key) if device_key else None) or CodeLimit()
        now = time.time()
        if table.wait(now) > 0:
            raise _paused(
                "table_codes_paused",
                _(
                    "Too many wrong codes at this table: code entry is paused for %(minutes)d min. "
                    "A referee can lift it."
                ),
                table.wait(now),
            )
        if phone.wait(now) > 0:
            raise _paused(
                "device_codes_paused",
                _("Too many wrong codes on this phone: try again in %(seconds)d s, or ask a referee."),
                phone.wait(now),
            )
        found_seat = check()
        if found_seat is None:
            table = table.after_wrong(now, free=TABLE_FREE, first=TABLE_FIRST_PAUSE, most=TABLE_MAX_PAUSE)
            phone = phone.after_wrong(now, free=DEVICE_FREE, first=DEVICE_FIRST_PAUSE, most=DEVICE_MAX_PAUSE)
            cache.set(table_key, table, timeout=KEPT_SECONDS)
            if device_key is None:
                device_key = _keys(match_id, device_start())[1]
            cache.set(device_key, phone, timeout=KEPT_SECONDS)
        elif device_key and phone.wrong:
            cache.delete(device_key)
        return found_seat
    finally:
        cache.delete(lock_key)


def code_limit_get(*, match_id: int) -> CodeLimit:
    """The table's wrong codes and pause (the referee's match page shows them)."""
    table_key, _device = _keys(match_id, None)
    limit: CodeLimit | None = cache.get(table_key)
    return limit or CodeLimit()


def code_limit_lift(*, match_id: int) -> None:
    """A referee lifts the table's pause: every count of the table and of its phones is forgotten."""
    key = _generation_key(match_id)
    if cache.add(key, 1, timeout=KEPT_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=KEPT_SECONDS)
