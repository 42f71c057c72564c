"""The entrant kinds: who an entrant is and where it sits (docs/design.md: kinds are objects, not flags).

A pair (对) at a four-seat table, N/S against E/W (Guandan, Tractor); a player (选手) at a three-seat
table, seats E/S/W (Dou Dizhu, docs/rules.md §10). A team of pairs would be one more :class:`EntrantKind`
here, and one more row in each layer's table keyed by its ``key``. :data:`TEAMS` (teams of two pairs at
two tables) is a stage's kind: the stage-level tables (the round draw) have its row.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from tournament.games.base import EntrantKind, entrants_of

PAIRS = EntrantKind(
    key="pairs",
    members=2,
    seats=("N", "E", "S", "W"),
    stage_formats=("swiss", "round_robin", "knockout"),
    label=_("Pair"),
    labels=_("Pairs"),
    words={
        "add": _("Add a pair"),
        "register": _("Register pair"),
        "registered": _("Pair %(pair)s registered."),
        "find": _("Find my table"),
        "find_help": _("Results show the table and seat in the current round."),
        "imported": _("Imported %(players)d players in %(pairs)d pairs."),
        "counted": ngettext_lazy("%(counter)s pair", "%(counter)s pairs", "counter"),
        "registered_counts": _("%(total)s pairs registered, %(checked)s checked in."),
        "withdraw": _("Withdraw this pair?"),
        "search": _("Name, employee number or pair number"),
        "none_found": _("No pair found."),
        "none_yet": _("No pairs registered yet."),
        "score": _("Levels"),
        "advance": _("Advance pairs to the next stage"),
        "advancing": _("Pairs advancing"),
        "no_stage": _("No stage yet: add the first one below (e.g. Swiss preliminaries, then a knockout)."),
        "roster": _(
            "One row per player: name, employee number, department, partner's employee number, phone. "
            "Any bad row and nothing is imported."
        ),
        "find_entrant": _("Find a pair"),
        "all": _("All pairs"),
        "no_match": _("No pair matches."),
        "none_listed": _("No pairs yet: add them one by one above, or import a roster (Excel)."),
        "seeded_top": _("Seeded with the top %(count)s pairs of the previous stage."),
        "to_come": _("%(n)s to come"),
        "withdrawn_count": _("%(n)s withdrawn"),
        "entry_rule": _(
            "One side enters each deal; a player of the other side confirms it. A deal counts once confirmed."
        ),
        "entry_rule_referee": _("One side enters each deal; a referee confirms it. A deal counts once confirmed."),
        "confirm_handed": _("Opponent: the PIN on your seat slip, to confirm on this phone"),
        "confirm_as": _("Confirm as opponent"),
        "claim_entered": _("Deal %(number)d entered: the other side confirms it."),
        "confirm_own": _("An opponent confirms the deal, not your own side."),
        "dispute_own": _("Only the other side can dispute this entry."),
        "adjustments": _(
            "Forfeit: a pair, or one player of it, is absent; the pair forfeits. Late arrival: the rules' "
            "table decides. Penalty: levels to the opponents, or points off in a points format."
        ),
    },
    match_body_template="matches/_match_body.html",
    seats_template="matches/_sides.html",
)
"""A pair of two players at a four-seat table: two sides, N/S and E/W."""

PLAYERS = EntrantKind(
    key="players",
    members=1,
    seats=("E", "S", "W"),
    stage_formats=("points",),
    label=_("Player"),
    labels=_("Players"),
    words={
        "add": _("Add a player"),
        "register": _("Register player"),
        "registered": _("Player %(pair)s registered."),
        "find": _("Find my seat"),
        "find_help": _("Results show the table and the seat letter (E, S or W) in the current round."),
        "imported": _("Imported %(players)d players."),
        "counted": ngettext_lazy("%(counter)s player", "%(counter)s players", "counter"),
        "registered_counts": _("%(total)s players registered, %(checked)s checked in."),
        "withdraw": _("Withdraw this player?"),
        "search": _("Name, employee number or player number"),
        "none_found": _("No player found."),
        "none_yet": _("No players registered yet."),
        "score": _("Points"),
        "advance": _("Advance players to the next stage"),
        "advancing": _("Players advancing"),
        "no_stage": _(
            "No stage yet: add the first one below (e.g. a points stage of 3 rounds with a cut, then a final table)."
        ),
        "roster": _(
            "One row per player: name, employee number, department, phone (no partner column: players enter "
            "alone). Any bad row and nothing is imported."
        ),
        "find_entrant": _("Find a player"),
        "all": _("All players"),
        "no_match": _("No player matches."),
        "none_listed": _("No players yet: add them one by one above, or import a roster (Excel)."),
        "seeded_top": _("Seeded with the top %(count)s players of the previous stage."),
        "to_come": pgettext_lazy("players", "%(n)s to come"),
        "withdrawn_count": pgettext_lazy("players", "%(n)s withdrawn"),
        "entry_rule": _(
            "One player enters each deal; another player of the table confirms it. A deal counts once confirmed."
        ),
        "entry_rule_referee": _("One player enters each deal; a referee confirms it. A deal counts once confirmed."),
        "confirm_handed": _("Another player of the table: the PIN on your seat slip, to confirm on this phone"),
        "confirm_as": _("Confirm as another player"),
        "claim_entered": _("%(deal)s entered: another player of the table confirms it."),
        "confirm_own": _("Another player of the table confirms the deal, not the one who entered it."),
        "dispute_own": _("Only another player of the table can dispute this entry."),
        "adjustments": _(
            "Late arrival: more minutes late than the rules allow forfeits the round (the other two score the "
            "bye points). No-show: the player forfeits the round. Recorded before the table's first deal."
        ),
    },
    match_body_template="matches/_doudizhu_body.html",
    seats_template="matches/_three_seats.html",
    entry_labels={
        "name": _("Name"),
        "employee_number": _("Employee number"),
        "department": _("Department"),
        "phone": _("Phone"),
    },
)
"""One player at a three-seat table: no sides, seats E/S/W."""

TEAMS = EntrantKind(
    key="teams",
    members=4,
    seats=PAIRS.seats,
    stage_formats=("swiss",),
    label=_("Team"),
    labels=_("Teams"),
    words={
        **PAIRS.words,
        "counted": ngettext_lazy("%(counter)s team", "%(counter)s teams", "counter"),
        "score": _("Team match points"),
        "none_yet": _("The event has no teams yet."),
    },
    match_body_template=PAIRS.match_body_template,
    seats_template=PAIRS.seats_template,
)
"""A team of pairs playing team matches (docs/rules.md §11): a stage's entrant, never a game's. Each team
match is two ordinary matches of pairs (tables a and b), so a table is a pair's match and reads as one;
the stage's draw, standings and pages read the team."""

ENTRANT_KINDS: dict[str, EntrantKind] = {kind.key: kind for kind in (PAIRS, PLAYERS)}
"""Every entrant kind a game's matches are played by, by its key."""

STAGE_ENTRANT_KINDS: dict[str, EntrantKind] = {kind.key: kind for kind in (PAIRS, PLAYERS, TEAMS)}
"""Every entrant kind a stage may be drawn between: a game's, or teams of pairs."""


class HasStageOptions(Protocol):
    """A stage (``Stage``): its event and its options."""

    @property
    def tournament(self) -> Any: ...

    @property
    def settings(self) -> Any: ...


def stage_entrants_of(stage: HasStageOptions) -> EntrantKind:
    """Who a stage is drawn between: teams of pairs when the stage plays team matches (docs/rules.md §11),
    else its event's entrant kind. The stage-level tables (``draw.services.ROUND_DRAWS``) are keyed by it."""
    return TEAMS if stage.settings.team_match is not None else entrants_of(stage.tournament)
