"""Numbers typed by people or sent by devices, read in one way.

``str.isdigit`` accepts "³" and "٣" and ``int()`` accepts "1_000", " 12 " and 4,000 digits; a
query parameter or a body field that is "a number" here means ASCII digits (an optional minus
sign), within the range the caller gives — usually a column's (``tournament.bounds``). Bad text is
the user's error (:class:`~tournament.errors.UserError`, 400 ``bad_input``), never a ``ValueError``.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from tournament.bounds import INT_MAX
from tournament.errors import UserError

__all__ = ["ascii_digits", "int_or_none", "int_parse"]

_INTEGER = re.compile(r"-?[0-9]{1,19}")


def ascii_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits only (an employee number, an id)."""
    return text.isascii() and text.isdigit()


def int_or_none(text: object, *, low: int = -INT_MAX - 1, high: int = INT_MAX) -> int | None:
    """``text`` as an integer in ``low``–``high``, or None when it is not one."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        value = text
    elif isinstance(text, str) and _INTEGER.fullmatch(text):
        value = int(text)
    else:
        return None
    return value if low <= value <= high else None


def int_parse(text: object, *, name: str, low: int = 1, high: int = INT_MAX) -> int:
    """``text`` as an integer in ``low``–``high``, else a 400 naming the parameter ``name``."""
    value = int_or_none(text, low=low, high=high)
    if value is None:
        message = _("%(name)s must be a whole number from %(low)d to %(high)d.") % {
            "name": name,
            "low": low,
            "high": high,
        }
        raise UserError("bad_input", message, fields={name: [message]})
    return value
