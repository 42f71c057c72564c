"""Playing a team match's two tables out through the referees' write path, for the team tests
(docs/rules.md §11: team X sits N/S at table a and E/W at table b)."""

from __future__ import annotations

from tournament.matches.services import deal_record
from tournament.matches.team_matches import team_match_sign_off

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # N/S passes A
EW_WINS = (("E", "W"), ("E", "W"), ("E", "W"), ("E", "N", "W"))


def play(match, orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def x_wins(row):
    """Team X wins both tables, and the team match is signed off."""
    play(row.table_a, NS_WINS)
    play(row.table_b, EW_WINS)  # X sits E/W at table b
    team_match_sign_off(team_match=row)


def y_wins(row):
    """Team Y wins both tables, and the team match is signed off."""
    play(row.table_a, EW_WINS)
    play(row.table_b, NS_WINS)  # Y sits N/S at table b
    team_match_sign_off(team_match=row)
