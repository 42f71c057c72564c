"""``python -m scoring cards …``: the referee's dispute assistant on the command line (docs/rules.md §8).

- ``cards classify --level 5 KS,KD,5H,2C,2D`` prints every reading, largest first, and the default:
  ``{"readings": [{"type": "full_house", "rank": "K", "size": 5}, …], "default": {…} | null}``.
- ``cards beats --level 5 --play KS,5H --previous QS,QD [--declared TYPE:RANK]
  [--previous-declared TYPE:RANK]`` prints ``{"beats": …, "play": {…}, "previous": {…}, "reason": …}``.

Both take ``--profile NAME`` (the tournament's rule profile: its ``wild_reading``) and/or
``--wild-reading largest|stated_example`` (which wins over the profile's); without either the default
reading is the largest (seed 003, docs/rules.md §8).

Bad cards exit 2 with ``{"error": {"code": "bad_card" | "too_many_copies" | "not_a_play" |
"bad_declaration", "message": …, "message_zh": …}}``; an unknown profile with ``unknown_profile``.
See docs/cards-cli.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from scoring.cards import CardError, classify, parse_level
from scoring.cards_beats import beats
from scoring.cli import CliError, JsonArgumentParser, JsonObject
from scoring.errors import ScoringError
from scoring.options import Game, WildReading
from scoring.profiles import options_for


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


def _wild_reading(args: argparse.Namespace) -> WildReading:
    """``--wild-reading`` if given, else the ``--profile``'s option, else the default (largest)."""
    if args.wild_reading is not None:
        return WildReading(args.wild_reading)
    if args.profile is None:
        return WildReading.LARGEST
    try:
        options = options_for(profile=args.profile)
    except ScoringError as error:
        raise CliError(error.code.value, error.message, message_zh=error.message_zh) from None
    if options.game is not Game.GUANDAN:
        raise CliError(
            "bad_input",
            f"Profile {args.profile!r} is not a Guandan profile; the card assistant reads Guandan plays.",
            message_zh=f"规则方案 {args.profile!r} 不是掼蛋方案；牌型助手只判断掼蛋的出牌。",
        )
    return options.wild_reading


def _classify(args: argparse.Namespace) -> JsonObject:
    wild_reading = _wild_reading(args)
    try:
        return classify(cards=_joined(args.cards), level=args.level, wild_reading=wild_reading).to_json()
    except CardError as exc:
        raise _cli_error(exc) from exc


def _beats(args: argparse.Namespace) -> JsonObject:
    wild_reading = _wild_reading(args)
    try:
        verdict = beats(
            play=_joined(args.play),
            previous=_joined(args.previous),
            level=args.level,
            declared=args.declared,
            previous_declared=args.previous_declared,
            wild_reading=wild_reading,
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

    def reading_flags(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--profile", metavar="NAME", help="the rule profile whose wild_reading applies (e.g. classic)"
        )
        parser.add_argument(
            "--wild-reading",
            choices=[reading.value for reading in WildReading],
            help="the default reading of wild cards (overrides the profile's): largest (seed 003) or "
            "stated_example (seed 000: 4567+wild reads 34567)",
        )

    classify_parser = commands.add_parser("classify", help="every reading of a set of cards, largest first")
    classify_parser.add_argument("--level", type=_level, required=True, help=level_help)
    classify_parser.add_argument("cards", nargs="+", help="cards such as KS,KD,5H,2C,2D (T or 10; SJ, BJ)")
    reading_flags(classify_parser)
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
    reading_flags(beats_parser)
    beats_parser.set_defaults(handler=_beats)
