"""``manage.py series_rating_rebuild [SERIES_ID …]``: the series' ratings rebuilt from scratch from their
confirmed matches (docs/rules.md §12.4); prints each series' players and the best five."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournament.exports.models import Series
from tournament.exports.series import series_ratings_rebuild, series_ratings_shown


class Command(BaseCommand):
    help = "Rebuild the rating of every series (or the ones named by id) from its confirmed matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("series", nargs="*", type=int)

    def handle(self, *args: Any, **arguments: Any) -> None:
        chosen = Series.objects.all()
        if arguments["series"]:
            chosen = chosen.filter(pk__in=arguments["series"])
        for series in chosen.order_by("pk"):
            rows = series_ratings_rebuild(series=series)
            self.stdout.write(f"{series.pk} {series.name}: {len(rows)} players rated")
            for row in series_ratings_shown(series=series)[:5]:
                self.stdout.write(f"  {row.name} ({row.player}) {row.shown:.2f} · {row.matches}")
