"""One answer to "is this players' entry still open?" (docs/player-entry.md): a claim no one can confirm any
more — its deal recorded, or its match signed off — is listed nowhere as awaiting confirmation: not on the
table's page (no "Confirm" offered, then refused), not on the referee's match page; it is closed with
the reason in its history (the match's audit) and the players read why on their page."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tests.factories import english_client, organiser, round_match
from tests.tournament.matches.test_player_entry import EW_WINS, NS_WINS, players_match, seats
from tournament.matches import player_entry as pe
from tournament.matches.board import table_state
from tournament.matches.models import ClaimStatus, DealClaim, Match, MatchStatus
from tournament.matches.services import deal_record, match_sign_off
from tournament.matches.table_links import table_token

pytestmark = pytest.mark.django_db


def _enter(match, seat, outcome, number):
    return pe.deal_claim_enter(
        match_id=match.pk, outcome=outcome, player_id=seat.player.pk, number=number, idempotency_key=uuid.uuid4().hex
    ).claim


def _readers(client, boss, match, token):
    """Claim numbers awaiting confirmation on the one list; the table's page; the referee's page (the
    progress board's table state and its count of entries awaiting confirmation are checked against
    the list here)."""
    listed = [claim.number for claim in pe.claims_open(match=match)]
    table = client.get(reverse("matches:table", args=[token])).content.decode()
    boss_client = english_client()
    boss_client.force_login(boss)
    referee = boss_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    state = table_state(match=match)
    assert state.claims_pending == sum(claim.status == ClaimStatus.PENDING for claim in pe.claims_open(match=match))
    assert (state.code == "disputed") == any(c.status == ClaimStatus.DISPUTED for c in pe.claims_open(match=match))
    return listed, table, referee


def test_a_signed_off_match_closes_its_players_entries_on_every_reader():
    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    round_match(round_=match.round)  # another table still playing: the round, and the table's page, go on
    s = seats(match)
    token = table_token(round_=match.round, table_id=match.table_id)
    for _ in range(3):  # North–South up three levels a deal: 2 → 5 → 8 → J
        deal_record(match_id=match.pk, outcome=NS_WINS, user=boss)
    # the players enter deals 4–6 meanwhile; the referee enters deal 4 themselves, which ends the match
    for number, outcome in ((4, EW_WINS), (5, NS_WINS), (6, NS_WINS)):
        _enter(match, s["E"] if outcome == EW_WINS else s["N"], outcome, number)
    deal_record(match_id=match.pk, outcome=NS_WINS, user=boss)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED and match.deals.count() == 4
    assert [claim.number for claim in pe.claims_open(match=match)] == [5, 6]  # nothing to confirm them into
    sixth = DealClaim.objects.get(match=match, number=6)
    client = english_client()
    client.post(reverse("matches:table", args=[token]) + "me/", {"code": s["E"].player.employee_number})
    match_sign_off(match_id=match.pk, user=boss, expected_version=match.version)
    listed, table, referee = _readers(client, boss, match, token)
    assert listed == []
    assert "Confirm as opponent" not in table and "Correct: confirm" not in table
    assert 'data-claim="6"' not in table and "Awaiting confirmation" not in referee
    sixth.refresh_from_db()
    assert sixth.status == ClaimStatus.REFUSED
    assert "The match was signed off: this entry is closed." in table  # the players are told why
    reasons = [row.history_change_reason for row in sixth.history.order_by("history_date")]
    assert reasons[-1] == "closed: the match was signed off"
    audit = english_client()
    audit.force_login(boss)
    assert "closed: the match was signed off" in audit.get(reverse("matches:audit", args=[match.pk])).content.decode()
    with pytest.raises(pe.ClaimRefused) as refused:
        pe.deal_claim_confirm(match_id=match.pk, claim_id=sixth.pk, player_id=s["E"].player.pk)
    assert refused.value.code == "claim_not_pending"


def test_a_claim_whose_deal_is_recorded_is_not_listed_as_awaiting():
    """A claim left open beside the deal of its number (an entry written before a referee's entry closed
    the claim of its number, as an earlier release left them): the table offers no Confirm for it."""
    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    s = seats(match)
    token = table_token(round_=match.round, table_id=match.table_id)
    deal_record(match_id=match.pk, outcome=NS_WINS, user=boss)
    DealClaim.objects.create(
        match=match, number=1, outcome=EW_WINS, side="EW", entered_by=s["E"].player, idempotency_key=uuid.uuid4().hex
    )
    client = english_client()
    client.post(reverse("matches:table", args=[token]) + "me/", {"code": s["N"].player.employee_number})
    listed, table, referee = _readers(client, boss, match, token)
    assert listed == []
    assert "Confirm as opponent" not in table and "Correct: confirm" not in table and 'data-claim="1"' not in table
    assert "Awaiting confirmation" not in referee


def test_a_disputed_entry_beside_its_recorded_deal_is_no_dispute_on_any_reader():
    """A disputed players' entry left open beside the deal of its number (as an earlier release left them):
    the table's page lists no dispute, and neither the board nor the referee's page calls the table
    disputed."""
    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    s = seats(match)
    token = table_token(round_=match.round, table_id=match.table_id)
    deal_record(match_id=match.pk, outcome=NS_WINS, user=boss)
    DealClaim.objects.create(
        match=match,
        number=1,
        outcome=EW_WINS,
        counter_outcome=NS_WINS,
        side="EW",
        status=ClaimStatus.DISPUTED,
        entered_by=s["E"].player,
        idempotency_key=uuid.uuid4().hex,
    )
    match = Match.objects.get(pk=match.pk)
    client = english_client()
    client.post(reverse("matches:table", args=[token]) + "me/", {"code": s["N"].player.employee_number})
    listed, table, _referee = _readers(client, boss, match, token)
    assert listed == []
    assert table_state(match=match).code == "playing"
    assert 'data-state="disputed"' not in table


def test_an_entry_beside_its_recorded_deal_holds_no_later_entry_back():
    """The table's page offers the opponents the entry of deal 2 (the stale one of deal 1 is listed
    nowhere), and confirming it is not refused for deal 1 "coming first": one answer to which entries
    are open, asked by the page and by the confirmation alike."""
    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    s = seats(match)
    token = table_token(round_=match.round, table_id=match.table_id)
    deal_record(match_id=match.pk, outcome=NS_WINS, user=boss)
    DealClaim.objects.create(
        match=match, number=1, outcome=EW_WINS, side="EW", entered_by=s["E"].player, idempotency_key=uuid.uuid4().hex
    )
    second = _enter(match, s["N"], NS_WINS, 2)
    match = Match.objects.get(pk=match.pk)
    client = english_client()
    client.post(reverse("matches:table", args=[token]) + "me/", {"code": s["E"].player.employee_number})
    listed, table, _referee = _readers(client, boss, match, token)
    assert listed == [2] and 'data-claim="2"' in table
    answer = pe.deal_claim_confirm(match_id=match.pk, claim_id=second.pk, player_id=s["E"].player.pk)
    assert answer.claim.status == ClaimStatus.CONFIRMED and match.deals.count() == 2
