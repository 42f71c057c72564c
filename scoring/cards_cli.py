"""``python -m scoring cards …``: the referee's dispute assistant on the command line (RULES.md §8).

- ``cards classify --level 5 KS,KD,5H,2C,2D`` prints every reading, largest first, and the default:
  ``{"readings": [{"type": "full_house", "rank": "K", "size": 5}, …], "default": {…} | null}``.
- ``cards beats --level 5 --play KS,5H --previous QS,QD [--declared TYPE:RANK]
  [--previous-declared TYPE:RANK]`` prints ``{"beats": …, "play": {…}, "previous": {…}, "reason": …}``.

Bad cards exit 2 with ``{"error": {"code": "bad_card" | "too_many_copies" | "not_a_play" |
"bad_declaration", "message": …, "message_zh": …}}``. See docs/cards-cli.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from scoring.cards import CardError, beats, classify, parse_level
from scoring.cli import CliError, JsonArgumentParser, JsonObject


def _level(text: str) -> int:
    try:
        return parse_level(text)
    except CardError as exc:
        raise argparse.ArgumentTypeError(exc.message) from exc


def _joined(tokens: Sequence[str]) -> str:
    """Cards may be one comma-separated argument or several (``KS KD 5H``)."""
    return ",".join(tokens)


def _cli_error(exc: CardError) -> CliError:
    return CliError(exc.code, exc.message, message_zh=exc.message_zh)


def _classify(args: argparse.Namespace) -> JsonObject:
    try:
        return classify(cards=_joined(args.cards), level=args.level).to_json()
    except CardError as exc:
        raise _cli_error(exc) from exc


def _beats(args: argparse.Namespace) -> JsonObject:
    try:
        verdict = beats(
            play=_joined(args.play),
            previous=_joined(args.previous),
            level=args.level,
            declared=args.declared,
            previous_declared=args.previous_declared,
        )
    except CardError as exc:
        raise _cli_error(exc) from exc
    return verdict.to_json()


def register(subparsers: Any) -> None:
    """Add the ``cards`` command group with its ``classify`` and ``beats`` subcommands."""
    cards = subparsers.add_parser(
        "cards", help="card combinations: every reading of a set, and whether a play beats another"
    )
    commands = cards.add_subparsers(dest="cards_command", required=True, parser_class=JsonArgumentParser)
    level_help = "the deal's level: 2-10, J, Q, K or A (heart level cards are wild)"

    classify_parser = commands.add_parser("classify", help="every reading of a set of cards, largest first")
    classify_parser.add_argument("--level", type=_level, required=True, help=level_help)
    classify_parser.add_argument("cards", nargs="+", help="cards such as KS,KD,5H,2C,2D (T or 10; SJ, BJ)")
    classify_parser.set_defaults(handler=_classify)

    beats_parser = commands.add_parser("beats", help="whether a play beats the previous play, and why")
    beats_parser.add_argument("--level", type=_level, required=True, help=level_help)
    beats_parser.add_argument("--play", nargs="+", required=True, help="the cards played, e.g. KS,5H")
    beats_parser.add_argument("--previous", nargs="+", required=True, help="the previous play, e.g. QS,QD")
    beats_parser.add_argument(
        "--declared", metavar="TYPE:RANK", help="the reading the player declared, e.g. straight:J"
    )
    beats_parser.add_argument(
        "--previous-declared", metavar="TYPE:RANK", help="the reading declared for the previous play"
    )
    beats_parser.set_defaults(handler=_beats)
