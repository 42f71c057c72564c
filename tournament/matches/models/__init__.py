"""The matches app's models, in modules named for what they hold.

``core``: stages, rounds, tables, matches, seats, deals and adjustments; ``referees``: referees and
their tables; ``corrections``: unlocks of signed-off matches and the advancement flags they raise;
``table_entry``: players' table links and the deals they enter; ``team_matches``: line-ups and team
matches (two matches each). Everything is imported here, so
``tournament.matches.models`` stays the one import path (and Django finds every model).
"""

from tournament.matches.models.core import (
    BYE,
    SNAPSHOT_RESULT,
    Adjustment,
    AdjustmentKind,
    Deal,
    Match,
    MatchSeat,
    MatchStatus,
    Round,
    RoundEntry,
    RoundStatus,
    Side,
    Stage,
    StageFormat,
    Table,
    ThreeSeat,
)
from tournament.matches.models.corrections import (
    AdvancementFlag,
    AdvancementFlagKind,
    AdvancementFlagStatus,
    Correction,
    CorrectionStatus,
)
from tournament.matches.models.referees import ChiefReferee, Referee, RefereeAssignment, RefereeSignInLink
from tournament.matches.models.table_entry import CLAIM_OPEN, ClaimStatus, DealClaim, TableLinkKey, claims_still_open
from tournament.matches.models.team_matches import TeamLineUp, TeamMatch

__all__ = [
    "BYE",
    "CLAIM_OPEN",
    "SNAPSHOT_RESULT",
    "Adjustment",
    "AdjustmentKind",
    "AdvancementFlag",
    "AdvancementFlagKind",
    "AdvancementFlagStatus",
    "ChiefReferee",
    "ClaimStatus",
    "Correction",
    "CorrectionStatus",
    "Deal",
    "DealClaim",
    "Match",
    "MatchSeat",
    "MatchStatus",
    "Referee",
    "RefereeAssignment",
    "RefereeSignInLink",
    "Round",
    "RoundEntry",
    "RoundStatus",
    "Side",
    "Stage",
    "StageFormat",
    "Table",
    "TableLinkKey",
    "TeamLineUp",
    "TeamMatch",
    "ThreeSeat",
    "claims_still_open",
]
