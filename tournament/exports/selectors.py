"""Reads for the exports: who plays in which pair, where each match was played.

These maps are small (one entry per pair or per match, not per deal) and every sheet needs them, so
they are read once per export; the large tables (deals, matches) are streamed by the sheet writers.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.exports import headers as h
from tournament.exports.headers import Language
from tournament.matches.models import Match, Round, Stage, StageFormat
from tournament.matches.selectors import round_knockout_pairs
from tournament.registration.models import Pair, PairMember
from tournament.standings.selectors import stage_third_place_matches


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    employee_number: str
    department: str
    phone: str


@dataclass(frozen=True, slots=True)
class PairCard:
    """A pair as the exports show it. ``players`` in seat order: slot 1 sits N (or E), slot 2 S (or W)."""

    id: int
    number: int
    """The pair's number in its event (1…N): what every sheet shows; ``id`` stays internal."""
    name: str
    status: str
    seed: int | None
    players: tuple[PlayerCard, ...]

    @property
    def departments(self) -> str:
        """The players' departments, once each ("财务部" or "财务部 / 销售公司")."""
        names = list(dict.fromkeys(player.department for player in self.players if player.department))
        return " / ".join(names)

    def player(self, index: int) -> PlayerCard | None:
        return self.players[index] if index < len(self.players) else None


def pair_cards(*, tournament_id: int) -> dict[int, PairCard]:
    """Every pair of the tournament with its players, by pair id (in id order)."""
    players: dict[int, list[PlayerCard]] = {}
    members = (
        PairMember.objects.filter(pair__tournament_id=tournament_id)
        .order_by("pair_id", "slot")
        .values_list("pair_id", "player__name", "player__employee_number", "player__department__name", "player__phone")
    )
    for pair_id, name, number, department, phone in members.iterator(chunk_size=5000):
        players.setdefault(pair_id, []).append(PlayerCard(name, number or "", department or "", phone or ""))
    pairs = Pair.objects.filter(tournament_id=tournament_id).order_by("id")
    return {
        pair_id: PairCard(pair_id, number, name, status, seed, tuple(players.get(pair_id, ())))
        for pair_id, number, name, status, seed in pairs.values_list(
            "id", "number", "name", "status", "seed"
        ).iterator(chunk_size=5000)
    }


@dataclass(frozen=True, slots=True)
class MatchPlace:
    stage: str
    round: int
    table: int | None
    round_name: str = ""
    """A knockout round, or its third-place match, by its name in the sheets' language; else empty."""

    @property
    def round_label(self) -> int | str:
        """What a sheet's round column shows: a knockout round's name (决赛, 三四名决赛 …), another round's number."""
        return self.round_name or self.round


def _knockout_names(tournament_id: int, language: Language) -> tuple[dict[int, str], dict[int, str]]:
    """Knockout round id → its name; third-place match id → its name (``labels.round_name``, as every page)."""
    rounds: dict[int, str] = {}
    matches: dict[int, str] = {}
    knockouts = Round.objects.filter(stage__tournament_id=tournament_id, stage__format=StageFormat.KNOCKOUT)
    for round_ in knockouts.select_related("stage").order_by("stage__order", "number"):
        pairs = round_knockout_pairs(round_=round_)
        rounds[round_.pk] = h.round_title(number=round_.number, knockout_pairs=pairs, language=language)
        third = h.round_title(number=round_.number, knockout_pairs=pairs, language=language, third_place=True)
        in_round = Match.objects.filter(round=round_, pk__in=stage_third_place_matches(stage=round_.stage))
        matches |= dict.fromkeys(in_round.values_list("id", flat=True), third)
    return rounds, matches


def match_places(*, tournament_id: int, language: Language = h.DEFAULT_LANGUAGE) -> dict[int, MatchPlace]:
    """Where each match of the tournament was played, by match id (a knockout's rounds by their names)."""
    rounds, third = _knockout_names(tournament_id, language)
    matches = Match.objects.filter(round__stage__tournament_id=tournament_id).values_list(
        "id", "round__stage__name", "round__number", "table__number", "round_id"
    )
    return {
        match_id: MatchPlace(stage, round_number, table, third.get(match_id) or rounds.get(round_id, ""))
        for match_id, stage, round_number, table, round_id in matches.iterator(chunk_size=5000)
    }


def tournament_stages(*, tournament_id: int) -> list[Stage]:
    return list(Stage.objects.filter(tournament_id=tournament_id).select_related("tournament").order_by("order"))
