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
        raise CliError("bad_input", f"{self.prog}: {message}", message_zh=f"命令行有误（{self.prog}）：{message}")


def read_json_input(path: str | None, *, stdin: TextIO | None = None) -> Any:
    """Read a JSON document from ``path`` or, when it is None or ``-``, from stdin."""
    try:
        if path is None or path == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise CliError(
            "bad_input", f"Cannot read {path}: {exc.strerror}.", message_zh=f"无法读取 {path}：{exc.strerror}。"
        ) from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            "bad_input",
            f"The input is not valid JSON (line {exc.lineno}, column {exc.colno}).",
            message_zh=f"输入不是有效的 JSON（第 {exc.lineno} 行第 {exc.colno} 列）。",
        ) from exc
    except RecursionError as exc:  # the parser recurses per level: "[[[[…" is bad input, not a bug
        raise CliError("bad_input", _TOO_DEEP, message_zh=_TOO_DEEP_ZH) from exc
    if _depth(document) > MAX_JSON_DEPTH:
        raise CliError("bad_input", _TOO_DEEP, message_zh=_TOO_DEEP_ZH)
    return document


# No command's input nests more than a few levels; a deeper document would only reach Python's
# recursion limit later (in a handler or in printing), so it is refused as it is read.
MAX_JSON_DEPTH = 64
_TOO_DEEP = f"The input nests arrays or objects too deeply (at most {MAX_JSON_DEPTH} levels)."
_TOO_DEEP_ZH = f"输入的数组或对象嵌套过深（最多 {MAX_JSON_DEPTH} 层）。"


def _depth(document: Any) -> int:
    """How deeply ``document`` nests lists and dicts (iteratively: it may be deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def build_parser() -> JsonArgumentParser:
    from scoring import cards_cli, match_cli, teams_cli

    parser = JsonArgumentParser(prog="python -m scoring", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=JsonArgumentParser)
    match_cli.register(subparsers)
    cards_cli.register(subparsers)
    teams_cli.register(subparsers)
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
