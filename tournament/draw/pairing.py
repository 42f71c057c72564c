"""Pairing algorithms of the draw (抽签/编排) — pure functions, no Django, no database.

The draw service (:mod:`tournament.draw.services`) turns rows into :class:`Entrant` values, calls
one generator, and writes the :class:`Draw` it gets back: its tables in bulk, and its algorithm,
options (with the warnings) and seed on the round (``Round.draw_algorithm`` / ``draw_options`` /
``draw_seed``), so the same inputs and seed reproduce the same tables. Generators raise
:class:`DrawError` for problems the organiser must resolve (code + English and Chinese message) and
:class:`DrawBug` for broken internal invariants.

Generators (keyword-only; those that draw lots use only ``random.Random(seed)``):

- :func:`swiss_pair` — one Swiss (瑞士移位) round; guarantees in :mod:`.pairing_swiss`.
- :func:`knockout_bracket` / :func:`knockout_round` — a fixed
  bracket with byes to the top seeds, and the next round from the winners so far.
- :func:`knockout_redraw` — seed 004's fresh draw every round, byes go to the next draw.
- :func:`round_robin_schedule` — every round of a round-robin group (circle method).
- :func:`referees_assign` — referees to tables, up to N each, optionally by area (no lots).

Beside them: :func:`seat_pair` (who of a table's two pairs sits N/S) and :func:`seeding_order`
(a bracket's seed positions); grouped round robins and walkovers are in :mod:`.pairing_groups`,
Dou Dizhu's three-seat rounds in :mod:`.pairing_three_seats`.
"""

from tournament.draw.pairing_knockout import (
    KNOCKOUT_ALGORITHM,
    REDRAW_ALGORITHM,
    KnockoutBracket,
    MatchRef,
    Seeding,
    knockout_bracket,
    knockout_redraw,
    knockout_round,
    seeding_order,
)
from tournament.draw.pairing_round_robin import ROUND_ROBIN_ALGORITHM, round_robin_schedule
from tournament.draw.pairing_seating import (
    Referee,
    SeatRefereeAssignment,
    TableArea,
    referees_assign,
    seat_pair,
)
from tournament.draw.pairing_swiss import DENSE_LIMIT, SWISS_ALGORITHM, WithinGroup, swiss_pair
from tournament.draw.pairing_types import (
    DepartmentId,
    Draw,
    DrawBug,
    DrawError,
    DrawWarning,
    Entrant,
    EntrantId,
    Pairing,
    Seat,
)

__all__ = [
    "DENSE_LIMIT",
    "KNOCKOUT_ALGORITHM",
    "REDRAW_ALGORITHM",
    "ROUND_ROBIN_ALGORITHM",
    "SWISS_ALGORITHM",
    "DepartmentId",
    "Draw",
    "DrawBug",
    "DrawError",
    "DrawWarning",
    "Entrant",
    "EntrantId",
    "KnockoutBracket",
    "MatchRef",
    "Pairing",
    "Referee",
    "Seat",
    "SeatRefereeAssignment",
    "Seeding",
    "TableArea",
    "WithinGroup",
    "knockout_bracket",
    "knockout_redraw",
    "knockout_round",
    "referees_assign",
    "round_robin_schedule",
    "seat_pair",
    "seeding_order",
    "swiss_pair",
]
