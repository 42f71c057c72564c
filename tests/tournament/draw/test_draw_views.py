"""The organiser's draw pages: scoped to the organiser, thin over the services."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, organiser, referee
from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Match, RefereeAssignment, Round, RoundStatus, Stage, Table
from tournament.matches.referees import referee_create
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    """Pages in English for the assertions: the site is Chinese first, only the switch changes it."""
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return english


@pytest.fixture
def boss(client):
    user = organiser()
    client.force_login(user)
    return user


@pytest.fixture
def event(boss):
    tournament = make_field(9)
    tournament.organisers.add(boss)
    return tournament


def url(name, *args):
    return reverse(f"draw:{name}", args=args)


def swiss_stage(event):
    return stage_create(tournament=event, name="预赛", format="swiss", advance_count=4)


def test_every_draw_page_is_404_outside_the_organisers_tournament(client, boss):
    other = make_field(4)
    stage = swiss_stage(other)
    round_ = round_draw(stage=stage, seed=1)
    pages = [
        url("stages", other.pk),
        url("stage", other.pk, stage.pk),
        url("stage_advance", other.pk, stage.pk),
        url("round", other.pk, round_.pk),
        url("referees", other.pk, round_.pk),
        url("sheet", other.pk, round_.pk),
        url("tables", other.pk),
    ]
    for page in pages:
        assert client.get(page).status_code == 404, page
    for action in ("round_publish", "round_delete", "round_swap", "round_move", "round_unpublish"):
        assert client.post(url(action, other.pk, round_.pk)).status_code == 404
    assert client.post(url("round_generate", other.pk, stage.pk)).status_code == 404
    # A round of another tournament through my tournament's address is 404 too.
    mine = TournamentFactory()
    mine.organisers.add(boss)
    assert client.get(url("round", mine.pk, round_.pk)).status_code == 404
    client.force_login(referee())
    assert client.get(url("round", other.pk, round_.pk)).status_code == 404
    client.logout()
    assert client.get(url("stages", other.pk)).status_code == 302  # to the login page
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.DRAFT


def test_create_stages_then_draw_preview_and_publish_a_round(client, event):
    response = client.post(
        url("stages", event.pk),
        {"name": "Preliminaries", "format": "swiss", "department_rounds": 1, "rule_profile": ""},
    )
    stage = Stage.objects.get(tournament=event, name="Preliminaries")
    assert response.status_code == 302 and stage.options["department_rounds"] == 1
    client.post(
        url("stages", event.pk),
        {
            "name": "Final",
            "format": "knockout",
            "department_rounds": 0,
            "bracket": "fixed",
            "seeding": "random",
            "third_place": "on",
            "best_of": 3,
        },
    )
    final = Stage.objects.get(tournament=event, name="Final")
    assert final.options == {"department_rounds": 0, "bracket": "fixed", "seeding": "random", "third_place": True}
    assert final.rule_overrides == {"format": "best_of", "games": 3}
    listing = client.get(url("stages", event.pk)).content.decode()
    assert "Preliminaries" in listing and "fixed bracket" in listing
    response = client.post(url("round_generate", event.pk, stage.pk), {"seed": 17})
    round_ = stage.rounds.get()
    assert response.status_code == 302 and response["Location"] == url("round", event.pk, round_.pk)
    assert round_.draw_seed == 17
    page = client.get(url("round", event.pk, round_.pk))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Publish" in text and "Swap two pairs" in text and "Bye" in text
    assert client.post(url("round_publish", event.pk, round_.pk)).status_code == 302
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PUBLISHED
    published = client.get(url("round", event.pk, round_.pk)).content.decode()
    assert "Swap two pairs" not in published and "Un-publish" in published


def test_a_draw_error_is_shown_on_the_stage_page(client, event):
    stage = swiss_stage(event)
    round_draw(stage=stage, seed=1)
    response = client.post(url("round_generate", event.pk, stage.pk), {"seed": 2})
    assert response.status_code == 200
    assert "publish or delete it first" in response.content.decode()


def test_swap_and_move_show_their_warnings(client, event):
    stage = swiss_stage(event)
    round_ = round_draw(stage=stage, seed=1)
    bye = round_.matches.get(ew_pair__isnull=True)
    match = round_.matches.get(table__number=1)
    response = client.post(
        url("round_swap", event.pk, round_.pk), {"first": bye.ns_pair_id, "second": match.ew_pair_id}, follow=True
    )
    assert "The two pairs were swapped." in response.content.decode()
    assert "This pair has the bye this round." in response.content.decode()
    assert round_.matches.get(ew_pair__isnull=True).ns_pair_id == match.ew_pair_id
    response = client.post(url("round_move", event.pk, round_.pk), {"match": match.pk, "table": 2}, follow=True)
    assert "the two matches swapped tables" in response.content.decode()
    assert Match.objects.get(pk=match.pk).table.number == 2
    history = Match.history.filter(id=match.pk, history_change_reason__startswith="move").first()
    assert history.history_user.pk == response.context["user"].pk and history.history_ip_address == "127.0.0.1"
    bad = client.post(url("round_swap", event.pk, round_.pk), {"first": 999999, "second": 1}, follow=True)
    assert "Choose two pairs of this round." in bad.content.decode()


def test_unpublish_until_a_result_and_delete_a_draft(client, event):
    stage = swiss_stage(event)
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    client.post(url("round_unpublish", event.pk, round_.pk), {"reason": "late pair"})
    round_.refresh_from_db()
    assert round_.status == RoundStatus.DRAFT
    round_publish(round_=round_)
    deal_record(match_id=round_.matches.filter(ew_pair__isnull=False).first().pk, outcome={"order": ["N", "S"]})
    page = client.get(url("round", event.pk, round_.pk)).content.decode()
    assert "Un-publish" not in page
    response = client.post(url("round_unpublish", event.pk, round_.pk), follow=True)
    assert "can no longer be un-published" in response.content.decode()
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED
    for match in round_.matches.filter(ew_pair__isnull=False):
        win(match)
    draft = round_draw(stage=stage, seed=2)
    response = client.post(url("round_delete", event.pk, draft.pk))
    assert response.status_code == 302 and not Round.objects.filter(pk=draft.pk).exists()


def test_referee_plan_and_table_areas_from_the_pages(client, event, boss):
    stage = swiss_stage(event)
    round_ = round_draw(stage=stage, seed=1)
    first, second = (referee_create(tournament=event, name=name).user for name in ("裁判甲", "裁判乙"))
    stranger = referee_create(tournament=make_field(2), name="别的比赛的裁判").user
    client.post(url("tables", event.pk), {"first": 1, "last": 2, "area": "A"})
    client.post(url("tables", event.pk), {"first": 3, "last": 4, "area": "B"})
    assert set(Table.objects.filter(tournament=event, number__lte=4).values_list("number", "area")) == {
        (1, "A"), (2, "A"), (3, "B"), (4, "B")
    }
    assert "1–2" in client.get(url("tables", event.pk)).content.decode()
    response = client.post(
        url("referees", event.pk, round_.pk),
        {
            f"use_{first.pk}": "on",
            f"area_{first.pk}": "B",
            f"use_{second.pk}": "on",
            f"area_{second.pk}": "A",
            "tables_per_referee": 2,
            "by_area": "on",
        },
    )
    assert response.status_code == 302
    plan = dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))
    assert plan == {1: second.pk, 2: second.pk, 3: first.pk, 4: first.pk}
    page = client.get(url("referees", event.pk, round_.pk)).content.decode()
    assert 'value="B"' in page  # this round's settings prefill the form
    assert "裁判甲" in page and "别的比赛的裁判" not in page and f"use_{stranger.pk}" not in page  # only its own
    empty = client.post(url("referees", event.pk, round_.pk), {"tables_per_referee": 2})
    assert "Choose at least one referee." in empty.content.decode()


def test_the_draw_sheet_prints_tables_and_a_find_your_table_list(client, event):
    stage = swiss_stage(event)
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    response = client.get(url("sheet", event.pk, round_.pk))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Find your table" in text and "window.print()" in text
    for pair in event.pairs.all():
        assert pair.name in text
    assert len(response.context["seats"]) == 9


def test_the_stage_advance_page_seeds_the_next_stage(client, event):
    stage = swiss_stage(event)
    final = stage_create(tournament=event, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in round_.matches.filter(ew_pair__isnull=False):
        win(match)
    assert client.get(url("stage_advance", event.pk, stage.pk)).status_code == 200
    rows = client.get(url("stage_advance", event.pk, stage.pk)).context["rows"]
    order = [pair.pk for _row, pair in rows]
    response = client.post(
        url("stage_advance", event.pk, stage.pk),
        {"next_stage": final.pk, "count": 4, "out_1": order[3], "in_1": order[5], "reason": "递补"},
    )
    assert response.status_code == 302
    final.refresh_from_db()
    assert final.options["entrants"] == [*order[:3], order[5]]
    no_reason = client.post(
        url("stage_advance", event.pk, stage.pk),
        {"next_stage": final.pk, "count": 4, "out_1": order[3], "in_1": order[5]},
    )
    assert no_reason.status_code == 200 and "Give a reason." in no_reason.content.decode()
    assert "Seeded with the top 4 pairs" in client.get(url("stage", event.pk, final.pk)).content.decode()


def test_the_pages_are_chinese_by_default_with_the_warnings_in_chinese(event):
    chinese = Client()
    chinese.force_login(event.organisers.get())
    stage = swiss_stage(event)
    round_ = round_draw(stage=stage, seed=1)
    bye = round_.matches.get(ew_pair__isnull=True)
    top = round_.matches.get(table__number=1)
    response = chinese.post(
        url("round_swap", event.pk, round_.pk), {"first": bye.ns_pair_id, "second": top.ns_pair_id}, follow=True
    )
    assert '<html lang="zh-hans">' in response.content.decode()
    assert "该对本轮轮空。" in response.content.decode()


def test_a_knockout_after_the_swiss_offers_the_advance_step_before_its_draw(client, boss):
    tournament = make_field(8)
    tournament.organisers.add(boss)
    swiss = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    round_ = round_publish(round_=round_draw(stage=swiss, seed=1))
    for match in round_.matches.exclude(ew_pair=None):
        win(match)
    knockout = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    page = client.get(url("stage", tournament.pk, knockout.pk)).content.decode()
    assert 'id="advance-first"' in page and 'name="count"' in page and 'value="4"' in page  # the Swiss's count
    assert url("round_generate", tournament.pk, knockout.pk) not in page  # no draw before the entrants
    refused = client.post(url("round_generate", tournament.pk, knockout.pk), {"seed": 1})
    assert "advance them first" in refused.content.decode()
    assert not knockout.rounds.exists()

    advanced = client.post(url("stage_advance", tournament.pk, swiss.pk), {"next_stage": knockout.pk, "count": 4})
    assert advanced.status_code == 302
    page = client.get(url("stage", tournament.pk, knockout.pk)).content.decode()
    assert 'id="advance-first"' not in page and url("round_generate", tournament.pk, knockout.pk) in page
    client.post(url("round_generate", tournament.pk, knockout.pk), {"seed": 1})
    assert knockout.rounds.get().entries.count() == 4


def test_a_stage_form_offers_only_the_events_game(client, boss):
    guandan = make_field(4)
    guandan.organisers.add(boss)
    page = client.get(url("stages", guandan.pk)).content.decode()
    assert 'value="swiss"' in page and 'value="points"' not in page  # a pairs event has no points stage
    assert 'value="timed-40"' in page and 'value="doudizhu"' not in page and 'value="tractor-3deck"' not in page
    refused = client.post(url("stages", guandan.pk), {"name": "积分", "format": "points", "department_rounds": 0})
    assert refused.status_code == 200 and not guandan.stages.exists()


def test_a_decided_knockout_offers_no_draw(client, boss):
    tournament = make_field(4)
    tournament.organisers.add(boss)
    knockout = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    for _round in range(2):  # the semi-finals, then the final
        page = client.get(url("stage", tournament.pk, knockout.pk)).content.decode()
        assert url("round_generate", tournament.pk, knockout.pk) in page and "no round left to draw" not in page
        round_ = round_publish(round_=round_draw(stage=knockout, seed=1))
        for match in round_.matches.exclude(ew_pair=None):
            confirm(match)
    page = client.get(url("stage", tournament.pk, knockout.pk)).content.decode()
    assert url("round_generate", tournament.pk, knockout.pk) not in page  # a draw would be refused
    assert "The knockout is decided: it has no round left to draw." in page


def test_a_stage_made_by_mistake_is_deleted_until_its_first_round_is_drawn(client, event):
    """A wrong stage no longer blocks the next one ("advance from it first"): deleted while it has no
    round; with a round, or once its entrants advanced, it is refused with the reason, nothing deleted."""
    wrong = stage_create(tournament=event, name="建错的", format="knockout")
    right = stage_create(tournament=event, name="预赛", format="swiss")
    page = client.get(url("stage", event.pk, right.pk)).content.decode()
    assert "takes its entrants from 建错的" in page and "Delete stage" in page
    response = client.post(url("stage_delete", event.pk, wrong.pk), follow=True)
    assert "Stage 建错的 deleted." in response.content.decode()
    assert not Stage.objects.filter(pk=wrong.pk).exists()
    round_draw(stage=right, seed=1)
    assert "Delete stage" not in client.get(url("stage", event.pk, right.pk)).content.decode()
    refused = client.post(url("stage_delete", event.pk, right.pk), follow=True)
    assert "预赛 has rounds: only a stage with none can be deleted" in refused.content.decode()
    assert Stage.objects.filter(pk=right.pk).exists()
