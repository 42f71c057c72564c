"""Referees managed by the organiser: accounts, one-time sign-in links, chief referees.

A referee belongs to one event (``Referee.tournament``, see its docstring). The organiser makes
the account (name, phone or employee number) and gives the referee a one-time sign-in link —
shown once, with its QR code, to open on their phone. Only the SHA-256 of the link's token is
stored; the link signs in once and expires after ``settings.REFEREE_LINK_HOURS``. A reset issues
a new link, revokes the old one and signs out the phone that used it (the account's session hash
changes); a deactivated referee cannot sign in and is signed out at their next request.

Every change is audited (django-simple-history rows with the organiser and the client address).
Bad input raises ``UserError`` with a message for the organiser and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import labels
from tournament.audit import history_author
from tournament.errors import UserError
from tournament.matches.access import ACTIVE_ROUND
from tournament.matches.models import (
    ChiefReferee,
    Referee,
    RefereeAssignment,
    RefereeSignInLink,
    Round,
    RoundStatus,
)
from tournament.people import Actor
from tournament.registration.lifecycle import event_write, owned_event, tournament_event
from tournament.registration.models import Tournament
from tournament.registration.roles import REFEREES_GROUP


@dataclass(frozen=True)
class IssuedLink:
    """A link just issued: ``token`` is the secret part of its address, known only now."""

    link: RefereeSignInLink
    token: str


def token_hash(token: str) -> str:
    """The stored form of a link's token (a lookup key; the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _clean(text: str) -> str:
    return " ".join((text or "").split())


def _check_unique(*, tournament: Tournament, name: str, phone: str, employee_number: str, exclude: int | None) -> None:
    others = Referee.objects.filter(tournament=tournament)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    errors: dict[str, str] = {}
    if others.filter(name=name).exists():
        errors["name"] = _("This event already has a referee of that name.")
    if phone and others.filter(phone=phone).exists():
        errors["phone"] = _("This event already has a referee with that phone number.")
    if employee_number and others.filter(employee_number=employee_number).exists():
        errors["employee_number"] = _("This event already has a referee with that employee number.")
    if errors:
        raise UserError.of_fields(errors, code="duplicate")


@event_write("tournament", of=tournament_event)
def referee_create(
    *, tournament: Tournament, name: str, phone: str = "", employee_number: str = "", user: Actor | None = None
) -> Referee:
    """A new referee of ``tournament`` with its own account (no password; see the module)."""
    name, phone, employee_number = _clean(name), _clean(phone), _clean(employee_number)
    if not name:
        raise UserError.of_fields({"name": _("Give the referee's name.")}, code="name_required")
    if len(name) > 60:
        raise UserError.of_fields({"name": _("At most 60 characters.")}, code="too_long")
    _check_unique(tournament=tournament, name=name, phone=phone, employee_number=employee_number, exclude=None)
    with transaction.atomic():
        account = get_user_model()(
            username=f"referee-{tournament.pk}-{uuid.uuid4().hex[:10]}", first_name=name[:150]
        )
        account.set_unusable_password()
        account.save()
        account.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
        referee = Referee(
            tournament=tournament, user=account, name=name, phone=phone, employee_number=employee_number
        )
        history_author(referee, user, "referee created")
        try:
            with transaction.atomic():
                referee.save()
        except IntegrityError as error:  # a concurrent create of the same name
            raise UserError.of_fields({"name": _("This event already has a referee of that name.")}) from error
    return referee


@event_write("referee", of=owned_event)
def referee_update(
    *, referee: Referee, name: str, phone: str = "", employee_number: str = "", user: Actor | None = None
) -> Referee:
    """Change a referee's name, phone or employee number."""
    name, phone, employee_number = _clean(name), _clean(phone), _clean(employee_number)
    if not name:
        raise UserError.of_fields({"name": _("Give the referee's name.")}, code="name_required")
    _check_unique(
        tournament=referee.tournament, name=name, phone=phone, employee_number=employee_number, exclude=referee.pk
    )
    with transaction.atomic():
        referee.name, referee.phone, referee.employee_number = name, phone, employee_number
        history_author(referee, user, "referee edited")
        referee.save(update_fields=["name", "phone", "employee_number"])
        referee.user.first_name = name[:150]
        referee.user.save(update_fields=["first_name"])
    return referee


def _revoke_open_links(*, referee: Referee, user: Actor | None, now: Any) -> None:
    for link in RefereeSignInLink.objects.select_for_update().filter(
        referee=referee, used_at__isnull=True, revoked_at__isnull=True
    ):
        link.revoked_at = now
        history_author(link, user, "link revoked")
        link.save(update_fields=["revoked_at"])


@event_write("referee", of=owned_event)
def referee_link_issue(*, referee: Referee, user: Actor | None = None) -> IssuedLink:
    """A new one-time sign-in link (a reset): the old link stops working and the phone that
    signed in with it is signed out (a new unusable password changes the session hash)."""
    now = timezone.now()
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        referee = Referee.objects.select_for_update(of=("self",)).select_related("user").get(pk=referee.pk)
        if not referee.active:
            raise UserError("inactive", _("This referee is deactivated; activate them first."))
        _revoke_open_links(referee=referee, user=user, now=now)
        link = RefereeSignInLink(
            referee=referee,
            token_hash=token_hash(token),
            created_at=now,
            expires_at=now + timedelta(hours=settings.REFEREE_LINK_HOURS),
        )
        history_author(link, user, "link issued")
        link.save()
        account = referee.user
        account.set_unusable_password()
        account.save(update_fields=["password"])
    return IssuedLink(link=link, token=token)


def referee_link_find(*, token: str) -> RefereeSignInLink | None:
    """The link of ``token`` (used, expired or not), for the sign-in page to name its referee."""
    return (
        RefereeSignInLink.objects.select_related("referee__tournament", "referee__user")
        .filter(token_hash=token_hash(token))
        .first()
    )


def referee_link_refusal(*, link: RefereeSignInLink | None) -> UserError | None:
    """Why ``link`` cannot sign in now (``None``: it can). The sign-in page asks this before
    the button is pressed, and ``referee_link_redeem`` asks it again under the row lock."""
    if link is None or link.revoked_at is not None:
        return UserError("link_invalid", _("This sign-in link is not valid. Ask the organiser for a new one."))
    if link.used_at is not None:
        return UserError("link_used", _("This sign-in link has already been used. Ask the organiser for a new one."))
    if link.expires_at <= timezone.now():
        return UserError("link_expired", _("This sign-in link has expired. Ask the organiser for a new one."))
    if not link.referee.active or not link.referee.user.is_active:
        return UserError("inactive", _("This referee account is deactivated."))
    return None


def referee_link_redeem(*, token: str) -> User:
    """Use a sign-in link: its referee's account, to sign in. A link works once, before it
    expires, while it is not revoked and its referee is active; otherwise nothing changes."""
    with transaction.atomic():
        link = (
            RefereeSignInLink.objects.select_for_update(of=("self",))
            .select_related("referee__user")
            .filter(token_hash=token_hash(token))
            .first()
        )
        refusal = referee_link_refusal(link=link)
        if refusal is not None:
            raise refusal
        assert link is not None
        link.used_at = timezone.now()
        history_author(link, link.referee.user, "signed in")
        link.save(update_fields=["used_at"])
    return link.referee.user


@event_write("referee", of=owned_event)
def referee_active_set(*, referee: Referee, active: bool, user: Actor | None = None) -> Referee:
    """Deactivate (or activate again) a referee. Deactivating revokes their open link and signs
    their phone out; their tables stay assigned and show as such until the organiser reassigns
    them. An activated referee needs a new link."""
    now = timezone.now()
    with transaction.atomic():
        referee = Referee.objects.select_for_update(of=("self",)).select_related("user", "tournament").get(
            pk=referee.pk
        )
        if referee.active == active:
            return referee
        referee.active = active
        history_author(referee, user, "referee activated" if active else "referee deactivated")
        referee.save(update_fields=["active"])
        account = referee.user
        account.is_active = active
        account.save(update_fields=["is_active"])
        if not active:
            _revoke_open_links(referee=referee, user=user, now=now)
    return referee


@event_write("referee", of=owned_event)
def chief_referee_set(*, referee: Referee, chief: bool, user: Actor | None = None) -> None:
    """Name ``referee`` a chief referee (裁判长) of their event, or no longer: a chief referee
    reaches every table of the event, records adjustments (forfeits, penalties) and sees the
    audit trail and the rounds being played (``tournament.matches.access``)."""
    with transaction.atomic():
        current = (
            ChiefReferee.objects.select_for_update()
            .filter(tournament_id=referee.tournament_id, user_id=referee.user_id)
            .first()
        )
        if chief and current is None:
            row = ChiefReferee(tournament_id=referee.tournament_id, user_id=referee.user_id)
            history_author(row, user, "chief referee named")
            row.save()
        elif not chief and current is not None:
            history_author(current, user, "chief referee removed")
            current.delete()


def referee_list(*, tournament: Tournament) -> list[Referee]:
    """The event's referees, by name, each with ``is_chief`` and ``tables_now`` (their tables in
    the event's rounds being played)."""
    chief = ChiefReferee.objects.filter(tournament=tournament, user_id=OuterRef("user_id"))
    now = Q(
        user__assignments__round__status__in=ACTIVE_ROUND,
        user__assignments__round__stage__tournament=tournament,
    )
    return list(
        Referee.objects.filter(tournament=tournament)
        .annotate(tables_now=Count("user__assignments", filter=now), is_chief=Exists(chief))
        .select_related("user")
        .order_by("name")
    )


def referee_accounts_list(*, tournament: Tournament) -> QuerySet[User]:
    """The accounts that may take the event's tables: its active referees, and referee accounts
    a developer made before referees belonged to an event (in the ``referees`` group with no
    ``Referee`` row). Another event's referees are not among them."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(referee_profile__tournament=tournament, referee_profile__active=True)
        .distinct()
        .order_by("first_name", "username")
    )


def referee_is_chief(*, referee: Referee) -> bool:
    return ChiefReferee.objects.filter(tournament_id=referee.tournament_id, user_id=referee.user_id).exists()


@dataclass(frozen=True)
class RoundTables:
    """A referee's tables in one round, as ranges ("1–4, 9")."""

    round: Round
    tables: str
    count: int


def referee_tables_now(*, referee: Referee) -> list[RoundTables]:
    """The referee's tables in the event's rounds not yet finished, round by round."""
    by_round: dict[int, list[int]] = {}
    rounds: dict[int, Round] = {}
    assignments = (
        RefereeAssignment.objects.filter(referee_id=referee.user_id, round__stage__tournament_id=referee.tournament_id)
        .exclude(round__status=RoundStatus.FINISHED)
        .select_related("round__stage", "table")
        .order_by("round__stage__order", "round__number", "table__number")
    )
    for assignment in assignments:
        rounds[assignment.round_id] = assignment.round
        by_round.setdefault(assignment.round_id, []).append(assignment.table.number)
    return [RoundTables(round=rounds[r], tables=labels.table_ranges(n), count=len(n)) for r, n in by_round.items()]


@event_write("tournament", of=tournament_event)
def referee_links_issue_all(*, tournament: Tournament, user: Actor | None = None) -> list[tuple[Referee, IssuedLink]]:
    """A new one-time link for every active referee of the event not signed in yet (whose last
    link, if any, was never used), to print on one sheet the morning of the event. A referee at
    work is left signed in: a new link for them is the reset on their own page."""
    last_link_used = RefereeSignInLink.objects.filter(referee=OuterRef("pk")).order_by("-created_at", "-pk")
    referees = (
        Referee.objects.filter(tournament=tournament, active=True)
        .annotate(signed_in_at=Subquery(last_link_used.values("used_at")[:1]))
        .filter(signed_in_at__isnull=True)
        .select_related("user")
        .order_by("name")
    )
    with transaction.atomic():
        return [(referee, referee_link_issue(referee=referee, user=user)) for referee in referees]
