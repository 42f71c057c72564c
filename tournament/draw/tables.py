"""The event's tables by number, as a round's draw writes them (pairs' and three-seat rounds alike)."""

from __future__ import annotations

from collections.abc import Sequence

from tournament.matches.models import Table


def table_ids_ensure(*, tournament_id: int, numbers: Sequence[int]) -> dict[int, int]:
    """Table number → id for ``numbers``, creating the tables the event does not have yet (two queries
    when all exist, three when some are new — never one per table)."""
    existing = dict(Table.objects.filter(tournament_id=tournament_id, number__in=numbers).values_list("number", "id"))
    missing = [Table(tournament_id=tournament_id, number=n) for n in numbers if n not in existing]
    if missing:
        Table.objects.bulk_create(missing)
        existing = dict(
            Table.objects.filter(tournament_id=tournament_id, number__in=numbers).values_list("number", "id")
        )
    return existing
