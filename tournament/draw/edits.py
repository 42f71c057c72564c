"""Draw writes after the draw: manual edits before publishing (swap two pairs, move a match to
another table) and table areas (the referees of a round: ``referee_assignments``).

Manual edits are also listed in ``Round.draw_settings.edits`` because the bulk-written matches
have no "before" history row of their own (docs/design.md: every change is audited).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.draw.pairing import (
    DrawWarning,
    KnockoutBracket,
)
from tournament.draw.selectors import round_warnings
from tournament.draw.services import (
    _is_fixed_bracket,
    _locked_round,
    _refuse_unless_draft,
)
from tournament.draw.stages import _edit_record
from tournament.errors import UserError
from tournament.matches.event import match_event, round_event
from tournament.matches.models import (
    Match,
    RefereeAssignment,
    Round,
    RoundEntry,
    Stage,
    StageFormat,
    Table,
)
from tournament.people import Actor
from tournament.registration.lifecycle import event_write, tournament_event
from tournament.registration.models import Tournament
from tournament.standings.cache import public_version_bump

# -- manual edits before publishing ------------------------------------------------------------------


def _log_edit(
    round_: Round, record: dict[str, Any], user: Actor | None, reason: str, *, pairs_moved: bool = False
) -> None:
    settings = round_.draw_settings
    round_.draw_options = settings.with_values(edits=(*settings.edits, record)).to_stored()
    fields = ["draw_options"]
    if pairs_moved:  # what the draw proved was of the tables as drawn
        round_.draw_proven, round_.draw_criteria = False, None
        fields += ["draw_proven", "draw_criteria"]
    history_author(round_, user, reason)
    round_.save(update_fields=fields)


_OTHER_SIDE = {"NS": "EW", "EW": "NS"}


def _flip(match_id: int) -> None:
    # One UPDATE reads the old values on both sides, so no unique constraint sees a half-swap.
    Match.objects.filter(pk=match_id).update(ns_pair=F("ew_pair"), ew_pair=F("ns_pair"))


def _set_side(match_id: int, side: str, pair_id: int) -> None:
    Match.objects.filter(pk=match_id).update(**{"ns_pair_id" if side == "NS" else "ew_pair_id": pair_id})


@event_write("round_", of=round_event)
def round_pairs_swap(
    *, round_: Round, first_pair_id: int, second_pair_id: int, user: Actor | None = None
) -> list[DrawWarning]:
    """Swap two pairs' places in a draft round (each takes the other's table and seat, or bye).

    Refused in a round robin (the schedule decides who meets whom) and after a fixed bracket's
    first round (the bracket decides); in a fixed bracket's first round the two pairs also swap
    bracket positions and seeds, so later rounds follow the edit. Audited: the matches' history
    rows name the author and the edit, and ``draw_settings.edits`` keeps before → after.
    Returns the warnings (rematch, same department, bye, seat imbalance …) of the two tables.
    """
    if first_pair_id == second_pair_id:
        raise UserError("same_pair", _("Choose two different pairs."))
    with transaction.atomic():
        locked = _locked_round(round_)
        _refuse_unless_draft(locked)
        stage = locked.stage
        if stage.format == StageFormat.ROUND_ROBIN:
            raise UserError(
                "round_robin", _("In a round robin the schedule decides who meets whom: move tables instead.")
            )
        if stage.settings.team_match is not None:
            # a team match's two tables hold its teams' pair 1 and pair 2 (docs/rules.md §11): a pair swapped
            # into another team match would play for a team that is not its own
            raise UserError(
                "team_round",
                _("In a round of team matches the line-ups seat the pairs: change a team's line-up instead."),
            )
        if _is_fixed_bracket(stage) and locked.number > 1:
            raise UserError("bracket_decides", _("After the first round the bracket decides who meets whom."))
        entries = {
            e.pair_id: e for e in RoundEntry.objects.filter(round=locked, pair_id__in=(first_pair_id, second_pair_id))
        }
        if len(entries) != 2:
            raise UserError("pair_not_in_round", _("Both pairs must be in this round."))
        a, b = entries[first_pair_id], entries[second_pair_id]
        m1, m2 = (Match.objects.select_for_update().get(pk=pk) for pk in (a.match_id, b.match_id))
        before = {m.pk: [m.ns_pair_id, m.ew_pair_id] for m in (m1, m2)}
        if m1.pk == m2.pk:
            _flip(m1.pk)
        elif m1.is_bye and m2.is_bye:
            # Two byes (a bracket's first round): the pairs swap bracket positions.
            Match.objects.filter(pk=m1.pk).update(bracket_slot=m2.bracket_slot)
            Match.objects.filter(pk=m2.pk).update(bracket_slot=m1.bracket_slot)
        else:
            side_a, side_b = a.side, b.side
            flipped = None
            if side_a == side_b:
                # Same side at both tables: turn one table round first (not a bye), so no
                # moment has a pair twice on one side of the round.
                flipped = m2.pk if not m2.is_bye else m1.pk
                _flip(flipped)
                if flipped == m2.pk:
                    side_b = _OTHER_SIDE[side_b]
                else:
                    side_a = _OTHER_SIDE[side_a]
            _set_side(m1.pk, side_a, b.pair_id)
            _set_side(m2.pk, side_b, a.pair_id)
            if flipped is not None:
                _flip(flipped)
        reason = f"swap pairs {first_pair_id} and {second_pair_id}"
        for match in Match.objects.filter(pk__in=(m1.pk, m2.pk)):
            match.version += 1
            history_author(match, user, reason)
            match.save(update_fields=["version"])  # the history row records the swapped pairs
        RoundEntry.objects.filter(round=locked, pair_id__in=(first_pair_id, second_pair_id)).delete()
        RoundEntry.objects.bulk_create(
            RoundEntry(round=locked, pair_id=pair_id, match=match, side=side)
            for match in Match.objects.filter(pk__in=(m1.pk, m2.pk))
            for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW"))
            if pair_id in (first_pair_id, second_pair_id)
        )
        if _is_fixed_bracket(stage) and m1.pk != m2.pk:  # a table turned round keeps its seeds
            _bracket_swap(stage, first_pair_id, second_pair_id, user, reason)
        after = {m.pk: [m.ns_pair_id, m.ew_pair_id] for m in Match.objects.filter(pk__in=(m1.pk, m2.pk))}
        _log_edit(
            locked,
            _edit_record(
                user, "swap", pairs=[first_pair_id, second_pair_id], before=_by_key(before), after=_by_key(after)
            ),
            user,
            reason,
            pairs_moved=True,
        )
    warnings = round_warnings(round_=locked)
    return [w for pk in (m1.pk, m2.pk) for w in warnings.get(pk, [])]


def _by_key(matches: dict[int, list[int | None]]) -> dict[str, list[int | None]]:
    return {str(pk): pairs for pk, pairs in matches.items()}


def _bracket_swap(stage: Stage, first: int, second: int, user: Actor | None, reason: str) -> None:
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    record = dict(stage.settings.bracket_record or {})

    def swapped(values: list[Any]) -> list[Any]:
        return [second if v == first else first if v == second else v for v in values]

    record["slots"] = swapped(record["slots"])
    record["seeds"] = swapped(record["seeds"])
    KnockoutBracket.from_record(record)  # still a consistent bracket (raises if not: a bug here)
    stage.options = stage.settings.with_values(bracket_record=record).to_stored()
    history_author(stage, user, reason)
    stage.save(update_fields=["options"])


@event_write("match", of=match_event)
def match_table_move(*, match: Match, table_number: int, user: Actor | None = None) -> list[DrawWarning]:
    """Move a draft round's match to another table; if that table is taken, the two matches swap.

    Table numbers otherwise follow the ranking (table 1 = the top match); a table with no row
    yet is created. Audited like :func:`round_pairs_swap`. Returns warnings: the swap of tables,
    referees already planned for those tables, and the match's own warnings.
    """
    if table_number < 1:
        raise UserError.of_fields({"table": _("Tables are numbered from 1.")}, code="invalid_table")
    warnings: list[DrawWarning] = []
    with transaction.atomic():
        locked = _locked_round(match.round)
        _refuse_unless_draft(locked)
        match = Match.objects.select_for_update(of=("self",)).select_related("table").get(pk=match.pk, round=locked)
        if match.is_bye:
            raise UserError("bye", _("A bye has no table."))
        table, _created = Table.objects.get_or_create(tournament_id=locked.stage.tournament_id, number=table_number)
        if match.table_id == table.pk:
            return []
        old_table = match.table
        reason = f"move match {match.pk} to table {table_number}"
        other = locked.matches.filter(table=table).first()
        if other is not None:
            Match.objects.filter(pk=match.pk).update(table=None)
            other.table = old_table
            history_author(other, user, reason)
            other.save(update_fields=["table"])
            swapped = () if other.ns_pair_id is None else (other.ns_pair_id,)  # a table of three has no pairs
            warnings.append(
                DrawWarning.of("tables_swapped", *swapped, table=old_table.number if old_table else None)
            )
        match.table = table
        history_author(match, user, reason)
        match.save(update_fields=["table"])
        touched = [t for t in (table.pk, old_table.pk if old_table else None) if t is not None]
        if RefereeAssignment.objects.filter(round=locked, table_id__in=touched).exists():
            warnings.append(DrawWarning.of("referee_assigned", table=table_number))
        _log_edit(
            locked,
            _edit_record(
                user,
                "move",
                match=match.pk,
                before=old_table.number if old_table else None,
                after=table_number,
                swapped_with=other.pk if other else None,
            ),
            user,
            reason,
        )
    return warnings + round_warnings(round_=locked).get(match.pk, [])


# -- tables -----------------------------------------------------------------------------


@event_write("tournament", of=tournament_event)
def table_areas_set(*, tournament: Tournament, first: int, last: int, area: str) -> int:
    """Put tables ``first``…``last`` in ``area`` (赛区/楼层; "" for none), creating missing tables."""
    if first < 1 or last < first:
        raise UserError.of_fields({"last": _("Give a range of table numbers, lowest first.")}, code="invalid_range")
    if last - first >= 10_000:
        raise UserError.of_fields({"last": _("At most 10,000 tables at once.")}, code="invalid_range")
    with transaction.atomic():
        have = set(
            Table.objects.filter(tournament=tournament, number__range=(first, last)).values_list("number", flat=True)
        )
        Table.objects.bulk_create(
            Table(tournament=tournament, number=n, area=area) for n in range(first, last + 1) if n not in have
        )
        Table.objects.filter(tournament=tournament, number__range=(first, last)).update(area=area)
        public_version_bump(tournament_id=tournament.pk)  # the draw and find my table show areas
    return last - first + 1
