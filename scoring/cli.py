"""The JSON command line: ``python -m scoring <command> …``.

Every command prints exactly one JSON object on stdout. Bad input exits with status 2 and
``{"error": {"code": …, "message": …, …}}``; a bug exits 1 with code ``internal_error``. Never a
traceback: users and auditors script this.

Commands register themselves through a ``register(subparsers)`` function in their module, so
each command's code lives beside the rules it exposes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

JsonObject = dict[str, Any]
Handler = Callable[[argparse.Namespace], JsonObject]


class CliError(Exception):
    """Bad input from the user: reported as ``{"error": {...}}`` with exit status 2."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def as_json(self) -> JsonObject:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class JsonArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors become a JSON ``bad_input`` error."""

    def error(self, message: str) -> NoReturn:
        raise CliError("bad_input", f"{self.prog}: {message}")


def read_json_input(path: str | None, *, stdin: TextIO | None = None) -> Any:
    """Read a JSON document from ``path`` or, when it is None or ``-``, from stdin."""
    try:
        if path is None or path == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise CliError("bad_input", f"Cannot read {path}: {exc.strerror}.") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            "bad_input", f"The input is not valid JSON (line {exc.lineno}, column {exc.colno})."
        ) from exc


def build_parser() -> JsonArgumentParser:
    from scoring import cards_cli, match_cli

    parser = JsonArgumentParser(prog="python -m scoring", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=JsonArgumentParser)
    match_cli.register(subparsers)
    cards_cli.register(subparsers)
    return parser


def _print(obj: JsonObject) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        handler: Handler = args.handler
        _print(handler(args))
        return 0
    except CliError as exc:
        _print(exc.as_json())
        return 2
    except Exception as exc:  # a bug, never the user's fault; still no traceback
        _print({"error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}})
        return 1
