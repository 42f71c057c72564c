"""The public team total is derived from the stage's standings build (one ranking for the pairs' and the
teams' pages), made once per build and kept: a kept page costs no query, a finished match shows in both
pages from the same build, and the team total served is the one ranked from scratch."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from tests.tournament.standings.events import play_out, swiss_event
from tournament.draw.stages import stage_teams_set
from tournament.matches.models import MatchStatus
from tournament.matches.services import deal_record
from tournament.registration.teams import team_create
from tournament.standings import public_cache as cached_reads
from tournament.standings import selectors, teams
from tournament.standings.public import tournament_overview_get
from tournament.standings.team_public import team_standings_cached
from tournament.standings.teams import stage_team_total_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """The Swiss event of the public pages' tests, its eight pairs in two teams of four ranked beside them."""
    event = swiss_event()
    team_create(tournament=event.tournament, name="销售部", pairs=event.pairs[::2])
    team_create(tournament=event.tournament, name="研发部", pairs=event.pairs[1::2])
    stage_teams_set(stage=event.first.stage, team_total=True, team_count=3)
    return event


@pytest.fixture
def no_ranking_of_its_own(monkeypatch):
    """The team total may not rank the stage itself: only the standings build does."""

    def refused(**_kwargs):
        raise AssertionError("the team total ranked the stage a second time")

    monkeypatch.setattr(teams, "stage_ranking_get", refused)


def urls(event):
    ids = (event.tournament.pk, event.first.stage_id)
    return reverse("standings:stage_team_standings", args=ids), reverse("standings:stage_standings", args=ids)


def queries_of(call):
    """The statements ``call`` sends, counted at the cursor (the test client's request_started signal
    clears the log CaptureQueriesContext reads)."""
    sent: list[str] = []
    with connection.execute_wrapper(lambda execute, sql, *args: (sent.append(sql), execute(sql, *args))[1]):
        result = call()
    return sent, result


def test_the_team_page_and_the_pairs_page_share_one_standings_build(client, event, builds, no_ranking_of_its_own):
    teams_url, pairs_url = urls(event)
    page = client.get(teams_url).content.decode()
    assert page.index("销售部") > 0 and page.index("研发部") > 0
    assert builds == [event.first.stage_id]  # the team page built the stage's standings, once
    assert client.get(pairs_url).status_code == 200
    assert builds == [event.first.stage_id]  # and the pairs' page serves that build


def test_a_kept_team_page_costs_no_query_even_after_a_deal_that_finishes_nothing(client, event):
    teams_url, _pairs_url = urls(event)
    before = client.get(teams_url).content
    sent, again = queries_of(lambda: client.get(teams_url).content)
    assert (sent, again) == ([], before)
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    sent, after = queries_of(lambda: client.get(teams_url).content)
    assert (sent, after) == ([], before)


def test_a_poll_of_an_unchanged_team_page_is_answered_204(client, event):
    teams_url, _pairs_url = urls(event)
    page = client.get(teams_url).content.decode()
    version = page.split("?v=", 1)[1].split('"', 1)[0]
    assert client.get(teams_url, {"v": version}, headers={"HX-Request": "true"}).status_code == 204


def test_after_a_finished_match_the_team_total_served_is_the_one_ranked_from_scratch(
    client, event, builds, no_ranking_of_its_own
):
    teams_url, pairs_url = urls(event)
    client.get(teams_url)
    for index, match in enumerate(event.second.matches.exclude(ew_pair=None).order_by("table__number")):
        assert play_out(match, winner="EW" if index % 2 else "NS").status == MatchStatus.FINISHED
        page = client.get(teams_url).content.decode()  # rebuilt from a new standings build
        assert client.get(pairs_url).status_code == 200
        assert len(builds) == index + 2  # one standings build per finished match, for both pages
        overview = tournament_overview_get(tournament_id=event.tournament.pk)
        served = team_standings_cached(overview=overview, stage_id=event.first.stage_id)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(teams, "stage_ranking_get", selectors.stage_ranking_get)
            fresh = stage_team_total_get(stage=event.first.stage)
        assert served == fresh
        first, second = fresh.lines
        assert page.index(first.name) < page.index(second.name)
        assert f'<td class="num">{first.points}</td>' in page


def test_the_request_that_builds_the_standings_derives_the_team_total_before_the_build_is_served(
    client, event, monkeypatch
):
    """Else, once a build lands, the first team page would derive it and the others wait for it."""
    teams_url, pairs_url = urls(event)
    client.get(teams_url)
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    assert play_out(match).status == MatchStatus.FINISHED
    client.get(pairs_url)  # the pairs' page rebuilds the standings, and derives the team total with them

    def refused(**_kwargs):
        raise AssertionError("a team page derived the team total")

    monkeypatch.setattr(cached_reads, "team_total_of", refused)
    overview = tournament_overview_get(tournament_id=event.tournament.pk)
    served = team_standings_cached(overview=overview, stage_id=event.first.stage_id)
    page = client.get(teams_url).content.decode()
    monkeypatch.undo()
    assert served == stage_team_total_get(stage=event.first.stage)
    assert all(line.name in page for line in served.lines)


def test_a_rebuild_asked_without_the_version_derives_the_team_total_too(client, event, monkeypatch):
    """A pair's ranks ask for the standings without the version in hand (``standings_cached``): a rebuild
    they start derives the team total as the pages' do."""
    client.get(urls(event)[0])
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    assert play_out(match).status == MatchStatus.FINISHED
    cached_reads.standings_cached(tournament_id=event.tournament.pk, stage_id=event.first.stage_id)

    def refused(**_kwargs):
        raise AssertionError("a team page derived the team total")

    monkeypatch.setattr(cached_reads, "team_total_of", refused)
    overview = tournament_overview_get(tournament_id=event.tournament.pk)
    assert team_standings_cached(overview=overview, stage_id=event.first.stage_id) is not None


def test_a_build_re_renders_only_the_team_page_whose_lines_changed(client, monkeypatch):
    """A team a page: signing off a match of round 1 whose two pairs make one team changes that team's
    line alone (its result no longer awaits sign-off). The next build re-renders that page only; every
    other page keeps its bytes and its poll token, and its poll answers 204."""
    from tournament.matches.services import match_sign_off
    from tournament.standings import views

    monkeypatch.setattr(views, "STANDINGS_PAGE_SIZE", 1)
    event = swiss_event()
    played = event.first.matches.exclude(ew_pair=None).order_by("table__number").first()
    together = {played.ns_pair_id, played.ew_pair_id}
    others = [pair for pair in event.pairs if pair.pk not in together]
    team_create(tournament=event.tournament, name="Signed", pairs=[played.ns_pair, played.ew_pair])
    for index, name in enumerate(("Second", "Third", "Fourth")):
        team_create(tournament=event.tournament, name=name, pairs=others[2 * index : 2 * index + 2])
    stage_teams_set(stage=event.first.stage, team_total=True)
    url, _pairs_url = urls(event)
    rendered: list[int] = []
    real = views.render_to_string

    def counting(template, context=None, *args, **kwargs):
        if template == "public/_team_standings.html":
            rendered.append(context["page"].number)
        return real(template, context, *args, **kwargs)

    monkeypatch.setattr(views, "render_to_string", counting)

    def shown(number):
        page = client.get(url, {"page": number}).content.decode()
        poll = page[page.index(url + "?") :].split('"', 1)[0].replace("&amp;", "&")
        return page, poll

    before = {number: shown(number) for number in range(1, 5)}
    assert sorted(rendered) == [1, 2, 3, 4]
    (moved,) = [number for number, (page, _poll) in before.items() if "Signed" in page]
    assert all('class="small provisional"' in page for page, _poll in before.values())
    rendered.clear()
    match_sign_off(match_id=played.pk)
    after = {number: shown(number) for number in range(1, 5)}
    assert rendered == [moved]
    assert 'class="small provisional"' not in after[moved][0] and after[moved][1] != before[moved][1]
    for number in set(before) - {moved}:
        assert after[number] == before[number]  # the same bytes, the same poll
        assert client.get(before[number][1], headers={"HX-Request": "true"}).status_code == 204
    assert client.get(before[moved][1], headers={"HX-Request": "true"}).status_code == 200
    assert rendered == [moved]  # the polls were answered from what was kept
