"""factory_boy factories for the domain model (tests only)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tournament.matches.models import Match, Round, Stage, StageFormat, Table
from tournament.registration.models import Department, Pair, PairMember, Player, Tournament
from tournament.registration.roles import ORGANISERS_GROUP, REFEREES_GROUP


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


class PairFactory(factory.django.DjangoModelFactory):
    """A pair with two fresh players of its tournament."""

    class Meta:
        model = Pair
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"对{n}")

    @factory.post_generation
    def with_players(self, create: bool, extracted: object, **kwargs: object) -> None:
        if not create or extracted is False:
            return
        for slot in (1, 2):
            PairMember.objects.create(pair=self, player=PlayerFactory(tournament=self.tournament), slot=slot)


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stage

    tournament = factory.SubFactory(TournamentFactory)
    name = "预赛"
    format = StageFormat.SWISS
    order = factory.Sequence(lambda n: n + 1)


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
