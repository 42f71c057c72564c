"""Games plug in through one registry (docs/design.md): the games are told apart in ``tournament.games``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.utils import translation

from scoring.options import Game, RuleOptions
from scoring.profiles import PROFILES
from tests.factories import table_match
from tournament import games
from tournament.api.deal_serializers import DEAL_BODIES
from tournament.exports.workbook import DEAL_LOGS
from tournament.games import DOUDIZHU, GAMES, GUANDAN, PAIRS, PLAYERS, TRACTOR, UnknownGame, game_kind, game_of
from tournament.games.guandan import SCORE_SHEET_LEVELS, SCORE_SHEET_POINTS
from tournament.games.tractor import SCORE_SHEET_TRACTOR
from tournament.matches.deal_forms import DEAL_FORMS, DealEntryFields
from tournament.matches.fold import match_game

ROOT = Path(__file__).resolve().parents[3]


def test_one_entry_per_game_the_site_runs_keyed_by_the_rules_game():
    assert GAMES == {Game.GUANDAN: GUANDAN, Game.TRACTOR: TRACTOR, Game.DOUDIZHU: DOUDIZHU}
    assert all(key is entry.game for key, entry in GAMES.items())
    assert game_kind(Game.TRACTOR) is TRACTOR
    assert game_kind("guandan") is GUANDAN  # Tournament.game stores the value
    assert game_kind("doudizhu") is DOUDIZHU


@pytest.mark.parametrize("entry", list(GAMES.values()), ids=lambda entry: entry.game.value)
def test_every_entry_names_things_that_exist(entry):
    deal_forms, bodies = DEAL_FORMS[entry.game], DEAL_BODIES[entry.game]  # the layers' tables have the game
    for form in (deal_forms.fields, deal_forms.deal, deal_forms.correction):
        assert issubclass(form, DealEntryFields)
        assert entry.bound_by in form.base_fields
    assert {"version", "idempotency_key"} <= set(deal_forms.deal.base_fields)
    assert {"version", "reason"} <= set(deal_forms.correction.base_fields)
    for body in (bodies.deal, bodies.preview, bodies.correction):
        assert callable(body.outcome)
    assert "expected_version" in bodies.deal().fields and "reason" in bodies.correction().fields
    assert "record" in bodies.preview_output().fields
    get_template(entry.entry_template)
    get_template(entry.preview_template)
    assert callable(DEAL_LOGS[entry.game])  # the workbook's deal log of the game
    options = RuleOptions(game=entry.game, deals=3 if entry.entrants is PLAYERS else None)
    assert set(entry.shown_rules) <= set(options.to_json())


def test_a_game_without_an_entry_is_a_clear_error(monkeypatch):
    monkeypatch.delitem(games.GAMES, Game.DOUDIZHU)  # a game of the rules core without pages
    with pytest.raises(UnknownGame) as caught:
        game_kind(Game.DOUDIZHU)
    assert "doudizhu" in str(caught.value) and "guandan, tractor" in str(caught.value)
    assert caught.value.game is Game.DOUDIZHU
    with pytest.raises(UnknownGame):
        game_kind("chess")
    with pytest.raises(UnknownGame):
        game_kind(None)  # type: ignore[arg-type]


def test_adding_a_game_is_adding_an_entry(monkeypatch):
    later = dataclasses.replace(DOUDIZHU, label="Dou Dizhu again")
    monkeypatch.setitem(games.GAMES, Game.DOUDIZHU, later)
    assert game_kind(Game.DOUDIZHU) is later
    assert game_kind("doudizhu") is later


@pytest.mark.django_db
def test_a_match_is_told_by_its_events_game():
    """``Tournament.game`` is the one answer to "which game" (not the stage's stored rules)."""
    assert match_game(table_match(profile="timed-40")) is GUANDAN
    assert match_game(table_match(profile="tractor-3deck")) is TRACTOR
    table = table_match(profile="doudizhu", stage_format="points")
    assert match_game(table) is DOUDIZHU
    assert game_of(table.round.stage.tournament) is DOUDIZHU and table.round.stage.tournament.entrants is PLAYERS


def test_each_games_words_and_columns():
    with translation.override("en"):
        assert GUANDAN.outcome_text({"order": ["N", "E", "S", "W"]}) == "N › E › S › W"
    with translation.override("zh-hans"):
        assert GUANDAN.outcome_text({"order": ["N", "E", "S", "W"]}) == "北 › 东 › 南 › 西"
    assert GUANDAN.record_text({"order": ["N", "E"], "upgrade": 3}) == ""
    with translation.override("en"):
        text = TRACTOR.outcome_text(
            {"declarer": "NS", "defender_points": 125, "bottom": {"points": 20, "capture": "pair"}}
        )
    assert text == "N/S declares · defenders won 125 in tricks · bottom 20, pair ×3"  # words, not codes
    assert TRACTOR.record_text({"declarer": "NS", "result": "declarers_up", "upgrade": 2}) != ""
    assert TRACTOR.initial(
        {"declarer": "EW", "defender_points": 40, "penalties": [{"side": "NS", "kind": "out_of_turn"}] * 2}
    ) == {
        "declarer": "EW",
        "defender_points": 40,
        "revoke": "",
        "wrong_bottom": False,
        "wrong_count": "",
        "penalty_ns_out_of_turn": 2,
    }
    assert TRACTOR.score_sheet_columns(PROFILES["tractor-3deck"]) == SCORE_SHEET_TRACTOR
    assert GUANDAN.score_sheet_columns(PROFILES["points-6"]) == SCORE_SHEET_POINTS
    assert GUANDAN.score_sheet_columns(PROFILES["timed-40"]) == SCORE_SHEET_LEVELS
    assert (GUANDAN.pays_tribute, TRACTOR.pays_tribute) == (True, False)
    assert DOUDIZHU.outcome_text({"landlord": "E", "bid": 3, "bombs": 1, "winner": "landlord"}).startswith("E")
    assert "E +12" in DOUDIZHU.record_text(
        {
            "number": 1,
            "landlord": "E",
            "winner": "landlord",
            "multiple": 6,
            "stake": 6,
            "points": {"E": 12, "S": -6, "W": -6},
            "points_after": {"E": 12, "S": -6, "W": -6},
        }
    )
    assert DOUDIZHU.initial({"landlord": "S", "cards_left": {"E": 5, "S": 0, "W": 7}})["cards_left_w"] == 7
    assert (GUANDAN.entrants, TRACTOR.entrants, DOUDIZHU.entrants) == (PAIRS, PAIRS, PLAYERS)
    assert (PAIRS.members, PAIRS.seats, PLAYERS.members, PLAYERS.seats) == (2, ("N", "E", "S", "W"), 1, ("E", "S", "W"))
    assert PLAYERS.stage_formats == ("points",) and "knockout" in PAIRS.stage_formats
    assert PAIRS.words.keys() == PLAYERS.words.keys()  # every sentence a page asks of a kind, in each kind
    with translation.override("en"):
        assert str(PLAYERS.words["counted"] % {"counter": 2}) == "2 players"
        assert str(PAIRS.words["registered"] % {"pair": "3"}) == "Pair 3 registered."


# ``\bGame``: the Django choices take their values from the core's enum (``CoreGame.TRACTOR``), no fork
FORKS = re.compile(
    r"is_tractor|\bGame\.TRACTOR|\bGame\.DOUDIZHU|game\s*==\s*[\"'](tractor|doudizhu)|\{% if (not )?tractor"
    r"|\{% if (not )?(deal|match\.deals\.0)\.declarer\b"  # a page telling the games apart by a deal's fields
)


def test_no_game_is_forked_outside_the_registry_and_the_rules_core():
    """Views, selectors, the API, the sheets and the templates ask the registry (docs/design.md)."""
    found = []
    for folder, pattern in (("tournament", "*.py"), ("templates", "*.html")):
        for path in sorted((ROOT / folder).rglob(pattern)):
            if "games" in path.relative_to(ROOT).parts or "migrations" in path.parts:
                continue
            found += [
                f"{path.relative_to(ROOT)}:{n}"
                for n, line in enumerate(path.read_text().splitlines(), 1)
                if FORKS.search(line)
            ]
    assert found == []


def test_the_games_an_event_may_play_are_the_registrys():
    """``Tournament.game`` (a choice and a database check) offers exactly the games with an entry."""
    from tournament.registration.models import Game as TournamentGame

    assert set(TournamentGame.values) == {game.value for game in GAMES}
