"""The referee API: token-authenticated devices do what the pages do, through the same
services; errors carry the rules core's code; out of scope is 404."""

from __future__ import annotations

import datetime as dt
import time

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.finishing_order import FinishingOrder
from scoring.match import replay
from scoring.profiles import PROFILES
from tests.factories import UserFactory, organiser, referee, round_match, table_match
from tournament.matches.clock import round_start
from tournament.matches.models import Adjustment, ChiefReferee, Deal, Match, MatchStatus, RoundStatus
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db

FULL_MATCHES = {
    "classic": ["NS"] * 4 + ["NES"],
    "timed-40": ["NS"] * 3 + ["EW", "NEW", "EW", "NEW", "EW", "ENW"],  # +5 a 1-2 (seed 002)
    "timed-90": ["EW"] * 4 + ["WNE"],
    "points-6": ["NS", "EW", "NES", "ENW", "NEW", "ENS", "WSE"],
}


def device(user) -> APIClient:
    """A referee's phone: a token, no session."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def enter(client: APIClient, match: Match, order: str, **extra):
    version = client.get(reverse("api:match", args=[match.pk])).data["version"]
    data = {"order": list(order), "expected_version": version, **extra}
    return client.post(reverse("api:deals", args=[match.pk]), data, format="json")


@pytest.fixture
def ref():
    return referee(username="ref")


@pytest.fixture
def boss():
    return organiser(username="boss")


@pytest.fixture
def match(ref, boss):
    return table_match(referee_user=ref, organiser_user=boss)


def test_a_device_gets_a_token_with_its_login(ref):
    client = APIClient()
    ref.set_password("referee-pass-1")
    ref.save()
    response = client.post(reverse("api:token"), {"username": "ref", "password": "referee-pass-1"}, format="json")
    assert response.status_code == 200
    assert response.data["token"] == Token.objects.get(user=ref).key


def test_token_logins_are_throttled_too(ref):
    ref.set_password("referee-pass-1")
    ref.save()
    client = APIClient()
    for _ in range(5):
        client.post(reverse("api:token"), {"username": "ref", "password": "nope"}, format="json")
    response = client.post(reverse("api:token"), {"username": "ref", "password": "referee-pass-1"}, format="json")
    assert response.status_code != 200 and "token" not in (response.data or {})


def test_my_tables_lists_the_tables_assigned_to_me_this_round(ref, match):
    round_match(round_=match.round, referee_user=referee(username="other"))
    table_match(referee_user=ref, round_status=RoundStatus.FINISHED)
    response = device(ref).get(reverse("api:my_tables"))
    assert response.status_code == 200
    assert [row["id"] for row in response.data["results"]] == [match.pk]
    row = response.data["results"][0]
    assert row["table"] == match.table.number and row["ns_pair"]["name"] == match.ns_pair.name
    assert row["levels"] == {"NS": 2, "EW": 2} and row["next_deal"]["number"] == 1
    assert row["clock"]["ends_at"] is None and row["status"] == "pending"


def test_organisers_list_a_rounds_matches(boss, match):
    round_match(round_=match.round)
    response = device(boss).get(reverse("api:my_tables"), {"round": match.round_id})
    assert len(response.data["results"]) == 2
    assert device(boss).get(reverse("api:my_tables")).data["results"] == []  # no tables of their own


@pytest.mark.parametrize("profile", sorted(FULL_MATCHES))
def test_a_full_match_of_every_profile_through_the_api(ref, profile):
    orders = FULL_MATCHES[profile]
    match = table_match(profile=profile, referee_user=ref)
    client = device(ref)
    assert client.post(reverse("api:match_start", args=[match.pk])).status_code == 200
    for order in orders:
        response = enter(client, match, order)
        assert response.status_code == 201, response.data
    expected = replay(options=PROFILES[profile], deals=[FinishingOrder.parse(list(o)) for o in orders]).to_json()
    match.refresh_from_db()
    assert match.state == expected
    body = response.data["match"]
    assert (body["status"], body["winner"]) == ("finished", expected["winner"])
    assert body["result_reason"] == expected["reason"]
    assert body["levels"] == expected["levels"] and len(body["deals"]) == len(orders)
    signed = client.post(reverse("api:sign_off", args=[match.pk]), {"expected_version": body["version"]}, format="json")
    assert signed.status_code == 200 and signed.data["status"] == "confirmed"


def test_the_preview_says_what_a_deal_would_do_and_writes_nothing(ref, match):
    response = device(ref).post(reverse("api:deal_preview", args=[match.pk]), {"order": ["N", "S"]}, format="json")
    assert response.status_code == 200
    assert response.data["record"]["upgrade"] == 5  # timed-40: 双贡 +5 (seed 002)
    assert response.data["result"]["next_deal"]["sets_level"] == "NS"
    assert response.data["tribute"]["kind"] == "double"
    assert not Deal.objects.exists()


def test_errors_carry_the_rules_cores_code(ref, match):
    client = device(ref)
    url = reverse("api:deals", args=[match.pk])
    bad = client.post(url, {"order": ["N", "E"], "expected_version": 0}, format="json")
    assert bad.status_code == 400 and bad.data["error"]["code"] == "invalid_order"
    assert bad.data["error"]["message_en"].startswith("N and E are not partners")
    shape = client.post(reverse("api:deals", args=[match.pk]), {"order": ["X"]}, format="json")
    assert shape.status_code == 400 and shape.data["error"]["code"] == "bad_input"
    for order in ["NS"] * 3 + ["NES"]:  # 2→7→12→A (+5, seed 002), then passes A
        enter(client, match, order)
    finished = enter(client, match, "EW")
    assert finished.status_code == 409 and finished.data["error"]["code"] == "match_finished"
    assert Deal.objects.filter(match=match).count() == 4


def test_a_stale_version_is_409_with_the_current_state(ref, match):
    client = device(ref)
    deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    response = client.post(
        reverse("api:deals", args=[match.pk]), {"order": ["N", "S"], "expected_version": 0}, format="json"
    )
    assert response.status_code == 409
    error = response.data["error"]
    assert error["code"] == "stale_version"
    assert error["match"]["version"] == 1 and error["match"]["levels"] == {"NS": 2, "EW": 7}
    assert error["match"]["deals"][0]["outcome"] == {"order": ["E", "W"]}


def test_a_retried_request_returns_the_first_response(ref, match):
    client = device(ref)
    url = reverse("api:deals", args=[match.pk])
    # the clock held still: the answer's seconds left must not tick between the two requests on a slow run
    with time_machine.travel(timezone.now(), tick=False):
        body = {"order": ["N", "S"], "expected_version": 0}
        first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
        again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.data["deal"] == first.data["deal"] and again.data["match"] == first.data["match"]
    assert again.data["replayed"] is True and first.data["replayed"] is False
    assert Deal.objects.filter(match=match).count() == 1


def test_a_deals_answer_is_the_match_as_read_afterwards_without_reading_it_again(ref, match, monkeypatch):
    """The answer is built from the match the write stored (one query less a deal)."""
    from tournament.api import match_views

    client = device(ref)
    url = reverse("api:deals", args=[match.pk])
    reread = match_views._detail
    for order in ("NS", "EW", "NES"):
        version = client.get(reverse("api:match", args=[match.pk])).data["version"]
        monkeypatch.setattr(match_views, "_detail", lambda match_id: pytest.fail("the match was read again"))
        queries: list[str] = []

        def note(execute, sql, *args, queries=queries):
            queries.append(sql)
            return execute(sql, *args)

        # the answer and the read afterwards at one instant: the clock's seconds left count whole seconds
        with time_machine.travel(time.time(), tick=False):
            with connection.execute_wrapper(note):
                answer = client.post(url, {"order": list(order), "expected_version": version}, format="json")
            monkeypatch.setattr(match_views, "_detail", reread)
            assert answer.status_code == 201
            assert answer.data["match"] == client.get(reverse("api:match", args=[match.pk])).data
        # nor its deals and flags: the write passes the rows it folded
        written = queries.index(next(sql for sql in queries if sql.startswith("UPDATE") and "matches_match" in sql))
        assert [sql for sql in queries[written:] if "matches_deal" in sql or "matches_adjustment" in sql] == []


def test_correct_delete_and_undo_through_the_api(ref, boss, match):
    client = device(ref)
    for order in ["NS"] * 3 + ["NEW", "NES"]:  # at A after 3 deals (+5, seed 002)
        enter(client, match, order)
    url = reverse("api:deal", args=[match.pk, 4])
    corrected = client.put(url, {"order": ["N", "S"], "reason": "misread", "expected_version": 5}, format="json")
    assert corrected.status_code == 200
    assert corrected.data["result_reason"] == "passed_a" and corrected.data["flagged"] == 1
    assert [deal["flagged"] for deal in corrected.data["deals"]] == [False] * 4 + [True]
    refused = client.post(reverse("api:sign_off", args=[match.pk]), {"expected_version": 6}, format="json")
    assert refused.status_code == 409 and refused.data["error"]["code"] == "flagged_deals"
    assert refused.data["error"]["match"]["flagged"] == 1
    deleted = client.delete(
        reverse("api:deal", args=[match.pk, 5]), {"reason": "not played", "expected_version": 6}, format="json"
    )
    assert deleted.status_code == 200 and len(deleted.data["deals"]) == 4
    no_reason_undo = client.post(reverse("api:undo", args=[match.pk]), {"expected_version": 7}, format="json")
    assert no_reason_undo.status_code == 400  # undo asks for a reason like a correction
    undone = client.post(
        reverse("api:undo", args=[match.pk]), {"reason": "tapped twice", "expected_version": 7}, format="json"
    )
    assert undone.status_code == 200 and undone.data["status"] == "running"
    no_reason = client.put(url, {"order": ["N", "S"], "reason": "", "expected_version": 8}, format="json")
    assert no_reason.status_code == 400
    history = Deal.history.filter(match_id=match.pk, history_change_reason="misread").get()
    assert history.history_user == ref


def test_unlock_and_adjustments_are_for_organisers(ref, boss, match):
    round_match(round_=match.round)  # another table still playing: the round goes on
    client = device(ref)
    for order in ["NS"] * 3 + ["NES"]:
        enter(client, match, order)
    client.post(reverse("api:sign_off", args=[match.pk]), {"expected_version": 4}, format="json")
    assert client.post(reverse("api:unlock", args=[match.pk]), {"reason": "x"}, format="json").status_code == 404
    adjustment = {"side": "EW", "kind": "warning", "reason": "talking", "expected_version": 5}
    assert client.post(reverse("api:adjustments", args=[match.pk]), adjustment, format="json").status_code == 404
    locked = enter(client, match, "EW")
    assert locked.status_code == 409 and locked.data["error"]["code"] == "match_locked"

    organiser_device = device(boss)
    unlocked = organiser_device.post(reverse("api:unlock", args=[match.pk]), {"reason": "dispute"}, format="json")
    assert unlocked.status_code == 200 and unlocked.data["status"] == "finished"
    created = organiser_device.post(
        reverse("api:adjustments", args=[match.pk]), {**adjustment, "expected_version": 6}, format="json"
    )
    assert created.status_code == 201
    assert Adjustment.objects.get(match=match).created_by == boss

    chief = referee(username="chief")
    ChiefReferee.objects.create(tournament=match.round.stage.tournament, user=chief)
    penalty = {"side": "EW", "kind": "penalty", "levels": 1, "reason": "x", "expected_version": 7}
    refused = device(chief).post(reverse("api:adjustments", args=[match.pk]), penalty, format="json")
    assert refused.status_code == 409 and refused.data["error"]["code"] == "match_finished"


def test_an_organiser_starts_a_round(boss, ref, match):
    round_match(round_=match.round)
    assert device(ref).post(reverse("api:round_start", args=[match.round_id])).status_code == 404
    response = device(boss).post(reverse("api:round_start", args=[match.round_id]))
    assert response.status_code == 200
    assert all(row["clock"]["ends_at"] for row in response.data) and len(response.data) == 2


def test_the_api_shows_a_due_time_call_and_the_next_deal_stores_it(ref, match, time_machine):
    time_machine.move_to(dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc), tick=False)
    round_start(round_id=match.round_id)
    enter(device(ref), match, "NS")
    time_machine.shift(dt.timedelta(minutes=41))
    body = device(ref).get(reverse("api:match", args=[match.pk])).data
    assert body["time_called_during_deal"] == 2 and body["clock"]["time_called"]
    match.refresh_from_db()
    assert match.time_called_during_deal is None  # a read stores nothing …
    assert enter(device(ref), match, "EW").data["match"]["status"] == "finished"  # … the write does
    match.refresh_from_db()
    assert match.time_called_during_deal == 2


def test_the_api_clock_says_paused_and_stands_still(boss, ref, match, time_machine):
    """The referee's phone shows what the page shows: 已暂停, the minutes left standing still."""
    from tournament.matches.clock import round_pause, round_resume

    t0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)
    time_machine.move_to(t0, tick=False)
    round_start(round_id=match.round_id)
    clock = device(ref).get(reverse("api:match", args=[match.pk])).data["clock"]
    assert (clock["paused"], clock["paused_at"], clock["seconds_left"]) == (False, None, 40 * 60)
    time_machine.shift(dt.timedelta(minutes=10))
    round_pause(round_id=match.round_id, reason="fire alarm", user=boss)
    time_machine.shift(dt.timedelta(minutes=5))
    clock = device(ref).get(reverse("api:match", args=[match.pk])).data["clock"]
    assert clock["paused"] is True and clock["seconds_left"] == 30 * 60 and not clock["time_called"]
    body = device(ref).get(reverse("api:match", args=[match.pk])).json()["clock"]  # as the phone reads it
    assert dt.datetime.fromisoformat(body["paused_at"].replace("Z", "+00:00")) == t0 + dt.timedelta(minutes=10)
    listed = device(ref).get(reverse("api:my_tables")).data["results"]
    assert [row["clock"]["paused"] for row in listed if row["id"] == match.pk] == [True]
    round_resume(round_id=match.round_id, reason="all clear", user=boss)
    clock = device(ref).get(reverse("api:match", args=[match.pk])).data["clock"]
    assert (clock["paused"], clock["paused_at"], clock["seconds_left"]) == (False, None, 30 * 60)


def _endpoints(match: Match) -> list[tuple[str, str, dict]]:
    pk = match.pk
    return [
        ("get", reverse("api:match", args=[pk]), {}),
        ("post", reverse("api:match_start", args=[pk]), {}),
        ("post", reverse("api:deals", args=[pk]), {"order": ["N", "S"], "expected_version": 1}),
        ("post", reverse("api:deal_preview", args=[pk]), {"order": ["N", "S"]}),
        ("put", reverse("api:deal", args=[pk, 1]), {"order": ["E", "W"], "reason": "x", "expected_version": 1}),
        ("delete", reverse("api:deal", args=[pk, 1]), {"reason": "x", "expected_version": 1}),
        ("post", reverse("api:undo", args=[pk]), {"expected_version": 1}),
        ("post", reverse("api:sign_off", args=[pk]), {"expected_version": 1}),
        ("post", reverse("api:unlock", args=[pk]), {"reason": "x"}),
        (
            "post",
            reverse("api:adjustments", args=[pk]),
            {"side": "NS", "kind": "warning", "reason": "x", "expected_version": 1},
        ),
    ]


@pytest.mark.parametrize("who", ["referee_of_another_table", "my_table_in_a_finished_round", "other_organiser"])
def test_every_referee_endpoint_is_404_out_of_scope(who):
    me = referee(username="me")
    if who == "my_table_in_a_finished_round":
        match = table_match(referee_user=me, round_status=RoundStatus.FINISHED)
    else:
        match = table_match(referee_user=referee(username="someone"))
        if who == "referee_of_another_table":
            round_match(round_=match.round, referee_user=me)
        else:
            me = organiser(username="elsewhere")
            table_match(organiser_user=me)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    client = device(me)
    for method, url, data in _endpoints(match):
        response = getattr(client, method)(url, data, format="json")
        assert response.status_code == 404, (method, url, response.data)
        assert response.data["error"]["code"] == "not_found"
    listed = device(me).get(reverse("api:my_tables"), {"round": match.round_id}).data["results"]
    assert match.pk not in [row["id"] for row in listed]
    assert device(me).post(reverse("api:round_start", args=[match.round_id])).status_code == 404
    match.refresh_from_db()
    assert (match.deals.count(), match.version, match.status) == (1, 1, MatchStatus.RUNNING)


def test_the_public_gets_nothing(match):
    client = APIClient()
    for method, url, data in _endpoints(match):
        assert getattr(client, method)(url, data, format="json").status_code in (401, 403), url
    assert client.get(reverse("api:my_tables")).status_code in (401, 403)


def test_session_writes_need_the_csrf_token(ref, match):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(ref)
    data = {"order": ["N", "S"], "expected_version": 0}
    response = client.post(reverse("api:deals", args=[match.pk]), data, format="json")
    assert response.status_code == 403
    assert not Deal.objects.exists()


def test_the_schema_documents_every_referee_endpoint():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    for path in (
        "/api/referee/tables/",
        "/api/matches/{match_id}/",
        "/api/matches/{match_id}/deals/",
        "/api/matches/{match_id}/deals/{number}/",
        "/api/matches/{match_id}/sign-off/",
        "/api/matches/{match_id}/start/",
        "/api/auth/token/",
    ):
        assert path in paths, path
    deals = paths["/api/matches/{match_id}/deals/"]["post"]
    assert {"201", "400", "404", "409"} <= set(deals["responses"])
    # Guandan's body or, for a Tractor match, Tractor's
    body = deals["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    variants = schema["components"]["schemas"][body]["oneOf"]
    assert {variant["$ref"].rsplit("/", 1)[1] for variant in variants} == {
        "DealInput",
        "TractorDealInput",
        "DoudizhuDealInput",
    }


def test_a_user_without_a_role_sees_no_tables():
    assert device(UserFactory()).get(reverse("api:my_tables")).data["results"] == []


def test_an_api_view_is_private_unless_it_says_otherwise(client):
    """DRF's default permission is IsAuthenticated: a view added without permission
    classes is not readable anonymously; the public API and the schema opt in themselves."""
    from django.conf import settings

    assert settings.REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] == ["rest_framework.permissions.IsAuthenticated"]
    assert client.get(reverse("api:my_tables")).status_code in (401, 403)
    assert client.get(reverse("api:schema")).status_code == 200


def test_a_token_login_during_a_lockout_is_429_locked_out_not_400(ref):
    """A device must tell a lockout from a typo (the login page answers 429 too)."""
    ref.set_password("referee-pass-1")
    ref.save()
    client = APIClient()
    typo = client.post(reverse("api:token"), {"username": "ref", "password": "nope"}, format="json")
    assert typo.status_code == 401 and typo.data["error"]["code"] == "invalid_credentials"
    assert typo.headers["WWW-Authenticate"].startswith("Token")
    missing = client.post(reverse("api:token"), {"username": "ref"}, format="json")
    assert missing.status_code == 400 and missing.data["error"]["code"] == "bad_input"
    for _ in range(4):
        client.post(reverse("api:token"), {"username": "ref", "password": "nope"}, format="json")
    for password in ("nope", "referee-pass-1"):
        locked = client.post(reverse("api:token"), {"username": "ref", "password": password}, format="json")
        assert locked.status_code == 429
        assert locked.data["error"]["code"] == "locked_out"
        assert "15" in locked.data["error"]["message"]  # the cool-off, in minutes (Chinese first)
        assert "token" not in locked.data and locked.headers["Retry-After"] == "900"


def test_a_preview_of_an_impossible_order_on_a_finished_match_says_the_order_is_impossible(ref, match):
    client = device(ref)
    for order in FULL_MATCHES["timed-40"]:
        assert enter(client, match, order).status_code == 201
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    response = client.post(reverse("api:deal_preview", args=[match.pk]), {"order": ["N", "E"]}, format="json")
    assert response.status_code == 400
    message = response.data["error"]["message"]
    assert "flagged" not in message and "标记" not in message
    assert response.data["error"]["message"] == enter(client, match, "NE").data["error"]["message"]
