"""The limit on wrong codes: guessing a seat's PIN (or a table's code) within a round is not
feasible, and one phone's mistakes never lock any other phone out (docs/player-entry.md,
docs/threats.md).

A player identifies at a table with their employee number or the PIN on their seat slip
(``player_entry.player_identify``); a phone that cannot scan opens a table by its number and code
(``table_links.table_code_open``). Every wrong code is counted in the shared cache (every worker
sees the same counts; nothing is kept in a process), twice:

- **per code being guessed** (a *target*: one seat's PIN, or one table number's code): a wrong
  code counts against the codes it was compared with — the seat the phone named, else each seat
  whose PIN it could have been. :data:`TARGET_FREE` wrong codes are free, then each further one
  pauses that code for twice as long as the one before (from :data:`TARGET_FIRST_PAUSE` up to
  :data:`TARGET_MAX_PAUSE`). While paused, that code is not compared at all — its right value is
  refused like a wrong one, so a pause gives a guesser nothing to learn — and the page says whose
  code waits. A right code does not reset it (the guesser could be a player of the table typing
  their own code between guesses); a referee of the table or an organiser does
  (:func:`code_limit_lift`). Within a three-hour round that leaves some twenty guesses against
  10⁶ values per code. What is not being guessed is not paused: the other seats' PINs, every
  employee number (colleagues know them: nothing to guess), the other tables.
- **per phone** (its session: the device, never the room's shared address): :data:`DEVICE_FREE`
  wrong codes, then that phone alone waits, doubling from :data:`DEVICE_FIRST_PAUSE` up to
  :data:`DEVICE_MAX_PAUSE`; a right code resets it.

A phone that drops its cookies is a new device each time: the target's count still holds it.

Each check runs under a short lock per scope (a table, or a table number; the cache's atomic
``add``), so a burst of parallel guesses is counted one by one, never all let through at once; a
guess arriving while another is checked is answered "try again". What the counts are filed under
includes a generation of the scope that a lift moves, so lifting forgets every count of the scope
(its targets and its phones) at once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.core.cache import cache
from django.utils.translation import gettext as _

from tournament.errors import UserError

__all__ = [
    "CodeAnswer",
    "CodeLimit",
    "code_attempt",
    "code_limit_lift",
    "code_limits",
    "match_scope",
    "table_number_scope",
]

T = TypeVar("T")

TARGET_FREE = 10
TARGET_FIRST_PAUSE = 15.0
TARGET_MAX_PAUSE = 3600.0
DEVICE_FREE = 5
DEVICE_FIRST_PAUSE = 30.0
DEVICE_MAX_PAUSE = 600.0
KEPT_SECONDS = 12 * 3600
"""How long the counts are kept after the last wrong code (longer than a round)."""
LOCK_SECONDS = 10


def match_scope(match_id: int) -> str:
    """The scope of a table's seat PINs in a round (targets: the seats' player ids)."""
    return f"match:{match_id}"


def table_number_scope(number: int) -> str:
    """The scope of the codes typed for a table number on the table-code page (one target)."""
    return f"table-number:{number}"


@dataclass(frozen=True, slots=True)
class CodeLimit:
    """What the wrong codes against one code (or from one phone) stand at."""

    wrong: int = 0
    paused_until: float = 0.0

    def wait(self, now: float) -> float:
        return max(0.0, self.paused_until - now)

    def after_wrong(self, now: float, *, free: int, first: float, most: float) -> CodeLimit:
        wrong = self.wrong + 1
        over = wrong - free
        pause = min(most, first * 2 ** (over - 1)) if over > 0 else 0.0
        return CodeLimit(wrong=wrong, paused_until=now + pause if pause else self.paused_until)


@dataclass(frozen=True, slots=True)
class CodeAnswer(Generic[T]):
    """What a code attempt found (None: nothing), and which of its targets are paused (and how long
    the longest still waits), after this attempt."""

    found: T | None
    paused: frozenset[str] = field(default_factory=frozenset)
    wait: float = 0.0


def _generation_key(scope: str) -> str:
    return f"codes:{scope}:generation"


def _base(scope: str) -> str:
    return f"codes:{scope}:g{cache.get(_generation_key(scope)) or 0}"


def paused_error(code: str, message: str, wait: float) -> UserError:
    """A 429 refusal with ``Retry-After`` (``message`` may name ``%(seconds)d`` and ``%(minutes)d``)."""
    seconds = max(1, math.ceil(wait))
    text = message % {"seconds": seconds, "minutes": math.ceil(seconds / 60)}
    return UserError(code, text, status=429, headers={"Retry-After": str(seconds)})


def code_attempt(
    *,
    scope: str,
    device: str | None,
    device_start: Callable[[], str],
    targets: Sequence[str],
    check: Callable[[frozenset[str]], T | None],
) -> CodeAnswer[T]:
    """Run ``check`` unless this phone (``device``: its session key; None for a phone without one
    yet, which ``device_start`` gives it at its first wrong code) is paused. ``check`` gets the
    targets that are paused — it must not compare the code with those — and returns what the code
    found (None for a wrong code). A wrong code is counted against the phone and against each
    ``targets`` not paused (the codes it was compared with; none for a code that cannot be one of
    them). Raises :class:`UserError` 429 (``device_codes_paused``, ``table_codes_busy``) with
    ``Retry-After`` instead of running ``check``."""
    lock_key = f"codes:{scope}:lock"
    if not cache.add(lock_key, 1, timeout=LOCK_SECONDS):
        raise paused_error("table_codes_busy", _("Another code is being checked at this table: try again."), 1)
    try:
        base = _base(scope)
        device_key = f"{base}:device:{device}" if device else None
        target_keys = {target: f"{base}:target:{target}" for target in targets}
        found = cache.get_many([key for key in (device_key, *target_keys.values()) if key])
        phone: CodeLimit = (found.get(device_key) if device_key else None) or CodeLimit()
        limits = {target: found.get(key) or CodeLimit() for target, key in target_keys.items()}
        now = time.time()
        if phone.wait(now) > 0:
            raise paused_error(
                "device_codes_paused",
                _("Too many wrong codes on this phone: try again in %(seconds)d s, or ask a referee."),
                phone.wait(now),
            )
        paused = frozenset(target for target, limit in limits.items() if limit.wait(now) > 0)
        result = check(paused)
        if result is None:
            written = {}
            for target, limit in limits.items():
                if target not in paused:
                    limits[target] = limit.after_wrong(
                        now, free=TARGET_FREE, first=TARGET_FIRST_PAUSE, most=TARGET_MAX_PAUSE
                    )
                    written[target_keys[target]] = limits[target]
            phone = phone.after_wrong(now, free=DEVICE_FREE, first=DEVICE_FIRST_PAUSE, most=DEVICE_MAX_PAUSE)
            if device_key is None:
                device_key = f"{base}:device:{device_start()}"
            written[device_key] = phone
            cache.set_many(written, timeout=KEPT_SECONDS)
        elif device_key and phone.wrong:
            cache.delete(device_key)
        waits = {target: limit.wait(now) for target, limit in limits.items() if limit.wait(now) > 0}
        return CodeAnswer(found=result, paused=frozenset(waits), wait=max(waits.values(), default=0.0))
    finally:
        cache.delete(lock_key)


def code_limits(*, scope: str, targets: Sequence[str]) -> dict[str, CodeLimit]:
    """The wrong codes and pause of each target (the referee's match page shows them)."""
    base = _base(scope)
    found = cache.get_many([f"{base}:target:{target}" for target in targets])
    return {target: found.get(f"{base}:target:{target}") or CodeLimit() for target in targets}


def code_limit_lift(*, scope: str) -> None:
    """Forget every count of the scope, its targets' and its phones' (a referee's or organiser's
    lift; the caller audits it)."""
    key = _generation_key(scope)
    if cache.add(key, 1, timeout=KEPT_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=KEPT_SECONDS)
