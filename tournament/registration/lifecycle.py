"""An event's life: its status, the edit lock after the first draw, delete vs archive.

The status moves draft → registration → check-in → in progress → finished → archived. The
organiser moves it one step at a time (and back one step, to fix a mistake) with
:func:`tournament_status_set`; it moves by itself where the day makes it obvious:

- the first round published → *in progress* (:func:`tournament_status_after_publish`);
- the last stage's final confirmed → *finished* (:func:`tournament_finish_if_decided`, on
  ``match_confirmed``). Only a knockout decides itself; a Swiss or round-robin last stage is
  finished by the organiser, who alone knows whether another round is to be played.

**Archived is read-only.** Every write service is wrapped by :func:`event_write`, the one guard:
it finds the event from the service's keyword arguments (``tournament``, ``stage``, ``round_``,
``match``, ``pair``, ``round_id``, ``match_id`` …) and raises :class:`EventArchived` (409) before
the service runs. Only :func:`tournament_unarchive` writes to an archived event.

**The rules lock at the first draw.** A stage stores the options in force when it was created
(``Stage.rules``, ``tournament.rules``); until a round of the event is drawn an edit of the
profile or the overrides re-resolves every stage's stored rules from the new choice, so the stages
and the event never disagree. Once a round exists, results are scored by those stored rules, and
changing them would re-score what has been played (or make one round differ from the next):
:func:`tournament_update` refuses, saying so.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, Literal, ParamSpec, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.profiles import options_for
from tournament.audit import history_author
from tournament.errors import UserError
from tournament.registration.models import EntryMode, Game, ProvisionalResults, Tournament, TournamentStatus
from tournament.registration.text import clean_text
from tournament.rules import scoring_message
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


def _tournament_id_of(kwargs: Mapping[str, Any]) -> int | None:
    """The event a service call writes to, from its keyword arguments (None: none found)."""
    from tournament.matches.models import Match, Round

    for key in ("tournament", "stage", "round_", "round", "match", "pair", "deal", "table", "referee"):
        value = kwargs.get(key)
        if value is None:
            continue
        if isinstance(value, Tournament):
            return int(value.pk)
        tournament_id = getattr(value, "tournament_id", None)
        if tournament_id is not None:
            return int(tournament_id)
        stage = getattr(value, "stage", None)  # a round
        if stage is not None:
            return int(stage.tournament_id)
        match = getattr(value, "match", None)  # a deal
        if match is not None:
            return int(match.round.stage.tournament_id)
        round_ = getattr(value, "round", None)  # a match
        if round_ is not None:
            return int(round_.stage.tournament_id)
    if kwargs.get("round_id") is not None:
        found = Round.objects.filter(pk=kwargs["round_id"]).values_list("stage__tournament_id", flat=True).first()
        return int(found) if found is not None else None
    if kwargs.get("match_id") is not None:
        found = (
            Match.objects.filter(pk=kwargs["match_id"]).values_list("round__stage__tournament_id", flat=True).first()
        )
        return int(found) if found is not None else None
    return None


def _by_match_id(kwargs: Mapping[str, Any]) -> bool:
    """Whether :func:`_tournament_id_of` would find the event from ``match_id`` (no object given)."""
    objects = ("tournament", "stage", "round_", "round", "match", "pair", "deal", "table", "referee", "round_id")
    return kwargs.get("match_id") is not None and all(kwargs.get(key) is None for key in objects)


def _match_writable_check(*, match_id: int) -> None:
    """:func:`event_writable_check` of a match's event, in the one query (every deal entered is a
    write by ``match_id``: one query less each)."""
    from tournament.matches.models import Match

    found = Match.objects.filter(pk=match_id, round__stage__tournament__status=S.ARCHIVED)
    name = found.values_list("round__stage__tournament__name", flat=True).first()
    if name is not None:
        raise EventArchived(name)


def event_writable_check(*, tournament_id: int) -> None:
    """Raise :class:`EventArchived` if the event is archived (one query, read from the database:
    an object held by the caller may be stale)."""
    name = Tournament.objects.filter(pk=tournament_id, status=S.ARCHIVED).values_list("name", flat=True).first()
    if name is not None:
        raise EventArchived(name)


def event_write(service: Callable[P, R]) -> Callable[P, R]:
    """Mark a write service: it refuses to touch an archived event (see the module docstring)."""

    @functools.wraps(service)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        if _by_match_id(kwargs):
            _match_writable_check(match_id=kwargs["match_id"])
        else:
            tournament_id = _tournament_id_of(kwargs)
            if tournament_id is not None:
                event_writable_check(tournament_id=tournament_id)
        return service(*args, **kwargs)

    guarded.writes_event = True  # type: ignore[attr-defined]  # lets a test list the guarded services
    return guarded


# -- reads -----------------------------------------------------------------------------------------------


def tournament_drawn(*, tournament: Tournament) -> bool:
    """Whether a round of the event has been drawn (a draft counts): its rules are then locked."""
    from tournament.matches.models import Round

    return Round.objects.filter(stage__tournament=tournament).exists()


def tournament_has_results(*, tournament: Tournament) -> bool:
    """Whether anything has been played: a deal, an adjustment, or a match over (byes aside)."""
    from tournament.matches.models import Adjustment, Deal, Match, MatchStatus

    return (
        Deal.objects.filter(match__round__stage__tournament=tournament).exists()
        or Adjustment.objects.filter(tournament=tournament).exists()
        or Match.objects.filter(
            round__stage__tournament=tournament,
            ew_pair__isnull=False,
            status__in=[MatchStatus.FINISHED, MatchStatus.CONFIRMED],
        ).exists()
    )


def status_moves(*, tournament: Tournament) -> list[str]:
    """The statuses the organiser may move the event to now, in the life's order."""
    return [status for status in ORDER if status in MOVES[tournament.status] and status != S.ARCHIVED]


# -- writes ----------------------------------------------------------------------------------------------


def tournament_status_set(*, tournament: Tournament, status: str, user: Any = None) -> Tournament:
    """Move the event to ``status`` (one step, see :data:`MOVES`); archive with
    :func:`tournament_archive`, unarchive with :func:`tournament_unarchive`."""
    if status not in ORDER:
        raise ValidationError({"status": _("Unknown status.")}, code="bad_status")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == S.ARCHIVED:
            raise EventArchived(locked.name)
        if status == S.ARCHIVED:
            raise ValidationError(_("Use “Archive” to archive an event."), code="use_archive")
        if status != locked.status and status not in MOVES[locked.status]:
            raise ValidationError(
                _("An event cannot go from “%(old)s” to “%(new)s”.")
                % {"old": S(locked.status).label, "new": S(status).label},
                code="bad_status_move",
            )
        locked.status = status
        locked.save(update_fields=["status"])
    tournament.status = status
    return tournament


def tournament_archive(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Archive an event: kept, shown, read-only. From any status (an abandoned event too)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked.status = S.ARCHIVED
        locked.save(update_fields=["status"])
    tournament.status = S.ARCHIVED
    return tournament


def tournament_unarchive(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Bring an archived event back, as finished (the one write an archived event accepts)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != S.ARCHIVED:
            raise ValidationError(_("The event is not archived."), code="not_archived")
        locked.status = S.FINISHED
        locked.save(update_fields=["status"])
    tournament.status = S.FINISHED
    return tournament


@event_write
def tournament_delete(*, tournament: Tournament, user: Any = None) -> None:
    """Delete an event that has no results (a test, a mistake); one with results is archived."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament_has_results(tournament=locked):
            raise ValidationError(
                _("This event has results: it cannot be deleted. Archive it instead."), code="has_results"
            )
        locked.delete()


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
)
"""What :func:`tournament_update` saves (and copies back to the caller's instance)."""


@event_write
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
    user: Any = None,
) -> Tournament:
    """Edit the event's name, venue, dates, what results awaiting sign-off count for
    (``provisional_results``; None: unchanged; any time: it changes what is shown, never a result)
    and — until its first round is drawn — its rules.

    ``entry_mode`` / ``auto_confirm_minutes`` (who enters the deals; None / "unchanged":
    unchanged) are not scoring rules: they may change after the draw and apply to the next entry.

    ``rule_profile`` / ``rule_overrides`` None: unchanged. A change of the rules re-resolves the
    stored rules of every stage (its own profile and overrides kept on top of the event's).
    """
    from tournament.matches.models import Stage
    from tournament.rules import stage_rules_resolve

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
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        policy_changed = locked.provisional_results != policy
        locked.provisional_results = policy
        if rules_changed and tournament_drawn(tournament=locked):
            raise ValidationError({"rule_profile": rules_locked_reason()}, code="rules_locked")
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
        history_author(locked, user, "event edited")
        locked.save(update_fields=list(_EDITED_FIELDS))
        if policy_changed:  # every standings page, the API and the screen count differently now
            from tournament.standings.cache import public_version_bump

            transaction.on_commit(lambda: public_version_bump(tournament_id=locked.pk, seating=False))
        if rules_changed:
            stages = list(Stage.objects.select_for_update().filter(tournament=locked))
            for stage in stages:
                try:
                    stage.rules = stage_rules_resolve(
                        tournament=locked, rule_profile=stage.rule_profile, rule_overrides=stage.rule_overrides
                    ).to_json()
                except ScoringError as exc:
                    raise ValidationError(
                        {
                            "rule_overrides": _("Stage %(stage)s: %(message)s")
                            % {"stage": stage.name, "message": scoring_message(exc)}
                        }
                    ) from exc
            Stage.objects.bulk_update(stages, ["rules"])
    for field in _EDITED_FIELDS:  # the caller's instance reads as saved
        setattr(tournament, field, getattr(locked, field))
    return tournament


def rules_locked_reason() -> str:
    return _(
        "The rules are locked: a round has been drawn, and its results are scored by the rules stored "
        "with the stage when it was created. Changing them now would re-score what has been played or "
        "make one round differ from the next. Delete the drawn rounds to change the rules."
    )


# -- by itself ------------------------------------------------------------------------------------------


def tournament_status_after_publish(*, tournament_id: int) -> None:
    """A round is published: an event not yet under way is now in progress."""
    moved = Tournament.objects.filter(pk=tournament_id, status__in=[S.DRAFT, S.REGISTRATION, S.CHECK_IN]).update(
        status=S.RUNNING
    )
    if moved:
        _public_pages_changed(tournament_id)


def tournament_finish_if_decided(*, match: Any) -> bool:
    """A match was confirmed: if it decided the last stage's knockout (champion known, nothing
    pending), the event is finished. True when it moved."""
    from tournament.matches.models import Stage, StageFormat
    from tournament.standings.selectors import stage_bracket_state_get

    stage = Stage.objects.select_related("tournament").get(pk=match.round.stage_id)
    tournament = stage.tournament
    if tournament.status != S.RUNNING or stage.format != StageFormat.KNOCKOUT:
        return False
    if Stage.objects.filter(tournament=tournament, order__gt=stage.order).exists():
        return False
    state = stage_bracket_state_get(stage=stage)
    if not state.complete or state.pending:
        return False
    moved = bool(Tournament.objects.filter(pk=tournament.pk, status=S.RUNNING).update(status=S.FINISHED))
    if moved:
        _public_pages_changed(tournament.pk)
    return moved


def _public_pages_changed(tournament_id: int) -> None:
    """``QuerySet.update`` sends no signal: tell the public pages' cache (``standings.signals``)."""
    from tournament.standings.cache import public_version_bump

    public_version_bump(tournament_id=tournament_id, seating=False)
