"""Players enter the deals, the other side (or a referee) confirms; a dispute is settled
by a referee; only confirmed deals count; every step is audited."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from tests.factories import english_client, referee, table_match
from tournament.matches import player_entry as pe
from tournament.matches import table_codes
from tournament.matches.models import ClaimStatus, Deal, DealClaim, Match
from tournament.matches.services import deal_record
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    """The wrong-code counter lives in the cache, keyed by match id: ids repeat from test to test."""
    cache.clear()


NS_WINS = {"order": ["N", "S"]}
EW_WINS = {"order": ["E", "W"]}


def players_match(mode: str = EntryMode.PLAYERS_OPPONENTS_CONFIRM, *, profile: str = "timed-40", **kwargs) -> Match:
    match = table_match(profile=profile, **kwargs)
    tournament = match.round.stage.tournament
    tournament.entry_mode = mode
    tournament.save()
    return Match.objects.select_related("round__stage__tournament").get(pk=match.pk)


def seats(match: Match) -> dict[str, pe.SeatPlayer]:
    return {seat.seat: seat for seat in pe.table_players(match=match)}


def enter(match, seat, outcome, number=None):
    return pe.deal_claim_enter(
        match_id=match.pk, outcome=outcome, player_id=seat.player.pk, number=number, idempotency_key=uuid.uuid4().hex
    )


def test_an_entry_counts_only_once_an_opponent_confirms_it():
    match = players_match()
    s = seats(match)
    claim = enter(match, s["N"], NS_WINS, number=1).claim
    assert claim.status == ClaimStatus.PENDING and claim.number == 1
    match.refresh_from_db()
    assert match.version == 0 and not match.deals.exists() and match.snapshot.deals == ()
    with pytest.raises(pe.ClaimRefused) as refused:  # the partner is not an opponent
        pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["S"].player.pk)
    assert refused.value.code == "confirm_by_opponent"
    answer = pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    assert answer.refusal is None
    match.refresh_from_db()
    deal = Deal.objects.get(match=match)
    assert deal.number == 1 and deal.outcome == NS_WINS and match.version == 1 and len(match.snapshot.deals) == 1
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.CONFIRMED and claim.deal == deal and claim.answered_by == s["E"].player
    reasons = [row.history_change_reason for row in claim.history.order_by("history_date")]
    assert reasons[0].startswith("entered by ") and s["N"].player.name in reasons[0]
    assert reasons[-1].startswith("confirmed by ") and s["E"].player.name in reasons[-1]
    # confirming again is a retry, not a second deal
    assert pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["W"].player.pk).replayed
    assert Deal.objects.filter(match=match).count() == 1


def test_the_same_entry_sent_twice_is_one_claim_and_a_stale_number_is_refused():
    match = players_match()
    s = seats(match)
    key = uuid.uuid4().hex
    first = pe.deal_claim_enter(
        match_id=match.pk, outcome=NS_WINS, player_id=s["N"].player.pk, number=1, idempotency_key=key
    )
    again = pe.deal_claim_enter(
        match_id=match.pk, outcome=NS_WINS, player_id=s["N"].player.pk, number=1, idempotency_key=key
    )
    assert again.replayed and again.claim == first.claim
    with pytest.raises(pe.ClaimRefused) as refused:  # the other side enters deal 1 too
        enter(match, s["E"], EW_WINS, number=1)
    assert refused.value.code == "stale_number"
    assert DealClaim.objects.filter(match=match).count() == 1
    second = enter(match, s["E"], EW_WINS, number=2).claim  # the next deal queues behind
    assert second.number == 2
    with pytest.raises(pe.ClaimRefused) as refused:  # in order
        pe.deal_claim_confirm(match_id=match.pk, claim_id=second.pk, player_id=s["N"].player.pk)
    assert refused.value.code == "confirm_in_order"


def test_a_referee_deal_entered_meanwhile_closes_the_claim_not_doubled():
    match = players_match()
    s = seats(match)
    claim = enter(match, s["N"], NS_WINS, number=1).claim
    deal_record(match_id=match.pk, outcome=EW_WINS)  # a referee records deal 1 at the table
    claim.refresh_from_db()  # closed at once, the table told why
    assert claim.status == ClaimStatus.REFUSED and "A referee entered deal 1" in claim.note
    with pytest.raises(pe.ClaimRefused) as refused:
        pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    assert refused.value.code == "claim_not_pending"
    assert list(Deal.objects.filter(match=match).values_list("outcome", flat=True)) == [EW_WINS]


def test_a_referees_entry_supersedes_the_pending_claim_of_its_number_and_the_next_numbers_follow():
    """Claims 1–3 wait; the referee enters deal 1: claim 1 is closed (not "awaiting confirmation"
    beside deal 1), claims 2 and 3 still wait, and the next entry is deal 4 — not refused as taken."""
    match = players_match()
    s = seats(match)
    claims = [enter(match, s["N"], outcome, number=n).claim for n, outcome in enumerate([NS_WINS, EW_WINS, NS_WINS], 1)]
    deal_record(match_id=match.pk, outcome=NS_WINS, user=referee())
    statuses = dict(DealClaim.objects.filter(match=match).values_list("number", "status"))
    assert statuses == {1: ClaimStatus.REFUSED, 2: ClaimStatus.PENDING, 3: ClaimStatus.PENDING}
    assert [claim.number for claim in pe.claims_open(match=match)] == [2, 3]
    fourth = enter(match, s["N"], EW_WINS, number=4).claim  # the queued deal 4: its number is free
    assert fourth.number == 4 and fourth.status == ClaimStatus.PENDING
    answer = pe.deal_claim_confirm(match_id=match.pk, claim_id=claims[1].pk, player_id=s["E"].player.pk)
    assert answer.refusal is None
    assert list(Deal.objects.filter(match=match).order_by("number").values_list("outcome", flat=True)) == [
        NS_WINS,
        EW_WINS,
    ]
    reasons = [row.history_change_reason for row in claims[0].history.order_by("history_date")]
    assert reasons[-1] == "superseded: a referee entered the deal"
    # the table's page tells the players
    client = english_client()
    body = client.get(reverse("matches:table", args=[table_token(round_=match.round, table_id=match.table_id)]))
    assert "A referee entered deal 1: this entry is closed." in body.content.decode()


def test_a_dispute_carries_both_versions_and_a_referee_settles_it_audited():
    ref = referee()
    match = players_match(referee_user=ref)
    s = seats(match)
    claim = enter(match, s["N"], NS_WINS, number=1).claim
    pe.deal_claim_dispute(match_id=match.pk, claim_id=claim.pk, player_id=s["W"].player.pk, counter_outcome=EW_WINS)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DISPUTED and claim.counter_outcome == EW_WINS
    (dispute,) = pe.disputes_open(tournament_id=match.round.stage.tournament_id)
    assert dispute.claim == claim and dispute.entered_text != dispute.counter_text != ""
    client = english_client()
    client.force_login(ref)
    home = client.get(reverse("matches:referee_home")).content.decode()  # the referee's home lists it
    assert f'data-dispute="{claim.pk}"' in home
    assert f"{dispute.entered_text} · " in home and f": {dispute.counter_text}</li>" in home
    with pytest.raises(pe.ClaimRefused):  # a dispute is not confirmed by a player
        pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    answer = pe.deal_claim_settle(match_id=match.pk, claim_id=claim.pk, user=ref, choice="counter", reason="看过牌")
    assert answer.refusal is None
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.SETTLED and claim.settled_by == ref
    deal = Deal.objects.get(match=match)
    assert deal.outcome == EW_WINS and deal.history.first().history_user == ref
    reasons = [row.history_change_reason for row in claim.history.order_by("history_date")]
    assert [r.split(" ")[0] for r in reasons] == ["entered", "disputed", "settled"]
    assert pe.disputes_open(tournament_id=match.round.stage.tournament_id) == []


def test_in_the_referee_confirms_mode_players_cannot_confirm_but_a_referee_can():
    ref = referee()
    match = players_match(EntryMode.PLAYERS_REFEREE_CONFIRMS, referee_user=ref)
    s = seats(match)
    claim = enter(match, s["E"], EW_WINS).claim
    with pytest.raises(pe.ClaimRefused) as refused:
        pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["N"].player.pk)
    assert refused.value.code == "referee_confirms"
    client = english_client()
    client.force_login(ref)
    response = client.post(reverse("matches:claim_confirm", args=[match.pk, claim.pk]))
    assert response.status_code == 302
    assert Deal.objects.get(match=match).outcome == EW_WINS


def test_referees_only_refuses_player_entry():
    match = players_match(EntryMode.REFEREES)
    with pytest.raises(pe.ClaimRefused) as refused:
        enter(match, seats(match)["N"], NS_WINS)
    assert refused.value.code == "players_do_not_enter"


def test_an_impossible_deal_is_refused_at_entry():
    match = players_match()
    with pytest.raises(Exception) as refused:
        enter(match, seats(match)["N"], {"order": ["N", "N", "S"]})
    assert "order" in str(getattr(refused.value, "code", refused.value)).lower() or refused.value
    assert not DealClaim.objects.exists()


def test_auto_confirm_after_n_minutes_unless_disputed():
    match = players_match()
    tournament = match.round.stage.tournament
    tournament.auto_confirm_minutes = 5
    tournament.save()
    s = seats(match)
    first = enter(match, s["N"], NS_WINS).claim
    second = enter(match, s["N"], NS_WINS).claim
    match = Match.objects.select_related("round__stage__tournament").get(pk=match.pk)
    assert pe.claims_auto_confirm_due(match=match) == 0  # not yet
    DealClaim.objects.filter(pk=first.pk).update(entered_at=first.entered_at - timedelta(minutes=6))
    pe.deal_claim_dispute(match_id=match.pk, claim_id=second.pk, player_id=s["E"].player.pk, counter_outcome=None)
    DealClaim.objects.filter(pk=second.pk).update(entered_at=second.entered_at - timedelta(minutes=6))
    assert pe.claims_auto_confirm_due(match=match) == 1  # the dispute stops it
    first.refresh_from_db()
    assert first.status == ClaimStatus.CONFIRMED and first.auto_confirmed
    assert Deal.objects.filter(match=match).count() == 1


def test_seat_pins_are_six_digits_and_identify_the_player():
    match = players_match()
    for seat in pe.table_players(match=match):
        pin = pe.seat_pin(player_id=seat.player.pk)
        assert len(pin) == 6 and pin.isdigit()
        assert pe.player_identify(match=match, code=pin).player == seat.player
        assert pe.player_identify(match=match, code=seat.player.employee_number.lower()).player == seat.player
    assert pe.player_identify(match=match, code="nobody") is None


# -- the table's pages -------------------------------------------------------------------------------


def _page(client, token, path="", **data):
    url = reverse("matches:table", args=[token]) + path
    return client.post(url, data) if data else client.get(url)


def test_the_table_page_identifies_a_player_enters_a_deal_and_an_opponent_confirms_on_the_same_phone():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    s = seats(match)
    client = english_client()
    body = _page(client, token).content.decode()
    assert "Your employee number or the PIN" in body and "seat-grid" not in body  # identify first
    assert _page(client, token, "me/", code="wrong").status_code == 400
    assert _page(client, token, "me/", code=s["N"].player.employee_number).status_code == 302
    body = _page(client, token).content.decode()
    assert "seat-grid" in body and s["N"].player.name in body
    assert 'name="number" value="1"' in _page(client, token, "?order=NS").content.decode()
    key = uuid.uuid4().hex
    response = client.post(
        reverse("matches:table_deal", args=[token]), {"order": "NS", "version": 0, "idempotency_key": key, "number": 1}
    )
    assert response.status_code == 302
    claim = DealClaim.objects.get(match=match)
    body = _page(client, token).content.decode()
    assert "Awaiting confirmation" in body and "Confirm as opponent" in body
    # the phone is handed across: East confirms with the PIN
    response = client.post(
        reverse("matches:table_confirm", args=[token, claim.pk]), {"code": pe.seat_pin(player_id=s["E"].player.pk)}
    )
    assert response.status_code == 302
    assert Deal.objects.filter(match=match).count() == 1


def test_the_offline_queue_gets_plain_answers_accepted_already_refused():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    client = english_client()
    _page(client, token, "me/", code=seats(match)["N"].player.employee_number)
    url = reverse("matches:table_deal", args=[token])
    body = {"order": "NS", "version": 0, "idempotency_key": "k1", "number": 1}
    first = client.post(url, body, HTTP_X_DEAL_QUEUE="1")
    assert first.status_code == 200 and first.json()["result"] == "accepted"
    again = client.post(url, body, HTTP_X_DEAL_QUEUE="1")
    assert again.json()["result"] == "already"
    stale = client.post(url, {**body, "idempotency_key": "k2"}, HTTP_X_DEAL_QUEUE="1")
    assert stale.status_code == 409 and stale.json()["result"] == "refused" and stale.json()["code"] == "stale_number"
    assert DealClaim.objects.filter(match=match).count() == 1
    # the referee's page answers the queue the same way
    ref = referee()
    from tournament.matches.models import RefereeAssignment

    RefereeAssignment.objects.create(round=match.round, table=match.table, referee=ref)
    referee_client = english_client()
    referee_client.force_login(ref)
    url = reverse("matches:deal_create", args=[match.pk])
    body = {"order": "EW", "version": 0, "idempotency_key": "r1"}
    assert referee_client.post(url, body, HTTP_X_DEAL_QUEUE="1").json()["result"] == "accepted"
    assert referee_client.post(url, body, HTTP_X_DEAL_QUEUE="1").json()["result"] == "already"
    refused = referee_client.post(url, {**body, "idempotency_key": "r2"}, HTTP_X_DEAL_QUEUE="1")
    assert refused.status_code == 409 and refused.json()["code"] == "stale_version"
    assert Deal.objects.filter(match=match).count() == 1


@pytest.mark.parametrize("profile", ["tractor-3deck"])
def test_tractor_players_enter_through_the_games_own_form(profile):
    match = players_match(profile=profile)
    token = table_token(round_=match.round, table_id=match.table_id)
    s = seats(match)
    client = english_client()
    _page(client, token, "me/", code=s["N"].player.employee_number)
    body = _page(client, token).content.decode()
    assert 'name="defender_points"' in body and "seat-grid" not in body
    response = client.post(
        reverse("matches:table_deal", args=[token]),
        {"declarer": "NS", "defender_points": 40, "version": 0, "idempotency_key": "t1", "number": 1},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    claim = DealClaim.objects.get(match=match)
    pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    assert Deal.objects.get(match=match).outcome == claim.outcome


def test_the_match_audit_says_who_entered_who_disputed_and_who_settled():
    from tests.factories import organiser

    boss = organiser(username="boss")
    match = players_match(organiser_user=boss)
    s = seats(match)
    claim = enter(match, s["N"], NS_WINS).claim
    pe.deal_claim_dispute(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk, counter_outcome=EW_WINS)
    pe.deal_claim_settle(match_id=match.pk, claim_id=claim.pk, user=boss, choice="entered", reason="裁判看牌")
    client = english_client()
    client.force_login(boss)
    body = client.get(reverse("matches:audit", args=[match.pk])).content.decode()
    assert "Players&#x27; entry, deal 1" in body or "Players' entry, deal 1" in body
    for name in (s["N"].player.name, s["E"].player.name, "boss"):
        assert name in body
    assert "settled (entered): 裁判看牌" in body


def test_wrong_codes_are_limited_on_both_the_identify_and_the_confirm_forms():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    s = seats(match)
    client = english_client()
    # the clock held still: on a slow run the pause must not run out before the last request
    with time_machine.travel(timezone.now(), tick=False):
        for _attempt in range(table_codes.DEVICE_FREE + 1):  # the phone's free wrong codes, and one past them
            assert _page(client, token, "me/", code="0000x").status_code == 400
        # the right code is refused too now (this phone is paused), and so is a confirm with a code
        assert _page(client, token, "me/", code=s["N"].player.employee_number).status_code == 429
        claim = enter(match, s["N"], NS_WINS).claim
        response = client.post(
            reverse("matches:table_confirm", args=[token, claim.pk]), {"code": s["E"].player.employee_number}
        )
        assert response.status_code == 429
    assert not Deal.objects.exists()


def test_the_manifests_and_the_service_worker_are_served():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    client = english_client()
    manifest = client.get(reverse("matches:table_manifest", args=[token]))
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == reverse("matches:table", args=[token])
    worker = client.get(reverse("matches:entry_sw"))
    assert worker["Service-Worker-Allowed"] == "/" and b"fetch" in worker.content
    assert client.get(reverse("matches:referee_manifest")).json()["start_url"] == "/referee/"


def test_the_entry_mode_is_set_on_the_event_page_after_the_draw_and_audited():
    from tests.factories import organiser

    boss = organiser()
    match = table_match(organiser_user=boss)  # a round is drawn: the rules are locked, the entry mode is not
    tournament = match.round.stage.tournament
    client = english_client()
    client.force_login(boss)
    data = {"name": tournament.name, "rule_profile": tournament.rule_profile, "entry_mode": "players_referee"}
    response = client.post(reverse("matches:event", args=[tournament.pk]), {**data, "auto_confirm_minutes": 5})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.entry_mode == EntryMode.PLAYERS_REFEREE_CONFIRMS and tournament.auto_confirm_minutes == 5
    assert tournament.history.first().history_user == boss
    bad = client.post(reverse("matches:event", args=[tournament.pk]), {**data, "entry_mode": "everyone"})
    assert bad.status_code == 200 and "entry_mode" in bad.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.entry_mode == EntryMode.PLAYERS_REFEREE_CONFIRMS


def test_the_table_page_refreshes_its_entries_and_deals():
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    s = seats(match)
    claim = enter(match, s["N"], NS_WINS).claim
    client = english_client()
    url = reverse("matches:table", args=[token]) + "?panel=claims"
    body = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-claim="1"' in body and 'hx-swap-oob="true"' in body and "No deals yet." in body
    pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk)
    body = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-claim="1"' not in body and "No deals yet." not in body


def test_the_auto_confirm_task_confirms_what_is_due_and_is_idempotent():
    from tournament.matches.tasks import claims_auto_confirm

    match = players_match()
    tournament = match.round.stage.tournament
    tournament.auto_confirm_minutes = 3
    tournament.save()
    claim = enter(match, seats(match)["N"], NS_WINS).claim  # schedules the task (run at once, eager: nothing due)
    assert DealClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING
    DealClaim.objects.filter(pk=claim.pk).update(entered_at=claim.entered_at - timedelta(minutes=4))
    assert claims_auto_confirm(match.pk) == {"match": match.pk, "confirmed": 1}
    assert claims_auto_confirm(match.pk) == {"match": match.pk, "confirmed": 0}
    assert Deal.objects.filter(match=match).count() == 1
    reasons = [row.history_change_reason for row in DealClaim.objects.get(pk=claim.pk).history.all()]
    assert "confirmed by auto-confirm" in reasons


def test_a_confirmation_proves_the_opponent_by_their_pin_never_by_an_employee_number():
    """North cannot confirm North's own deal by typing East's employee number (colleagues know it),
    nor by saying "this phone is East's" with it: East's PIN, from East's seat slip, confirms."""
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    s = seats(match)
    north = english_client()
    assert _page(north, token, "me/", code=s["N"].player.employee_number).status_code == 302
    claim = enter(match, s["N"], NS_WINS).claim
    confirm = reverse("matches:table_confirm", args=[token, claim.pk])
    refused = north.post(confirm, {"code": s["E"].player.employee_number})
    assert refused.status_code == 400 and "PIN" in refused.content.decode()
    # handed over to "East" by East's employee number: the phone speaks for East, but proves no one
    _page(north, token, "leave/", go="1")
    assert _page(north, token, "me/", code=s["E"].player.employee_number).status_code == 302
    body = _page(north, token).content.decode()
    assert "Your PIN (on your seat slip) to confirm" in body
    refused = north.post(confirm)
    assert refused.status_code == 403 and "PIN" in refused.content.decode()
    assert north.post(confirm, {"code": s["E"].player.employee_number}).status_code == 400
    assert not Deal.objects.filter(match=match).exists()
    assert DealClaim.objects.get(pk=claim.pk).status == "pending"
    # East's own phone, said to be East's by East's PIN: one tap confirms
    east = english_client()
    assert _page(east, token, "me/", code=pe.seat_pin(player_id=s["E"].player.pk)).status_code == 302
    assert "Your PIN (on your seat slip) to confirm" not in _page(east, token).content.decode()
    assert east.post(confirm).status_code == 302
    assert DealClaim.objects.get(pk=claim.pk).answered_by == s["E"].player
    assert Deal.objects.filter(match=match).count() == 1
