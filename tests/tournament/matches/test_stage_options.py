"""A stage's options and a round's draw record are read and written through one typed module
(``tournament.matches.stage_options``): defaults, old rows, round trips, and no other reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournament.matches.models import Round, Stage
from tournament.matches.stage_options import (
    Advancement,
    Cut,
    DrawOptions,
    StageOptions,
    draw_options_lookup,
)

ROOT = Path(__file__).resolve().parents[3]

FULL_STAGE = {
    "department_rounds": 2,
    "bracket": "fixed",
    "seeding": "random",
    "third_place": True,
    "groups": 3,
    "rounds": 5,
    "cuts": [{"after_round": 2, "keep": 18}, {"after_round": 4, "keep": 9}],
    "final": True,
    "bracket_record": {"size": 4, "slots": [1, 2, 3, 4], "seeds": [1, 2, 3, 4], "options": {"seeding": "seeds"}},
    "schedule_seed": 77,
    "group_of": {"11": 1, "12": 2},
    "entrants": [12, 11],
    "advancement": {
        "kind": "advance",
        "by": 3,
        "at": "2026-01-01T10:00:00+00:00",
        "from_stage": 9,
        "count": 2,
        "per_group": False,
        "lots_seed": 41,
        "by_rank": [12, 11],
        "overrides": [[11, 15]],
        "reason": "late arrival",
    },
    "lots_seed": 1234,
}


def test_an_empty_row_reads_as_every_default_and_stores_nothing() -> None:
    settings = StageOptions.from_stored({})
    assert settings == StageOptions()
    assert (settings.department_rounds, settings.bracket, settings.seeding, settings.third_place) == (
        0,
        "redraw",
        "seeds",
        False,
    )
    assert (settings.groups, settings.rounds, settings.cuts, settings.final) == (1, None, (), False)
    assert settings.entrants == () and settings.advancement is None and settings.lots_seed is None
    assert not settings.fixed_bracket and settings.to_stored() == {}
    assert StageOptions.from_stored(None) == StageOptions()
    draw = DrawOptions.from_stored({})
    assert draw == DrawOptions() and draw.to_stored() == {}
    assert draw.walkovers == {} and draw.third_place_pairs == () and draw.referees is None


def test_every_key_is_typed_and_written_back_as_it_was() -> None:
    settings = StageOptions.from_stored(FULL_STAGE)
    assert settings.fixed_bracket and settings.third_place and settings.final
    assert settings.cuts == (Cut(after_round=2, keep=18), Cut(after_round=4, keep=9))
    assert settings.group_of == {"11": 1, "12": 2} and settings.entrants == (12, 11)
    assert settings.advancement == Advancement(
        from_stage=9,
        count=2,
        lots_seed=41,
        by_rank=(12, 11),
        overrides=((11, 15),),
        reason="late arrival",
        by=3,
        at="2026-01-01T10:00:00+00:00",
    )
    assert settings.advanced_from(9) and not settings.advanced_from(8)
    assert settings.to_stored() == FULL_STAGE
    assert StageOptions.from_stored(settings.to_stored()) == settings


def test_a_default_stored_explicitly_stays_stored() -> None:
    stored = {"department_rounds": 0, "bracket": "redraw", "third_place": False}
    assert StageOptions.from_stored(stored).to_stored() == stored


def test_old_rows_read_tolerantly_and_keep_what_is_not_known() -> None:
    old = {
        "department_rounds": "two",
        "third_place": "yes",
        "groups": None,
        "cuts": [{"after_round": 1}, "nonsense", {"after_round": 1, "keep": 12}],
        "lots_seed": True,
        "advancement": {"count": 2},  # names no stage it came from
        "entrants": [3, "4", 5],
        "a_key_of_another_version": {"x": 1},
    }
    settings = StageOptions.from_stored(old)
    assert settings.department_rounds == 0 and settings.third_place is False and settings.groups == 1
    assert settings.cuts == (Cut(after_round=1, keep=12),)
    assert settings.lots_seed is None and settings.advancement is None and settings.entrants == (3, 5)
    assert settings.other == {"a_key_of_another_version": {"x": 1}}
    assert settings.to_stored()["a_key_of_another_version"] == {"x": 1}


def test_setting_a_value_back_to_its_default_removes_the_key() -> None:
    settings = StageOptions.from_stored({"bracket": "fixed", "bracket_record": {"size": 2}, "schedule_seed": 5})
    kept = settings.with_values(bracket_record=None, schedule_seed=None)
    assert kept.to_stored() == {"bracket": "fixed"}
    assert settings.with_values(lots_seed=7).to_stored()["lots_seed"] == 7


def test_a_draw_record_keeps_the_generators_options() -> None:
    stored = {
        "allow_rematches": False,
        "within_group": "score",
        "warnings": [{"code": "rematch", "entrants": [1, 2], "table": 3}],
        "third_place_pairs": [5, 6],
        "walkovers": {"7": 8},
        "edits": [{"kind": "move", "by": 1}],
        "referees": {"tables_per_referee": 4},
        "reseat": "score",
        "repeats": 2,
    }
    draw = DrawOptions.from_stored(stored)
    assert draw.recorded == {"allow_rematches": False, "within_group": "score"}
    assert draw.walkovers == {7: 8} and draw.third_place_pairs == (5, 6)
    assert draw.referees == {"tables_per_referee": 4} and draw.reseat == "score" and draw.repeats == 2
    assert draw.to_stored() == stored
    assert draw.storing(warnings=()).to_stored()["warnings"] == []


def test_the_models_answer_with_the_typed_options() -> None:
    assert Stage(options={"bracket": "fixed"}).settings.fixed_bracket
    assert Round(draw_options={"walkovers": {"1": 2}}).draw_settings.walkovers == {1: 2}


def test_a_lookup_names_a_known_key_only() -> None:
    assert draw_options_lookup("walkovers") == "draw_options__walkovers"
    with pytest.raises(ValueError, match="no draw option"):
        draw_options_lookup("walkover")


READ_BY_KEY = re.compile(r"\b(?:draw_)?options(?:\.get\(|\[|\.items\(\))|draw_options__")
"""A stored row's key read (or written) by hand instead of through the typed options."""

READ_IN_TEMPLATE = re.compile(r"\b(?:stage|round|round_)\.(?:draw_)?options\.")


def test_no_module_reads_the_stored_options_by_key() -> None:
    """Only the options module reads the JSON; the pure generators (``draw/pairing*``) never see a
    stored row: their ``Draw.options`` is what a round's record keeps as ``recorded``."""
    found = []
    for path in sorted((ROOT / "tournament").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "migrations" in path.parts or relative == "tournament/matches/stage_options.py":
            continue
        if path.parent.name == "draw" and path.name.startswith("pairing"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if READ_BY_KEY.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if READ_IN_TEMPLATE.search(line):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{number}")
    assert found == []


def test_the_guard_would_find_a_reader() -> None:
    assert READ_BY_KEY.search('seed = stage.options.get("lots_seed")')
    assert READ_BY_KEY.search('third = round_.draw_options["third_place_pairs"]')
    assert READ_BY_KEY.search('values_list("number", "draw_options__walkovers")')
    assert READ_IN_TEMPLATE.search("{% if round.draw_options.edits %}")
    assert not READ_BY_KEY.search("settings = stage.settings")
