"""A change of a running clock written once for a round and a table alike.

Each function changes the round's or the table's own row in memory and answers the fields it
changed and the same change for the round's tables as set-based UPDATE values (F expressions):
``tournament.matches.clock`` saves the round and applies the values to the tables running with it,
or saves the one table.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import F

from tournament.matches.models import Match, Round

Clocked = Round | Match
"""A round or one table: the two owners of a clock."""


def deadline_field(target: Clocked) -> str:
    """The field holding ``target``'s deadline."""
    return "ends_at" if isinstance(target, Round) else "clock_ends_at"


Change = tuple[list[str], dict[str, Any]]
"""A clock change: the fields it changed on the round or table, and the same change for the
round's tables as UPDATE values."""


def pause(target: Clocked, *, now: datetime) -> Change:
    target.paused_at = now
    return ["paused_at"], {"paused_at": now}


def resume(target: Clocked, *, now: datetime) -> Change:
    """The deadline moves on by the pause's length."""
    deadline = deadline_field(target)
    assert target.paused_at is not None and getattr(target, deadline) is not None
    pause = now - target.paused_at
    setattr(target, deadline, getattr(target, deadline) + pause)
    target.paused_at = None
    return [deadline, "paused_at"], {"paused_at": None, "clock_ends_at": F("clock_ends_at") + pause}


def extend(target: Clocked, *, delta: timedelta) -> Change:
    deadline = deadline_field(target)
    assert getattr(target, deadline) is not None
    setattr(target, deadline, getattr(target, deadline) + delta)
    return [deadline], {"clock_ends_at": F("clock_ends_at") + delta}


def call_now(target: Clocked, *, now: datetime) -> Change:
    """The deadline is now, a pause ends: "call time now" is the organiser's cap."""
    setattr(target, deadline_field(target), now)
    target.paused_at = None
    return [deadline_field(target), "paused_at"], {"clock_ends_at": now, "paused_at": None}


def cap(target: Clocked, *, old: int | None, minutes: int) -> Change:
    """A new cap: the deadline moves by the difference (pauses and extensions already given are
    kept); an untimed clock gets its first deadline, counted from its start."""
    deadline = deadline_field(target)
    target.time_cap_minutes = minutes
    assert target.started_at is not None
    if getattr(target, deadline) is None or old is None:
        setattr(target, deadline, target.started_at + timedelta(minutes=minutes))
        return ["time_cap_minutes", deadline], {"clock_ends_at": F("started_at") + timedelta(minutes=minutes)}
    delta = timedelta(minutes=minutes - old)
    setattr(target, deadline, getattr(target, deadline) + delta)
    return ["time_cap_minutes", deadline], {"clock_ends_at": F("clock_ends_at") + delta}
