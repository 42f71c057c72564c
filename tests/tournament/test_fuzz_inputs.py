"""Hypothesis against every organiser and referee form and every write endpoint:
strings of any Unicode, integers at and past the columns' bounds, fields missing and extra. No
answer is a 5xx, and a refused request writes nothing (no row, no version, no history), on
PostgreSQL. Bounded: a fixed number of examples per endpoint, derandomised."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.factories import organiser, referee
from tests.tournament.standings.events import swiss_event
from tournament.matches.models import Match, RefereeAssignment
from tournament.matches.services import deal_record

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

EXAMPLES = 30
EDGES = [0, 1, -1, 2**15 - 1, 2**15, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, 10**20]
TEXT = st.text(max_size=40)  # any Unicode, NUL and surrogates' neighbours included
EDGE_TEXT = st.sampled_from(["", " ", "\x00", "³", "٣", "1_0", "1e3", "NaN", "NS", "EW", "N", "NESW", "-0"])
INTEGER = st.one_of(st.sampled_from(EDGES), st.integers(min_value=-(2**70), max_value=2**70))
FORM_VALUE = st.one_of(TEXT, EDGE_TEXT, INTEGER.map(str))
JSON_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    INTEGER,
    TEXT,
    EDGE_TEXT,
    st.lists(st.sampled_from(["N", "E", "S", "W", "X", "", 1]), max_size=6),
    st.dictionaries(TEXT, st.one_of(TEXT, INTEGER), max_size=3),
)
EXTRA = st.sampled_from(["extra", "csrfmiddlewaretoken", "id", "__proto__", "version2"])


def body(fields: tuple[str, ...], values: st.SearchStrategy[Any], known: dict[str, list[Any]]) -> Any:
    """Every field (mostly with a value that gets past the first checks — a name, an id that exists,
    an integer at or past a bound — else anything), a few dropped, a few extra."""

    def value(name: str) -> st.SearchStrategy[Any]:
        good = st.sampled_from(known[name]) if known.get(name) else values
        return st.one_of(good, good, good, values)

    present = st.fixed_dictionaries({name: value(name) for name in fields})
    dropped = st.sets(st.sampled_from(fields), max_size=2) if fields else st.just(set())
    extra = st.dictionaries(EXTRA, values, max_size=2)
    return st.tuples(present, dropped, extra).map(
        lambda parts: {**parts[2], **{k: v for k, v in parts[0].items() if k not in parts[1]}}
    )


def snapshot() -> tuple[Any, ...]:
    """Every row count of the project's tables (history included) and the matches' versions."""
    counts = tuple(model.objects.count() for model in apps.get_models() if model.__module__.startswith("tournament"))
    return (*counts, Match.objects.aggregate(total=Sum("version"))["total"])


@dataclass
class World:
    tournament: Any
    stage: Any
    round_: Any
    match: Any
    played: Any
    boss: Any
    ref: Any


@pytest.fixture
def world() -> World:
    event = swiss_event()
    boss = organiser(username="fuzz-boss")
    event.tournament.organisers.add(boss)
    ref = referee(username="fuzz-ref")
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    match, played = matches[0], matches[1]
    for row in (match, played):
        RefereeAssignment.objects.create(round=event.second, table=row.table, referee=ref)
    deal_record(match_id=played.pk, outcome={"order": ["N", "S"]})
    return World(event.tournament, event.second.stage, event.second, match, played, boss, ref)


def check(send: Callable[[], Any], *, refused: Callable[[Any], bool]) -> None:
    """One request in a savepoint (every example starts from the same data): never a 5xx, and a
    refused one changes nothing."""
    sid = transaction.savepoint()
    try:
        before = snapshot()
        response = send()
        assert response.status_code < 500, response.content[:500]
        if refused(response):
            assert snapshot() == before, f"a refused request ({response.status_code}) wrote"
    finally:
        transaction.savepoint_rollback(sid)


def run(strategy: st.SearchStrategy[Any], test: Callable[[Any], None]) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def examples(data: Any) -> None:
        test(data)

    examples()


# -- pages ----------------------------------------------------------------------------------------

PAIR_FIELDS = (
    *(f"{who}_{what}" for who in ("first", "second") for what in ("name", "employee_number", "department", "phone")),
    "seed",
)

PAGES: dict[str, tuple[Callable[[World], str], tuple[str, ...], str]] = {
    # name: (url, fields, who posts)
    "tournament_create": (
        lambda w: reverse("registration:tournament_create"),
        ("name", "game", "rule_profile", "venue", "starts_on"),
        "boss",
    ),
    "pair_add": (lambda w: reverse("registration:pairs", args=[w.tournament.pk]), PAIR_FIELDS, "boss"),
    "pair_edit": (
        lambda w: reverse("registration:pair_edit", args=[w.tournament.pk, w.match.ns_pair_id]),
        PAIR_FIELDS,
        "boss",
    ),
    "department_add": (lambda w: reverse("registration:departments", args=[w.tournament.pk]), ("name",), "boss"),
    "stage_create": (
        lambda w: reverse("draw:stages", args=[w.tournament.pk]),
        (
            "name",
            "format",
            "rule_profile",
            "best_of",
            "department_rounds",
            "bracket",
            "seeding",
            "third_place",
            "groups",
            "advance_count",
        ),
        "boss",
    ),
    "round_generate": (
        lambda w: reverse("draw:round_generate", args=[w.tournament.pk, w.stage.pk]),
        ("seed", "allow_rematches"),
        "boss",
    ),
    "round_move": (
        lambda w: reverse("draw:round_move", args=[w.tournament.pk, w.round_.pk]),
        ("match", "table"),
        "boss",
    ),
    "round_swap": (
        lambda w: reverse("draw:round_swap", args=[w.tournament.pk, w.round_.pk]),
        ("first", "second"),
        "boss",
    ),
    "tables": (lambda w: reverse("draw:tables", args=[w.tournament.pk]), ("first", "last", "area"), "boss"),
    "referees": (
        lambda w: reverse("draw:referees", args=[w.tournament.pk, w.round_.pk]),
        ("tables_per_referee", "by_area"),
        "boss",
    ),
    "stage_advance": (
        lambda w: reverse("draw:stage_advance", args=[w.tournament.pk, w.stage.pk]),
        ("next_stage", "count", "reason", "out_1", "in_1"),
        "boss",
    ),
    "round_clock_set": (
        lambda w: reverse("matches:round_clock_set", args=[w.tournament.pk, w.round_.pk]),
        ("time_cap_minutes", "warning_minutes"),
        "boss",
    ),
    "deal_create": (
        lambda w: reverse("matches:deal_create", args=[w.match.pk]),
        ("order", "version", "idempotency_key"),
        "ref",
    ),
    "deal_edit": (lambda w: reverse("matches:deal_edit", args=[w.played.pk, 1]), ("order", "reason", "version"), "ref"),
    "deal_delete": (lambda w: reverse("matches:deal_delete", args=[w.played.pk, 1]), ("reason", "version"), "ref"),
    "deal_undo": (lambda w: reverse("matches:deal_undo", args=[w.played.pk]), ("reason", "version"), "ref"),
    "adjustments": (
        lambda w: reverse("matches:adjustments", args=[w.match.pk]),
        ("version", "kind", "side", "absent_player", "minutes_late", "levels", "points", "reason"),
        "boss",
    ),
    "sign_off": (lambda w: reverse("matches:sign_off", args=[w.played.pk]), ("version",), "ref"),
    "unlock": (lambda w: reverse("matches:unlock", args=[w.played.pk]), ("reason",), "boss"),
}


INTEGER_FIELDS = (
    "seed",
    "best_of",
    "department_rounds",
    "groups",
    "advance_count",
    "table",
    "count",
    "tables_per_referee",
    "first",
    "last",
    "time_cap_minutes",
    "warning_minutes",
    "minutes_late",
    "levels",
    "points",
    "absent_player",
)


def _known(world: World) -> dict[str, list[Any]]:
    pairs = [world.match.ns_pair_id, world.match.ew_pair_id, world.played.ns_pair_id]
    edges = [str(n) for n in EDGES]
    return {
        **{name: edges for name in INTEGER_FIELDS},
        "order": ["NS", "NES", "EW", "N"],
        "kind": ["forfeit", "late", "penalty", "warning"],
        "side": ["NS", "EW", "both"],
        "format": ["swiss", "round_robin", "knockout"],
        "rule_profile": ["classic", "timed-40"],
        "game": ["guandan", "tractor"],
        "match": [str(world.match.pk)],
        "first": [str(p) for p in pairs] + edges,
        "second": [str(p) for p in pairs],
        "version": ["0", "1", *edges],
        "first_name": ["张伟"],
        "second_name": ["李娜"],
        "name": ["决赛"],
        "reason": ["录错了"],
        "warning_minutes": ["5"],
    }


@pytest.mark.parametrize("name", sorted(PAGES))
def test_forms_never_answer_5xx_nor_write_when_they_refuse(world, name):
    url_of, fields, who = PAGES[name]
    client = Client()
    client.force_login(world.boss if who == "boss" else world.ref)
    url = url_of(world)

    def post(data: dict[str, str]) -> None:
        # a page refuses by showing the form again (200/400/409) or with a 4xx; it redirects on success
        check(lambda: client.post(url, data), refused=lambda response: response.status_code != 302)

    run(body(fields, FORM_VALUE, _known(world)), post)


# -- API ------------------------------------------------------------------------------------------

API: dict[str, tuple[str, Callable[[World], str], tuple[str, ...]]] = {
    "deal_record": (
        "post",
        lambda w: reverse("api:deals", args=[w.match.pk]),
        ("order", "expected_version", "idempotency_key"),
    ),
    "deal_preview": ("post", lambda w: reverse("api:deal_preview", args=[w.match.pk]), ("order",)),
    "deal_correct": (
        "put",
        lambda w: reverse("api:deal", args=[w.played.pk, 1]),
        ("order", "reason", "expected_version"),
    ),
    "deal_delete": ("delete", lambda w: reverse("api:deal", args=[w.played.pk, 1]), ("reason", "expected_version")),
    "undo": ("post", lambda w: reverse("api:undo", args=[w.played.pk]), ("reason", "expected_version")),
    "sign_off": ("post", lambda w: reverse("api:sign_off", args=[w.played.pk]), ("expected_version",)),
    "unlock": ("post", lambda w: reverse("api:unlock", args=[w.played.pk]), ("reason",)),
    "adjustments": (
        "post",
        lambda w: reverse("api:adjustments", args=[w.match.pk]),
        ("side", "kind", "reason", "levels", "points", "minutes_late", "absent_player", "expected_version"),
    ),
    "match_start": ("post", lambda w: reverse("api:match_start", args=[w.match.pk]), ()),
    "round_start": ("post", lambda w: reverse("api:round_start", args=[w.round_.pk]), ()),
    "cards_classify": ("post", lambda w: reverse("api:cards_classify"), ("level", "cards")),
    "cards_beats": (
        "post",
        lambda w: reverse("api:cards_beats"),
        ("level", "play", "previous", "declared", "previous_declared"),
    ),
    "token": ("post", lambda w: reverse("api:token"), ("username", "password")),
}

API_KNOWN = {
    "order": [["N", "S"], ["N", "E", "S"], ["E", "W"]],
    "expected_version": [0, 1, *EDGES],
    "levels": EDGES,
    "points": EDGES,
    "minutes_late": EDGES,
    "absent_player": EDGES,
    "side": ["NS", "EW"],
    "kind": ["forfeit", "late", "penalty", "warning"],
    "reason": ["录错了"],
    "level": ["2", "A", 5],
    "cards": ["3S,3D", "AS"],
    "play": ["5H,5H"],
    "previous": ["3S,3D"],
    "username": ["fuzz-ref"],
}


@pytest.mark.parametrize("name", sorted(API))
def test_write_endpoints_never_answer_5xx_nor_write_when_they_refuse(world, name, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    method, url_of, fields = API[name]
    client = APIClient()
    client.force_authenticate(world.boss if name in {"unlock", "adjustments", "round_start"} else world.ref)
    url = url_of(world)

    def send(data: Any) -> None:
        check(lambda: getattr(client, method)(url, data, format="json"), refused=lambda r: r.status_code >= 400)

    run(st.one_of(body(fields, JSON_VALUE, API_KNOWN), JSON_VALUE), send)
