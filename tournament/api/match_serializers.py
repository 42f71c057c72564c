"""Explicit input and output serializers of the referee API (no ``fields="__all__"``).

Inputs validate shape only (the rules core validates the deal); outputs describe the stored
snapshot, which is the rules core's ``MatchResult.to_json()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournament.api.schema import StrictInput
from tournament.audit import REASON_MAX
from tournament.bounds import column_max
from tournament.matches.fold import match_game
from tournament.matches.models import AdjustmentKind, Match
from tournament.matches.selectors import match_clock
from tournament.matches.table_selectors import match_seats, table_snapshot
from tournament.registration.models import Player

VERSION_MAX = column_max(Match, "version")


class ReasonField(serializers.CharField):
    """Why a correction, deletion, unlock or adjustment is made: required and not blank (spaces alone
    are blank), so the schema says ``minLength: 1``."""

    def __init__(self, *, max_length: int = REASON_MAX, **kwargs: Any) -> None:
        super().__init__(min_length=1, max_length=max_length, **kwargs)


ID_MAX = column_max(Player, "id")

# -- inputs ----------------------------------------------------------------------------------------


# A Guandan deal as the API takes it (not scoring.deals.DealInput, the parsed deal); the published
# schema keeps its component name "DealInput" for clients.


# Tractor (seed 001, docs/rules.md §9): a deal is a declarer and the defenders' points, not a finishing order.


class DeletionInput(StrictInput):
    reason = ReasonField()
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


class VersionInput(StrictInput):
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


class ReasonInput(StrictInput):
    reason = ReasonField()


class UnlockInput(ReasonInput):
    dependents_seen = serializers.BooleanField(
        default=False,
        help_text="True once the caller has shown what depends on the match (GET this URL); without it "
        "an unlock of a match later rounds, stages or placings depend on is refused (409 dependents).",
    )


class DependentStageOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    drawn = serializers.BooleanField()


class DependentMatchOut(serializers.Serializer[object]):
    match = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    started = serializers.BooleanField()


class DependentsOutput(serializers.Serializer[object]):
    """What was built on a confirmed match, as the unlock page shows it."""

    stage = serializers.CharField()
    later_rounds = serializers.ListField(child=serializers.IntegerField())
    later_stages = DependentStageOut(many=True)
    successors = DependentMatchOut(many=True)
    placings_decided = serializers.BooleanField()
    exports = serializers.IntegerField()
    prize_tiers = serializers.IntegerField()
    any = serializers.BooleanField()


class AdjustmentInput(StrictInput):
    side = serializers.ChoiceField(choices=["NS", "EW"], help_text="The pair the adjustment is against.")
    kind = serializers.ChoiceField(choices=AdjustmentKind.values)
    reason = ReasonField(max_length=200)
    levels = serializers.IntegerField(min_value=0, max_value=12, required=False, default=0)
    points = serializers.IntegerField(min_value=0, max_value=99, required=False, default=0)
    minutes_late = serializers.IntegerField(min_value=0, max_value=600, required=False, allow_null=True, default=None)
    absent_player = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, required=False, allow_null=True, default=None
    )
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


# -- outputs ---------------------------------------------------------------------------------------


class SidesOutput(serializers.Serializer[object]):
    NS = serializers.IntegerField()
    EW = serializers.IntegerField()


class PairOutput(serializers.Serializer[object]):
    id = serializers.IntegerField(help_text="The pair's id (in URLs).")
    number = serializers.IntegerField(help_text="The pair's number in its event (1…N), as pages and sheets show it.")
    name = serializers.CharField()


class SeatOutput(serializers.Serializer[object]):
    seat = serializers.ChoiceField(choices=["E", "S", "W"])
    pair = PairOutput(allow_null=True, help_text="The player (an individual event's entrant).")
    points = serializers.IntegerField(help_text="The player's points at the table so far.")


class NextDealOutput(serializers.Serializer[object]):
    number = serializers.IntegerField()
    level = serializers.IntegerField()
    sets_level = serializers.CharField(allow_null=True, required=False)
    extra = serializers.BooleanField()
    game = serializers.IntegerField(required=False)
    declarer = serializers.CharField(allow_null=True, required=False, help_text="Tractor: who declares (庄家).")
    declarer_seat = serializers.CharField(allow_null=True, required=False)


class ClockOutput(serializers.Serializer[object]):
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    warning = serializers.BooleanField()
    time_called = serializers.BooleanField()
    one_more_deal = serializers.BooleanField(help_text="Time up means one more deal for every table (Tractor).")
    last_deal = serializers.IntegerField(allow_null=True, help_text="The last regular deal once time is called.")
    paused = serializers.BooleanField(
        help_text="The organiser paused the clock (已暂停): seconds_left stands still and time is not called."
    )
    paused_at = serializers.DateTimeField(allow_null=True, help_text="When the clock was paused; null while it runs.")


class DealOutput(serializers.Serializer[object]):  # a deal, or many
    number = serializers.IntegerField()
    outcome = serializers.JSONField()
    flagged = serializers.BooleanField()
    record = serializers.JSONField(
        source="record_json", help_text="The rules core's record of the deal (empty while flagged)."
    )
    version = serializers.IntegerField()
    entered_at = serializers.DateTimeField()


def _no_seats(match: Match) -> None:
    return None


def _table_seats(match: Match) -> list[dict[str, Any]]:
    snapshot = table_snapshot(match)
    players = match_seats(match)
    return [
        {
            "seat": seat,
            "pair": {"id": players[seat].pk, "name": players[seat].name} if seat in players else None,
            "points": snapshot.points_of(seat),
        }
        for seat in ("E", "S", "W")
    ]


def _sides_next_deal(match: Match) -> dict[str, Any] | None:
    if match.is_bye and not match.snapshot.folded:
        return None
    next_deal = match.snapshot.next_deal_or_start
    return next_deal.to_json() if next_deal is not None else None


def _table_next_deal(match: Match) -> dict[str, Any] | None:
    """A three-seat table: only the deal's number (no levels, no declarer)."""
    number = table_snapshot(match).next_deal
    return {"number": number} if number is not None else None


@dataclass(frozen=True, slots=True)
class MatchShape:
    """What a match of one entrant kind shows the referee's device beyond the shared fields."""

    seats: Callable[[Match], list[dict[str, Any]] | None]
    next_deal: Callable[[Match], dict[str, Any] | None]


MATCH_SHAPES: dict[str, MatchShape] = {
    "pairs": MatchShape(seats=_no_seats, next_deal=_sides_next_deal),
    "players": MatchShape(seats=_table_seats, next_deal=_table_next_deal),
}
"""The API's match of each entrant kind (``tournament.games.entrants``), by its key."""


def _clock(match: Match) -> dict[str, Any]:
    clock = match_clock(match=match)
    return {
        "started_at": clock.started_at,
        "ends_at": clock.ends_at,
        "seconds_left": clock.seconds_left,
        "warning": clock.warning,
        "time_called": clock.time_called,
        "one_more_deal": clock.one_more_deal,
        "last_deal": clock.last_deal,
        "paused": clock.paused,
        "paused_at": match.paused_at if clock.paused else None,
    }


class MatchOutput(serializers.Serializer[object]):  # a match, or many
    """A match as the referee's device shows it."""

    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    round_id = serializers.IntegerField()
    table = serializers.IntegerField(source="table.number", allow_null=True)
    ns_pair = PairOutput(allow_null=True, help_text="null at a three-seat table (Dou Dizhu): see seats.")
    ew_pair = PairOutput(allow_null=True)
    seats = serializers.SerializerMethodField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    winner = serializers.SerializerMethodField()
    result_reason = serializers.SerializerMethodField()
    levels = serializers.SerializerMethodField()
    a_failures = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField()
    next_deal = serializers.SerializerMethodField()
    time_called_during_deal = serializers.IntegerField(allow_null=True)
    clock = serializers.SerializerMethodField()
    flagged = serializers.SerializerMethodField()

    @extend_schema_field(SeatOutput(many=True, allow_null=True))
    def get_seats(self, match: Match) -> list[dict[str, Any]] | None:
        """A three-seat table's players and points (docs/rules.md §10); null for a match of two sides."""
        return MATCH_SHAPES[match_game(match).entrants.key].seats(match)

    def get_winner(self, match: Match) -> str | None:
        return match.winner or None

    def get_result_reason(self, match: Match) -> str | None:
        return match.result_reason or None

    @extend_schema_field(SidesOutput)
    def get_levels(self, match: Match) -> dict[str, int]:
        return match.snapshot.levels_or_start.to_json()

    @extend_schema_field(SidesOutput(allow_null=True))
    def get_a_failures(self, match: Match) -> dict[str, int] | None:
        failures = match.snapshot.a_failures
        return failures.to_json() if failures is not None else None

    @extend_schema_field(SidesOutput(allow_null=True))
    def get_points(self, match: Match) -> dict[str, int] | None:
        points = match.snapshot.points
        return points.to_json() if points is not None else None

    @extend_schema_field(NextDealOutput(allow_null=True))
    def get_next_deal(self, match: Match) -> dict[str, Any] | None:
        return MATCH_SHAPES[match_game(match).entrants.key].next_deal(match)

    @extend_schema_field(ClockOutput)
    def get_clock(self, match: Match) -> dict[str, Any]:
        return _clock(match)

    def get_flagged(self, match: Match) -> int:
        counted = self.context.get("flagged", getattr(match, "flagged_count", None))
        if counted is not None:
            return int(counted)
        return match.deals.filter(flagged=True).count() + match.adjustments.filter(flagged=True).count()


class MatchDetailOutput(MatchOutput):
    deals = serializers.SerializerMethodField()

    @extend_schema_field(DealOutput(many=True))
    def get_deals(self, match: Match) -> list[dict[str, Any]]:
        deals = self.context.get("deals")  # a write's answer passes the deals it folded: no second read
        return list(DealOutput(match.deals.order_by("number") if deals is None else deals, many=True).data)


class DealEntryOutput(serializers.Serializer[object]):
    deal = DealOutput()
    match = MatchDetailOutput()
    replayed = serializers.BooleanField(help_text="True when this answers a retry of an earlier request.")


class ErrorBody(serializers.Serializer[object]):
    code = serializers.CharField()
    message = serializers.CharField()
    match = MatchDetailOutput(required=False, help_text="The current state, with a 409.")


class ErrorOutput(serializers.Serializer[object]):
    error = ErrorBody()


# -- a deal's answer, built directly ----------------------------------------------------------------
# Every table's deals come through the referee API, and DRF's serializers copy their fields for each
# instance (a match's answer: the match, its pairs and each deal) before they read a value: most of
# the answer's cost. A deal's answer is therefore built here, field by field in the serializers'
# order, with their conversions (a test compares the two on matches of every kind); the serializers
# above stay its schema and every other answer's.

_ENTERED_AT = serializers.DateTimeField()
""":class:`DealOutput`'s ``entered_at`` (DRF's own conversion: the current time zone, ISO 8601)."""


def _pair_json(pair: Any) -> dict[str, Any] | None:
    return None if pair is None else {"id": int(pair.id), "number": int(pair.number), "name": str(pair.name)}


def deal_json(deal: Any) -> dict[str, Any]:
    """``DealOutput(deal).data``."""
    return {
        "number": int(deal.number),
        "outcome": deal.outcome,
        "flagged": bool(deal.flagged),
        "record": deal.record_json,
        "version": int(deal.version),
        "entered_at": _ENTERED_AT.to_representation(deal.entered_at),
    }


def match_detail_json(match: Match, *, deals: list[Any], flagged: int) -> dict[str, Any]:
    """``MatchDetailOutput(match, context={"deals": deals, "flagged": flagged}).data``: the match as a
    write just folded it, with its deals and how many of them and its adjustments are flagged."""
    shape = MATCH_SHAPES[match_game(match).entrants.key]
    snapshot = match.snapshot
    failures, points = snapshot.a_failures, snapshot.points
    table = match.table
    return {
        "id": int(match.id),
        "round": int(match.round.number),
        "round_id": int(match.round_id),
        "table": None if table is None else int(table.number),
        "ns_pair": _pair_json(match.ns_pair),
        "ew_pair": _pair_json(match.ew_pair),
        "seats": shape.seats(match),
        "status": str(match.status),
        "version": int(match.version),
        "winner": match.winner or None,
        "result_reason": match.result_reason or None,
        "levels": snapshot.levels_or_start.to_json(),
        "a_failures": failures.to_json() if failures is not None else None,
        "points": points.to_json() if points is not None else None,
        "next_deal": shape.next_deal(match),
        "time_called_during_deal": (
            None if match.time_called_during_deal is None else int(match.time_called_during_deal)
        ),
        "clock": _clock(match),
        "flagged": int(flagged),
        "deals": [deal_json(deal) for deal in deals],
    }
