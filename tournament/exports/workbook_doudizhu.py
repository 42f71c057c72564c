"""The workbook's Dou Dizhu sheets (``tournament.exports.workbook.DEAL_LOGS``): each table's
result (three players and their points) and the deal log (landlord, bid, bombs, spring, winner,
multiple, stake, points per seat), read from the stored records by ``scoring.doudizhu_snapshot``."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import F

from scoring.doudizhu_snapshot import TableDealSnapshot, TableSnapshot
from tournament.exports import headers as h
from tournament.exports.deal_log import ordered_deals
from tournament.exports.headers import Column, Language
from tournament.exports.selectors import MatchPlace
from tournament.matches.models import Match, MatchSeat
from tournament.people import person_name_expression

SEATS = ("E", "S", "W")
SEAT_ZH = {"E": "东家", "S": "南家", "W": "西家"}
"""A seat as a Chinese sheet names it (no letters on a Chinese page)."""

TABLES = (
    *h.MATCH_PLACE,
    *(Column(f"player_{s}", f"{SEAT_ZH[s]}选手", f"Seat {s}", 14) for s in SEATS),
    *(Column(f"points_{s}", f"{SEAT_ZH[s]}积分", f"{s} points", 8) for s in SEATS),
    h.STATUS,
    Column("deals", "局数", "Deals", 6),
)

DEALS = (
    *h.MATCH_PLACE,
    Column("deal", "局", "Deal", 5),
    Column("landlord", "地主座位", "Landlord", 8),
    Column("bid", "叫分", "Bid", 6),
    Column("bombs", "炸弹", "Bombs", 6),
    Column("spring", "春天", "Spring", 6),
    Column("cards_left", "剩余牌数", "Cards left", 12),
    Column("winner", "胜方", "Won by", 8),
    Column("multiple", "倍数", "Multiple", 7),
    Column("stake", "每家分", "Stake", 7),
    *(Column(f"points_{s}", f"{SEAT_ZH[s]}得分", f"{s} points", 8) for s in SEATS),
    *h.ENTERED,
)

_NAMES: dict[str, tuple[str, str]] = {
    "tables": ("各桌成绩", "Table results"),
    "landlord": ("地主", "Landlord"),
    "farmers": ("农民", "Farmers"),
}


def _name(key: str, language: Language) -> str:
    zh, en = _NAMES[key]
    return zh if language == "zh" else en


def _sheet(book: Any, context: Any, title: str, columns: tuple[Column, ...]) -> Any:
    return book.columns_sheet(title, columns, context.language)


def doudizhu_deals_write(book: Any, context: Any) -> None:
    """The table results and the deal log of a Dou Dizhu event."""
    tournament = context.tournament
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for match_id, seat, pair_id in MatchSeat.objects.filter(
        round__stage__tournament=tournament, match__isnull=False
    ).values_list("match_id", "seat", "pair_id"):
        seats[match_id][seat] = pair_id
    missing = MatchPlace("", 0, None)
    tables = _sheet(book, context, _name("tables", context.language), TABLES)
    matches = (
        Match.objects.filter(round__stage__tournament=tournament)
        .order_by("round__stage__order", "round__number", F("table__number").asc(nulls_last=True), "id")
        .values_list("id", "status", "state")
    )
    for match_id, status, state in matches.iterator(chunk_size=2000):
        place = context.places.get(match_id, missing)
        snapshot = TableSnapshot.from_json(state)
        names = [context.pairs[seats[match_id][s]].name if s in seats[match_id] else None for s in SEATS]
        tables.append(
            [
                match_id,
                place.stage,
                place.round,
                place.table,
                *names,
                *snapshot.points,
                context.word(status),
                len(snapshot.deals),
            ]
        )
        context.progress.advance()
    sheet = _sheet(book, context, h.sheet_name("deals", context.language), DEALS)
    deals = (
        ordered_deals(context)
        .annotate(author=person_name_expression("entered_by"))
        .values_list("match_id", "number", "record", "outcome", "flagged", "author", "entered_at")
    )
    for match_id, number, record, outcome, flagged, user, entered_at in deals.iterator(chunk_size=5000):
        place = context.places.get(match_id, missing)
        entered = outcome if isinstance(outcome, dict) else {}
        deal = TableDealSnapshot.from_json(record)
        cards = entered.get("cards_left")
        sheet.append(
            [
                match_id,
                place.stage,
                place.round,
                place.table,
                number,
                entered.get("landlord"),
                entered.get("bid", 1) if cards is None else None,
                entered.get("bombs", 0) if cards is None else None,
                bool(entered.get("spring")) if cards is None else None,
                " ".join(f"{s}{n}" for s, n in cards.items()) if isinstance(cards, dict) else None,
                _name(deal.winner, context.language) if deal and deal.winner in _NAMES else None,
                deal.multiple if deal else None,
                deal.stake if deal else None,
                *(deal.points if deal else (None, None, None)),
                flagged,
                user,
                entered_at,
            ]
        )
        context.progress.advance()


STANDINGS = (
    *h.RANKED,
    Column("player_no", "选手编号", "Player no.", 8),
    Column("player", "选手", "Player", 14),
    Column("department", "部门", "Department", 14),
    Column("rounds", "轮数", "Rounds", 6),
    h.POINTS,
    Column("deals_won", "胜局", "Deals won", 8),
    Column("landlord_wins", "地主胜局", "Won as landlord", 9),
    Column("best_round", "单轮最高", "Best round", 9),
    h.BYES,
    Column("lot", "抽签", "Lot", 6),
    Column("eliminated_after", "淘汰于第几轮后", "Eliminated after round", 12),
    Column("stage_rank", "上阶段名次", "Stage rank before", 10),
    h.PROVISIONAL,
)


def doudizhu_standings_write(book: Any, context: Any, standings: Any) -> Any:
    """A points stage's standings (docs/rules.md §10): points and the tie-breaks, who was cut after which
    round, whose points count a table awaiting sign-off; the player's number as the registration sheet
    shows it. Returns the sheet (the stage's correction flags are noted under it)."""
    title = h.sheet_name("standings", context.language, stage=standings.stage.name)
    sheet = _sheet(book, context, title, STANDINGS)
    for row in standings.players.players.rows:
        card = context.pairs.get(int(row.player))
        sheet.append(
            [
                row.rank,
                row.shared,
                card.number if card else None,
                card.name if card else row.player,
                (card.departments or None) if card else None,
                row.rounds,
                row.points,
                row.deals_won,
                row.landlord_wins,
                row.best_round,
                row.byes,
                row.lots,
                row.eliminated_after_round,
                row.stage_rank,
                row.player in standings.provisional,
            ]
        )
        context.progress.advance()
    return sheet
