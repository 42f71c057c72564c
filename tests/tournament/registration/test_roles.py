"""Whether a user organises a tournament: one answer (``registration.roles.user_organises`` and its
ORM form ``organiser_of``), asked by the tournament page, the organiser pages, the match pages and
the referees' lists alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.http import Http404

from tests.factories import TournamentFactory, UserFactory, organiser, referee, table_match
from tournament.matches.access import match_for_user, matches_for_user
from tournament.registration.roles import tournament_for_organiser, user_organises

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def test_an_organiser_organises_their_tournament_only_and_a_superuser_every_one(client):
    boss = organiser(username="boss")
    match = table_match(organiser_user=boss)
    mine, other = match.round.stage.tournament, TournamentFactory()
    admin = UserFactory(username="admin", is_superuser=True)
    ref = referee(username="ref")

    assert user_organises(user=boss, tournament_id=mine.pk)
    assert not user_organises(user=boss, tournament_id=other.pk)
    assert not user_organises(user=ref, tournament_id=mine.pk)  # a referee of no table is no organiser
    assert user_organises(user=admin, tournament_id=other.pk)
    assert tournament_for_organiser(user=boss, tournament_id=mine.pk) == mine
    with pytest.raises(Http404):
        tournament_for_organiser(user=boss, tournament_id=other.pk)
    assert match_for_user(user=boss, match_id=match.pk) == match
    assert not matches_for_user(user=ref).exists()

    client.force_login(boss)
    assert client.get(f"/t/{mine.pk}/").context["is_organiser"] is True
    assert client.get(f"/t/{other.pk}/").context["is_organiser"] is False


def test_nothing_else_reads_who_organises():
    """The organisers' membership is read in ``registration/roles.py`` only (a series' own
    organisers in ``exports/series.py``)."""
    reads = re.compile(r"organisers\.through|organisers\.filter|organisers=|organisers__")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in ROOT.joinpath("tournament").rglob("*.py")
        if "migrations" not in path.parts
        and path not in (ROOT / "tournament/registration/roles.py", ROOT / "tournament/exports/series.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if reads.search(line)
    ]
    assert offenders == []
