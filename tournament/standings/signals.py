"""Cache invalidation: every save that changes what players see bumps the tournament's version.

Model signals rather than calls sprinkled through other apps' services, so no write path can
forget one: a deal entered, corrected or deleted, an adjustment, a sign-off or unlock, a time
call all save the match row (its snapshot); publishing, starting or finishing a round saves the
round; registration changes save the pair or player. Writes that bypass ``save()``
(``QuerySet.update``, ``bulk_update``) must call :func:`tournament.standings.cache.public_version_bump`
themselves (a layer below the standings: :func:`tournament.signals.public_pages_bump`). Draft
rounds are bulk-written without signals, which is fine: players never see them.
A match saved with result fields only (:data:`RESULT_FIELDS`) moves its own page's and its two
pairs' versions and the live levels (:func:`tournament.standings.cache.match_result_bump`), not the
seating nor the common version (every other pair's page holds), and the standings version only if
the match was or is counted (finished or confirmed): a deal that does not finish its match changes
no ranking. Whether it *was* counted is noted when the
row is loaded (``post_init``), so telling costs no query.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_init, post_save

from tournament.matches.models import Match, Round, Stage, StageFormat, Table
from tournament.matches.signals import match_dependents_read
from tournament.registration.models import Pair, Player, Team, TeamMember, Tournament, TournamentStatus
from tournament.signals import public_pages_changed
from tournament.standings.cache import match_result_bump, public_version_bump
from tournament.standings.counted import COUNTED
from tournament.standings.selectors import stage_bracket_state_get

_WAS_COUNTED = "_public_was_counted"


def _round_tournament_id(round_id: int | None) -> int | None:
    if round_id is None:
        return None
    return Stage.objects.filter(rounds=round_id).values_list("tournament_id", flat=True).first()


def match_tournament_id(match: Match) -> int | None:
    """The match's tournament, from relations already loaded when possible (no query)."""
    if Match.round.is_cached(match):
        round_ = match.round
        if Round.stage.is_cached(round_):
            return round_.stage.tournament_id
        return _round_tournament_id(round_.pk)
    return _round_tournament_id(match.round_id)


RESULT_FIELDS = frozenset(
    {
        "state",
        "winner",
        "result_reason",
        "status",
        "version",
        "time_called_during_deal",
        "started_at",
        "clock_ends_at",
        "paused_at",
        "time_called_at",
        "finished_at",
        "signed_off_by",
        "signed_off_at",
        "reopened_at",
    }
)
"""A match saved with only these fields moved nobody: its seats stay cached (deal entry, the
clock, sign-off)."""


def _bump(tournament_id: int | None, *, seating: bool = True, standings: bool = True) -> None:
    if tournament_id is not None:
        public_version_bump(tournament_id=tournament_id, seating=seating, standings=standings)


def _match_loaded(sender: Any, instance: Match, **kwargs: Any) -> None:
    # ``__dict__``: a deferred status (``.only(...)``) is not fetched; unknown counts as counted.
    status = instance.__dict__.get("status")
    instance.__dict__[_WAS_COUNTED] = status is None or status in COUNTED


def _match_saved(
    sender: Any, instance: Match, raw: bool = False, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    if raw:
        return
    seating = update_fields is None or not update_fields <= RESULT_FIELDS
    counted = instance.status in COUNTED
    # Finished now or before: it finished, left finished, was signed off or unlocked, or a counted
    # result was corrected or adjusted. Else only live values (levels, the clock) moved.
    standings = seating or counted or instance.__dict__.get(_WAS_COUNTED, True)
    tournament_id = match_tournament_id(instance)
    if seating:
        _bump(tournament_id, seating=True, standings=True)
    elif tournament_id is not None:  # its result only: its page, its pairs' pages, the live levels
        match_result_bump(
            tournament_id=tournament_id,
            match_id=instance.pk,
            pair_ids=(instance.ns_pair_id, instance.ew_pair_id),
            standings=standings,
        )
    instance.__dict__[_WAS_COUNTED] = counted  # what the row holds now, for the next save


def _round_changed(sender: Any, instance: Round, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        if Round.stage.is_cached(instance):
            _bump(instance.stage.tournament_id)
        else:
            _bump(Stage.objects.filter(pk=instance.stage_id).values_list("tournament_id", flat=True).first())


def _owned_changed(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """Stages, tables, pairs and players carry their tournament's id."""
    if not raw:
        _bump(instance.tournament_id)


def _team_member_changed(sender: Any, instance: TeamMember, raw: bool = False, **kwargs: Any) -> None:
    """A team's members moved: its team total changes (docs/rules.md §11)."""
    if not raw:
        team = instance.team if TeamMember.team.is_cached(instance) else None
        tournament_id = team.tournament_id if team is not None else None
        if tournament_id is None:
            tournament_id = Team.objects.filter(pk=instance.team_id).values_list("tournament_id", flat=True).first()
        _bump(tournament_id, seating=False)


def _tournament_changed(sender: Any, instance: Tournament, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        _bump(instance.pk)


def _public_pages_changed(
    sender: Any, tournament_id: int, seating: bool = True, standings: bool = True, **kwargs: Any
) -> None:
    """A lower layer's write that no model signal reports (``tournament.signals``)."""
    public_version_bump(tournament_id=tournament_id, seating=seating, standings=standings)


def placings_decided(*, match: Match) -> bool:
    """Whether the placings of ``match``'s stage are decided: a knockout's champion is known; a
    Swiss or round robin's final standings are its placings once the event is finished."""
    stage = match.round.stage
    if stage.format == StageFormat.KNOCKOUT:
        return stage_bracket_state_get(stage=stage).champion is not None
    return stage.tournament.status in (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)


def _match_dependents(sender: Any, match: Match, **kwargs: Any) -> dict[str, Any]:
    """What a correction of ``match`` touches here (``corrections.match_dependents``)."""
    return {"placings_decided": placings_decided(match=match)}


def connect() -> None:
    """Called once from ``StandingsConfig.ready``."""
    uid = "public-cache"
    public_pages_changed.connect(_public_pages_changed, dispatch_uid=f"{uid}-lower-layers")
    match_dependents_read.connect(_match_dependents, sender=Match, dispatch_uid="standings-placings-decided")
    post_init.connect(_match_loaded, sender=Match, dispatch_uid=f"{uid}-match-loaded")
    post_save.connect(_match_saved, sender=Match, dispatch_uid=f"{uid}-match")
    post_save.connect(_round_changed, sender=Round, dispatch_uid=f"{uid}-round")
    post_delete.connect(_round_changed, sender=Round, dispatch_uid=f"{uid}-round-delete")
    for model in (Stage, Table, Pair, Player, Team):
        post_save.connect(_owned_changed, sender=model, dispatch_uid=f"{uid}-{model.__name__}")
    post_delete.connect(_owned_changed, sender=Team, dispatch_uid=f"{uid}-team-delete")
    post_save.connect(_team_member_changed, sender=TeamMember, dispatch_uid=f"{uid}-team-member")
    post_delete.connect(_team_member_changed, sender=TeamMember, dispatch_uid=f"{uid}-team-member-delete")
    post_delete.connect(_owned_changed, sender=Stage, dispatch_uid=f"{uid}-stage-delete")
    post_save.connect(_tournament_changed, sender=Tournament, dispatch_uid=f"{uid}-tournament")
    post_delete.connect(_tournament_changed, sender=Tournament, dispatch_uid=f"{uid}-tournament-delete")
