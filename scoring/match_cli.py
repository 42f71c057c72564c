"""``python -m scoring replay | profiles | standings``: the match commands of the JSON command line.

- ``replay [FILE]``: a match's deals (JSON from FILE or stdin) → its result (:func:`scoring.match.replay`).
- ``profiles``: every rule profile with its options.
- ``standings [FILE]``: match results → ranked standings (:mod:`scoring.standings` documents the shape).

Input and output shapes, with examples: docs/scoring-cli.md.
"""

from __future__ import annotations

import argparse
from typing import Any

from scoring.cli import CliError, JsonObject, read_json_input
from scoring.errors import ScoringError
from scoring.match import replay_json
from scoring.profiles import profiles_json
from scoring.standings import standings_json


def _replay(args: argparse.Namespace) -> JsonObject:
    # Every replay error carries "deal" (the deal it concerns, or null), as docs/scoring-cli.md specifies.
    try:
        data = read_json_input(args.file)
        return replay_json(data).to_json()
    except ScoringError as error:
        code, message = error.code.value, error.message
        raise CliError(code, message, message_zh=error.message_zh, deal=error.deal) from None
    except CliError as error:
        raise CliError(error.code, error.message, **{"deal": None, **error.extra}) from None


def _profiles(args: argparse.Namespace) -> JsonObject:
    del args
    return profiles_json()


def _standings(args: argparse.Namespace) -> JsonObject:
    data = read_json_input(args.file)
    try:
        return standings_json(data).to_json()
    except ScoringError as error:
        raise CliError(error.code.value, error.message, message_zh=error.message_zh) from None


def register(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="replay a match's deals and print its result",
        description="Read a match as JSON from FILE (or stdin) and print its result as JSON.",
    )
    replay.add_argument("file", nargs="?", metavar="FILE", help="JSON input; stdin when omitted or '-'")
    replay.set_defaults(handler=_replay)

    profiles = subparsers.add_parser("profiles", help="print every rule profile with its options")
    profiles.set_defaults(handler=_profiles)

    standings = subparsers.add_parser(
        "standings",
        help="rank entrants from match results",
        description="Read match results as JSON from FILE (or stdin) and print the standings as JSON.",
    )
    standings.add_argument("file", nargs="?", metavar="FILE", help="JSON input; stdin when omitted or '-'")
    standings.set_defaults(handler=_standings)
