"""Schemathesis against the whole API's OpenAPI schema on a live test server: the schema and the
server agree (every check: no 5xx, documented status codes and content types, response schemas,
schema-invalid requests refused, schema-valid ones accepted, auth enforced), anonymously and with
an organiser's token.

Runs the ``st`` command line (as CI would) against ``/api/schema/`` of pytest-django's live
server, on a database seeded with a Swiss event and a knockout; the hooks module steers half of
the generated path ids to things that exist. Bounded: a fixed seed, a few dozen examples per
operation. ``schemathesis.toml`` beside this file says where a well-formed request may still be
refused by the game's rules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import organiser
from tests.tournament.public.events import knockout_event, swiss_event
from tournament.matches.models import Match

ROOT = Path(__file__).resolve().parents[3]
ST = Path(sys.executable).with_name("st")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["anonymous", "organiser"])
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
        "SCHEMATHESIS_HOOKS": "tests.tournament.public.schemathesis_hooks",
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
        # as the schema's tokenAuth scheme (so the auth checks know what to leave out or spoil)
        env["SCHEMATHESIS_TOKEN"] = f"Token {Token.objects.create(user=user).key}"
    common += ["--suppress-health-check", "all", "--request-timeout", "20"]
    # Django's test server stalls ~40 ms on every kept-alive request (Nagle against delayed ACK):
    # a fresh connection per request makes the run ten times faster.
    common += ["--header", "Connection: close"]
    config_text = Path(__file__).with_name("schemathesis.toml").read_text()
    if who == "organiser":
        config_text = '[auth.openapi.tokenAuth]\napi_key = "${SCHEMATHESIS_TOKEN}"\n\n' + config_text
    (tmp_path / "schemathesis.toml").write_text(config_text)
    config = ["--config-file", str(tmp_path / "schemathesis.toml")]
    phases = ["--phases", "examples,coverage,fuzzing", "--max-examples", "20"]
    command = [str(ST), *config, "run", schema_url, *common, *phases]
    result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    (tmp_path / "schemathesis.txt").write_text(result.stdout + result.stderr)  # the whole report
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
