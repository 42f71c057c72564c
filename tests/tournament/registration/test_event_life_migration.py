"""Existing events get a status from their rounds when the event's life arrives."""

from __future__ import annotations

import pytest

from tests.migrating import empty_database, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("matches", "0005_referees"), ("registration", "0003_event_life")]
AFTER = [("matches", "0006_event_status_from_rounds")]


def test_an_event_with_a_published_round_becomes_in_progress_others_stay():
    # forward only, on an empty database of its own (tests/migrating.py says why)
    with empty_database():
        apps = migrate(BEFORE)
        Tournament = apps.get_model("registration", "Tournament")
        Stage = apps.get_model("matches", "Stage")
        Round = apps.get_model("matches", "Round")
        started = Tournament.objects.create(name="进行中", rule_profile="timed-40")
        drafted = Tournament.objects.create(name="只有草稿", rule_profile="timed-40")
        Round.objects.create(
            stage=Stage.objects.create(tournament=started, name="预赛", format="swiss", rules={"game": "guandan"}),
            number=1,
            status="published",
        )
        Round.objects.create(
            stage=Stage.objects.create(tournament=drafted, name="预赛", format="swiss", rules={"game": "guandan"}),
            number=1,
            status="draft",
        )
        apps = migrate(AFTER)
        Tournament = apps.get_model("registration", "Tournament")
        assert Tournament.objects.get(pk=started.pk).status == "running"
        assert Tournament.objects.get(pk=drafted.pk).status == "registration"
