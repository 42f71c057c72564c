"""Roster import from Excel (.xlsx): all-or-nothing, with a report of every bad row.

The template has one row per player: name, employee number, department, partner's employee
number, phone (Chinese headers; English headers are accepted too). Two rows that name each other
as partners make a pair; a partner cell may be left empty on one of the two rows. Any bad row
means nothing is written and the organiser sees every problem with its Excel row number.

A workbook is a zip of XML that anyone can write by hand, so reading one is bounded (settings,
documented in the README): the upload's size (``ROSTER_IMPORT_MAX_BYTES``), the size of its parts
once unpacked (``ROSTER_IMPORT_MAX_UNPACKED_BYTES``: memory, and a 64 MiB shared string is
refused before it is parsed), the rows read — blank rows count, they cost as much to read —
(``ROSTER_IMPORT_MAX_ROWS``), the columns read (:data:`MAX_COLUMNS`) and the time spent reading
(``ROSTER_IMPORT_MAX_SECONDS``). A file that breaks any bound, or whose XML does not parse, is
refused with the importer's own error (:class:`RosterImportError`, a 400), never a 500.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from simple_history.utils import bulk_create_with_history

from tournament.errors import UserError
from tournament.games import entrants_of
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write, tournament_event
from tournament.registration.models import Department, Pair, PairMember, Player, Team, TeamMember, Tournament
from tournament.registration.services import PlayerData, pair_numbers_take, registration_open_check
from tournament.registration.teams import TEAM_MIN_MEMBERS, TEAM_NAME_MAX, team_short
from tournament.registration.text import clean_text, entrant_name
from tournament.text import direction_control_message, direction_controls

# Column key → accepted header texts (the first is the template's).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("姓名", "name"),
    "employee_number": ("工号", "employee number", "employee_number"),
    "department": ("部门", "department"),
    "partner": ("搭档工号", "partner employee number", "partner"),
    "phone": ("手机", "phone"),
    "team": ("团体", "team", "队名"),
}
"""``team`` is optional and not in the template: the entrant's team (docs/rules.md §11), an existing
team of the event by name or a new one, made by the import (a new team needs two entrants naming it)."""
REQUIRED_COLUMNS = ("name", "employee_number", "partner")
MAX_COLUMNS = 64  # the template has 5; a sheet claiming 16,384 columns is not padded to them

# What a damaged or hand-made workbook raises while it is read (the XML parsers' errors are
# SyntaxError subclasses: ElementTree's ParseError and lxml's XMLSyntaxError).
_UNREADABLE = (SyntaxError, zipfile.BadZipFile, zlib.error, EOFError, KeyError, OSError, TypeError, ValueError)


@dataclass(frozen=True, slots=True)
class RowError:
    row: int | None  # the Excel row number; None for a problem with the whole file
    message: str


class RosterImportError(UserError):
    """The import was refused; ``errors`` lists every problem. Nothing was written."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__("roster_invalid", "; ".join(error.message for error in errors[:3]))
        self.errors = errors


def _refused(message: str, row: int | None = None) -> RosterImportError:
    return RosterImportError([RowError(row, message)])


def _check_size(file: IO[bytes]) -> None:
    """The upload and its unpacked parts within the settings' bounds (before anything is parsed)."""
    limit = settings.ROSTER_IMPORT_MAX_BYTES
    size = getattr(file, "size", None)
    if size is None:
        file.seek(0, io.SEEK_END)
        size = file.tell()
    file.seek(0)
    if size > limit:
        raise _refused(_("The file is too large (at most %(mb).1f MB).") % {"mb": limit / 2**20})
    try:
        with zipfile.ZipFile(file) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise _refused(_("The file is not an Excel workbook (.xlsx).")) from exc
    finally:
        file.seek(0)
    if unpacked > settings.ROSTER_IMPORT_MAX_UNPACKED_BYTES:
        raise _refused(
            _("The workbook holds too much data (at most %(mb).1f MB unpacked).")
            % {"mb": settings.ROSTER_IMPORT_MAX_UNPACKED_BYTES / 2**20}
        )


@dataclass(slots=True)
class RosterImportResult:
    players: int = 0
    pairs: int = 0
    departments: list[str] = field(default_factory=list)
    team_members: int = 0
    """Entrants placed in a team by the team column."""


@dataclass(slots=True)
class _Row:
    number: int
    player: PlayerData
    partner: str
    team: str = ""
    formulas: frozenset[str] = frozenset()
    """The columns holding a formula: the row is refused for them, and read without them, so its
    other problems (an employee number already registered, a duplicate) are reported in the same
    pass and a partner naming it is not told it is "not in the file"."""


def roster_template(*, kind: str = "pairs") -> bytes:
    """The empty template (.xlsx) of an entrant kind's roster (:data:`ROSTERS`) with Chinese headers:
    one example pair, or two example players without a partner column."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "参赛名单"
    keys = ROSTERS[kind].columns
    sheet.append([COLUMNS[key][0] for key in keys])
    samples = (
        {"name": "张伟", "employee_number": "1001", "department": "财务部", "partner": "1002", "phone": "13800000001"},
        {"name": "李娜", "employee_number": "1002", "department": "财务部", "partner": "1001", "phone": ""},
    )
    for sample in samples:
        sheet.append([sample[key] for key in keys])
    for column, width in zip("ABCDE", (14, 12, 16, 12, 16), strict=True):
        sheet.column_dimensions[column].width = width
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _header_map(header: tuple[Any, ...], *, required: tuple[str, ...]) -> tuple[dict[str, int], list[RowError]]:
    lookup = {alias.lower(): key for key, aliases in COLUMNS.items() for alias in aliases}
    positions: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = lookup.get(clean_text(cell).lower())
        if key and key not in positions:
            positions[key] = index
    missing = [COLUMNS[key][0] for key in required if key not in positions]
    if missing:
        return positions, [
            RowError(1, _("Missing column(s): %(columns)s.") % {"columns": ", ".join(missing)})
        ]
    return positions, []


def _read_rows(file: IO[bytes], *, required: tuple[str, ...]) -> list[_Row]:
    _check_size(file)
    try:
        workbook = load_workbook(file, read_only=True, data_only=False)
    except SyntaxError as exc:
        raise _refused(_("The workbook is damaged: its sheet cannot be read.")) from exc
    except (InvalidFileException, *_UNREADABLE) as exc:
        raise _refused(_("The file is not an Excel workbook (.xlsx).")) from exc
    try:
        return _sheet_rows(workbook.worksheets[0], required=required)
    except _UNREADABLE as exc:
        raise _refused(_("The workbook is damaged: its sheet cannot be read.")) from exc
    finally:
        workbook.close()


_PLAIN_NUMBER = re.compile(r"[+-][\d\s().-]*")
"""A signed number or a phone ("+86 138 0000 0001"): text, though Excel's formula signs start it."""


def _formula(value: Any) -> bool:
    """Whether a cell holds a formula (or text Excel would read as one): after the white space and
    invisible marks in front of it (`` =HYPERLINK(…)``, ``\t+SUM(1)``), it starts with ``=`` or
    ``@``, or with ``+`` / ``-`` and is not a plain number."""
    if not isinstance(value, str):
        return False
    text = clean_text(value)
    return bool(text) and (text[0] in "=@" or (text[0] in "+-" and not _PLAIN_NUMBER.fullmatch(text)))


def _sheet_rows(sheet: Any, *, required: tuple[str, ...]) -> list[_Row]:
    """The sheet's players, read within the row, column and time bounds."""
    max_rows = settings.ROSTER_IMPORT_MAX_ROWS
    deadline = time.monotonic() + settings.ROSTER_IMPORT_MAX_SECONDS
    rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
    header = next(rows, None)
    if header is None or all(cell is None for cell in header):
        raise RosterImportError([RowError(None, _("The sheet is empty."))])
    positions, errors = _header_map(header, required=required)
    if errors:
        raise RosterImportError(errors)
    parsed: list[_Row] = []
    for number, values in enumerate(rows, start=2):
        # every row read counts, blank or not: a million blank rows cost as much to read
        if number - 1 > max_rows:
            raise _refused(_("Too many rows (at most %(max)d).") % {"max": max_rows}, number)
        if time.monotonic() >= deadline:
            raise _refused(_("The workbook takes too long to read; save it again in Excel or split it."), number)
        if all(value is None or clean_text(value) == "" for value in values):
            continue
        cells = {key: values[index] if index < len(values) else None for key, index in positions.items()}
        formulas = frozenset(key for key, value in cells.items() if _formula(value))
        for key in formulas:
            cells[key] = None
        parsed.append(
            _Row(
                number=number,
                player=PlayerData.of(
                    name=cells.get("name"),
                    employee_number=cells.get("employee_number"),
                    department=cells.get("department"),
                    phone=cells.get("phone"),
                ),
                partner=clean_text(cells.get("partner"), identifier=True),
                team=clean_text(cells.get("team")),
                formulas=formulas,
            )
        )
    if not parsed:
        raise RosterImportError([RowError(None, _("The sheet has no players."))])
    return parsed


def _validate(rows: list[_Row], *, existing: set[str], roster: Roster, teams: set[str]) -> list[RowError]:
    """Every problem of the rows, each once with its Excel row number: a formula row's problem is its
    formula, so what that cell would have said (e.g. "name is required") is not reported again; then
    the partner cell, as the entrant kind's roster reads it (``roster.partner_errors``)."""
    errors: list[RowError] = []
    counts = Counter(row.player.employee_number for row in rows if row.player.employee_number)
    by_number = {row.player.employee_number: row for row in rows if row.player.employee_number}
    claimed_by: dict[str, list[_Row]] = {}
    for row in rows:
        if row.partner:
            claimed_by.setdefault(row.partner, []).append(row)

    for row in rows:
        if row.formulas:
            errors.append(RowError(row.number, _("A cell holds a formula; type plain values.")))
        for key, message in row.player.errors().items():
            if key not in row.formulas:
                errors.append(RowError(row.number, message))
        number = row.player.employee_number
        if not number:
            if "employee_number" not in row.formulas:
                errors.append(RowError(row.number, _("Employee number is required.")))
            continue
        if counts[number] > 1:
            errors.append(
                RowError(
                    row.number, _("Employee number %(number)s appears more than once.") % {"number": number}
                )
            )
        if number in existing:
            errors.append(
                RowError(
                    row.number, _("Employee number %(number)s is already registered.") % {"number": number}
                )
            )
        claimants = [other for other in claimed_by.get(number, []) if other is not row]
        errors += roster.partner_errors(row, claimants, by_number)
    errors += _team_errors(rows, teams=teams)
    return sorted(errors, key=lambda error: error.row or 0)


def _linked(rows: list[_Row]) -> list[list[_Row]]:
    """The rows an entrant is made of, as far as the partner cells say (a row and the partner it
    names; rows without a partner stand alone): the team checks read entrants before the partner
    cells are known to be right, so every problem is still reported in one pass."""
    parent = list(range(len(rows)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    index_of = {row.player.employee_number: index for index, row in enumerate(rows) if row.player.employee_number}
    for index, row in enumerate(rows):
        other = index_of.get(row.partner) if row.partner else None
        if other is not None:
            parent[root(index)] = root(other)
    groups: dict[int, list[_Row]] = {}
    for index, row in enumerate(rows):
        groups.setdefault(root(index), []).append(row)
    return list(groups.values())


def _team_errors(rows: list[_Row], *, teams: set[str]) -> list[RowError]:
    """The team column (docs/rules.md §11): a cell's text, an entrant whose rows name two teams, and
    a new team (not one of the event's ``teams``) named by fewer than two entrants — a team has at
    least two members, and a misspelt name is caught here rather than made a team of one."""
    errors: list[RowError] = []
    for row in rows:
        if row.team and direction_controls(row.team):
            errors.append(RowError(row.number, direction_control_message(_("Team"))))
        elif len(row.team) > TEAM_NAME_MAX:
            message = _("The team is longer than %(max)d characters.") % {"max": TEAM_NAME_MAX}
            errors.append(RowError(row.number, message))
    for group in _linked(rows):
        names = sorted({row.team for row in group if row.team})
        if len(names) > 1:
            rows_text = ", ".join(str(row.number) for row in group)
            for row in group:
                if row.team:
                    errors.append(
                        RowError(
                            row.number,
                            _("An entrant is in one team only: rows %(rows)s name %(teams)s.")
                            % {"rows": rows_text, "teams": "、".join(names)},
                        )
                    )
    for name, firsts in _named(rows).items():
        if name not in teams and len(firsts) < 2:
            errors.append(
                RowError(
                    firsts[0].number,
                    _(
                        "Team %(team)s is not a team of this event and no other entrant names it: a team has at "
                        "least two members. Check the spelling, or name the team on its other members' rows too."
                    )
                    % {"team": name},
                )
            )
    return errors


def _named(rows: list[_Row]) -> dict[str, list[_Row]]:
    """Each team the team column names → the first row of each entrant naming it (an entrant whose
    rows name two teams is :func:`_team_errors`' to refuse, and named by neither here)."""
    named: dict[str, list[_Row]] = {}
    for group in _linked(rows):
        names = {row.team for row in group if row.team}
        if len(names) == 1:
            named.setdefault(names.pop(), []).append(group[0])
    return named


def _teams_short_errors(rows: list[_Row], *, teams: dict[str, Team]) -> list[RowError]:
    """An event's team (of ``teams``, by name) the rows name that would still have fewer than two
    members, asked as the teams page asks it (:data:`tournament.registration.teams.team_short`: while
    a stage plays team matches a team is never left short; a team total lets a team be filled in
    steps). Read under the event's row lock; each refusal on the first row naming the team."""
    named = {name: firsts for name, firsts in _named(rows).items() if name in teams}
    if not named:
        return []
    sizes = dict(
        TeamMember.objects.filter(team__in=[teams[name] for name in named])
        .values("team_id")
        .annotate(size=Count("pk"))
        .values_list("team_id", "size")
    )
    errors = []
    for name, firsts in named.items():
        team = teams[name]
        size = sizes.get(team.pk, 0) + len(firsts)
        if size >= TEAM_MIN_MEMBERS:
            continue
        try:
            team_short.send(sender=Team, team=team, members=size, change="joined")
        except UserError as refused:
            errors.append(RowError(firsts[0].number, refused.message))
    return errors


def _alone_errors(row: _Row, claimants: list[_Row], by_number: dict[str, _Row]) -> list[RowError]:
    """A player entering alone (Dou Dizhu): a partner cell is refused rather than dropped."""
    if row.partner:
        return [RowError(row.number, _("Players enter alone in this event: leave the partner column empty."))]
    return []


def _partner_errors(row: _Row, claimants: list[_Row], by_number: dict[str, _Row]) -> list[RowError]:
    """A pair's row: its partner is in the file, names it back (or leaves the cell empty), and is no
    one else's."""
    errors: list[RowError] = []
    number = row.player.employee_number
    if row.partner == number:
        errors.append(RowError(row.number, _("A player cannot be their own partner (a pair of one).")))
    elif row.partner:
        partner = by_number.get(row.partner)
        if partner is None:
            errors.append(
                RowError(
                    row.number, _("Partner %(number)s is not in the file.") % {"number": row.partner}
                )
            )
        elif partner.partner and partner.partner != number:
            errors.append(
                RowError(
                    row.number,
                    _(
                        "Partner %(partner)s is paired with %(other)s in row %(row)d; "
                        "a player can be in only one pair."
                    )
                    % {"partner": row.partner, "other": partner.partner, "row": partner.number},
                )
            )
    elif not claimants and "partner" not in row.formulas:
        errors.append(RowError(row.number, _("No partner: a pair needs two players (a pair of one).")))
    # With a partner of its own, each other row naming it is told so on its row ("is paired with").
    if len(claimants) > 1 and not row.partner:
        rows_text = ", ".join(str(other.number) for other in claimants)
        errors.append(
            RowError(
                row.number,
                _("Named as partner in several rows (%(rows)s); a player can be in only one pair.")
                % {"rows": rows_text},
            )
        )
    return errors


def _pairs_of(rows: list[_Row]) -> list[tuple[_Row, ...]]:
    by_number = {row.player.employee_number: row for row in rows}
    pairs: list[tuple[_Row, ...]] = []
    seen: set[str] = set()
    for row in rows:
        number = row.player.employee_number
        if number in seen:
            continue
        partner = by_number[row.partner] if row.partner else next(r for r in rows if r.partner == number)
        seen.update({number, partner.player.employee_number})
        pairs.append((row, partner))
    return pairs


def _alone(rows: list[_Row]) -> list[tuple[_Row, ...]]:
    return [(row,) for row in rows]


@dataclass(frozen=True, slots=True)
class Roster:
    """How a roster of one entrant kind reads: its columns, the ones it needs, what its partner cell
    may hold, and how its rows make entrants."""

    columns: tuple[str, ...]
    required: tuple[str, ...]
    partner_errors: Callable[[_Row, list[_Row], dict[str, _Row]], list[RowError]]
    entrants: Callable[[list[_Row]], list[tuple[_Row, ...]]]


ROSTERS: dict[str, Roster] = {
    "pairs": Roster(
        columns=tuple(key for key in COLUMNS if key != "team"),
        required=REQUIRED_COLUMNS,
        partner_errors=_partner_errors,
        entrants=_pairs_of,
    ),
    "players": Roster(
        columns=tuple(key for key in COLUMNS if key not in ("partner", "team")),
        required=tuple(key for key in REQUIRED_COLUMNS if key != "partner"),
        partner_errors=_alone_errors,
        entrants=_alone,
    ),
}
"""The roster of each entrant kind (``tournament.games.entrants``), by its key."""


@event_write("tournament", of=tournament_event)
def roster_import(*, tournament: Tournament, file: IO[bytes], user: Actor | None = None) -> RosterImportResult:
    """Import a roster workbook into ``tournament``: all rows or none (RosterImportError)."""
    registration_open_check(tournament=tournament)
    roster = ROSTERS[entrants_of(tournament).key]
    rows = _read_rows(file, required=roster.required)
    history_user = signed_in(user)
    # PostgreSQL and SQLite both return primary keys from bulk inserts, so the created rows
    # can be linked without re-reading them.
    with transaction.atomic():
        # The event's row lock first, as every team write takes it: the rows are checked against the
        # teams and stages as they are when written (a team made short meanwhile is not extended).
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        existing = set(
            Player.objects.filter(tournament=tournament)
            .exclude(employee_number="")
            .values_list("employee_number", flat=True)
        )
        teams = {team.name: team for team in Team.objects.filter(tournament=tournament)}
        errors = _validate(rows, existing=existing, roster=roster, teams=set(teams))
        if not errors:
            errors = _teams_short_errors(rows, teams=teams)
        if errors:
            raise RosterImportError(errors)
        departments = {dept.name: dept for dept in Department.objects.filter(tournament=tournament)}
        new_names = sorted(
            {row.player.department for row in rows if row.player.department} - departments.keys()
        )
        for department in bulk_create_with_history(
            [Department(tournament=tournament, name=name) for name in new_names],
            Department,
            default_user=history_user,
        ):
            departments[department.name] = department
        pairs = roster.entrants(rows)
        players = {
            row.player.employee_number: Player(
                tournament=tournament,
                name=row.player.name,
                employee_number=row.player.employee_number,
                department=departments.get(row.player.department),
                phone=row.player.phone,
            )
            for row in rows
        }
        bulk_create_with_history(list(players.values()), Player, default_user=history_user)
        first_number = pair_numbers_take(tournament=tournament, count=len(pairs))
        pair_objects = [
            Pair(
                tournament=tournament,
                number=number,
                name=entrant_name([row.player.name for row in entrant]),
            )
            for number, entrant in enumerate(pairs, start=first_number)
        ]
        pair_objects = bulk_create_with_history(pair_objects, Pair, default_user=history_user)
        members = []
        for pair, entrant in zip(pair_objects, pairs, strict=True):
            members += [
                PairMember(pair=pair, player=players[row.player.employee_number], slot=slot)
                for slot, row in enumerate(entrant, start=1)
            ]
        bulk_create_with_history(members, PairMember, default_user=history_user)
        team_members = _teams_write(
            tournament=tournament, entrants=list(zip(pair_objects, pairs, strict=True)), teams=teams, user=history_user
        )
    return RosterImportResult(
        players=len(players), pairs=len(pairs), departments=new_names, team_members=team_members
    )


def _teams_write(
    *, tournament: Tournament, entrants: list[tuple[Pair, tuple[_Row, ...]]], teams: dict[str, Team], user: Any
) -> int:
    """The new entrants' teams (docs/rules.md §11): new teams made (numbered after the event's), each
    entrant placed after its team's members. Returns how many entrants joined a team."""
    wanted = [(pair, next((row.team for row in rows if row.team), "")) for pair, rows in entrants]
    wanted = [(pair, name) for pair, name in wanted if name]
    if not wanted:
        return 0
    number = (Team.objects.filter(tournament=tournament).aggregate(top=Max("number"))["top"] or 0) + 1
    names = dict.fromkeys(name for _pair, name in wanted if name not in teams)
    new = [Team(tournament=tournament, number=number + offset, name=name) for offset, name in enumerate(names)]
    for team in bulk_create_with_history(new, Team, default_user=user):
        teams[team.name] = team
    tops = TeamMember.objects.filter(team__tournament=tournament).values("team_id").annotate(top=Max("position"))
    positions: dict[int, int] = dict(tops.values_list("team_id", "top"))
    members = []
    for pair, name in wanted:
        team = teams[name]
        positions[team.pk] = positions.get(team.pk, 0) + 1
        members.append(TeamMember(team=team, pair=pair, position=positions[team.pk]))
    bulk_create_with_history(members, TeamMember, default_user=user)
    return len(members)
