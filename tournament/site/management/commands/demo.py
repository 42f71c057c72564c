from typing import Any

from django.core.management.base import BaseCommand

from tournament.site.demo import demo_build


class Command(BaseCommand):
    help = "Build (or rebuild) the demo company event through the services and print the logins."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="random seed of names and results")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        summary = demo_build(seed=seed)
        tournament = summary.tournament
        self.stdout.write(self.style.SUCCESS(f"Demo event ready: {tournament.name} (/t/{tournament.pk}/)"))
        self.stdout.write(f"  {tournament.pairs.count()} pairs from {tournament.departments.count()} departments")
        if summary.doudizhu is not None:
            ddz = summary.doudizhu
            self.stdout.write(f"Dou Dizhu event: {ddz.name} (/t/{ddz.pk}/), {ddz.pairs.count()} players")
        if summary.teams is not None:
            teams = summary.teams
            self.stdout.write(f"Team event: {teams.name} (/t/{teams.pk}/), {teams.teams.count()} teams")
        self.stdout.write("Logins (role, username, password):")
        for role, username, password in summary.logins:
            self.stdout.write(f"  {role:<10} {username:<10} {password}")
        self.stdout.write("Referees sign in with their one-time links (the organiser issues new ones):")
        for name, token in summary.referee_links:
            self.stdout.write(f"  {name}  /referee/sign-in/{token}/")
