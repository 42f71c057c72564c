"""The referees of a round: who takes which table (``RefereeAssignment``), every change audited.

- **Carried over**: a new round's tables keep the referees they had in the event's latest earlier
  round that had one (by table: the referee stays at the table they know), so nothing is assigned
  again each round, nor after a draft is deleted and drawn again (:func:`referees_carry_over`,
  called by the draw). A referee no longer active is not carried over.
- **The automatic plan** (:func:`round_referees_assign`) fills the tables without a referee,
  respecting each referee's limit (the tables they already hold count); asked to ``replace``, it
  plans every table afresh, hand-made assignments included.
- **By hand** (:func:`round_tables_assign`): a range of tables or an area to one referee (or nobody).

Only the event's own active referees (``referee_accounts_list``) take its tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from tournament.audit import bulk_history_attrs, history_author
from tournament.draw import pairing
from tournament.draw.pairing import DrawError
from tournament.errors import UserError
from tournament.locale import in_ui_language
from tournament.matches.event import round_event
from tournament.matches.models import RefereeAssignment, Round, RoundStatus
from tournament.matches.referees import referee_accounts_list
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write


def _locked_round(round_: Round) -> Round:
    return Round.objects.select_for_update().get(pk=round_.pk)


def _assignments_write(
    *, create: list[RefereeAssignment], update: list[RefereeAssignment], user: Actor | None, reason: str
) -> None:
    """Write new and changed referee assignments in bulk, each with its history row (author, reason)."""
    history: dict[str, Any] = {
        "default_user": signed_in(user),
        "default_change_reason": reason,
        "custom_historical_attrs": bulk_history_attrs(),
    }
    if create:
        bulk_create_with_history(create, RefereeAssignment, **history)
    if update:
        bulk_update_with_history(update, RefereeAssignment, ["referee"], **history)


@event_write("round_", of=round_event)
def round_referees_assign(
    *,
    round_: Round,
    referees: Sequence[pairing.Referee],
    tables_per_referee: int,
    by_area: bool = False,
    replace: bool = False,
    user: Actor | None = None,
) -> tuple[pairing.SeatRefereeAssignment, ...]:
    """Assign referees (ids are user ids) to the round's tables with ``referees_assign``.

    Each referee takes at most ``tables_per_referee`` tables, in runs of consecutive numbers; with
    ``by_area`` first in their own area (``Table.area``). Without ``replace`` only the tables that
    have no referee are planned, and the tables a referee already holds count towards their limit
    (a hand-made or carried-over assignment is never overwritten silently); with ``replace`` every
    table is planned afresh (changed rows only, each with a history row). Allowed until the round
    is finished. The settings are kept in ``draw_settings.referees`` to prefill the next round.
    Returns the plan with its warnings (a table without a referee, a referee from another area).
    """
    wanted = {r.id for r in referees}
    allowed = set(
        referee_accounts_list(tournament=round_.stage.tournament).filter(pk__in=wanted).values_list("pk", flat=True)
    )
    if wanted - allowed:
        raise UserError("not_event_referee", _("Not a referee of this event."))
    reason = "referee plan (every table)" if replace else "referee plan (tables without a referee)"
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.FINISHED:
            raise UserError("round_finished", _("The round is finished."))
        existing = {a.table_id: a for a in RefereeAssignment.objects.filter(round=locked)}
        tables = list(
            locked.matches.filter(table__isnull=False).values_list("table_id", "table__number", "table__area")
        )
        kept: dict[int, RefereeAssignment] = {}
        if not replace:
            kept = {table_id: existing.pop(table_id) for table_id, _n, _a in tables if table_id in existing}
            existing = {}  # tables left out of the round keep nothing to remove here: the draw owns them
        held: Counter[object] = Counter(assignment.referee_id for assignment in kept.values())
        try:
            plan = pairing.referees_assign(
                tables=[
                    pairing.TableArea(number, area or None) for table_id, number, area in tables if table_id not in kept
                ],
                referees=[
                    pairing.Referee(id=r.id, area=r.area, max_tables=max(0, tables_per_referee - held[r.id]))
                    for r in referees
                ],
                tables_per_referee=tables_per_referee,
                by_area=by_area,
            )
        except DrawError as error:
            raise UserError(error.code, in_ui_language(en=error.message_en, zh=error.message_zh)) from error
        table_ids = {number: table_id for table_id, number, _area in tables}
        create: list[RefereeAssignment] = []
        update: list[RefereeAssignment] = []
        for item in plan:
            if item.referee is None:
                continue  # a table nobody can take: an old assignment of it is removed below
            current = existing.pop(table_ids[item.table], None)
            if current is None:
                create.append(RefereeAssignment(round=locked, table_id=table_ids[item.table], referee_id=item.referee))
            elif current.referee_id != item.referee:
                current.referee_id = item.referee
                update.append(current)
        for stale in existing.values():  # tables no longer planned (or no longer in the round)
            history_author(stale, user, reason)
            stale.delete()
        _assignments_write(create=create, update=update, user=user, reason=reason)
        referee_settings = {
            "tables_per_referee": tables_per_referee,
            "by_area": by_area,
            "referees": [{"id": r.id, "area": r.area or ""} for r in referees],
        }
        locked.draw_options = locked.draw_settings.with_values(referees=referee_settings).to_stored()
        history_author(locked, user, reason)
        locked.save(update_fields=["draw_options"])
    return plan


def referees_carry_over(*, round_: Round, user: Actor | None = None) -> int:
    """Give a newly drawn round's tables the referees they had before: for each table, the referee
    of the event's latest earlier round that had one there, if still an active referee of the event.
    Called by the draw inside its transaction; the round's own assignments (none yet) are left as
    they are. How many tables were given a referee."""
    tournament = round_.stage.tournament
    tables = set(round_.matches.filter(table__isnull=False).values_list("table_id", flat=True))
    if not tables:
        return 0
    active = set(referee_accounts_list(tournament=tournament).values_list("pk", flat=True))
    taken = set(RefereeAssignment.objects.filter(round=round_).values_list("table_id", flat=True))
    earlier = (
        RefereeAssignment.objects.filter(round__stage__tournament=tournament, table_id__in=tables - taken)
        .exclude(round=round_)
        .order_by("-round__stage__order", "-round__number", "-round_id")
        .values_list("table_id", "referee_id")
    )
    carried: dict[int, int] = {}
    for table_id, referee_id in earlier:
        if table_id not in carried and referee_id in active:
            carried[table_id] = referee_id
        # a table whose latest referee left stays empty: the plan or the organiser fills it
        carried.setdefault(table_id, 0)
    create = [
        RefereeAssignment(round=round_, table_id=table_id, referee_id=referee_id)
        for table_id, referee_id in carried.items()
        if referee_id
    ]
    _assignments_write(create=create, update=[], user=user, reason="referees carried over from the previous round")
    return len(create)


@event_write("round_", of=round_event)
def round_tables_assign(
    *,
    round_: Round,
    referee: User | None,
    first: int | None = None,
    last: int | None = None,
    area: str | None = None,
    user: Actor | None = None,
) -> int:
    """Give ``referee`` (an account; ``None``: nobody) the round's tables by hand: the tables
    ``first``…``last`` (``last`` omitted: table ``first`` alone), or every table of ``area``.

    Whoever had those tables in this round loses them (one referee per table and round). Only
    the event's own referees (``referee_accounts_list``) may be given its tables, and only
    tables of this round; allowed until the round is finished. Returns the number of tables.
    """
    tournament = round_.stage.tournament
    if referee is not None and not referee_accounts_list(tournament=tournament).filter(pk=referee.pk).exists():
        raise UserError.of_fields({"referee": _("Not a referee of this event.")}, code="not_event_referee")
    by_range, by_area = first is not None, area is not None and area.strip() != ""
    if by_range == by_area:
        raise UserError("tables_required", _("Give either a range of tables or an area."))
    matches = round_.matches.filter(table__isnull=False, table__tournament=tournament)
    if by_range:
        last = first if last is None else last
        if first is None or last is None or first < 1 or last < first:
            raise UserError.of_fields({"last": _("Give a range of table numbers, lowest first.")}, code="invalid_range")
        matches = matches.filter(table__number__range=(first, last))
        missing = {"first": _("No table of this round is in that range.")}
    else:
        matches = matches.filter(table__area=(area or "").strip())
        missing = {"area": _("No table of this round is in that area.")}
    table_ids = list(matches.values_list("table_id", flat=True))
    if not table_ids:
        raise UserError.of_fields(missing, code="no_tables")
    reason = "referee tables by hand"
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.FINISHED:
            raise UserError("round_finished", _("The round is finished."))
        existing = {a.table_id: a for a in RefereeAssignment.objects.filter(round=locked, table_id__in=table_ids)}
        create: list[RefereeAssignment] = []
        update: list[RefereeAssignment] = []
        for table_id in table_ids:
            current = existing.get(table_id)
            if referee is None:
                if current is not None:
                    history_author(current, user, reason)
                    current.delete()
            elif current is None:
                create.append(RefereeAssignment(round=locked, table_id=table_id, referee_id=referee.pk))
            elif current.referee_id != referee.pk:
                current.referee_id = referee.pk
                update.append(current)
        _assignments_write(create=create, update=update, user=user, reason=reason)
    return len(table_ids)
