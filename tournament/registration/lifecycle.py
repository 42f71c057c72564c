"""An event's life: its status, the edit lock after the first draw, delete vs archive.

The status moves draft → registration → check-in → in progress → finished → archived. The
organiser moves it one step at a time (and back one step, to fix a mistake) with
:func:`tournament_status_set`; it moves by itself where the day makes it obvious:

- the first round published → *in progress* (:func:`tournament_status_after_publish`);
- the last stage's final confirmed → *finished* (:func:`tournament_finish_decided`, called by the
  draw app on ``match_confirmed`` when the last stage is decided: a knockout's champion known, a final
  table of points signed off, ``standings.selectors.stage_decided_get``). A Swiss, round-robin or
  points last stage without a final is finished by the organiser, who alone knows whether another round
  is to be played.

**Archived is read-only.** Every write service is wrapped by :func:`event_write`, the one guard:
the service names the argument that says which event it writes to and how to get the event from it
(``@event_write("match_id", of=match_id_event)``), and the guard raises :class:`EventArchived` (409)
before the service runs. Only :func:`tournament_unarchive` writes to an archived event.

**The rules lock at the first draw.** A stage stores the options in force when it was created
(``Stage.rules``, ``tournament.rules``); until a round of the event is drawn an edit of the
profile or the overrides re-resolves every stage's stored rules from the new choice, so the stages
and the event never disagree. Once a round exists, results are scored by those stored rules, and
changing them would re-score what has been played (or make one round differ from the next):
:func:`tournament_update` refuses, saying so. Stages and rounds live in the matches app, above this
one: :func:`tournament_update` and :func:`tournament_delete` send ``event_rules_changed`` and
``event_deleting`` (``tournament.registration.signals``), and the matches app follows or refuses
(``tournament.matches.event``).
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, Literal, ParamSpec, TypeVar
from zoneinfo import available_timezones

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.profiles import options_for
from tournament.audit import history_author
from tournament.errors import UserError, scoring_message
from tournament.people import Actor
from tournament.registration.models import EntryMode, Game, ProvisionalResults, Tournament, TournamentStatus
from tournament.registration.signals import event_deleting, event_rules_changed
from tournament.registration.text import clean_text
from tournament.signals import public_pages_bump
from tournament.text import direction_control_message, direction_controls

P = ParamSpec("P")
R = TypeVar("R")

S = TournamentStatus
ORDER: tuple[str, ...] = tuple(S.values)

MOVES: dict[str, frozenset[str]] = {
    S.DRAFT: frozenset({S.REGISTRATION}),
    S.REGISTRATION: frozenset({S.DRAFT, S.CHECK_IN}),
    S.CHECK_IN: frozenset({S.REGISTRATION, S.RUNNING}),
    S.RUNNING: frozenset({S.FINISHED}),
    S.FINISHED: frozenset({S.RUNNING, S.ARCHIVED}),
    S.ARCHIVED: frozenset({S.FINISHED}),
}
"""Where the organiser may move an event from each status: the next step, or back one step to
undo a mistake. An event in progress does not go back to check-in (its rounds are out); a
finished one may be reopened (a result unlocked after the final)."""

RULE_FIELDS = ("rule_profile", "rule_overrides")


class EventArchived(UserError):
    """A write to an archived event: refused, nothing changed."""

    status = 409

    def __init__(self, tournament_name: str) -> None:
        super().__init__(
            "event_archived",
            _("%(event)s is archived: it is read-only. Unarchive it to change anything.") % {"event": tournament_name},
        )


# -- the one guard ------------------------------------------------------------------------------------

EventOf = Callable[[Any], "int | QuerySet[Tournament]"]
"""How a write service finds its event from the argument :func:`event_write` names: the event's id
(from an object the caller holds), or a query of the one event (from an id: a single query then
checks it)."""


def tournament_event(tournament: Tournament) -> int:
    """The event of a write given the event itself."""
    return int(tournament.pk)


def owned_event(owned: Any) -> int:
    """The event of a write given a row that carries its event (``tournament_id``): a pair, a
    stage, a table, a referee."""
    return int(owned.tournament_id)


def event_writable_check(*, tournament_id: int) -> None:
    """Raise :class:`EventArchived` if the event is archived (one query, read from the database:
    an object held by the caller may be stale)."""
    _writable_check(Tournament.objects.filter(pk=tournament_id))


def _writable_check(events: QuerySet[Tournament]) -> None:
    name = events.filter(status=S.ARCHIVED).values_list("name", flat=True).first()
    if name is not None:
        raise EventArchived(name)


_GUARDED: weakref.WeakSet[Callable[..., object]] = weakref.WeakSet()
"""The services :func:`event_write` guards."""


def event_guarded(service: object) -> bool:
    """Whether ``service`` is a write under :func:`event_write` (lets a test list the unguarded ones)."""
    return service in _GUARDED


def event_write(
    argument: str, *, of: EventOf, held: tuple[str, Callable[[Any], Tournament]] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a write service: it refuses to touch an archived event (see the module docstring).

    ``argument`` names the service's keyword argument that says which event it writes to, and ``of``
    how to get the event from its value (``@event_write("pair", of=owned_event)``,
    ``@event_write("match_id", of=match_id_event)``). A service without that argument is a bug,
    refused when it is decorated (:class:`TypeError`), so no write slips past the guard unnoticed.

    ``held``: a keyword argument that may carry a row the caller read from the database in the
    write's own transaction together with its event, and how to reach that event from it (the
    referee API's deal: the match it locked with the access check, ``("locked", match_tournament)``).
    When given, the event's status as that statement read it is checked: no query of its own.
    """

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        parameters = inspect.signature(service).parameters
        for name in (argument, *(held[:1] if held else ())):
            if name not in parameters or parameters[name].kind is not inspect.Parameter.KEYWORD_ONLY:
                raise TypeError(f"event_write: {service.__qualname__} has no keyword-only argument {name!r}")

        @functools.wraps(service)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            if argument not in kwargs:
                raise TypeError(f"{service.__qualname__}() needs {argument}=: the event it writes to")
            row = kwargs.get(held[0]) if held else None
            if held and row is not None:
                tournament = held[1](row)
                if tournament.status == S.ARCHIVED:
                    raise EventArchived(tournament.name)
                return service(*args, **kwargs)
            event = of(kwargs[argument])
            if isinstance(event, int):
                event_writable_check(tournament_id=event)
            else:
                _writable_check(event)
            return service(*args, **kwargs)

        _GUARDED.add(guarded)
        return guarded

    return decorate


# -- reads -----------------------------------------------------------------------------------------------


def status_moves(*, tournament: Tournament) -> list[str]:
    """The statuses the organiser may move the event to now, in the life's order."""
    return [status for status in ORDER if status in MOVES[tournament.status] and status != S.ARCHIVED]


# -- writes ----------------------------------------------------------------------------------------------


def tournament_status_set(*, tournament: Tournament, status: str, user: Actor | None = None) -> Tournament:
    """Move the event to ``status`` (one step, see :data:`MOVES`); archive with
    :func:`tournament_archive`, unarchive with :func:`tournament_unarchive`."""
    if status not in ORDER:
        raise UserError.of_fields({"status": _("Unknown status.")}, code="bad_status")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == S.ARCHIVED:
            raise EventArchived(locked.name)
        if status == S.ARCHIVED:
            raise UserError("use_archive", _("Use “Archive” to archive an event."))
        if status != locked.status and status not in MOVES[locked.status]:
            raise UserError(
                "bad_status_move",
                _("An event cannot go from “%(old)s” to “%(new)s”.")
                % {"old": S(locked.status).label, "new": S(status).label},
            )
        locked.status = status
        locked.save(update_fields=["status"])
    tournament.status = status
    return tournament


def tournament_archive(*, tournament: Tournament, user: Actor | None = None) -> Tournament:
    """Archive an event: kept, shown, read-only. From any status (an abandoned event too)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked.status = S.ARCHIVED
        locked.save(update_fields=["status"])
    tournament.status = S.ARCHIVED
    return tournament


def tournament_unarchive(*, tournament: Tournament, user: Actor | None = None) -> Tournament:
    """Bring an archived event back, as finished (the one write an archived event accepts)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != S.ARCHIVED:
            raise UserError("not_archived", _("The event is not archived."))
        locked.status = S.FINISHED
        locked.save(update_fields=["status"])
    tournament.status = S.FINISHED
    return tournament


@event_write("tournament", of=tournament_event)
def tournament_delete(*, tournament: Tournament, user: Actor | None = None) -> None:
    """Delete an event that has no results (a test, a mistake); one with results is archived
    (``event_deleting``: the matches app refuses)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        event_deleting.send(sender=Tournament, tournament=locked)
        locked.delete()


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA time zone names this machine knows (``zoneinfo``), sorted; read once."""
    return tuple(sorted(available_timezones()))


_EDITED_FIELDS = (
    "name",
    "venue",
    "starts_on",
    "ends_on",
    "rule_profile",
    "rule_overrides",
    "entry_mode",
    "auto_confirm_minutes",
    "provisional_results",
    "time_zone",
)
"""What :func:`tournament_update` saves (and copies back to the caller's instance)."""


@event_write("tournament", of=tournament_event)
def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    venue: str = "",
    starts_on: date | None = None,
    ends_on: date | None = None,
    rule_profile: str | None = None,
    rule_overrides: Mapping[str, Any] | None = None,
    provisional_results: str | None = None,
    entry_mode: str | None = None,
    auto_confirm_minutes: int | Literal["unchanged"] | None = "unchanged",
    time_zone: str | None = None,
    user: Actor | None = None,
) -> Tournament:
    """Edit the event's name, venue, dates, what results awaiting sign-off count for
    (``provisional_results``; None: unchanged; any time: it changes what is shown, never a result)
    and — until its first round is drawn — its rules.

    ``entry_mode`` / ``auto_confirm_minutes`` (who enters the deals; None / "unchanged":
    unchanged) are not scoring rules: they may change after the draw and apply to the next entry.

    ``time_zone`` (an IANA name such as ``Asia/Shanghai``; None: unchanged) is how deadlines and
    scheduled sessions are typed and shown; the moments stored stay the same moments.

    ``rule_profile`` / ``rule_overrides`` None: unchanged. A change of the rules re-resolves the
    stored rules of every stage (its own profile and overrides kept on top of the event's), or is
    refused once a round is drawn (``event_rules_changed``: the matches app answers both).
    """
    name = clean_text(name)
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = _("Name is required.")
    elif direction_controls(name):
        errors["name"] = direction_control_message(_("Name"))
    if venue is not None and direction_controls(clean_text(venue)):
        errors["venue"] = direction_control_message(_("Venue"))
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        errors["ends_on"] = _("The last day is before the first.")
    profile = tournament.rule_profile if rule_profile is None else rule_profile
    overrides = dict(tournament.rule_overrides if rule_overrides is None else rule_overrides)
    rules_changed = profile != tournament.rule_profile or overrides != tournament.rule_overrides
    if rules_changed:
        try:
            options = options_for(profile=profile, overrides=overrides)
        except ScoringError as exc:
            errors["rule_profile" if exc.code == "unknown_profile" else "rule_overrides"] = scoring_message(exc)
        else:
            if options.game.value != tournament.game and tournament.game in Game.values:
                errors["rule_profile"] = _("Rule profile %(profile)s is for another game.") % {"profile": profile}
    policy = tournament.provisional_results if provisional_results is None else provisional_results
    if policy not in ProvisionalResults.values:
        errors["provisional_results"] = _("Choose what results awaiting sign-off count for.")
    if entry_mode is not None and entry_mode not in EntryMode.values:
        errors["entry_mode"] = _("Choose who enters the deals.")
    if auto_confirm_minutes not in (None, "unchanged") and not 1 <= int(auto_confirm_minutes) <= 120:
        errors["auto_confirm_minutes"] = _("Between 1 and 120 minutes.")
    if time_zone is not None and time_zone not in time_zone_names():
        errors["time_zone"] = _("Choose a time zone from the list (such as Asia/Shanghai).")
    if errors:
        raise UserError.of_fields(errors)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        policy_changed = locked.provisional_results != policy
        locked.provisional_results = policy
        locked.name = name
        locked.venue = clean_text(venue)
        locked.starts_on = starts_on
        locked.ends_on = ends_on
        locked.rule_profile = profile
        locked.rule_overrides = overrides
        if entry_mode is not None:
            locked.entry_mode = entry_mode
        if auto_confirm_minutes != "unchanged":
            locked.auto_confirm_minutes = auto_confirm_minutes
        if time_zone is not None:
            locked.time_zone = time_zone
        history_author(locked, user, "event edited")
        locked.save(update_fields=list(_EDITED_FIELDS))
        if policy_changed:  # every standings page, the API and the screen count differently now
            transaction.on_commit(lambda: public_pages_bump(tournament_id=locked.pk, seating=False))
        if rules_changed:
            event_rules_changed.send(sender=Tournament, tournament=locked)
    for field in _EDITED_FIELDS:  # the caller's instance reads as saved
        setattr(tournament, field, getattr(locked, field))
    return tournament


# -- by itself ------------------------------------------------------------------------------------------


def tournament_status_after_publish(*, tournament_id: int) -> None:
    """A round is published: an event not yet under way is now in progress."""
    moved = Tournament.objects.filter(pk=tournament_id, status__in=[S.DRAFT, S.REGISTRATION, S.CHECK_IN]).update(
        status=S.RUNNING
    )
    if moved:
        _public_pages_changed(tournament_id)


def tournament_finish_decided(*, tournament_id: int) -> bool:
    """The last stage is decided (the draw app tells, on ``match_confirmed``): an event in
    progress is finished. True when it moved."""
    moved = bool(Tournament.objects.filter(pk=tournament_id, status=S.RUNNING).update(status=S.FINISHED))
    if moved:
        _public_pages_changed(tournament_id)
    return moved


def _public_pages_changed(tournament_id: int) -> None:
    """``QuerySet.update`` sends no signal: tell the public pages' cache (``standings.signals``)."""
    public_pages_bump(tournament_id=tournament_id, seating=False)
