"""BENCH registration.roster_import_2000_s: importing a 2,000-row roster workbook (< 5 s).

Runs on DATABASE_URL when set, else on a throw-away SQLite file.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
_tmp = tempfile.TemporaryDirectory()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_tmp.name}/bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from openpyxl import Workbook  # noqa: E402

from tournament.registration.models import Tournament  # noqa: E402
from tournament.registration.roster import roster_import  # noqa: E402

ROWS = 2000


def roster(rows: int) -> bytes:
    book = Workbook(write_only=True)
    sheet = book.create_sheet("参赛名单")
    sheet.append(["姓名", "工号", "部门", "搭档工号", "手机"])
    for index in range(rows):
        partner = index + 1 if index % 2 == 0 else index - 1
        sheet.append(
            [f"选手{index}", f"E{index:05d}", f"部门{index % 40}", f"E{partner:05d}", f"139{index:08d}"]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def main() -> None:
    call_command("migrate", verbosity=0)
    data = roster(ROWS)
    tournament = Tournament.objects.create(name="bench", rule_profile="timed-40")
    start = time.perf_counter()
    result = roster_import(tournament=tournament, file=io.BytesIO(data))
    elapsed = time.perf_counter() - start
    assert result.players == ROWS
    tournament.delete()
    print(f"BENCH registration.roster_import_2000_s {elapsed:.3f} s")


if __name__ == "__main__":
    main()
