"""The referee's pages: my tables, tap-to-enter with a preview, undo, corrections,
sign-off, adjustments, audit — all through the same services, all scoped to the caller."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.finishing_order import FinishingOrder
from scoring.match import replay
from scoring.profiles import PROFILES
from tests.factories import UserFactory, english_client, organiser, referee, round_match, table_match
from tournament.matches.models import (
    Adjustment,
    ChiefReferee,
    Deal,
    Match,
    MatchStatus,
    RoundStatus,
)
from tournament.matches.services import deal_record, match_sign_off

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    """Pages in English for the assertions."""
    return english_client()

# A full match of every profile, ending as the rules core says (docs/rules.md §1–3):
FULL_MATCHES = {
    "classic": (["NS"] * 4 + ["NES"], "NS", "passed_a"),
    # +5 a 1-2 (seed 002); three failed A attempts send N/S back to 2, then E/W climb and pass A
    "timed-40": (["NS"] * 3 + ["EW", "NEW", "EW", "NEW", "EW", "ENW"], "EW", "passed_a"),
    "timed-90": (["EW"] * 4 + ["WNE"], "EW", "passed_a"),
    # six deals at 2 scored 3/2/1, tied 6–6, then one extra deal decides (seed 004)
    "points-6": (["NS", "EW", "NES", "ENW", "NEW", "ENS", "WSE"], "EW", "extra_deal"),
}


def core_result(profile: str, orders: list[str]) -> dict:
    deals = [FinishingOrder.parse(list(order)) for order in orders]
    return replay(options=PROFILES[profile], deals=deals).to_json()


@pytest.fixture
def ref():
    return referee(username="ref")


@pytest.fixture
def boss():
    return organiser(username="boss")


@pytest.fixture
def match(ref, boss):
    return table_match(referee_user=ref, organiser_user=boss)


def page(client: Client, match: Match, order: str = "", **extra):
    url = reverse("matches:match", args=[match.pk])
    return client.get(url, {"order": order} if order else {}, **extra)


def enter(client: Client, match: Match, order: str, **extra):
    """Enter one deal the way the page does: read the version and key the page rendered, post them."""
    context = page(client, match, order).context
    return client.post(
        reverse("matches:deal_create", args=[match.pk]),
        {"order": order, "version": context["match"].version, "idempotency_key": context["idempotency_key"]},
        **extra,
    )


# -- referee home -----------------------------------------------------------------------------------


def test_referee_home_lists_my_tables_this_round_with_their_state(client, ref, match):
    other_table = round_match(round_=match.round, referee_user=referee(username="other"))
    earlier = table_match(referee_user=ref, round_status=RoundStatus.FINISHED)
    for order in ("NS", "EW", "NES"):
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    client.force_login(ref)

    response = client.get(reverse("matches:referee_home"))

    assert response.status_code == 200
    rows = response.context["rows"]
    assert [row.match.pk for row in rows] == [match.pk]
    row = rows[0]
    assert [side.level for side in row.sides] == [10, 7]  # timed-40: +5 a 1-2, +3 a 1-3 (seed 002)
    assert row.sets_level == "NS"
    assert [side.a_failures for side in row.sides] == [0, 0]
    assert row.clock.timed and row.clock.minutes_left == 40
    html = response.content.decode()
    assert str(match.ns_pair) in html and str(match.ew_pair) in html
    assert "40 minutes left" in html and "sets the level" in html
    assert reverse("matches:match", args=[other_table.pk]) not in html
    assert reverse("matches:match", args=[earlier.pk]) not in html
    # htmx polling gets the list only
    fragment = client.get(reverse("matches:referee_home"), HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode() and "Table" in fragment.content.decode()


def test_referee_home_shows_points_in_a_points_format(client, ref):
    match = table_match(profile="points-6", referee_user=ref)
    deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S"]})
    client.force_login(ref)
    row = client.get(reverse("matches:referee_home")).context["rows"][0]
    assert row.points_format and [side.points for side in row.sides] == [2, 0]
    assert not row.clock.timed  # points-6 has no time cap


def test_organisers_see_the_rounds_being_played(client, boss, match):
    client.force_login(boss)
    response = client.get(reverse("matches:referee_home"))
    assert list(response.context["rounds"]) == [match.round]
    assert reverse("matches:round_clock", args=[match.round.stage.tournament_id, match.round_id]) in (
        response.content.decode()
    )


# -- deal entry ------------------------------------------------------------------------------------


def test_tapping_seats_builds_the_order_and_previews_it_from_the_rules_core(client, ref, match):
    client.force_login(ref)
    one = page(client, match, "N")
    assert one.context["taps"] == ["N"] and not one.context["complete"]
    assert f'href="{reverse("matches:match", args=[match.pk])}?order=NE"' in one.content.decode()

    two = page(client, match, "NS")  # partners first and second: 双下 in two taps
    assert two.context["complete"]
    preview = two.context["preview"]
    assert preview.record["upgrade"] == 5 and preview.record["levels_after"] == {"NS": 7, "EW": 2}
    assert preview.result["next_deal"] == {"number": 2, "level": 7, "sets_level": "NS", "extra": False}
    assert preview.tribute.kind.value == "double" and "E and W each give" in preview.tribute.note
    html = two.content.decode()
    assert "goes up 5" in html and "Next: deal 2 at 7" in html and "Tribute" in html
    assert not Deal.objects.exists()  # a preview writes nothing

    three = page(client, match, "NE")
    assert not three.context["complete"]
    assert page(client, match, "NEW").context["preview"].record["partner_place"] == 4


def test_the_preview_shows_a_attempts_failures_and_the_reset(client, ref):
    match = table_match(referee_user=ref)
    for order in ["NS"] * 3 + ["EW", "NEW", "EW", "NEW"]:
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    client.force_login(ref)
    preview = page(client, match, "EW").context["preview"]
    assert preview.record["a_attempt"] and preview.record["reset"]
    assert preview.record["levels_after"] == {"NS": 2, "EW": 14}
    assert "back to 2" in page(client, match, "EW").content.decode()


def test_htmx_taps_swap_only_the_entry_panel(client, ref, match):
    client.force_login(ref)
    response = client.get(
        reverse("matches:match", args=[match.pk]), {"order": "NE", "panel": "entry"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="entry"') and "<html" not in html


@pytest.mark.parametrize("profile", sorted(FULL_MATCHES))
def test_a_full_match_of_every_profile_through_the_web_forms(client, ref, profile):
    orders, winner, reason = FULL_MATCHES[profile]
    match = table_match(profile=profile, referee_user=ref)
    client.force_login(ref)
    for order in orders:
        response = enter(client, match, order)
        assert response.status_code == 302, response.content.decode()[:500]
    match.refresh_from_db()
    assert match.state == core_result(profile, orders)
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, winner, reason)

    response = client.post(reverse("matches:sign_off", args=[match.pk]), {"version": match.version})
    assert response.status_code == 302 and response.url == reverse("matches:referee_home")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.signed_off_by == ref
    match.round.refresh_from_db()
    assert match.round.status == RoundStatus.FINISHED  # its only match is confirmed
    # the round is over: the referee reads the table as it ended, changes nothing; the organiser can reopen it
    finished = client.get(reverse("matches:match", args=[match.pk]))
    assert finished.status_code == 200 and finished.context["read_only"] is True
    assert client.post(reverse("matches:match_start", args=[match.pk])).status_code == 404


def test_htmx_entry_returns_the_new_match_body(client, ref, match):
    client.force_login(ref)
    response = enter(client, match, "NS", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith("<div id=\"match\"") and "Deal 2" in html


def test_a_double_submitted_form_records_one_deal(client, ref, match):
    client.force_login(ref)
    context = page(client, match, "NS").context
    data = {"order": "NS", "version": 0, "idempotency_key": context["idempotency_key"]}
    url = reverse("matches:deal_create", args=[match.pk])
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # the same key: the first result
    assert Deal.objects.filter(match=match).count() == 1


def test_a_stale_form_gets_409_with_the_current_state(client, ref, match):
    client.force_login(ref)
    stale = page(client, match, "NS").context
    deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})  # another device got there first
    response = client.post(
        reverse("matches:deal_create", args=[match.pk]),
        {"order": "NS", "version": stale["match"].version, "idempotency_key": stale["idempotency_key"]},
    )
    assert response.status_code == 409
    assert response.context["match"].version == 1
    assert "Someone else changed this match" in response.content.decode()
    assert Deal.objects.filter(match=match).count() == 1


def test_an_impossible_deal_is_refused_with_the_rules_cores_message(client, ref, match):
    client.force_login(ref)
    for order in ["NS"] * 3 + ["NES"]:
        enter(client, match, order)
    response = client.post(
        reverse("matches:deal_create", args=[match.pk]), {"order": "EW", "version": 4, "idempotency_key": "x"}
    )
    assert response.status_code == 409  # match_finished
    assert "already finished" in response.content.decode()
    bad = client.post(reverse("matches:deal_create", args=[match.pk]), {"order": "NE", "version": 4})
    assert bad.status_code == 400
    assert Deal.objects.filter(match=match).count() == 4


def test_undo_removes_the_last_deal_and_keeps_it_in_the_history(client, ref, boss, match):
    client.force_login(ref)
    enter(client, match, "NS")
    enter(client, match, "EW")
    match.refresh_from_db()
    undo = reverse("matches:deal_undo", args=[match.pk])
    assert 'name="reason"' in page(client, match).content.decode()  # the undo form asks for it
    refused = client.post(undo, {"version": match.version, "reason": ""})
    assert refused.status_code == 400 and "Give a reason" in refused.content.decode()
    assert match.deals.count() == 2  # nothing changed
    response = client.post(undo, {"version": match.version, "reason": "entered twice"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert list(match.deals.values_list("outcome", flat=True)) == [{"order": ["N", "S"]}]
    assert match.state["levels"] == {"NS": 7, "EW": 2}
    deleted = Deal.history.filter(match_id=match.pk, history_type="-").get()
    assert deleted.number == 2 and deleted.history_user == ref
    assert deleted.history_change_reason == "entered twice"  # the audit records why


# -- corrections -----------------------------------------------------------------------------------


def test_a_correction_that_shortens_the_match_flags_later_deals_until_resolved(client, ref, boss, match):
    client.force_login(ref)
    for order in ["NS"] * 3 + ["NEW", "NES"]:  # deal 4 a failed A attempt, deal 5 passes A
        enter(client, match, order)
    match.refresh_from_db()
    edit = reverse("matches:deal_edit", args=[match.pk, 4])
    preview = client.get(edit, {"order": "NS"}).context["preview"]
    assert preview.result["status"] == "finished" and preview.flagged_after == 1

    response = client.post(
        edit, {"order": "NS", "reason": "wrong seat tapped", "version": match.version}, REMOTE_ADDR="10.1.2.3"
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "passed_a")
    assert list(match.deals.order_by("number").values_list("flagged", flat=True)) == [False] * 4 + [True]
    refused = client.post(reverse("matches:sign_off", args=[match.pk]), {"version": match.version})
    assert refused.status_code == 409
    assert "flagged" in refused.content.decode()

    delete = reverse("matches:deal_delete", args=[match.pk, 5])
    assert client.post(delete, {"reason": "not played", "version": match.version}).status_code == 302
    match.refresh_from_db()
    assert client.post(reverse("matches:sign_off", args=[match.pk]), {"version": match.version}).status_code == 302

    corrected = Deal.history.filter(match_id=match.pk, number=4, history_type="~").get()
    assert corrected.outcome == {"order": ["N", "S"]}
    assert (corrected.history_user, corrected.history_change_reason) == (ref, "wrong seat tapped")
    assert corrected.history_ip_address == "10.1.2.3"
    assert Deal.history.filter(match_id=match.pk, history_type="-", history_change_reason="not played").exists()
    # the organiser reads it per match: who, when, from where, before → after, why
    client.force_login(boss)
    audit = client.get(reverse("matches:audit", args=[match.pk]))
    entries = audit.context["entries"]
    change = next(e for e in entries if e.subject == "Deal 4" and e.action == "changed")
    assert change.changes == [("outcome", "N › E › W", "N › S")]
    assert (change.who, change.ip, change.reason) == ("ref", "10.1.2.3", "wrong seat tapped")
    assert any(e.subject == "Deal 5" and e.action == "deleted" for e in entries)
    assert "wrong seat tapped" in audit.content.decode()


def test_a_correction_that_lengthens_the_match_reopens_it(client, ref, match):
    client.force_login(ref)
    for order in ["NS"] * 3 + ["NES"]:
        enter(client, match, order)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    response = client.post(
        reverse("matches:deal_edit", args=[match.pk, 4]),
        {"order": "NEW", "reason": "S finished last", "version": match.version},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner) == (MatchStatus.RUNNING, "")
    assert match.state["a_failures"] == {"NS": 1, "EW": 0}
    assert enter(client, match, "NS").status_code == 302  # play goes on
    match.refresh_from_db()
    assert match.state == core_result("timed-40", ["NS"] * 3 + ["NEW", "NS"])
    assert Match.history.filter(id=match.pk, history_change_reason="S finished last").exists()


def test_a_correction_needs_a_reason_and_a_readable_order(client, ref, match):
    client.force_login(ref)
    enter(client, match, "NS")
    edit = reverse("matches:deal_edit", args=[match.pk, 1])
    assert client.post(edit, {"order": "EW", "reason": "", "version": 1}).status_code == 400
    assert client.post(edit, {"order": "E", "reason": "x", "version": 1}).status_code == 400
    assert client.get(reverse("matches:deal_edit", args=[match.pk, 9])).status_code == 404
    assert Deal.objects.get(match=match).outcome == {"order": ["N", "S"]}


# -- sign-off and unlock ----------------------------------------------------------------------------


def test_a_signed_off_match_is_locked_until_an_organiser_unlocks_it_with_a_reason(client, ref, boss, match):
    round_match(round_=match.round)  # another table still playing: the round goes on
    client.force_login(ref)
    for order in ["NS"] * 3 + ["NES"]:
        enter(client, match, order)
    assert client.post(reverse("matches:sign_off", args=[match.pk]), {"version": 4}).status_code == 302
    locked = client.post(reverse("matches:deal_undo", args=[match.pk]), {"version": 5, "reason": "late"})
    assert locked.status_code == 409 and "signed off" in locked.content.decode()
    assert client.get(reverse("matches:unlock", args=[match.pk])).status_code == 404  # referees cannot

    client.force_login(boss)
    unlock = reverse("matches:unlock", args=[match.pk])
    assert client.post(unlock, {"reason": ""}).status_code == 400
    assert client.post(unlock, {"reason": "players dispute deal 5"}).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.signed_off_by is None
    row = Match.history.filter(id=match.pk, history_change_reason="players dispute deal 5").get()
    assert row.history_user == boss


def test_sign_off_needs_a_finished_match(client, ref, match):
    client.force_login(ref)
    enter(client, match, "NS")
    response = client.post(reverse("matches:sign_off", args=[match.pk]), {"version": 1})
    assert response.status_code == 409 and "no result yet" in response.content.decode()


# -- adjustments -----------------------------------------------------------------------------------


def test_adjustments_are_for_the_organiser_and_chief_referee_only(client, ref, boss, match):
    url = reverse("matches:adjustments", args=[match.pk])
    client.force_login(ref)
    assert client.get(url).status_code == 404
    client.force_login(boss)
    response = client.post(
        url,
        {"kind": "penalty", "side": "EW", "levels": 2, "reason": "signalling", "version": 0},
        REMOTE_ADDR="10.9.9.9",
    )
    assert response.status_code == 302, response.content.decode()[:800]
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 4, "EW": 2}
    adjustment = Adjustment.objects.get(match=match)
    assert adjustment.created_by == boss and adjustment.reason == "signalling"
    history = adjustment.history.get()
    assert (history.history_user, history.history_ip_address) == (boss, "10.9.9.9")

    chief = referee(username="chief")
    ChiefReferee.objects.create(tournament=match.round.stage.tournament, user=chief)
    client.force_login(chief)
    assert client.get(url).status_code == 200
    assert client.get(reverse("matches:match", args=[match.pk])).status_code == 200  # reaches every table


def test_a_late_pair_and_a_forfeit_through_the_form(client, boss, match):
    client.force_login(boss)
    url = reverse("matches:adjustments", args=[match.pk])
    late = client.post(
        url, {"kind": "late_arrival", "side": "NS", "minutes_late": 12, "reason": "late", "version": 0}
    )
    assert late.status_code == 302
    match.refresh_from_db()
    assert match.state["adjustments"][0]["effect"] == "opponents_upgrade"  # timed-40: 11–15 min, 2 levels
    assert match.state["levels"] == {"NS": 2, "EW": 4}
    # The referee is told there what it did, not only the workbook.
    assert "Effect: opponents up 2 levels" in client.get(url).content.decode()
    player = match.ew_pair.players.first()
    forfeit = client.post(
        url,
        {"kind": "forfeit", "side": "EW", "absent_player": player.pk, "reason": "W absent", "version": 1},
    )
    assert forfeit.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "forfeit")
    assert Adjustment.objects.get(kind="forfeit").absent_player == player
    refused = client.post(url, {"kind": "penalty", "side": "EW", "levels": 1, "reason": "x", "version": 2})
    assert refused.status_code == 400 and "already finished" in refused.content.decode()


def test_both_pairs_absent_is_a_double_forfeit(client, boss, match):
    client.force_login(boss)
    response = client.post(
        reverse("matches:adjustments", args=[match.pk]),
        {"kind": "forfeit", "side": "both", "reason": "nobody came", "version": 0},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "", "forfeit")
    assert Adjustment.objects.filter(match=match, flagged=False).count() == 2


# -- roles, CSRF, throttling ------------------------------------------------------------------------


def _referee_endpoints(match: Match) -> list[tuple[str, str, dict]]:
    pk = match.pk
    return [
        ("get", reverse("matches:match", args=[pk]), {}),
        ("post", reverse("matches:deal_create", args=[pk]), {"order": "NS", "version": 1}),
        ("post", reverse("matches:deal_undo", args=[pk]), {"version": 1}),
        ("get", reverse("matches:deal_edit", args=[pk, 1]), {}),
        ("post", reverse("matches:deal_edit", args=[pk, 1]), {"order": "EW", "reason": "x", "version": 1}),
        ("get", reverse("matches:deal_delete", args=[pk, 1]), {}),
        ("post", reverse("matches:deal_delete", args=[pk, 1]), {"reason": "x", "version": 1}),
        ("post", reverse("matches:match_start", args=[pk]), {}),
        ("post", reverse("matches:sign_off", args=[pk]), {"version": 1}),
        ("get", reverse("matches:unlock", args=[pk]), {}),
        ("get", reverse("matches:adjustments", args=[pk]), {}),
        ("post", reverse("matches:adjustment_delete", args=[pk, 1]), {"reason": "x", "version": 1}),
        ("get", reverse("matches:audit", args=[pk]), {}),
    ]


OUT_OF_SCOPE = [
    "referee_of_another_table",
    "my_table_in_a_draft_round",
    "other_organiser",
]


@pytest.mark.parametrize("who", OUT_OF_SCOPE)
def test_every_referee_page_is_404_out_of_scope(client, who):
    me = referee(username="me")
    if who == "my_table_in_a_draft_round":
        match = table_match(referee_user=me, round_status=RoundStatus.DRAFT)
    else:
        match = table_match(referee_user=referee(username="someone"))
        if who == "referee_of_another_table":
            round_match(round_=match.round, referee_user=me)  # mine is the next table
        else:
            me = organiser(username="elsewhere")
            table_match(organiser_user=me)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    client.force_login(me)
    for method, url, data in _referee_endpoints(match):
        assert getattr(client, method)(url, data).status_code == 404, (method, url)
    assert Deal.objects.filter(match=match).count() == 1


def test_my_table_in_a_finished_round_opens_read_only_and_refuses_every_change(client):
    """A referee opening a table of a finished round sees it as it ended, not a 404."""
    me = referee(username="me")
    match = table_match(referee_user=me, round_status=RoundStatus.FINISHED)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    client.force_login(me)
    endpoints = _referee_endpoints(match)
    read = client.get(endpoints[0][1])
    html = read.content.decode()
    assert read.status_code == 200 and read.context["read_only"] is True
    assert "read-only" in html and "N › S" in html  # the deal as it was entered
    assert 'name="reason"' not in html and "deal_create" not in html  # no undo, no entry
    assert reverse("matches:deal_edit", args=[match.pk, 1]) not in html  # no correction links
    for method, url, data in endpoints[1:]:
        assert getattr(client, method)(url, data).status_code == 404, (method, url)
    assert Deal.objects.filter(match=match).count() == 1


def test_the_public_is_sent_to_log_in(client, match):
    for method, url, data in _referee_endpoints(match):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url
    assert client.get(reverse("matches:referee_home")).status_code == 302


def test_forms_need_the_csrf_token(ref, match):
    client = english_client(enforce_csrf_checks=True)
    client.force_login(ref)
    response = client.post(reverse("matches:deal_create", args=[match.pk]), {"order": "NS", "version": 0})
    assert response.status_code == 403
    assert not Deal.objects.exists()
    form = client.get(reverse("matches:match", args=[match.pk]), {"order": "NS"}).content.decode()
    assert 'name="csrfmiddlewaretoken"' in form


def test_login_attempts_are_throttled(client):
    UserFactory(username="referee9", password="right-password-123")
    for _ in range(4):
        response = client.post(reverse("login"), {"username": "referee9", "password": "wrong"})
        assert response.status_code == 200
    assert client.post(reverse("login"), {"username": "referee9", "password": "wrong"}).status_code == 429
    locked = client.post(reverse("login"), {"username": "referee9", "password": "right-password-123"})
    assert locked.status_code == 429
    page = locked.content.decode()  # the site's page, saying for how long, not axes' one line
    assert '<link rel="stylesheet"' in page and "Too many wrong passwords" in page and "15 minutes" in page
    chinese = Client(REMOTE_ADDR="127.0.0.1").post(reverse("login"), {"username": "referee9", "password": "x"})
    assert chinese.status_code == 429 and "密码错误次数过多" in chinese.content.decode()
    assert "_auth_user_id" not in client.session
    elsewhere = english_client(REMOTE_ADDR="10.0.0.8")  # the lockout is per username and address
    right = {"username": "referee9", "password": "right-password-123"}
    assert elsewhere.post(reverse("login"), right).status_code == 302


def test_the_match_page_is_chinese_by_default(ref, match):
    client = Client()
    client.force_login(ref)
    html = client.get(reverse("matches:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="zh-hans">' in html


def test_who_signed_off_is_named_not_shown_as_an_account(client):
    ref = referee(username="referee-3-fc26efd7e2")
    ref.first_name = "裁判周七"
    ref.save()
    boss = organiser(username="boss")
    match = table_match(referee_user=ref, organiser_user=boss)
    while Match.objects.get(pk=match.pk).status != MatchStatus.FINISHED:
        deal_record(match_id=match.pk, outcome={"order": ["N", "S", "E", "W"]}, user=ref)
    match_sign_off(match_id=match.pk, user=ref)
    client.force_login(boss)
    html = client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Confirmed by 裁判周七." in html and "referee-3-fc26efd7e2" not in html


def test_a_correction_preview_says_the_later_deals_still_count(client, ref, match):
    client.force_login(ref)
    for order in ("NS", "NS", "EW"):
        enter(client, match, order)
    # Deal 1 corrected to an E/W win: the levels shown are after deal 1, the match's state after deal 3.
    html = client.get(reverse("matches:deal_edit", args=[match.pk, 1]), {"order": "EW"}).content.decode()
    assert "With the 2 later deals, which still count:" in html
