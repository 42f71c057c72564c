"""Signals of the matches app, for the apps above it (the standings, the draw, the exports).

Sent after the transaction that caused them commits:

- ``match_confirmed(sender=Match, match=…)``: a referee signed a match off (its result is final
  until an organiser unlocks it). Standings read confirmed snapshots on their own; a knockout's
  bracket progression, a later stage's advancement and the event's finish (the draw app) listen here.
- ``match_unlocked(sender=Match, match=…)``: an organiser reopened a signed-off match.

Sent while reading or writing, answered by a return value (``send``: a receiver's error is the
caller's):

- ``match_dependents_read(sender=Match, match=…)``: what an app above built on a confirmed match,
  as fields of ``corrections.MatchDependents`` (a dict): whether its stage's placings are decided
  (the standings), the workbooks exported since and the prize tiers (the exports).
- ``correction_opening(sender=Match, match=…)``: inside ``match_unlock``'s transaction, before the
  match is reopened: what to keep with the correction's ``before`` (a dict; the draw app: the
  standings each later Swiss round was drawn from, compared at the re-sign-off).
"""

from __future__ import annotations

from django.dispatch import Signal

match_confirmed = Signal()
match_unlocked = Signal()
match_dependents_read = Signal()
correction_opening = Signal()
