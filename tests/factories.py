"""factory_boy factories for the domain model (tests only)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Max

from scoring.profiles import PROFILES
from tournament.matches.models import Match, RefereeAssignment, Round, RoundStatus, Stage, StageFormat, Table
from tournament.registration.models import Department, Pair, PairMember, Player, Tournament
from tournament.registration.roles import ORGANISERS_GROUP, REFEREES_GROUP
from tournament.rules import stage_rules_resolve


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct-horse-battery")


def organiser(**kwargs: object) -> object:
    user = UserFactory(**kwargs)
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


def referee(**kwargs: object) -> object:
    user = UserFactory(**kwargs)
    user.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    return user


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"第{n}届掼蛋赛")
    rule_profile = "timed-40"
    # the event's game is its profile's (the one answer to "which game", as the create form makes it)
    game = factory.LazyAttribute(lambda event: PROFILES[event.rule_profile].game.value)


class DepartmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Department

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"部门{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"选手{n}")
    employee_number = factory.Sequence(lambda n: f"E{n:05d}")


def _next_pair_number(tournament: Tournament) -> int:
    """The event's next pair number, as ``pair_numbers_take`` gives it (1…N by registration)."""
    highest = Pair.objects.filter(tournament=tournament).aggregate(highest=Max("number"))["highest"]
    return (highest or 0) + 1


class PairFactory(factory.django.DjangoModelFactory):
    """A pair with two fresh players of its tournament."""

    class Meta:
        model = Pair
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.LazyAttribute(lambda pair: _next_pair_number(pair.tournament))
    name = factory.Sequence(lambda n: f"对{n}")

    @factory.post_generation
    def with_players(self, create: bool, extracted: object, **kwargs: object) -> None:
        if not create or extracted is False:
            return
        for slot in (1, 2):
            PairMember.objects.create(pair=self, player=PlayerFactory(tournament=self.tournament), slot=slot)


class StageFactory(factory.django.DjangoModelFactory):
    """A stage with the rules in force stored as ``stage_create`` stores them."""

    class Meta:
        model = Stage

    tournament = factory.SubFactory(TournamentFactory)
    name = "预赛"
    format = StageFormat.SWISS
    order = factory.Sequence(lambda n: n + 1)
    rule_profile = ""
    rule_overrides = factory.LazyFunction(dict)
    rules = factory.LazyAttribute(
        lambda stage: stage_rules_resolve(
            tournament=stage.tournament, rule_profile=stage.rule_profile, rule_overrides=stage.rule_overrides
        ).to_stored()
    )


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    stage = factory.SubFactory(StageFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    ns_pair = factory.SubFactory(PairFactory, tournament=factory.SelfAttribute("..round.stage.tournament"))
    ew_pair = factory.SubFactory(PairFactory, tournament=factory.SelfAttribute("..round.stage.tournament"))


# -- referees' tables -------------------------------------------------------------------------------


class RefereeAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RefereeAssignment

    round = factory.SubFactory(RoundFactory)
    table = factory.SubFactory(TableFactory, tournament=factory.SelfAttribute("..round.stage.tournament"))
    referee = factory.SubFactory(UserFactory)


def table_match(
    *,
    profile: str = "timed-40",
    overrides: dict | None = None,
    stage_format: str = StageFormat.SWISS,
    round_status: str = RoundStatus.PUBLISHED,
    time_cap_minutes: int | None = None,
    referee_user: object = None,
    organiser_user: object = None,
) -> Match:
    """A match at a table of a published round, with its referee assigned (and an organiser)."""
    tournament = TournamentFactory(rule_profile=profile, rule_overrides=overrides or {})
    if organiser_user is not None:
        tournament.organisers.add(organiser_user)
    stage = StageFactory(tournament=tournament, format=stage_format)
    round_ = RoundFactory(stage=stage, status=round_status, time_cap_minutes=time_cap_minutes)
    return round_match(round_=round_, referee_user=referee_user)


def round_match(*, round_: Round, referee_user: object = None) -> Match:
    """One more match at a new table of ``round_`` (assigned to ``referee_user`` if given)."""
    table = TableFactory(tournament=round_.stage.tournament)
    match = MatchFactory(round=round_, table=table)
    if referee_user is not None:
        RefereeAssignment.objects.create(round=round_, table=table, referee=referee_user)
    return match


def english_client(**kwargs: object) -> object:
    """A test client that chose English with the header's switch (pages are Chinese otherwise)."""
    from django.conf import settings
    from django.test import Client

    client = Client(**kwargs)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
