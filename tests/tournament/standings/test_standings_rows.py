"""A standings page's rows are rendered in Python (once per build for every page); they
are what the template's loop rendered before, cell for cell, in both languages."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from tournament.standings.public_types import StandingLine

LOOP = (Path(__file__).resolve().parents[2] / "data" / "standings_rows_loop.html").read_text(encoding="utf-8")
"""The template loop the tag replaced, as it was (``templates/public/_standings.html`` before)."""

TAG = "{% load public_tags %}{% standings_rows page table tournament_id %}"


def line(rank, name, *, group=None, previous=None, byes=0, withdrawn=False, shared=False, values=(3, 1.5, None)):
    return StandingLine(
        rank=rank,
        shared=shared,
        pair_id=100 + rank,
        pair_name=name,
        pair_number=rank,
        played=3,
        wins=2,
        draws=0,
        losses=1,
        byes=byes,
        values=values,
        previous_rank=previous,
        group=group,
        withdrawn=withdrawn,
    )


LINES = [
    line(1, "张三 & 李四", group=1, previous=3, byes=1),
    line(1, "<b>Wang</b> & O'Brien", group=1, previous=1, shared=True, values=(2, "", 0)),
    line(3, "赵 & 钱", group=1, previous=2, byes=2),
    line(1, "孙 & 周", group=2, withdrawn=True),
    line(2, "吴 & 郑", group=2, previous=9, values=(1, 0.25, 12)),
]


def normalised(html):
    return re.sub(r">\s+<", "><", html).strip()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("lines", [LINES, [line(1, "A", values=()), line(2, "B")], []], ids=["groups", "one", "none"])
def test_the_rows_are_the_template_loops(language, lines):
    context = {"page": lines, "table": SimpleNamespace(columns=(1, 2, 3), no_earlier_round=False), "tournament_id": 7}
    engine = engines["django"]
    with translation.override(language):
        expected = engine.from_string(LOOP).render(context)
        rendered = engine.from_string(TAG).render(context)
    assert normalised(rendered) == normalised(expected)
    if lines:
        assert "/t/7/pairs/101/" in rendered and "987654321" not in rendered
    if lines is LINES:
        assert "&lt;b&gt;Wang&lt;/b&gt; &amp; O&#x27;Brien" in rendered  # escaped as the template escapes
