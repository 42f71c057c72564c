from typing import Any

from django.core.management.base import BaseCommand
from django.utils import translation

from tournament.matches.deadlines import deadline_text
from tournament.site.demo import demo_build


class Command(BaseCommand):
    help = "Build (or rebuild) the demo company event through the services and print the logins."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="random seed of names and results")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        summary = demo_build(seed=seed)
        tournament = summary.tournament
        self.stdout.write(self.style.SUCCESS(f"Demo event ready: {tournament.name} (/t/{tournament.pk}/)"))
        self.stdout.write(
            f"  {tournament.pairs.count()} pairs from {tournament.departments.count()} departments;"
            " the organiser's announcements on its page"
        )
        if summary.doudizhu is not None:
            ddz = summary.doudizhu
            self.stdout.write(f"Dou Dizhu event: {ddz.name} (/t/{ddz.pk}/), {ddz.pairs.count()} players")
        if summary.teams is not None:
            teams = summary.teams
            self.stdout.write(f"Team event: {teams.name} (/t/{teams.pk}/), {teams.teams.count()} teams")
        if summary.league is not None:
            league = summary.league
            self.stdout.write(f"Series: {league.series.name} (/series/{league.series.pk}/), points by final place:")
            for event in league.events:
                with translation.override("en"):
                    status = str(event.get_status_display()).lower()
                self.stdout.write(f"  {event.name} (/t/{event.pk}/), {status}")
            opened = league.open_round
            assert opened.deadline is not None  # opened with one
            event_id = opened.stage.tournament_id
            self.stdout.write(
                f"  its quarter-finals are self-scheduled, to be played by "
                f"{deadline_text(opened.deadline, opened.stage.tournament)}: "
                f"the organiser's board /t/{event_id}/manage/rounds/{opened.pk}/deadline/"
            )
            visit = league.table_visit
            self.stdout.write(
                f"  a player's phone at table 2: /table/{visit.token}/ — {visit.name} ({visit.seat}) says who they"
                f" are with employee number {visit.employee_number} and confirms the entry awaiting them with PIN"
                f" {visit.pin}"
            )
        self.stdout.write("Logins (role, username, password):")
        for role, username, password in summary.logins:
            self.stdout.write(f"  {role:<10} {username:<10} {password}")
        self.stdout.write("Referees sign in with their one-time links (the organiser issues new ones):")
        for name, token in summary.referee_links:
            self.stdout.write(f"  {name}  /referee/sign-in/{token}/")
