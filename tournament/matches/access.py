"""Who reaches which match (docs/design.md: roles are enforced on the server), for pages and API alike.

- a referee: the matches at the tables assigned to them in a round being played (published,
  running or time called) — not other tables; a table of theirs in a finished round they may still
  open, read-only (a bookmarked table after the round reads as it ended, not as a 404);
- a tournament's chief referee (裁判长) and its organisers (and superusers): every match of it;
- the public: none.

Every lookup is scoped by the caller; out of scope is 404, never a hint that the match exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from tournament.matches.models import ChiefReferee, Match, RefereeAssignment, Round, RoundStatus
from tournament.people import Actor, signed_in
from tournament.prepared import prepared_rows
from tournament.registration.roles import organiser_of, user_organises

ACTIVE_ROUND = (RoundStatus.PUBLISHED, RoundStatus.RUNNING, RoundStatus.TIME_CALLED)
READABLE_ROUND = (*ACTIVE_ROUND, RoundStatus.FINISHED)


def _chief(user: Actor, tournament_ref: Any) -> Exists:
    return Exists(ChiefReferee.objects.filter(tournament_id=tournament_ref, user=signed_in(user)))


def matches_for_user(*, user: Actor, reading: bool = False) -> QuerySet[Match]:
    """Every match ``user`` may see and score; ``reading``: also the referee's tables of finished
    rounds, which they may only read (:func:`user_may_score` tells)."""
    matches = Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
    if not user.is_authenticated:
        return matches.none()
    if user.is_superuser:
        return matches
    tournament = OuterRef("round__stage__tournament_id")
    assigned = Exists(
        RefereeAssignment.objects.filter(round_id=OuterRef("round_id"), table_id=OuterRef("table_id"), referee=user)
    )
    return matches.filter(
        Q(assigned, round__status__in=READABLE_ROUND if reading else ACTIVE_ROUND)
        | Q(organiser_of(user=user, tournament_ref=tournament))
        | Q(_chief(user, tournament))
    )


def match_for_user(
    *, user: Actor, match_id: int, reading: bool = False, lock: bool = False, annotate: Mapping[str, Any] | None = None
) -> Match:
    """The match if ``user`` reaches it (``reading``: to read, see :func:`matches_for_user`), else 404.
    ``lock``: its row locked for a write in the caller's transaction, in the same statement as the
    access check (the match row only: not its round's, stage's and event's, which every table shares),
    a statement compiled once per process (``tournament.prepared``: every deal comes this way).
    ``annotate``: what the caller reads beside the match in that same statement (a deal's write:
    :func:`tournament.matches.fold.deal_entry_reads`), always the same expressions for the same
    names. Read by its id alone: none of the models' orderings (they join the round, stage and
    event) in the statement."""

    def build(*, match: int, account: int | None = None) -> QuerySet[Match]:
        someone = user if account is None else get_user_model()(pk=account)
        matches = matches_for_user(user=someone, reading=reading).order_by()
        if lock:
            matches = matches.select_for_update(of=("self",))
        if annotate:
            matches = matches.annotate(**annotate)
        return matches.filter(pk=match)[:1]

    if lock and user.is_authenticated:
        kind = "superuser" if user.is_superuser else "user"
        name = f"match_for_user:{kind}:{reading}:{','.join(sorted(annotate or {}))}"
        if user.is_superuser:
            found = prepared_rows(name, build, match=match_id)
        else:
            found = prepared_rows(name, build, match=match_id, account=user.pk)
    else:
        found = list(build(match=match_id))
    if not found:
        raise Http404
    return found[0]


def user_is_chief_referee(*, user: Actor, tournament_id: int) -> bool:
    if not user.is_authenticated:
        return False
    return ChiefReferee.objects.filter(tournament_id=tournament_id, user_id=user.pk).exists()


def user_may_score(*, user: Actor, match: Match) -> bool:
    """Whether ``user``, who reached ``match`` (:func:`match_for_user`), may also change it: a referee
    only while the round is being played; the chief referee and organisers always."""
    if match.round.status in ACTIVE_ROUND:
        return True
    return user_may_adjust(user=user, match=match)


def user_may_adjust(*, user: Actor, match: Match) -> bool:
    """Adjustments (forfeits, late arrival, penalties) are the chief referee's or an organiser's."""
    tournament_id = match.round.stage.tournament_id
    return user_organises(user=user, tournament_id=tournament_id) or user_is_chief_referee(
        user=user, tournament_id=tournament_id
    )


def user_may_unlock(*, user: Actor, match: Match) -> bool:
    """An organiser or the chief referee reopens a signed-off match for a correction (what
    was built on it is theirs to weigh; a table's referee cannot)."""
    return user_may_adjust(user=user, match=match)


def user_may_audit(*, user: Actor, match: Match) -> bool:
    """A match's audit trail is for its organisers (and the chief referee)."""
    return user_may_adjust(user=user, match=match)


def round_for_organiser(*, user: Actor, tournament_id: int, round_id: int) -> Round:
    """A round of a tournament ``user`` organises (or any, for a superuser), else 404: the round, its
    stage and event and the access check in one statement compiled once per process
    (``tournament.prepared``: every poll of the progress board asks it)."""
    if not user.is_authenticated:
        raise Http404

    def build(*, tournament: int, round_: int, account: int | None = None) -> QuerySet[Round]:
        rounds = Round.objects.select_related("stage__tournament").order_by()
        rounds = rounds.filter(pk=round_, stage__tournament_id=tournament)
        if account is not None:
            rounds = rounds.filter(organiser_of(user=get_user_model()(pk=account), tournament_ref=tournament))
        return rounds[:1]

    if user.is_superuser:
        found = prepared_rows("round_for_organiser:superuser", build, tournament=tournament_id, round_=round_id)
    else:
        found = prepared_rows(
            "round_for_organiser:user", build, tournament=tournament_id, round_=round_id, account=user.pk
        )
    if not found:
        raise Http404
    return found[0]


def rounds_for_overseer(*, user: Actor) -> QuerySet[Round]:
    """Rounds being played in the tournaments ``user`` organises or chief-referees."""
    rounds = Round.objects.select_related("stage__tournament").filter(status__in=ACTIVE_ROUND)
    if not user.is_authenticated:
        return rounds.none()
    if user.is_superuser:
        return rounds
    tournament = OuterRef("stage__tournament_id")
    return rounds.filter(Q(organiser_of(user=user, tournament_ref=tournament)) | Q(_chief(user, tournament)))


def user_may_start_round(*, user: Actor, round_: Round) -> bool:
    return user_organises(user=user, tournament_id=round_.stage.tournament_id)
