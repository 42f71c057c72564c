"""Players enter at a three-seat table (Dou Dizhu): the table's page shows the table's seats, players and
points (no sides, no levels), a seated player says who they are by employee number or PIN, enters a deal,
and another player of the table confirms it by PIN only — the same proof rules as a pair's table
(docs/player-entry.md). The table cards print three seats and three PIN slips."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournament.games.doudizhu_event import drawn_round
from tournament.errors import USER_ERRORS, user_error_of
from tournament.matches import player_entry as pe
from tournament.matches.models import ClaimStatus, Deal, DealClaim, Match
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db

DEAL = {"landlord": "E", "bid": 2, "bombs": 1, "spring": False, "winner": "landlord"}
QUERY = {"landlord": "E", "bid": "2", "bombs": "1", "winner": "landlord"}
PAIR_WORDS = ("参赛对", "南北", "东西", "打 —", ">方<", "级数")


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    cache.clear()  # the wrong-code counter lives in the cache, keyed by match id


@pytest.fixture
def players_table(event, boss) -> Match:
    tournament, stage = event
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    round_ = drawn_round(stage, user=boss)
    return round_.matches.select_related("round__stage__tournament").order_by("table__number").first()


def _seats(match: Match) -> dict[str, pe.SeatPlayer]:
    return {seat.seat: seat for seat in pe.table_players(match=match)}


def _page(client, token, path="", **data):
    url = reverse("matches:table", args=[token]) + path
    return client.post(url, data) if data else client.get(url, QUERY if path == "?preview" else None)


def test_the_three_players_sit_at_their_seats_each_their_own_side(players_table):
    seats = pe.table_players(match=players_table)
    assert [seat.seat for seat in seats] == ["E", "S", "W"]
    assert [seat.side for seat in seats] == ["E", "S", "W"]
    drawn = dict(players_table.seats.values_list("seat", "pair__members__player"))
    assert {seat.seat: seat.player.pk for seat in seats} == drawn


def test_a_player_enters_and_another_player_confirms_by_pin_only(players_table):
    match = players_table
    s = _seats(match)
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome=DEAL, player_id=s["E"].player.pk, number=1, idempotency_key=uuid.uuid4().hex
    ).claim
    assert claim.side == "E" and claim.status == ClaimStatus.PENDING
    assert not match.deals.exists()  # a claim is not a deal
    with pytest.raises(pe.ClaimRefused) as own:
        pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    assert own.value.code == "confirm_by_opponent"
    answer = pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["W"].player.pk)
    assert answer.refusal is None and answer.claim.status == ClaimStatus.CONFIRMED
    match.refresh_from_db()
    assert match.table_snapshot.points == (8, -4, -4)  # bid 2 × 2¹ = 4: the landlord takes 4 from each


def test_an_impossible_dou_dizhu_deal_is_refused_at_entry(players_table):
    s = _seats(players_table)
    with pytest.raises(USER_ERRORS) as refused:
        pe.deal_claim_enter(
            match_id=players_table.pk,
            outcome={**DEAL, "landlord": "N"},
            player_id=s["S"].player.pk,
            number=1,
            idempotency_key="bad",
        )
    assert user_error_of(refused.value).status == 400 and not DealClaim.objects.exists()


def test_the_table_page_plays_a_deal_in_the_players_words(players_table):
    match = players_table
    token = table_token(round_=match.round, table_id=match.table_id)
    s = _seats(match)
    east = Client()
    body = _page(east, token).content.decode()
    assert "您的工号，或座位卡上的 PIN 码" in body and 'name="landlord"' not in body  # who are you, first
    for seat in s.values():
        assert seat.player.name in body
    assert "座位" in body and "选手" in body
    for word in PAIR_WORDS:
        assert word not in body, word
    assert _page(east, token, "me/", code="nobody").status_code == 400
    assert _page(east, token, "me/", code=s["E"].player.employee_number).status_code == 302
    body = _page(east, token).content.decode()
    assert f"您是 {s['E'].player.name}，坐东。" in body
    assert 'name="landlord"' in body and "seat-grid" not in body  # the game's own deal form
    assert "每局由一位选手录入，同桌另一位选手确认" in body
    preview = _page(east, token, "?preview").content.decode()
    assert "preview-points" in preview and 'name="number" value="1"' in preview
    assert reverse("matches:table_deal", args=[token]) in preview  # the players' address, not the referee's
    posted = east.post(
        reverse("matches:table_deal", args=[token]), {**QUERY, "version": 0, "idempotency_key": "p1", "number": 1}
    )
    assert posted.status_code == 302, posted.content.decode()[:300]
    claim = DealClaim.objects.get(match=match)
    body = _page(east, token).content.decode()
    assert "第 1 局 · 东 地主 · 叫 2 分 · 炸弹 1 · 地主胜" in body and f"{s['E'].player.name}（东）录入" in body
    assert "以另一位选手身份确认" in body
    for word in PAIR_WORDS:
        assert word not in body, word
    # the phone handed to South: an employee number confirms nothing, the PIN does
    confirm = reverse("matches:table_confirm", args=[token, claim.pk])
    assert east.post(confirm, {"code": s["S"].player.employee_number}).status_code == 400
    assert not Deal.objects.filter(match=match).exists()
    own = east.post(confirm, {"code": pe.seat_pin(player_id=s["E"].player.pk)})  # the one who entered it
    assert own.status_code == 403 and "录入者本人不能确认" in own.content.decode()
    assert east.post(confirm, {"code": pe.seat_pin(player_id=s["S"].player.pk)}).status_code == 302
    assert Deal.objects.filter(match=match).count() == 1


def test_a_dispute_reaches_the_referee_who_settles_it_on_the_table_page(players_table, ref):
    from tournament.matches.models import RefereeAssignment

    match = players_table
    RefereeAssignment.objects.create(round=match.round, table=match.table, referee=ref)
    s = _seats(match)
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome=DEAL, player_id=s["S"].player.pk, number=1, idempotency_key="d1"
    ).claim
    pe.deal_claim_dispute(
        match_id=match.pk, claim_id=claim.pk, player_id=s["W"].player.pk, counter_outcome={**DEAL, "winner": "farmers"}
    )
    referee = Client()
    referee.force_login(ref)
    body = referee.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "settle-counter" in body and s["W"].player.name in body
    settled = referee.post(
        reverse("matches:claim_settle", args=[match.pk, claim.pk]), {"choice": "counter", "reason": "对过牌"}
    )
    assert settled.status_code == 302
    match.refresh_from_db()
    assert match.deals.get().outcome["winner"] == "farmers"


def test_the_table_cards_print_three_seats_and_three_pin_slips(players_table, boss):
    match = players_table
    client = Client()
    client.force_login(boss)
    url = reverse("matches:table_cards", args=[match.round.stage.tournament_id, match.round_id])
    body = client.get(url).content.decode()
    cards = body.count('class="table-card"')
    assert cards == 3  # nine players: three tables
    assert body.count('class="seat-slip"') == 9
    for seat in pe.table_players(match=match):
        assert seat.player.name in body and pe.seat_pin(player_id=seat.player.pk) in body
    for word in ("南北", "东西", "北"):
        assert word not in body.split("seat-slips")[0].split("sheet-seats")[1], word


def test_the_players_table_page_speaks_one_language(players_table):
    """The table conduct on the players' page: 牌桌规范 in Chinese only, never "牌桌规范 · Table conduct"."""
    from tests.factories import english_client

    token = table_token(round_=players_table.round, table_id=players_table.table_id)
    chinese, english = Client(), english_client()
    for client in (chinese, english):
        assert _page(client, token, "me/", code=_seats(players_table)["E"].player.employee_number).status_code == 302
    body = _page(chinese, token).content.decode()
    assert "牌桌规范" in body and "Table conduct" not in body
    assert "No talking or signals" not in body and "比赛中禁止玩家之间交流" in body
    body = _page(english, token).content.decode()
    assert "Table conduct" in body and "牌桌规范" not in body and "比赛中禁止玩家之间交流" not in body


def test_a_players_entry_of_a_deal_the_referee_recorded_is_open_on_no_reader(players_table, boss):
    """One answer to "is this entry still open?" at a three-seat table (docs/player-entry.md): a player's
    entry of the table's last deal, recorded by the referee meanwhile, is closed — the one list, the
    table's page, the board and the referee's page offer nothing to confirm, the confirmation is refused,
    and the sign-off that follows leaves nothing open."""
    from tournament.matches.board import table_state
    from tournament.matches.services import deal_record, match_sign_off

    match = players_table
    s = _seats(match)
    for _ in range(2):
        deal_record(match_id=match.pk, outcome=DEAL, user=boss)
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome=DEAL, player_id=s["E"].player.pk, number=3, idempotency_key=uuid.uuid4().hex
    ).claim
    assert [c.number for c in pe.claims_open(match=match)] == [3] and table_state(match=match).claims_pending == 1
    deal_record(match_id=match.pk, outcome=DEAL, user=boss)  # the referee enters deal 3: the table is over
    match = Match.objects.get(pk=match.pk)
    token = table_token(round_=match.round, table_id=match.table_id)
    client = Client()
    client.post(reverse("matches:table", args=[token]) + "me/", {"code": s["S"].player.employee_number})
    for _signed in (False, True):
        assert pe.claims_open(match=match) == [] and table_state(match=match).claims_pending == 0
        page = _page(client, token).content.decode()
        assert 'data-claim="3"' not in page
        referee = Client()
        referee.force_login(boss)
        assert "settle-counter" not in referee.get(reverse("matches:match", args=[match.pk])).content.decode()
        with pytest.raises(pe.ClaimRefused) as refused:
            pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["S"].player.pk)
        assert refused.value.code == "claim_not_pending"
        if not _signed:
            match = match_sign_off(match_id=match.pk, user=boss)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REFUSED and match.deals.count() == 3
