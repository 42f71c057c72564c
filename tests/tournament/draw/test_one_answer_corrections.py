"""One truth after every correction (docs/design.md, one answer to each question; docs/corrections.md).

A tie where a stage is cut (after a correction, or at a knockout's placings) or where a prize tier
ends: the page, the API, the workbook, the flag, a redraw, the next draw and the prizes all read the
same lots — the stage's, drawn once and recorded. Every event here is built through the services."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw import stages
from tournament.draw.advancement_flags import REDRAW, advancement_flag_resolve, stage_open_advancement_flag
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.exports import headers as h
from tournament.exports.prizes import TierData, prize_lots_draw, prize_stage_set, prize_tiers_award, prize_tiers_set
from tournament.matches.correction_selectors import stage_flags_get
from tournament.matches.models import Match, Stage
from tournament.matches.services import deal_undo, match_sign_off, match_unlock
from tournament.registration.models import Pair
from tournament.standings.public import standings_get
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed(django_capture_on_commit_callbacks):
    """Sign off with the after-commit hooks run (``match_confirmed``: the advancement re-check)."""

    def sign(match_id: int, user) -> Match:
        with django_capture_on_commit_callbacks(execute=True):
            return match_sign_off(match_id=match_id, user=user)

    return sign


def round_robin_of_four():
    """P1 beats everyone, X beats Y and Z, Y beats Z (the lower id wins): P1, X, Y, Z in that order."""
    tournament = make_field(4)
    stage = stage_create(tournament=tournament, name="循环赛", format="round_robin", advance_count=2)
    for number in (1, 2, 3):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for match in round_.matches.filter(ew_pair__isnull=False):
            confirm(match, "NS" if match.ns_pair_id < match.ew_pair_id else "EW")
    return tournament, stage


def test_a_tie_at_the_cut_after_a_correction_is_decided_by_lots_drawn_once(client, signed, monkeypatch):
    boss = organiser()
    tournament, stage = round_robin_of_four()
    tournament.organisers.add(boss)
    p1, x, y, z = sorted(Pair.objects.filter(tournament=tournament).values_list("pk", flat=True))
    final = stage_create(tournament=tournament, name="决赛", format="knockout", options={"bracket": "fixed"})
    stage_advance(stage=stage, next_stage=final, user=boss)
    final.refresh_from_db()
    assert final.settings.entrants == (p1, x) and stage.settings.lots_seed is None  # no tie: no lots
    round_publish(round_=round_draw(stage=final, seed=1))

    drawn: list[int] = []

    def lots_falling_on_another_pair(bound: int) -> int:
        """The lots the correction draws: a seed whose lots advance Y or Z, not X (so the stage is flagged)."""
        source = Stage.objects.get(pk=stage.pk)
        ranked = (stage_ranking_get(stage=source, lots_seed=s).ranking for s in range(100))
        seed = next(s for s, ranking in enumerate(ranked) if ranking.advancing(2)[1] != str(x))
        drawn.append(seed)
        return seed

    monkeypatch.setattr(stages.secrets, "randbelow", lots_falling_on_another_pair)
    # The correction: X–Z is given to Z. P1 3 wins; X, Y and Z one each, by the same margins: a full tie.
    x_z = Match.objects.get(round__stage=stage, ns_pair_id__in=(x, z), ew_pair_id__in=(x, z))
    match_unlock(match_id=x_z.pk, reason="记分有误", user=boss, dependents_seen=True)
    while x_z.deals.exists():
        deal_undo(match_id=x_z.pk, user=boss, reason="记分有误")
    win(x_z, "NS" if x_z.ns_pair_id == z else "EW")
    signed(x_z.pk, boss)
    assert stage_ranking_get(stage=stage, lots=False).standings.rows[1].shared  # lots aside: X, Y, Z share 2nd

    stage.refresh_from_db()
    assert len(drawn) == 1 and stage.settings.lots_seed == drawn[0]  # drawn once, recorded with the stage
    seed = drawn[0]
    # The stage's one ranking with those lots: P1, then the lots' order of X, Y and Z.
    order = [int(row.entrant) for row in stage_ranking_get(stage=stage).standings.rows]
    assert order[0] == p1 and order[1] in (y, z) and set(order[1:]) == {x, y, z}
    # The page and the API: no shared place left, the lots shown.
    lines = standings_get(tournament_id=tournament.pk, stage_id=stage.pk).lines
    assert [(line.pair_id, line.rank, line.shared) for line in lines] == [
        (pair, rank, False) for rank, pair in enumerate(order, start=1)
    ]
    api = client.get(reverse("api:public:standings", kwargs={"tournament_id": tournament.pk, "stage_id": stage.pk}))
    assert [(row["pair_id"], row["rank"]) for row in api.json()["results"]] == [
        (pair, rank) for rank, pair in enumerate(order, start=1)
    ]
    # The workbook ranks the same.
    rows = read_book(build(tournament=tournament))[h.sheet_name("standings", "zh", stage=stage.name)][1:]
    number = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    assert [(row[2], row[0]) for row in rows[:4]] == [(number[pair], rank) for rank, pair in enumerate(order, start=1)]
    # The flag names the pair the lots advance, and says the cut was a tie decided by them.
    flag = stage_open_advancement_flag(stage=final)
    assert flag is not None and flag.advanced == [p1, x] and flag.now_advancing == order[:2]
    (shown,) = stage_flags_get(stage=final, open_only=True)
    assert shown.tie_lots_seed == seed and [pair.id for pair in shown.joining] == [order[1]]
    client.force_login(boss)
    page = client.get(reverse("draw:stage", kwargs={"tournament_id": tournament.pk, "stage_id": final.pk}))
    assert page.context["flag"].tie_lots_seed == seed and f"（种子 {seed}）" in page.content.decode()
    # The final's public bracket and the API say its advancement changed.
    client.logout()
    bracket_page = client.get(reverse("standings:stage_bracket", args=[tournament.pk, final.pk])).content.decode()
    assert "advancement-changed" in bracket_page
    overview = client.get(reverse("api:public:tournament", args=[tournament.pk])).json()
    assert next(item for item in overview["stages"] if item["id"] == final.pk)["advancement_changed"] is True
    # Prizes over the stage: the same order.
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("一等奖", 1), TierData("二等奖", 1)])
    awards = prize_tiers_award(tournament=tournament)
    assert [(a.tier, a.pair.id) for a in awards.awards] == [("一等奖", p1), ("二等奖", order[1])]
    # A redraw advances the pairs the flag named, with the same lots (none drawn again).
    advancement_flag_resolve(stage=final, choice=REDRAW, reason="更正后重新晋级", user=boss)
    final.refresh_from_db()
    assert final.settings.entrants == tuple(order[:2]) and final.settings.advancement.lots_seed == seed
    assert len(drawn) == 1
    # The next draw draws them.
    first = round_draw(stage=final, seed=3)
    assert set(first.entries.values_list("pair_id", flat=True)) == set(order[:2])


def test_a_tie_at_a_knockouts_cut_is_decided_by_recorded_lots(client):
    """The semi-finals' losers of a knockout without a third-place match share 3rd: advancing three
    draws lots, recorded with the knockout, and its placings, page and the next stage read them."""
    boss = organiser()
    tournament = make_field(4, seeds=True)
    knockout = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    semis = round_publish(round_=round_draw(stage=knockout, seed=1))
    for match in semis.matches.filter(ew_pair__isnull=False):
        confirm(match, "NS")
    final_round = round_publish(round_=round_draw(stage=knockout, seed=2))
    for match in final_round.matches.filter(ew_pair__isnull=False):
        confirm(match, "NS")
    lots_aside = stage_ranking_get(stage=knockout, lots=False).standings.rows
    assert [(row.rank, row.shared) for row in lots_aside] == [(1, False), (2, False), (3, True), (3, True)]
    after = stage_create(tournament=tournament, name="循环赛", format="round_robin")
    stage_advance(stage=knockout, next_stage=after, count=3, user=boss)
    knockout.refresh_from_db()
    after.refresh_from_db()
    seed = knockout.settings.lots_seed
    assert seed is not None and after.settings.advancement.lots_seed == seed
    placings = stage_ranking_get(stage=knockout).standings.rows
    order = [int(row.entrant) for row in placings]
    assert [(row.rank, row.shared) for row in placings] == [(1, False), (2, False), (3, False), (4, False)]
    assert after.settings.entrants == tuple(order[:3])
    # The public placings page and the workbook place them the same way.
    page = client.get(reverse("exports:stage_placings", args=[tournament.pk, knockout.pk]))
    shown = [(row["id"], row["rank"]) for row in page.context["rows"]]
    assert shown == list(zip(order, (1, 2, 3, 4), strict=True))
    rows = read_book(build(tournament=tournament))[h.sheet_name("standings", "zh", stage=knockout.name)][1:]
    number = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    assert [(row[2], row[0]) for row in rows[:4]] == [(number[pair], rank) for rank, pair in enumerate(order, start=1)]
    # The public standings of the stage (its page's data; the API has no placings of a knockout) and the
    # prizes read the same lots.
    lines = standings_get(tournament_id=tournament.pk, stage_id=knockout.pk).lines
    assert [(line.pair_id, line.rank, line.shared) for line in lines] == [
        (pair, rank, False) for rank, pair in enumerate(order, start=1)
    ]
    prize_stage_set(tournament=tournament, stage=knockout)
    prize_tiers_set(tournament=tournament, tiers=[TierData("一等奖", 1), TierData("二等奖", 1), TierData("三等奖", 1)])
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None and awards.lots_seed == seed
    assert [(a.tier, a.pair.id) for a in awards.awards] == list(
        zip(("一等奖", "二等奖", "三等奖"), order, strict=False)
    )
    first = round_draw(stage=after, seed=3)
    assert set(first.entries.values_list("pair_id", flat=True)) == set(order[:3])


# -- the prizes' lots are the stage's ---------------------------------------------------------------------


def test_the_prize_lots_are_the_stages_lots_every_reader_shows_them_and_an_advancement_keeps_them(client, monkeypatch):
    """A round robin of three in a cycle (each beats one, by the same margins): all share 1st. The prize
    tiers cross the tie; the lots drawn for them are the stage's, so the standings page, the API, the
    workbook (standings and awards) and a later advancement all give the order the award list gives."""
    boss = organiser()
    tournament = make_field(3)
    stage = stage_create(tournament=tournament, name="循环赛", format="round_robin")
    ids = sorted(Pair.objects.filter(tournament=tournament).values_list("pk", flat=True))
    beats = {(ids[0], ids[1]), (ids[1], ids[2]), (ids[2], ids[0])}
    for number in (1, 2, 3):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for match in round_.matches.filter(ew_pair__isnull=False):
            confirm(match, "NS" if (match.ns_pair_id, match.ew_pair_id) in beats else "EW")
    before = standings_get(tournament_id=tournament.pk, stage_id=stage.pk).lines
    assert all(line.rank == 1 and line.shared for line in before)
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("金奖", 1), TierData("银奖", 1)])
    assert prize_tiers_award(tournament=tournament).problem is not None  # the tie crosses a tier: lots first
    prize_lots_draw(tournament=tournament, user=boss)
    stage.refresh_from_db()
    seed = stage.settings.lots_seed
    assert seed is not None
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None and awards.lots_seed == seed
    order = [int(row.entrant) for row in stage_ranking_get(stage=stage).standings.rows]
    assert [(a.tier, a.pair.id, a.rank) for a in awards.awards] == [("金奖", order[0], 1), ("银奖", order[1], 2)]
    # The standings page and the API: the same order, no shared place.
    lines = standings_get(tournament_id=tournament.pk, stage_id=stage.pk).lines
    assert [(line.pair_id, line.rank, line.shared) for line in lines] == [
        (pair, rank, False) for rank, pair in enumerate(order, start=1)
    ]
    api = client.get(reverse("api:public:standings", kwargs={"tournament_id": tournament.pk, "stage_id": stage.pk}))
    assert [(row["pair_id"], row["rank"]) for row in api.json()["results"]] == [
        (pair, rank) for rank, pair in enumerate(order, start=1)
    ]
    # The workbook: the stage's standings and the award list.
    book = read_book(build(tournament=tournament))
    number = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    standings_rows = book[h.sheet_name("standings", "zh", stage=stage.name)][1:]
    assert [(row[2], row[0]) for row in standings_rows[:3]] == [(number[p], r) for r, p in enumerate(order, start=1)]
    awarded = [(row[0], row[2]) for row in book["获奖名单"][1:]]
    assert awarded == [("金奖", number[order[0]]), ("银奖", number[order[1]])]
    # An advancement from the stage reads the same lots (none drawn again), and the awards stay.
    monkeypatch.setattr(stages.secrets, "randbelow", lambda bound: pytest.fail("lots drawn twice"))
    after = stage_create(tournament=tournament, name="决赛", format="knockout")
    stage_advance(stage=stage, next_stage=after, count=2, user=boss)
    after.refresh_from_db()
    stage.refresh_from_db()
    assert after.settings.entrants == tuple(order[:2]) and after.settings.advancement.lots_seed == seed
    assert stage.settings.lots_seed == seed
    assert prize_tiers_award(tournament=tournament).awards == awards.awards


def test_a_knockouts_prize_lots_are_read_by_the_placings_page_and_every_other_reader(client, monkeypatch):
    """A knockout of four without a third-place match: its semi-finals' losers share 3rd. A prize for one
    3rd place needs lots; drawn once, they are the knockout's own, so the award list, the placings page,
    the organiser's prizes page, the standings (page and API), the workbook (standings and award list)
    and a later advancement from the knockout all give the same 3rd and 4th."""
    boss = organiser()
    tournament = make_field(4, seeds=True)
    tournament.organisers.add(boss)
    knockout = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    for number in (1, 2):
        round_ = round_publish(round_=round_draw(stage=knockout, seed=number))
        for match in round_.matches.filter(ew_pair__isnull=False):
            confirm(match, "NS")
    assert [row.rank for row in stage_ranking_get(stage=knockout).standings.rows] == [1, 2, 3, 3]
    prize_stage_set(tournament=tournament, stage=knockout)
    prize_tiers_set(tournament=tournament, tiers=[TierData("冠军", 1), TierData("亚军", 1), TierData("季军", 1)])
    assert prize_tiers_award(tournament=tournament).problem is not None  # the shared 3rd crosses a tier
    prize_lots_draw(tournament=tournament, user=boss)
    knockout.refresh_from_db()
    seed = knockout.settings.lots_seed
    assert seed is not None
    order = [int(row.entrant) for row in stage_ranking_get(stage=knockout).standings.rows]
    tiers = ["冠军", "亚军", "季军", ""]
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None and awards.lots_seed == seed
    assert [(a.tier, a.pair.id, a.rank) for a in awards.awards] == [
        (tier, pair, rank) for rank, (tier, pair) in enumerate(zip(tiers[:3], order, strict=False), start=1)
    ]
    # the public placings page: the lots' 3rd and 4th, each with the tier the award list gives
    page = client.get(reverse("exports:stage_placings", args=[tournament.pk, knockout.pk]))
    assert [(row["id"], row["rank"], row["tier"]) for row in page.context["rows"]] == [
        (pair, rank, tier) for rank, (pair, tier) in enumerate(zip(order, tiers, strict=True), start=1)
    ]
    # the standings page's data (the API has no placings of a knockout)
    lines = standings_get(tournament_id=tournament.pk, stage_id=knockout.pk).lines
    assert [(line.pair_id, line.rank, line.shared) for line in lines] == [
        (pair, rank, False) for rank, pair in enumerate(order, start=1)
    ]
    # the organiser's prizes page
    client.force_login(boss)
    prizes = client.get(reverse("exports:prizes", args=[tournament.pk])).content.decode()
    number = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    table = prizes.split("<tbody>")[-1].split("</tbody>")[0]
    listed = re.findall(r"<tr>\s*<td>([^<]+)</td><td>\d+.*?</td><td>(\d+)</td>", table, re.S)
    assert [(tier, int(no)) for tier, no in listed] == [
        (tier, number[pair]) for tier, pair in zip(tiers, order[:3], strict=False)
    ]
    # the workbook: the stage's standings and the award list
    book = read_book(build(tournament=tournament))
    rows = book[h.sheet_name("standings", "zh", stage=knockout.name)][1:]
    assert [(row[2], row[0]) for row in rows[:4]] == [(number[pair], rank) for rank, pair in enumerate(order, start=1)]
    awarded = [(row[0], row[2]) for row in book[h.sheet_name("awards", "zh")][1:] if row[2] is not None]
    assert awarded == [(tier, number[pair]) for tier, pair in zip(tiers, order[:3], strict=False)]
    # an advancement of three from the knockout reads the same lots (none drawn again) and so does its draw
    monkeypatch.setattr(stages.secrets, "randbelow", lambda bound: pytest.fail("lots drawn twice"))
    after = stage_create(tournament=tournament, name="循环赛", format="round_robin")
    stage_advance(stage=knockout, next_stage=after, count=3, user=boss)
    after.refresh_from_db()
    assert after.settings.entrants == tuple(order[:3]) and after.settings.advancement.lots_seed == seed
    first = round_draw(stage=after, seed=3)
    assert set(first.entries.values_list("pair_id", flat=True)) == set(order[:3])
