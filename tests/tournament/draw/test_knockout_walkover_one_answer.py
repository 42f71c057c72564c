"""A knockout walkover is a walkover everywhere (docs/rules.md §4 "Tournament structures", §5; seed 004
若搭档因故不能按时参加比赛，将视为两人自动放弃比赛): a pair whose next opponent withdrew goes on without
playing, and the draw records it as a walkover (不战而胜) over that pair, not a bye (轮空). Every reader —
the public draw and bracket, the API, the organiser's draw page, the workbook — says so. And a pair's page
marks a rank that counts a result awaiting sign-off, as the standings do."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.draw.conftest import confirm, make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw.selectors import round_lines
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports import headers as h
from tournament.exports.round_sheets import round_draw_build
from tournament.matches.models import Match
from tournament.registration.models import Pair
from tournament.registration.services import pair_withdraw
from tournament.standings.public import bracket_get, draw_list

pytestmark = pytest.mark.django_db


def test_a_knockout_walkover_is_recorded_and_shown_as_one(client, django_capture_on_commit_callbacks):
    tournament = make_field(8, seeds=True)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "seeding": "seeds"}
    )
    quarters = list(round_publish(round_=round_draw(stage=stage, seed=1)).matches.order_by("bracket_slot"))
    *first_three, last = quarters
    for match in first_three:
        with django_capture_on_commit_callbacks(execute=True):
            confirm(match, "NS")
    top, gone = quarters[0].ns_pair_id, quarters[1].ns_pair_id  # they were to meet in semi-final 1
    pair_withdraw(pair=Pair.objects.get(pk=gone))
    with django_capture_on_commit_callbacks(execute=True):
        confirm(last, "NS")  # the round is complete: the hook draws the semi-finals
    semis = round_publish(round_=stage.rounds.get(number=2))
    walkover = semis.matches.get(ew_pair__isnull=True)
    assert walkover.ns_pair_id == top and semis.draw_settings.walkovers == {top: gone}
    gone_name = Pair.objects.get(pk=gone).name
    # the public draw and the API
    row = next(row for row in draw_list(tournament_id=tournament.pk, round_id=semis.pk) if row.match_id == walkover.pk)
    assert row.is_bye and row.walkover_over == gone_name
    rows = client.get(reverse("api:public:draw", args=[tournament.pk, semis.pk])).json()["results"]
    assert [(r["is_bye"], r["walkover_over"]) for r in rows if r["match_id"] == walkover.pk] == [(True, gone_name)]
    # the public bracket and the API
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=stage.pk)
    box = next(box for box in bracket.rounds[1].matches if box.match_id == walkover.pk)
    assert box.is_bye and box.walkover_over == gone_name
    page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, stage.pk])).content.decode()
    assert "不战而胜" in page and gone_name in page
    data = client.get(reverse("api:public:bracket", args=[tournament.pk, stage.pk])).json()
    boxes = [box for round_ in data["rounds"] for box in round_["matches"] if box["match_id"] == walkover.pk]
    assert [box["walkover_over"] for box in boxes] == [gone_name]
    # the pair's page, the match page and the API's match
    pair_page = client.get(reverse("standings:pair", args=[tournament.pk, top])).content.decode()
    assert "不战而胜" in pair_page and gone_name in pair_page
    match_page = client.get(reverse("standings:match", args=[tournament.pk, walkover.pk])).content.decode()
    assert "不战而胜" in match_page and gone_name in match_page
    assert (
        client.get(reverse("api:public:match", args=[tournament.pk, walkover.pk])).json()["walkover_over"] == gone_name
    )
    # the organiser's draw page
    assert [line.walkover for line in round_lines(round_=semis) if line.match.pk == walkover.pk] == [True]
    # the workbook: the draw sheet and the results (a forfeit win, not a bye)
    out = io.BytesIO()
    round_draw_build(round=semis, target=out)
    out.seek(0)
    sheet = list(load_workbook(out, read_only=True).active.iter_rows(values_only=True))
    number = Pair.objects.get(pk=top).number
    assert [row[-1] for row in sheet[1:] if row[2] == number] == ["不战而胜"]
    results = read_book(build(tournament=tournament))[h.sheet_name("results", "zh")]
    result = next(row for row in results[1:] if row[0] == walkover.pk)
    assert result[results[0].index("胜负原因")] == "弃权"
    # a bye stays a bye: the other semi-final is played, the final drawn when both are decided
    played = semis.matches.get(ew_pair__isnull=False)
    assert not Match.objects.filter(round=semis, ew_pair__isnull=True).exclude(pk=walkover.pk).exists()
    assert played.table is not None


def test_a_pairs_page_marks_a_rank_awaiting_sign_off(client):
    tournament = make_field(4)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    unsigned = first.matches.filter(ew_pair__isnull=False).order_by("id").first()
    win(unsigned, "NS")  # entered, not signed off: counted, marked (the event's default)
    pair_id = unsigned.ns_pair_id
    page = client.get(reverse("standings:pair", args=[tournament.pk, pair_id])).content.decode()
    assert "provisional" in page and "待确认" in page
    ranks = client.get(reverse("api:public:pair", args=[tournament.pk, pair_id])).json()["ranks"]
    assert [rank["provisional"] for rank in ranks] == [True]
    other = first.matches.filter(ew_pair__isnull=False).exclude(pk=unsigned.pk).get()
    confirm(other, "NS")
    page = client.get(reverse("standings:pair", args=[tournament.pk, other.ns_pair_id])).content.decode()
    assert "provisional" not in page
    ranks = client.get(reverse("api:public:pair", args=[tournament.pk, other.ns_pair_id])).json()["ranks"]
    assert [rank["provisional"] for rank in ranks] == [False]
