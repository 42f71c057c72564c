"""Registration writes: tournaments, departments, players, pairs, check-in.

The one write path (docs/design.md): the organiser's forms, the Excel importer, the API
and the demo call these functions. Each validates, raises a ``UserError`` keyed by field for bad
input (nothing written), and writes atomically.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError
from scoring.profiles import options_for
from tournament.bounds import text_max
from tournament.errors import UserError, scoring_message
from tournament.games import PAIRS, PLAYERS, EntrantKind, entrants_of
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write, owned_event, tournament_event
from tournament.registration.models import (
    Department,
    Game,
    Pair,
    PairMember,
    PairStatus,
    Player,
    Tournament,
)
from tournament.registration.signals import check_in_undoing
from tournament.registration.text import clean_text, entrant_name
from tournament.text import direction_control_message, direction_controls

NAME_MAX = text_max(Player, "name")
EMPLOYEE_NUMBER_MAX = text_max(Player, "employee_number")
PHONE_MAX = text_max(Player, "phone")
DEPARTMENT_MAX = text_max(Department, "name")
PLAYER_FIELD_LABELS = {
    "name": gettext_lazy("Player's name"),
    "employee_number": gettext_lazy("Employee number"),
    "department": gettext_lazy("Department"),
    "phone": gettext_lazy("Phone"),
}
"""The player's fields as a message names them (a roster row's error says which cell)."""


@dataclass(frozen=True, slots=True)
class PlayerData:
    """A player as typed by an organiser or read from a roster row, before validation."""

    name: str
    employee_number: str = ""
    department: str = ""
    phone: str = ""

    @classmethod
    def of(
        cls, *, name: object, employee_number: object = None, department: object = None, phone: object = None
    ) -> PlayerData:
        """A player's fields as kept, from what was typed or read (a roster cell: text, a number,
        None for blank) by :func:`tournament.text.clean_text`; the number and the phone are
        identifiers: full-width digits become digits."""
        return cls(
            name=clean_text(name),
            employee_number=clean_text(employee_number, identifier=True),
            department=clean_text(department),
            phone=clean_text(phone, identifier=True),
        )

    def cleaned(self) -> PlayerData:
        """The fields as kept (:meth:`of`)."""
        return PlayerData.of(
            name=self.name, employee_number=self.employee_number, department=self.department, phone=self.phone
        )

    def errors(self) -> dict[str, str]:
        """Field → message for everything wrong with this player on its own."""
        errors: dict[str, str] = {
            field: direction_control_message(str(label))
            for field, label in PLAYER_FIELD_LABELS.items()
            if direction_controls(getattr(self, field))
        }
        if not self.name:
            errors["name"] = _("Name is required.")
        elif len(self.name) > NAME_MAX:
            errors["name"] = _("Name is longer than %(max)d characters.") % {"max": NAME_MAX}
        if len(self.employee_number) > EMPLOYEE_NUMBER_MAX:
            errors["employee_number"] = _("Employee number is longer than %(max)d characters.") % {
                "max": EMPLOYEE_NUMBER_MAX
            }
        if len(self.department) > DEPARTMENT_MAX:
            errors["department"] = _("Department is longer than %(max)d characters.") % {"max": DEPARTMENT_MAX}
        if len(self.phone) > PHONE_MAX:
            errors["phone"] = _("Phone is longer than %(max)d characters.") % {"max": PHONE_MAX}
        return errors


def tournament_create(
    *,
    name: str,
    rule_profile: str,
    game: str = Game.GUANDAN,
    rule_overrides: Mapping[str, Any] | None = None,
    venue: str = "",
    starts_on: Any = None,
    organiser: Actor | None = None,
) -> Tournament:
    """Create a tournament; its rules must be a profile the rules core knows (docs/rules.md)."""
    name = clean_text(name)
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = _("Name is required.")
    elif direction_controls(name):
        errors["name"] = direction_control_message(_("Name"))
    if direction_controls(clean_text(venue)):
        errors["venue"] = direction_control_message(_("Venue"))
    if game not in Game.values:
        errors["game"] = _("Unknown game.")
    overrides = dict(rule_overrides or {})
    try:
        options = options_for(profile=rule_profile, overrides=overrides)
    except ScoringError as exc:
        errors["rule_profile" if exc.code == "unknown_profile" else "rule_overrides"] = scoring_message(exc)
    else:
        if game in Game.values and options.game.value != game:
            errors["rule_profile"] = _("Rule profile %(profile)s is for another game.") % {"profile": rule_profile}
    if errors:
        raise UserError.of_fields(errors)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            rule_profile=rule_profile,
            rule_overrides=overrides,
            venue=clean_text(venue),
            starts_on=starts_on,
        )
        account = signed_in(organiser)
        if account is not None:
            tournament.organisers.add(account)
    return tournament


def department_get_or_create(*, tournament: Tournament, name: str) -> Department | None:
    """The department named ``name`` (created on first use); None for an empty name."""
    name = clean_text(name)
    if not name:
        return None
    if direction_controls(name):
        raise UserError.of_fields({"department": direction_control_message(_("Department"))})
    if len(name) > DEPARTMENT_MAX:
        raise UserError.of_fields(
            {"department": _("Department is longer than %(max)d characters.") % {"max": DEPARTMENT_MAX}}
        )
    department, _created = Department.objects.get_or_create(tournament=tournament, name=name)
    return department


def _player_write(*, tournament: Tournament, player: Player, data: PlayerData, prefix: str = "") -> Player:
    data = data.cleaned()
    errors = {prefix + field: message for field, message in data.errors().items()}
    if data.employee_number:
        clash = Player.objects.filter(tournament=tournament, employee_number=data.employee_number)
        if player.pk:
            clash = clash.exclude(pk=player.pk)
        if clash.exists():
            errors[prefix + "employee_number"] = _("Employee number %(number)s is already registered.") % {
                "number": data.employee_number
            }
    if errors:
        raise UserError.of_fields(errors)
    player.tournament = tournament
    player.name = data.name
    player.employee_number = data.employee_number
    player.phone = data.phone
    player.department = department_get_or_create(tournament=tournament, name=data.department)
    player.save()
    return player


@event_write("tournament", of=tournament_event)
def pair_numbers_take(*, tournament: Tournament, count: int = 1) -> int:
    """The first of ``count`` new pair numbers of ``tournament`` (its pairs are numbered 1…N in the
    order they registered). Call inside the transaction that creates the pairs: the
    tournament's row stays locked until it ends, so two registrations never take the same number
    (the unique constraint ``pair_number_unique`` backs this). A withdrawn or deleted pair keeps or
    frees its number at the end only; numbers are never reused mid-list. A finished event takes no
    new entrants (:func:`registration_open_check`, on the locked row)."""
    locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    registration_open_check(tournament=locked or tournament)
    highest = Pair.objects.filter(tournament=tournament).aggregate(highest=Max("number"))["highest"]
    return (highest or 0) + 1


def registration_open_check(*, tournament: Tournament) -> None:
    """Registration closes when the event is finished: a pair added then would stand in no round
    and no ranking. Reopening the event (back to *in progress*) opens it again."""
    if not tournament.registration_open:
        raise UserError(
            "registration_closed",
            _("%(event)s is finished: registration is closed. Reopen the event to add an entrant.")
            % {"event": tournament.name},
        )


def _pair_name(players: list[Player]) -> str:
    return entrant_name([player.name for player in players])


def _kind_check(tournament: Tournament, *, kind: EntrantKind, field: str, message: str) -> None:
    """A write of the desk enters the entrants of one kind (:data:`REGISTRARS`): refused, on ``field``,
    in an event whose game is played by another kind."""
    if entrants_of(tournament) is not kind:
        raise UserError.of_fields({field: message})


def _refuse_pairs_in_individual_event(tournament: Tournament) -> None:
    _kind_check(tournament, kind=PAIRS, field="players", message=_("Players enter alone in this event, not as pairs."))


@event_write("tournament", of=tournament_event)
def pair_register(*, tournament: Tournament, first: PlayerData, second: PlayerData, seed: int | None = None) -> Pair:
    """Register two new players as a pair (the organiser's "add pair" form)."""
    _refuse_pairs_in_individual_event(tournament)
    first, second = first.cleaned(), second.cleaned()
    if first.employee_number and first.employee_number == second.employee_number:
        raise UserError.of_fields({"second_employee_number": _("The two players of a pair must be different people.")})
    with transaction.atomic():
        players = [
            _player_write(tournament=tournament, player=Player(), data=first, prefix="first_"),
            _player_write(tournament=tournament, player=Player(), data=second, prefix="second_"),
        ]
        return pair_create(tournament=tournament, players=players, seed=seed)


@event_write("tournament", of=tournament_event)
def pair_create(*, tournament: Tournament, players: list[Player], seed: int | None = None) -> Pair:
    """Make a pair of two existing players of the tournament, neither already in a pair."""
    _refuse_pairs_in_individual_event(tournament)
    if len(players) != 2 or players[0].pk == players[1].pk:
        raise UserError.of_fields({"players": _("A pair is two different players.")})
    for player in players:
        if player.tournament_id != tournament.pk:
            raise UserError.of_fields(
                {"players": _("%(name)s is not registered in this tournament.") % {"name": player.name}}
            )
        if PairMember.objects.filter(player=player).exists():
            raise UserError.of_fields({"players": _("%(name)s is already in a pair.") % {"name": player.name}})
    if seed is not None and Pair.objects.filter(tournament=tournament, seed=seed).exists():
        raise UserError.of_fields({"seed": _("Seed %(seed)d is already taken.") % {"seed": seed}})
    try:
        with transaction.atomic():
            number = pair_numbers_take(tournament=tournament)
            pair = Pair.objects.create(tournament=tournament, number=number, name=_pair_name(players), seed=seed)
            PairMember.objects.bulk_create(
                [PairMember(pair=pair, player=player, slot=slot) for slot, player in enumerate(players, start=1)]
            )
    except IntegrityError as exc:  # a concurrent registration took a player first
        raise UserError.of_fields({"players": _("A player is already in a pair.")}) from exc
    return pair


@event_write("tournament", of=tournament_event)
def player_enter(*, tournament: Tournament, player: PlayerData, seed: int | None = None) -> Pair:
    """Register one new player as an entrant of an individual event (Dou Dizhu, docs/rules.md §10): a
    :class:`Pair` with a single member at slot 1 (docs/doudizhu.md). Refused in a pairs event."""
    _kind_check(
        tournament, kind=PLAYERS, field="first_name", message=_("This event is played in pairs: enter two players.")
    )
    if seed is not None and Pair.objects.filter(tournament=tournament, seed=seed).exists():
        raise UserError.of_fields({"seed": _("Seed %(seed)d is already taken.") % {"seed": seed}})
    with transaction.atomic():
        written = _player_write(tournament=tournament, player=Player(), data=player, prefix="first_")
        number = pair_numbers_take(tournament=tournament)
        entrant = Pair.objects.create(tournament=tournament, number=number, name=_pair_name([written]), seed=seed)
        PairMember.objects.create(pair=entrant, player=written, slot=1)
    return entrant


@event_write("pair", of=owned_event)
def player_entry_update(*, pair: Pair, player: PlayerData, seed: int | None) -> Pair:
    """Edit the one player of an individual event's entrant, and its seed."""
    member = pair.members.select_related("player").get(slot=1)
    with transaction.atomic():
        written = _player_write(tournament=pair.tournament, player=member.player, data=player, prefix="first_")
        taken = Pair.objects.filter(tournament=pair.tournament, seed=seed).exclude(pk=pair.pk)
        if seed is not None and taken.exists():
            raise UserError.of_fields({"seed": _("Seed %(seed)d is already taken.") % {"seed": seed}})
        pair.name = _pair_name([written])
        pair.seed = seed
        pair.save(update_fields=["name", "seed"])
    return pair


@event_write("pair", of=owned_event)
def pair_update(*, pair: Pair, first: PlayerData, second: PlayerData, seed: int | None) -> Pair:
    """Edit both players of a pair and its seed."""
    members = list(pair.members.select_related("player").order_by("slot"))
    with transaction.atomic():
        players = [
            _player_write(tournament=pair.tournament, player=members[0].player, data=first, prefix="first_"),
            _player_write(tournament=pair.tournament, player=members[1].player, data=second, prefix="second_"),
        ]
        if seed is not None and Pair.objects.filter(tournament=pair.tournament, seed=seed).exclude(pk=pair.pk).exists():
            raise UserError.of_fields({"seed": _("Seed %(seed)d is already taken.") % {"seed": seed}})
        pair.name = _pair_name(players)
        pair.seed = seed
        pair.save(update_fields=["name", "seed"])
    return pair


def _pair_enter(*, tournament: Tournament, players: list[PlayerData], seed: int | None) -> Pair:
    first, second = players
    return pair_register(tournament=tournament, first=first, second=second, seed=seed)


def _pair_edit(*, pair: Pair, players: list[PlayerData], seed: int | None) -> Pair:
    first, second = players
    return pair_update(pair=pair, first=first, second=second, seed=seed)


def _player_enter(*, tournament: Tournament, players: list[PlayerData], seed: int | None) -> Pair:
    (player,) = players
    return player_enter(tournament=tournament, player=player, seed=seed)


def _player_edit(*, pair: Pair, players: list[PlayerData], seed: int | None) -> Pair:
    (player,) = players
    return player_entry_update(pair=pair, player=player, seed=seed)


@dataclass(frozen=True, slots=True)
class Registrar:
    """How the desk enters and edits an entrant of one kind from its players' fields, in order."""

    enter: Callable[..., Pair]
    """``(tournament=, players=, seed=)``: a new entrant."""
    edit: Callable[..., Pair]
    """``(pair=, players=, seed=)``: an entrant's players and seed edited."""


REGISTRARS: dict[str, Registrar] = {
    "pairs": Registrar(enter=_pair_enter, edit=_pair_edit),
    "players": Registrar(enter=_player_enter, edit=_player_edit),
}
"""The desk's writes of each entrant kind (``tournament.games.entrants``), by its key."""


@event_write("pair", of=owned_event)
def pair_withdraw(*, pair: Pair) -> Pair:
    """Withdraw a pair: it is not drawn again (its past results stay)."""
    pair.status = PairStatus.WITHDRAWN
    pair.save(update_fields=["status"])
    return pair


@event_write("pair", of=owned_event)
def pair_check_in(*, pair: Pair, checked_in: bool = True) -> Pair:
    """Check a pair in on the day (one tap), or undo a mistaken tap. A withdrawn pair cannot check
    in; a pair already drawn cannot be un-checked-in (``check_in_undoing``): the draw would keep a
    seat for a pair the door says is absent, and the next draw would drop it silently. A pair that
    leaves after being drawn is withdrawn instead."""
    if pair.status == PairStatus.WITHDRAWN:
        raise UserError("bad_input", _("%(pair)s has withdrawn.") % {"pair": pair.name})
    if not checked_in and pair.status == PairStatus.CHECKED_IN:
        check_in_undoing.send(sender=Pair, pair=pair)
    pair.status = PairStatus.CHECKED_IN if checked_in else PairStatus.REGISTERED
    pair.checked_in_at = timezone.now() if checked_in else None
    pair.save(update_fields=["status", "checked_in_at"])
    return pair
