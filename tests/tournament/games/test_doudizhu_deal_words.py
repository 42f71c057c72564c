"""A Dou Dizhu deal is a 局 wherever a page names one (docs/rules.md §10): the referee's undo, the table's
entries awaiting confirmation and the offline queue's messages (built in the browser from the words the
page gives it) — never Guandan's 副, which Guandan's pages keep."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournament.games.doudizhu_event import drawn_round
from tournament.games import DOUDIZHU, GUANDAN
from tournament.matches import player_entry as pe
from tournament.matches import services
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db

DEAL = {"landlord": "E", "bid": 2, "winner": "landlord"}


def _text(html: str) -> str:
    """What a page shows and the words its scripts show later (the data-w-* attributes)."""
    return re.sub(r"<script.*?</script>", "", html, flags=re.S)


def test_the_referees_page_names_a_deal_a_ju(client, table, ref):
    services.deal_record(match_id=table.pk, outcome=DEAL, user=ref)
    client.force_login(ref)
    body = _text(client.get(reverse("matches:match", args=[table.pk])).content.decode())
    assert "撤销上一局" in body and "撤销第 1 局" in body
    assert "副" not in body, re.findall(r".{20}副.{20}", body)
    undone = client.post(reverse("matches:deal_undo", args=[table.pk]), {"version": 1, "reason": "录错"}, follow=True)
    assert "已撤销上一局。" in undone.content.decode()


def test_the_tables_page_names_a_deal_a_ju(event, boss):
    tournament, stage = event
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    match = drawn_round(stage, user=boss).matches.order_by("table__number").first()
    east = next(seat for seat in pe.table_players(match=match) if seat.seat == "E")
    pe.deal_claim_enter(
        match_id=match.pk, outcome=DEAL, player_id=east.player.pk, number=1, idempotency_key=uuid.uuid4().hex
    )
    body = _text(
        Client()
        .get(reverse("matches:table", args=[table_token(round_=match.round, table_id=match.table_id)]))
        .content.decode()
    )
    assert "含 1 局待确认。" in body and 'data-w-waiting-one="1 局等待发送"' in body
    assert 'data-w-accepted="第 {n} 局：已接收"' in body and 'data-w-deal="第 {n} 局"' in body
    # the badge: the table is under way while an entry waits (not 未开始), the entry counted in 局
    assert "进行中 · 1 局待确认" in body or "1 局待确认" in body
    assert 'data-state="playing"' in body
    assert "副" not in body, re.findall(r".{20}副.{20}", body)


def test_guandan_keeps_its_fu():
    with translation.override("zh-hans"):
        assert str(GUANDAN.deal_words["undo"]) == "撤销上一副"
        assert str(DOUDIZHU.deal_words["undo"]) == "撤销上一局"
        assert str(GUANDAN.deal_words["pending"] % {"n": 2}) == "含 2 副待确认的牌。"


def test_a_chinese_page_names_a_seat_in_chinese_only():
    from tournament.matches.templatetags.match_tags import three_seat_name

    with translation.override("zh-hans"):
        assert three_seat_name("E") == "东"
    with translation.override("en"):
        assert three_seat_name("E") == "E · East"


def test_the_deal_form_chooses_the_landlord_whose_turn_it_is():
    """Landlords drawn by lot pass on in turn (docs/rules.md §10): after E, W — the stored snapshot says so and
    the form starts there; before the first deal the lot at the table decides, and the form says so."""
    from scoring.doudizhu_snapshot import TableSnapshot
    from tournament.matches.deal_forms import DoudizhuDealFields

    stored = {"status": "in_progress", "deals": [], "next_deal": {"number": 2, "landlord": "W"}}
    assert TableSnapshot.from_json(stored).next_landlord == "W"
    assert TableSnapshot.from_json({**stored, "next_deal": {"number": 2}}).next_landlord is None
    turn = DoudizhuDealFields(None, next_deal={"number": 2, "landlord": "W", "landlord_by": "lot"})
    assert turn["landlord"].value() == "W" and turn.landlord_turn == "W"
    first = DoudizhuDealFields(None, next_deal={"number": 1, "landlord": None, "landlord_by": "lot"})
    assert first["landlord"].value() in (None, "") and first.landlord_turn == ""


def test_the_player_entrys_refusals_and_the_audit_name_a_ju(event, boss, ref):
    """The refusals of the players' entry and the audit's subjects name a deal as the game does."""
    from tournament.matches.audit_log import match_audit

    tournament, stage = event
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    match = drawn_round(stage, user=boss).matches.order_by("table__number").first()
    seats = {seat.seat: seat.player.pk for seat in pe.table_players(match=match)}

    def enter(seat: str, number: int):
        return pe.deal_claim_enter(
            match_id=match.pk, outcome=DEAL, player_id=seats[seat], number=number, idempotency_key=uuid.uuid4().hex
        ).claim

    with translation.override("zh-hans"):
        enter("E", 1)
        with pytest.raises(pe.ClaimRefused) as stale:
            enter("S", 1)  # the same deal at the same time on another phone
        assert stale.value.code == "stale_number" and "第 1 局已由对方同时录入" in stale.value.message
        second = enter("S", 2)
        with pytest.raises(pe.ClaimRefused) as in_order:
            pe.deal_claim_confirm(match_id=match.pk, claim_id=second.pk, player_id=seats["W"])
        assert in_order.value.code == "confirm_in_order" and in_order.value.message == "请先处理第 1 局。"
        services.deal_record(match_id=match.pk, outcome=DEAL, user=ref)
        subjects = {entry.subject for entry in match_audit(match=match)}
    assert "第 1 局" in subjects and "选手录入，第 1 局" in subjects
    assert not any("副" in subject for subject in subjects), subjects
    with translation.override("en"):
        assert "Deal 1" in {entry.subject for entry in match_audit(match=match)}
