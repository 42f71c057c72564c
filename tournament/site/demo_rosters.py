"""What the demo's rosters share: a new person's name and the workbook as the organiser uploads it."""

from __future__ import annotations

import io
import random

from openpyxl import Workbook


def name_draw(rng: random.Random, taken: set[str], names: tuple[str, str]) -> str:
    """A name not ``taken`` yet (and now taken): a surname of ``names[0]`` and one or two characters of
    ``names[1]`` — a roster's names are told apart by the players reading them."""
    surnames, given = names
    while True:
        name = rng.choice(surnames) + "".join(rng.choice(given) for _ in range(rng.choice((1, 2))))
        if name not in taken:
            taken.add(name)
            return name


def workbook_upload(book: Workbook) -> io.BytesIO:
    """``book`` as the bytes of an uploaded ``.xlsx`` file, read from its start."""
    buffer = io.BytesIO()
    book.save(buffer)
    buffer.seek(0)
    return buffer
