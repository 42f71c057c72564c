"""Match writes: recording deals and refreshing a match's snapshot from its deals.

Deals are the source of truth (DESIGN.md principle 1): the match row's ``state``, ``winner``,
``result_reason`` and ``status`` are the rules core's fold of its deals, rewritten in the same
transaction that writes a deal. Entry locks the match row (``select_for_update`` on PostgreSQL;
SQLite's IMMEDIATE transactions serialise writers), checks the expected version and honours an
idempotency key, so a retried or doubled submission records one deal (principle 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.errors import ScoringError
from scoring.match import parse_deal, replay
from scoring.outcome import MatchResult, Status
from tournament.matches.models import Deal, Match, MatchStatus
from tournament.rules import rules_for_stage


class StaleVersion(Exception):
    """The match changed since the caller read it (HTTP 409 with the current state)."""

    def __init__(self, match: Match) -> None:
        super().__init__(f"match {match.pk} is at version {match.version}")
        self.match = match


@dataclass(frozen=True, slots=True)
class DealEntry:
    """What ``deal_record`` did: the deal, the match after it, and whether it was a retry."""

    deal: Deal
    match: Match
    replayed: bool = False


def _options(match: Match) -> Any:
    return rules_for_stage(match.round.stage)


def _result(match: Match, outcomes: list[dict[str, Any]]) -> MatchResult:
    options = _options(match)
    deals = [
        parse_deal(options=options, data=outcome, number=number) for number, outcome in enumerate(outcomes, 1)
    ]
    return replay(options=options, deals=deals, time_called_during_deal=match.time_called_during_deal)


def _store(match: Match, result: MatchResult) -> None:
    match.state = result.to_json()
    match.winner = result.winner.code if result.winner is not None else ""
    match.result_reason = result.reason.value if result.reason is not None else ""
    if match.status != MatchStatus.CONFIRMED:
        if result.status is Status.FINISHED:
            match.status = MatchStatus.FINISHED
            match.finished_at = match.finished_at or timezone.now()
        else:
            match.status = MatchStatus.RUNNING if result.deals else MatchStatus.PENDING
            match.finished_at = None


def match_replay(*, match: Match) -> MatchResult:
    """Refold ``match`` from its deals and store the snapshot (call inside a transaction).

    A deal the rules core refuses (e.g. entered after the match ended, once a correction
    shortened it) is flagged for the referee along with every deal after it — never silently
    kept in the result or dropped.
    """
    deals = list(match.deals.order_by("number"))
    valid = len(deals)
    while True:
        try:
            result = _result(match, [deal.outcome for deal in deals[:valid]])
            break
        except ScoringError as error:
            if error.deal is None or error.deal > valid:
                raise
            valid = error.deal - 1
    records = {record["number"]: record for record in result.to_json()["deals"]}
    changed = []
    for deal in deals:
        record = records.get(deal.number, {})
        flagged = deal.number > valid
        if deal.record != record or deal.flagged != flagged:
            deal.record, deal.flagged = record, flagged
            changed.append(deal)
    if changed:
        Deal.objects.bulk_update(changed, ["record", "flagged"])
    _store(match, result)
    match.save(update_fields=["state", "winner", "result_reason", "status", "finished_at"])
    return result


def deal_record(
    *,
    match_id: int,
    outcome: dict[str, Any],
    user: Any = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> DealEntry:
    """Record the next deal of a match (RULES.md §1–3 through the rules core).

    Raises ScoringError for an impossible deal (``invalid_order``, ``match_finished`` …) and
    StaleVersion when ``expected_version`` is not the match's version; nothing is written then.
    A repeated ``idempotency_key`` returns the deal first recorded with it.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("round__stage__tournament").get(pk=match_id)
        if idempotency_key:
            earlier = match.deals.filter(idempotency_key=idempotency_key).first()
            if earlier is not None:
                return DealEntry(deal=earlier, match=match, replayed=True)
        if expected_version is not None and expected_version != match.version:
            raise StaleVersion(match)
        if match.status == MatchStatus.CONFIRMED:
            raise ScoringError(
                "match_finished",
                "The match has been signed off; unlock it to change it.",
                message_zh="比赛结果已确认，需先解锁才能修改。",
            )
        number = match.deals.count() + 1
        outcomes = [*match.deals.order_by("number").values_list("outcome", flat=True), outcome]
        _result(match, outcomes)  # refuses an impossible deal before anything is written
        deal = Deal.objects.create(
            match=match,
            number=number,
            outcome=outcome,
            entered_by=user if getattr(user, "is_authenticated", False) else None,
            idempotency_key=idempotency_key or None,
        )
        match.version += 1
        match.started_at = match.started_at or timezone.now()
        match.save(update_fields=["version", "started_at"])
        match_replay(match=match)
        deal.refresh_from_db()
    return DealEntry(deal=deal, match=match)
