"""A pair's page renders its matches, and a match's deal history, in Python (a pair's first view
renders every match it played): they are what the template's loop and includes rendered before,
byte for byte, in both languages and for every kind of result."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from tests.tournament.standings.events import SwissEvent, play_out, swiss_event
from tournament import labels
from tournament.games import GAMES, GUANDAN
from tournament.standings.public import pair_history_get, tournament_overview_get
from tournament.standings.public_types import PairView, PublicSide

pytestmark = pytest.mark.django_db

LOOP = (Path(__file__).resolve().parents[2] / "data" / "pair_matches_loop.html").read_text(encoding="utf-8")
"""The template loop the tag replaced, its two includes written in (``templates/public/_pair.html``,
``_result_for.html`` and ``_deals.html`` before)."""

TAG = "{% load public_tags %}{% pair_matches pair overview.id %}"


def played(*, deals: int) -> tuple[SwissEvent, PairView | None]:
    """The Swiss event with its second round's first table played ``deals`` deals in: the event and
    that table's N/S pair's page, as its first view reads it."""
    event = swiss_event()
    here = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    play_out(here, deals=deals)
    view = pair_history_get(
        tournament_id=event.tournament.pk,
        pair_id=here.ns_pair_id,
        frame=tournament_overview_get(tournament_id=event.tournament.pk),
    )
    return event, view


def variants(view: PairView) -> dict[str, PairView]:
    """The pair's real matches, and each kind of result a match can show, made from them."""
    played, running = view.matches[0], view.matches[-1]
    bye = replace(played, ew=PublicSide(None, ""), ns=PublicSide(view.id, view.name), table=None, deals=())
    if played.ns.pair_id != view.id:
        played = replace(played, ns=played.ew, ew=played.ns)
    odd = replace(
        played,
        stage_name="A & <B>",
        ew=PublicSide(played.ew.pair_id, '"王" & <李>'),
        adjustments=(
            {"kind": "forfeit", "side": "NS", "reason": "<迟到> & 'late'"},
            {"kind": "penalty"},
            {"kind": "unknown-kind", "side": "EW"},
            {},
        ),
    )
    return {
        "real": view,
        "none": replace(view, matches=()),
        "forfeit": replace(view, matches=(replace(played, reason="forfeit", winner="NS", status="finished"),)),
        "forfeited": replace(view, matches=(replace(played, reason="forfeit", winner="EW", status="confirmed"),)),
        "both forfeit": replace(view, matches=(replace(played, reason="forfeit", winner="", status="finished"),)),
        "draw": replace(view, matches=(replace(played, reason="draw", winner="", status="finished"),)),
        "pending": replace(view, matches=(replace(running, status="pending", deals=(), levels=None),)),
        "bye": replace(view, matches=(bye, running)),
        "walkover": replace(view, matches=(replace(bye, walkover_over="<退赛> 队"), running)),
        "points": replace(view, matches=(replace(played, points=(1200, 800), game="tractor"),)),
        "odd": replace(view, matches=(odd, running)),
    }


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_matches_are_the_template_loops(language):
    event, view = played(deals=3)
    assert view is not None and len(view.matches) == 2
    engine = engines["django"]
    overview = SimpleNamespace(id=event.tournament.pk)
    with translation.override(language):
        for name, pair in variants(view).items():
            context = {"pair": pair, "overview": overview}
            assert engine.from_string(TAG).render(context) == engine.from_string(LOOP).render(context), name


def test_a_match_page_shows_the_deal_history_of_the_same_code(client):
    """The match page and the team match page include ``public/_deals.html``: the same rows, the same words."""
    _event, view = played(deals=2)
    assert view is not None
    match = view.matches[-1]
    html = render_to_string("public/_deals.html", {"match": match})
    assert html.count('class="deal"') == len(match.deals) > 0 and html.endswith("\n")


PAGE = (Path(__file__).resolve().parents[2] / "data" / "pair_page_template.html").read_text(encoding="utf-8")
"""The pair page's template before its body was rendered in Python (``public_tags.pair_page``)."""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_pairs_page_is_its_template(language):
    event, view = played(deals=2)
    assert view is not None and view.players
    engine = engines["django"]
    pairs = {
        **variants(view),
        "withdrawn": replace(view, status="withdrawn"),
        "no department": replace(view, players=(("张三", ""), ('<李> & "四"', "A&B <部>"))),
        "no players": replace(view, players=(), name="<王> & '李'", number=12345),
    }
    context = {
        "overview": SimpleNamespace(id=event.tournament.pk),
        "ranks_hole": mark_safe("<!--pair-ranks-->"),
        "poll_url": "/t/1/pairs/2/?v=c1.p2&x=<y>",
        "poll_seconds": 5,
    }
    with translation.override(language):
        for name, pair in pairs.items():
            shown = render_to_string("public/_pair.html", {**context, "pair": pair})
            assert shown == engine.from_string(PAGE).render({**context, "pair": pair}), name


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_deal_historys_texts_read_the_seats_names_once_and_are_each_deals_own(monkeypatch, language):
    """The game's words are read once for a deal history, not once a deal (``GameKind.deal_texts``),
    and give each deal the text its game's ``deal_text`` gives it alone (records, or their JSON; a
    record without an order, or none, has none)."""
    _event, view = played(deals=6)
    assert view is not None
    match = view.matches[-1]
    records = [*match.deals, match.deals[0]._replace(order=()), None, {"number": 9, "order": ["W", "S", "E", "N"]}]
    read = []
    seat_names = labels.seat_names
    monkeypatch.setattr(labels, "seat_names", lambda: read.append(1) or seat_names())
    with translation.override(language):
        for entry in GAMES.values():
            alone = [entry.deal_text(None, record) for record in records]
            read.clear()
            assert entry.deal_texts(records) == alone, entry.game
            assert entry is not GUANDAN or read == [1]  # Guandan's seats: once for the list
        read.clear()
        html = render_to_string("public/_deals.html", {"match": match})
        assert html.count('class="deal"') == len(match.deals) > 2 and read == [1]
