"""Text as people type or paste it (names, numbers, departments, reasons), cleaned one way.

:func:`clean_text` is the one normalising function: the forms and the API reach it through the
services, and the roster importer through the same :class:`~tournament.registration.services.PlayerData`;
reasons through :func:`tournament.audit.reason_clean`.

- **Normal form.** NFC everywhere; NFKC only for identifiers (employee numbers, phones, the table
  codes): there it is safe and needed — the full-width digits a Chinese keyboard types are the
  digits — while in names, departments and reasons it would rewrite Chinese punctuation
  （，！） into ASCII, i.e. change what was typed.
- **Invisible characters** are removed: control characters, format characters (zero-width spaces,
  the soft hyphen, tags …; the zero-width joiner stays: it builds emoji) and the fillers that
  render as nothing (Hangul fillers, the blank Braille pattern). Text with nothing visible left —
  two zero-width spaces, a lone combining mark — is empty, so "required" means something.
- **Text-direction controls** that reorder what follows (U+202A–U+202E embeddings and overrides,
  U+2066–U+2069 isolates) are kept by the cleaning so the caller can refuse them
  (:func:`direction_controls`): a name shown reversed in a list, an export or a history is a
  forgery, not a typo. The left-to-right and right-to-left marks (U+200E, U+200F, U+061C) come
  from copy-paste and only steer punctuation: they are removed like the other invisible marks.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

__all__ = ["DIRECTION_CONTROLS", "clean_text", "direction_control_message", "direction_controls"]

DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: refused in names and reasons (module docstring)."""

_KEPT_FORMAT = frozenset("\u200d") | DIRECTION_CONTROLS
"""Format characters (category Cf) that the cleaning keeps: the zero-width joiner, and the
direction controls (for the caller to refuse)."""

_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that render as nothing (Hangul fillers, the blank Braille pattern)."""

_VISIBLE = ("L", "N", "P", "S")
"""Unicode major categories that put ink on the page (letters, numbers, punctuation, symbols)."""


def _dropped(char: str) -> bool:
    category = unicodedata.category(char)
    return category == "Cc" or (category == "Cf" and char not in _KEPT_FORMAT) or char in _FILLERS


def clean_text(value: object, *, identifier: bool = False) -> str:
    """``value`` as kept: normalised (NFKC if ``identifier``, else NFC), invisible characters
    removed, white space trimmed and collapsed to single spaces; ``""`` for None or for text with
    nothing visible. Numbers read from a spreadsheet (an employee number typed as 1001) come back as
    ``"1001"``. Direction controls are kept: check them with :func:`direction_controls`."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = unicodedata.normalize("NFKC" if identifier else "NFC", str(value))
    text = "".join(" " if char in "\t\n\r" else char for char in text)
    text = " ".join("".join(char for char in text if not _dropped(char)).split())
    if not any(unicodedata.category(char)[0] in _VISIBLE for char in text if char not in _FILLERS):
        return ""
    return text


def direction_controls(text: str) -> bool:
    """Whether ``text`` holds a text-direction control that reorders what follows (refused in names
    and reasons)."""
    return any(char in DIRECTION_CONTROLS for char in text)


def direction_control_message(label: str) -> str:
    """The refusal of a field holding a direction control, naming the field (``label``)."""
    return _("%(field)s holds a text-direction control character (U+202A–U+202E, U+2066–U+2069); type it plainly.") % {
        "field": label
    }
