"""Schemathesis against the whole API's OpenAPI schema on a live test server: the schema and the
server agree (every check: no 5xx, documented status codes and content types, response schemas,
schema-invalid requests refused, schema-valid ones accepted, auth enforced), anonymously, with a
referee's token (a few tables in scope, the rest 404) and with an organiser's (everything in scope).

Runs the ``st`` command line (as CI would) against ``/api/schema/`` of pytest-django's live
server, on a database seeded with a Swiss event and a knockout; the hooks module steers half of
the generated path ids to things that exist. Bounded, so each role's run is short (``RUNS``): a
fixed seed and a few examples per operation; the coverage phase (every boundary and every wrong
type of every field) for what anyone can reach — the public part and the token login — in the
anonymous run; the operations behind a login are fuzzed in every run (anonymously they must
answer 401/403 whatever they are sent; the referee's run checks its scope, the organiser's has
everything in scope). ``schemathesis.toml`` beside this file says where a well-formed request may
still be refused by the game's rules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import organiser, referee
from tests.tournament.standings.events import knockout_event, swiss_event
from tournament.matches.models import Match, RefereeAssignment

ROOT = Path(__file__).resolve().parents[3]
ST = Path(sys.executable).with_name("st")


@dataclass(frozen=True)
class Run:
    """One role's run: its phases, the generated examples per operation, and what it adds to the
    settings file."""

    phases: str
    examples: int
    config: str = ""


BEHIND_A_LOGIN = '\n[[operations]]\ninclude-path-regex = "^/api/(matches|rounds|referee|cards)/"\n'
RUNS = {
    # what anyone can reach, to every boundary (the coverage phase); the operations behind a login
    # answer 401/403 whatever they are sent: a few fuzzed requests check that
    "anonymous": Run("examples,coverage,fuzzing", 4, BEHIND_A_LOGIN + "phases.coverage.enabled = false\n"),
    "referee": Run("examples,fuzzing", 5),  # a few tables in scope, the rest 404
    "organiser": Run("examples,fuzzing", 8),  # everything in scope
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", list(RUNS))
def test_schemathesis_finds_no_server_error(live_server, settings, tmp_path, who):
    settings.PUBLIC_API_THROTTLE_RATE = "100000/minute"  # measure errors, not the throttle
    # The token login hashes every password it is sent (even for unknown users): a fast hasher
    # keeps the run about the API, not PBKDF2.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    event = swiss_event()
    tournament, rounds = knockout_event()
    matches = list(Match.objects.values_list("id", flat=True))
    ids = {
        "tournament_id": [event.tournament.pk, tournament.pk],
        "round_id": [event.first.pk, event.second.pk, rounds[0].pk],
        "stage_id": [event.first.stage_id, rounds[0].stage_id],
        "pair_id": [pair.pk for pair in event.pairs[:3]],
        "match_id": matches[:3],
        "number": [1, 2],
    }
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.tournament.standings.schemathesis_hooks",
        "PUBLIC_API_IDS": json.dumps(ids),
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
    }
    schema_url = f"{live_server.url.replace('localhost', '127.0.0.1')}/api/schema/"
    common = ["--checks", "all", "--seed", "20260501", "--workers", "1"]
    if who == "organiser":  # of both events: every referee operation is in scope
        user = organiser(username="schemathesis")
        for row in (event.tournament, tournament):
            row.organisers.add(user)
    elif who == "referee":  # at the first tables of the rounds being played: some matches in scope
        user = referee(username="schemathesis-ref")
        for match in Match.objects.filter(pk__in=matches[:3]).exclude(table=None):
            RefereeAssignment.objects.get_or_create(round=match.round, table=match.table, referee=user)
    if who != "anonymous":  # as the schema's tokenAuth scheme (the auth checks know what to leave out or spoil)
        env["SCHEMATHESIS_TOKEN"] = f"Token {Token.objects.create(user=user).key}"
    common += ["--suppress-health-check", "all", "--request-timeout", "20"]
    # Django's test server stalls ~40 ms on every kept-alive request (Nagle against delayed ACK):
    # a fresh connection per request makes the run ten times faster.
    common += ["--header", "Connection: close"]
    config_text = Path(__file__).with_name("schemathesis.toml").read_text() + RUNS[who].config
    if who != "anonymous":
        config_text = '[auth.openapi.tokenAuth]\napi_key = "${SCHEMATHESIS_TOKEN}"\n\n' + config_text
    (tmp_path / "schemathesis.toml").write_text(config_text)
    config = ["--config-file", str(tmp_path / "schemathesis.toml")]
    phases = ["--phases", RUNS[who].phases, "--max-examples", str(RUNS[who].examples)]
    if who != "anonymous":  # the public part answers the same to anyone: the anonymous run has it
        phases += ["--exclude-path-regex", "^/api/public/"]
    command = [str(ST), *config, "run", schema_url, *common, *phases]
    try:
        result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as stopped:  # the report so far says where the time went
        so_far = stopped.stdout or b""
        (tmp_path / "schemathesis.txt").write_bytes(so_far if isinstance(so_far, bytes) else so_far.encode())
        raise
    (tmp_path / "schemathesis.txt").write_text(result.stdout + result.stderr)  # the whole report
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
