"""One answer to "who gets which prize?" (docs/rules.md §4, prize tiers): the prize order is the knockout's
placings, then — for the places after them — the ranking of the stage it was advanced from, of the pairs
that did not advance. A tier reaching past the knockout awards those pairs; places no pair is left for are
said, never silently dropped. The prizes page, the placings page and the workbook give the same list
(``exports.prizes.prize_order_get`` behind ``prize_tiers_award``). Built through the services."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.exports import headers as h
from tournament.exports.prizes import TierData, prize_tiers_award, prize_tiers_set
from tournament.matches.services import match_sign_off
from tournament.registration.models import Pair
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db


def test_prizes_after_the_knockout_come_from_the_stage_before_on_every_reader(
    client, django_capture_on_commit_callbacks
):
    boss = organiser(username="boss")
    tournament = make_field(6)
    tournament.organisers.add(boss)
    swiss = stage_create(tournament=tournament, name="瑞士移位", format="swiss", advance_count=4)
    for number in (1, 2):
        round_ = round_publish(round_=round_draw(stage=swiss, seed=number))
        for match in round_.matches.filter(ew_pair__isnull=False):
            confirm(match, "NS" if match.ns_pair_id < match.ew_pair_id else "EW")
    knockout = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "third_place": True}
    )
    stage_advance(stage=swiss, next_stage=knockout, user=boss)
    knockout.refresh_from_db()
    semis = round_publish(round_=round_draw(stage=knockout, seed=1))
    for match in semis.matches.order_by("table__number"):
        win(match, "NS")
        with django_capture_on_commit_callbacks(execute=True):
            match_sign_off(match_id=match.pk)
    final_round = round_publish(round_=knockout.rounds.get(number=2))
    for match in final_round.matches.all():
        win(match, "NS")
        with django_capture_on_commit_callbacks(execute=True):
            match_sign_off(match_id=match.pk)
    prize_tiers_set(
        tournament=tournament,
        tiers=[TierData("一等奖", 1), TierData("二等奖", 1), TierData("三等奖", 2), TierData("鼓励奖", 10)],
    )
    # the truth: the knockout's four placings, then the Swiss order of the two pairs left out
    placed = [row.entrant for row in stage_ranking_get(stage=knockout).standings.rows]
    left = [row.entrant for row in stage_ranking_get(stage=swiss).standings.rows if row.entrant not in placed]
    assert len(placed) == 4 and len(left) == 2
    numbers = dict(Pair.objects.filter(tournament=tournament).values_list("id", "number"))
    tiers = ["一等奖", "二等奖", "三等奖", "三等奖", "鼓励奖", "鼓励奖"]
    truth = [(tier, numbers[int(pair)]) for tier, pair in zip(tiers, placed + left, strict=True)]
    award_list = prize_tiers_award(tournament=tournament)
    assert [(award.tier, award.pair.number) for award in award_list.awards] == truth
    ranks = [award.rank for award in award_list.awards]
    assert ranks[:5] == [1, 2, 3, 4, 5] and ranks[5] in (5, 6)  # places go on after the knockout's
    assert award_list.unawarded == (("鼓励奖", 8),)  # said: eight places no pair is left for
    # the organiser's prizes page
    client.force_login(boss)
    page = client.get(reverse("exports:prizes", args=[tournament.pk])).content.decode()
    table = page.split("<tbody>")[-1].split("</tbody>")[0]
    rows = re.findall(r"<tr>\s*<td>([^<]+)</td><td>\d+.*?</td><td>(\d+)</td>", table, re.S)
    assert [(tier, int(number)) for tier, number in rows] == truth
    assert "鼓励奖" in page and "8 个名额未授出" in page
    # the public placings page
    client.logout()
    placings = client.get(reverse("exports:stage_placings", args=[tournament.pk, knockout.pk])).content.decode()
    listed = re.findall(r'<a href="/t/\d+/pairs/(\d+)/">[^<]*</a>\s*(?:<span class="badge">([^<]*)</span>)?', placings)
    assert [(tier, numbers[int(pair)]) for pair, tier in listed] == truth
    # the workbook's awards sheet
    book = read_book(build(tournament=tournament))
    sheet = book[h.sheet_name("awards", "zh")]
    assert [(row[0], row[2]) for row in sheet[1:] if row[2] is not None] == truth
    assert any(row[0] and "8 个名额未授出" in row[0] for row in sheet[1:])
