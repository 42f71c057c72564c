"""Schemathesis against the whole API's OpenAPI schema on a live test server: no 5xx anywhere.

Runs the ``st`` command line (as CI would) against ``/api/schema/`` of pytest-django's live
server, on a database seeded with a Swiss event and a knockout; the hooks module steers half of
the generated path ids to things that exist. Bounded: a fixed seed, a few dozen examples per
operation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.public.events import knockout_event, swiss_event
from tournament.matches.models import Match

ROOT = Path(__file__).resolve().parents[3]
ST = Path(sys.executable).with_name("st")


@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_server_error(live_server, settings, tmp_path):
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
        "SCHEMATHESIS_HOOKS": "tests.tournament.public.schemathesis_hooks",
        "PUBLIC_API_IDS": json.dumps(ids),
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
    }
    schema_url = f"{live_server.url.replace('localhost', '127.0.0.1')}/api/schema/"
    common = ["--checks", "not_a_server_error", "--seed", "20260501", "--workers", "1"]
    common += ["--suppress-health-check", "all", "--request-timeout", "20"]
    # Django's test server stalls ~40 ms on every kept-alive request (Nagle against delayed ACK):
    # a fresh connection per request makes the run ten times faster.
    common += ["--header", "Connection: close"]
    command = [str(ST), "run", schema_url, *common, "--phases", "examples,coverage,fuzzing", "--max-examples", "20"]
    result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
