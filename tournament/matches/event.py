"""What an event's life needs to know about its stages, rounds and results, and how they follow it.

The event's status and edits are the registration app's (``tournament.registration.lifecycle``);
its stages and results are this app's, above it. So the registration app asks through its signals
(``tournament.registration.signals``) and this module answers (connected in
``tournament.matches.receivers``):

- the rules lock at the first draw: an edit of the event's rules once a round is drawn (a draft
  counts) is refused (:func:`rules_locked_reason`); before that every stage's stored rules are
  resolved again from the new choice, so the stages and the event never disagree;
- an event with results is not deleted (it is archived instead);
- a pair already in a draw keeps its check-in (it is withdrawn instead).

It also says how a write of this app and the ones above it finds its event for the one guard
(``event_write``'s ``of=``): from a stage, a round, a match, a team match or their ids.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from tournament.errors import UserError, scoring_message
from tournament.matches.models import (
    Adjustment,
    Deal,
    Match,
    MatchSeat,
    MatchStatus,
    Round,
    RoundEntry,
    Stage,
    TeamMatch,
)
from tournament.registration.models import Pair, Team, Tournament
from tournament.registration.teams import TEAM_MIN_MEMBERS, TeamChange
from tournament.rules import stage_rules_resolve

# -- finding the event of a write (``event_write(..., of=…)``) ------------------------------------------


def stage_event(stage: Stage) -> int:
    return int(stage.tournament_id)


def round_event(round_: Round) -> int:
    return int(round_.stage.tournament_id)


def match_event(match: Match) -> int:
    return int(match.round.stage.tournament_id)


def team_match_event(team_match: TeamMatch) -> int:
    return int(team_match.round.stage.tournament_id)


def match_tournament(match: Match) -> Tournament:
    """The event of a match read with it (``select_related("round__stage__tournament")``): a write
    that holds the match it just read in its own transaction (``event_write(held=…)``)."""
    return match.round.stage.tournament


def round_id_event(round_id: int) -> QuerySet[Tournament]:
    """The event of a round given by id: one query checks it (the round may not exist: the
    service itself then says so)."""
    return Tournament.objects.filter(stages__rounds=round_id)


def match_id_event(match_id: int) -> QuerySet[Tournament]:
    """The event of a match given by id: one query checks it — every deal entered is such a write."""
    return Tournament.objects.filter(stages__rounds__matches=match_id)


# -- reads -----------------------------------------------------------------------------------------------


def tournament_drawn(*, tournament: Tournament) -> bool:
    """Whether a round of the event has been drawn (a draft counts): its rules are then locked."""
    return Round.objects.filter(stage__tournament=tournament).exists()


def tournament_has_results(*, tournament: Tournament) -> bool:
    """Whether anything has been played: a deal, an adjustment, or a match over (byes aside)."""
    return (
        Deal.objects.filter(match__round__stage__tournament=tournament).exists()
        or Adjustment.objects.filter(tournament=tournament).exists()
        or Match.objects.filter(
            round__stage__tournament=tournament,
            ew_pair__isnull=False,
            status__in=[MatchStatus.FINISHED, MatchStatus.CONFIRMED],
        ).exists()
    )


def rules_locked_reason() -> str:
    return _(
        "The rules are locked: a round has been drawn, and its results are scored by the rules stored "
        "with the stage when it was created. Changing them now would re-score what has been played or "
        "make one round differ from the next. Delete the drawn rounds to change the rules."
    )


# -- the event's life (receivers of ``tournament.registration.signals``) ---------------------------------


def stages_follow_rules(*, tournament: Tournament) -> None:
    """The event's rules were edited (its row locked, the new choice on it): refused once a round is
    drawn; else every stage's stored rules resolved again (its own profile and overrides on top)."""
    if tournament_drawn(tournament=tournament):
        raise UserError.of_fields({"rule_profile": rules_locked_reason()}, code="rules_locked")
    stages = list(Stage.objects.select_for_update().filter(tournament=tournament))
    for stage in stages:
        try:
            stage.rules = stage_rules_resolve(
                tournament=tournament, rule_profile=stage.rule_profile, rule_overrides=stage.rule_overrides
            ).to_stored()
        except ScoringError as exc:
            raise UserError.of_fields(
                {
                    "rule_overrides": _("Stage %(stage)s: %(message)s")
                    % {"stage": stage.name, "message": scoring_message(exc)}
                }
            ) from exc
    Stage.objects.bulk_update(stages, ["rules"])


def event_delete_check(*, tournament: Tournament) -> None:
    """An event with results is not deleted: it is archived."""
    if tournament_has_results(tournament=tournament):
        raise UserError("has_results", _("This event has results: it cannot be deleted. Archive it instead."))


def check_in_undo_check(*, pair: Pair) -> None:
    """A pair in a draw (a seat, a bye, a draft's included) keeps its check-in: undone, the drawn
    round would still seat it while the door calls it absent, and the next draw would leave it out
    with no word. The door's undo is for a mistaken tap; a pair that leaves is withdrawn."""
    if RoundEntry.objects.filter(pair=pair).exists() or MatchSeat.objects.filter(pair=pair).exists():
        raise UserError(
            "in_draw",
            _("%(pair)s is already in a draw, so its check-in stays. If it has left, withdraw it instead.")
            % {"pair": pair.name},
        )


def stages_ranking_teams(*, tournament_id: int) -> list[Stage]:
    """The event's stages that rank teams (a team total or team matches, docs/rules.md §11), in order."""
    stages = Stage.objects.filter(tournament_id=tournament_id).order_by("order")
    return [stage for stage in stages if stage.settings.ranks_teams]


def team_short_check(*, team: Team, members: int, change: TeamChange) -> None:
    """A write would leave ``team`` with ``members`` members, fewer than two (``change``: how,
    :data:`tournament.registration.teams.TeamChange`); refused, with the reason, as the stages of its
    event require (docs/rules.md §11: a team has at least two members):

    - while a stage plays **team matches**, no team is made, filled or left short: a team of one could
      not field its two tables, and the draw would have to leave it out;
    - while a stage ranks only a **team total**, a team may be made and filled one member at a time (the
      teams page adds one entrant at a time): it is named beside the team ranking, not ranked, and a
      team total is a reading of the stage's ranking that changes no result, so nothing is decided by
      a team still being filled. A team of two or more is ranked, so it never drops below two;
    - either way a team is deleted only while it is short and has played no team match (a team named
      by mistake): a team that is ranked, or whose team matches hold it, stays.

    Without a stage that ranks teams, anything goes: the stage is refused while a team is short
    (``teams_ready_check``)."""
    ranking = stages_ranking_teams(tournament_id=team.tournament_id)
    if not ranking:
        return
    if change == "deleted":
        if _team_unplayed_short(team):
            return
        raise _kept_two(team, members, ranking[0])
    playing = next((stage for stage in ranking if stage.settings.team_match is not None), None)
    if playing is not None:
        words = {"team": team.name, "count": members, "stage": playing.name}
        if change == "made":
            message = _(
                "%(stage)s plays team matches, so a team has at least two members: %(team)s would have "
                "%(count)d. Give the numbers of two entrants or more."
            )
            raise UserError.of_fields({"members": message % words}, code="team_too_small", status=409)
        if change == "joined":
            message = _(
                "%(team)s would have %(count)d member(s), but %(stage)s plays team matches and a team has at least two."
            )
        else:
            message = _(
                "%(team)s would keep %(count)d member(s), but %(stage)s plays team matches and a team has at least two."
            )
        raise UserError.of_fields({"pair": message % words}, code="team_too_small", status=409)
    if change == "left" and members + 1 >= TEAM_MIN_MEMBERS:  # a team the team total ranks
        raise _kept_two(team, members, ranking[0])


def _kept_two(team: Team, members: int, stage: Stage) -> UserError:
    return UserError(
        "team_too_small",
        _("%(team)s would keep %(count)d member(s), but %(stage)s ranks teams and a team has at least two.")
        % {"team": team.name, "count": members, "stage": stage.name},
        status=409,
    )


def _team_unplayed_short(team: Team) -> bool:
    """``team`` has fewer than two members and no team match: nothing ranks it and no draw took it."""
    if team.members.count() >= TEAM_MIN_MEMBERS:
        return False
    return not TeamMatch.objects.filter(Q(team_x=team) | Q(team_y=team)).exists()
