"""Signals any layer may send, for the higher layers to react to (docs/design.md, "Layers").

A lower layer never imports a higher one; when what it does concerns one, it says so here and the
higher layer connects a receiver in its ``AppConfig.ready``.

- ``public_pages_changed(sender=None, tournament_id=…, seating=…, standings=…)``: a write changed
  what players see and sent no model signal (``QuerySet.update``, ``bulk_update``) or none that says
  enough (a clock change: the public scope only). The public pages' cache
  (``tournament.standings.cache.public_version_bump``) moves the versions it names.
"""

from __future__ import annotations

from django.dispatch import Signal

public_pages_changed = Signal()


def public_pages_bump(*, tournament_id: int, seating: bool = True, standings: bool = True) -> None:
    """Tell the public pages that ``tournament_id`` changed: everything, or not its seats
    (``seating=False``: nobody moved) and not its standings (``standings=False``: nothing counted
    changed), as :func:`tournament.standings.cache.public_version_bump` reads them."""
    public_pages_changed.send(sender=None, tournament_id=tournament_id, seating=seating, standings=standings)
