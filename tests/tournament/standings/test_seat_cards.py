"""Find my table's answers escape every value they show, as a template would (they are joined from
escaped values, not rendered through one)."""

from __future__ import annotations

from django.utils import translation

from tournament.standings.public_types import PublicSide, SeatFound, TeamSeat
from tournament.standings.seat_cards import seat_cards
from tournament.standings.seating import NotSeated

MARKUP = "<b>Wang</b> & O'Brien"
ESCAPED = "&lt;b&gt;Wang&lt;/b&gt; &amp; O&#x27;Brien"


def test_every_value_of_a_seat_and_of_a_standing_is_escaped():
    seated = SeatFound(
        player_name=MARKUP,
        pair_id=1,
        pair_name=MARKUP,
        round_id=2,
        round_number=3,
        stage_name=MARKUP,
        match_id=4,
        table=5,
        area=MARKUP,
        side="NS",
        opponent=PublicSide(6, MARKUP, 7),
        pair_number=8,
        team_match=TeamSeat(id=9, number=10, x=MARKUP, y="Y", table="a"),
    )
    standing = NotSeated(player_name=MARKUP, pair_id=1, pair_name=MARKUP, state="withdrawn")
    with translation.override("en"):
        cards = seat_cards(tournament_id=11, seats=[seated, standing])
    assert "<b>" not in "".join(cards)
    assert cards[0].count(ESCAPED) == 6  # the player, the pair, the area, the opponent, the team, the stage
    assert 'href="/t/11/pairs/6/"' in cards[0] and 'href="/t/11/matches/4/"' in cards[0]
    assert 'href="/t/11/team-matches/9/"' in cards[0] and "Table 5" in cards[0] and "N/S" in cards[0]
    assert cards[1].count(ESCAPED) == 2 and "Withdrawn" in cards[1]
