"""Existing events get a status that matches their rounds (the status never moved before).

Here rather than in ``registration.0003_event_life`` because it reads rounds: a registration
migration depending on the matches app would be unapplied whenever the matches app is migrated back.
"""

from django.db import migrations


def statuses_from_rounds(apps, schema_editor):
    """An event with a published round is in progress (the old status said "registration" forever)."""
    Tournament = apps.get_model("registration", "Tournament")
    Round = apps.get_model("matches", "Round")
    started = Round.objects.exclude(status="draft").values("stage__tournament_id")
    Tournament.objects.filter(pk__in=started, status="registration").update(status="running")


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_referees"),
        ("registration", "0003_event_life"),
    ]

    operations = [migrations.RunPython(statuses_from_rounds, migrations.RunPython.noop)]
