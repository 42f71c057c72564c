"""What a Swiss draw proved, stored with its round and shown on the organiser's round page
(docs/swiss-draw.md, "What is proven"): optimal over every pairing, or its first N criteria."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import english_client, organiser
from tests.tournament.draw.conftest import make_field
from tournament.draw import pairing_swiss, pairing_swiss_candidates
from tournament.draw.edits import round_pairs_swap
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_create
from tournament.matches.models import Round

pytestmark = pytest.mark.django_db


def _page(round_: Round, client: Client) -> str:
    user = organiser()
    round_.stage.tournament.organisers.add(user)
    client.force_login(user)
    response = client.get(reverse("draw:round", args=(round_.stage.tournament_id, round_.pk)))
    assert response.status_code == 200
    return response.content.decode()


def _swiss_round(pairs: int) -> Round:
    stage = stage_create(tournament=make_field(pairs), name="预赛", format="swiss")
    return round_draw(stage=stage, seed=1)


def test_an_exact_draw_is_stored_and_shown_as_optimal_over_every_pairing() -> None:
    round_ = _swiss_round(9)
    assert round_.draw_proven is True
    assert round_.draw_criteria == 5  # one score group: rematches, clashes, severe seats, skips, strain
    round_.refresh_from_db()
    assert (round_.draw_proven, round_.draw_criteria) == (True, 5)
    assert "optimal over every pairing" in _page(round_, english_client())
    assert "在所有配对中最优" in _page(round_, Client())


def test_a_draw_over_candidate_tables_stores_how_many_criteria_it_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above DENSE_LIMIT a draw is the optimum over its candidate tables: the limit lowered here
    so that a small field takes that path (the class bound proves every criterion of round 1)."""
    monkeypatch.setattr(pairing_swiss, "DENSE_LIMIT", 4)
    monkeypatch.setattr(pairing_swiss_candidates, "DENSE_LIMIT", 4)
    round_ = _swiss_round(10)
    round_.refresh_from_db()
    assert round_.draw_proven is False
    assert round_.draw_criteria == 5
    assert "proven optimal for criteria 1–5" in _page(round_, english_client())
    assert "前 5 项标准已证明最优" in _page(round_, Client())


def test_a_partial_proof_reads_as_its_criteria_in_both_languages() -> None:
    round_ = _swiss_round(6)
    Round.objects.filter(pk=round_.pk).update(draw_proven=False, draw_criteria=24)
    round_.refresh_from_db()
    english = _page(round_, english_client())
    assert "proven optimal for criteria 1–24" in english and "optimal over every pairing" not in english
    assert "前 24 项标准已证明最优" in _page(round_, Client())


def test_a_swap_by_hand_clears_the_proof() -> None:
    """The proof was of the tables as drawn: once two pairs are swapped it no longer holds."""
    round_ = _swiss_round(8)
    first, second = round_.matches.order_by("table__number")[:2]
    round_pairs_swap(round_=round_, first_pair_id=first.ns_pair_id, second_pair_id=second.ns_pair_id)
    round_.refresh_from_db()
    assert (round_.draw_proven, round_.draw_criteria) == (False, None)
    page = _page(round_, english_client())
    assert "optimal over every pairing" not in page and "proven optimal" not in page


def test_other_draws_store_no_proof() -> None:
    stage = stage_create(tournament=make_field(6), name="淘汰赛", format="knockout")
    round_ = round_draw(stage=stage, seed=1)
    round_.refresh_from_db()
    assert (round_.draw_proven, round_.draw_criteria) == (False, None)
    assert "proven optimal" not in _page(round_, english_client())
