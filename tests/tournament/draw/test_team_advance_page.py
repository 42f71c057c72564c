"""The organiser's advance page into a stage of team matches (docs/rules.md §11): it offers the teams of the
stage's team ranking (withdrawn teams shown, not offered) as the changes, not pairs; an advance made there
with a change seeds the next stage with teams; a change naming a pair, or a team that cannot take the
place, is refused by name and nothing changes. Into a stage of pairs the page offers pairs as before."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tests.tournament.team_play import x_wins
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Stage, TeamMatch
from tournament.registration.services import pair_withdraw
from tournament.registration.teams import team_create
from tournament.standings.team_ranking import stage_team_ranking_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(client):
    """A Swiss of six teams, one round signed off, then a knockout of teams and a stage of pairs after it."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(12)]
    for n in range(6):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    swiss = stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    for row in TeamMatch.objects.filter(round=round_publish(round_=round_draw(stage=swiss, seed=3))):
        x_wins(row)
    knockout = stage_create(tournament=event, name="团体淘汰", format="knockout", options={"team_match": True})
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    return event, swiss, knockout


def _options(page: str, field: str) -> str:
    start = page.index(f'name="{field}"')
    return page[start : page.index("</select>", start)]


def test_the_page_offers_the_teams_of_the_team_ranking_when_the_next_stage_plays_team_matches(client, played):
    event, swiss, _knockout = played
    lines = stage_team_ranking_get(stage=swiss).lines
    gone = event.teams.get(pk=lines[-1].team_id)
    for member in gone.members.all():
        pair_withdraw(pair=member.pair)
    page = client.get(reverse("draw:stage_advance", args=[event.pk, swiss.pk])).content.decode()
    assert "Teams advancing" in page and "plays team matches: the teams advance" in page
    offered = _options(page, "out_1")
    for line in lines[:-1]:
        assert f'value="{line.team_id}">{line.rank}. {line.name}<' in offered
    assert gone.name not in offered  # a withdrawn team is listed below, not offered
    assert gone.name in page[page.index("Team standings") :]
    assert not any(name in offered for name in event.pairs.values_list("name", flat=True))


def test_the_knockout_of_teams_asks_on_its_own_page_how_many_teams_advance(client, played):
    event, _swiss, knockout = played
    page = client.get(reverse("draw:stage", args=[event.pk, knockout.pk])).content.decode()
    form = page[page.index('id="advance-first"') :]
    assert "Teams advancing" in form[: form.index("</form>")] and "Pairs advancing" not in page


def test_an_advance_with_a_team_change_seeds_the_knockout_with_teams(client, played):
    event, swiss, knockout = played
    lines = stage_team_ranking_get(stage=swiss).lines
    leaving, joining = lines[0].team_id, lines[5].team_id
    url = reverse("draw:stage_advance", args=[event.pk, swiss.pk])
    # three advance: the three winners, no tie at the cut (no lots), the best of them replaced by a loser
    data = {"next_stage": knockout.pk, "count": 3, "out_1": leaving, "in_1": joining, "reason": "替补"}
    response = client.post(url, data)
    assert response.status_code == 302
    knockout.refresh_from_db()
    assert list(knockout.settings.entrants) == [joining, lines[1].team_id, lines[2].team_id]


def test_a_change_naming_a_pair_or_a_team_that_cannot_take_the_place_is_refused(client, played):
    event, swiss, knockout = played
    lines = stage_team_ranking_get(stage=swiss).lines
    url = reverse("draw:stage_advance", args=[event.pk, swiss.pk])
    pair = event.pairs.exclude(pk__in=[line.team_id for line in lines]).first()  # ids only a pair has
    base = {"next_stage": knockout.pk, "count": 4, "reason": "调整"}
    page = client.post(url, {**base, "out_1": lines[0].team_id, "in_1": pair.pk}).content.decode()
    assert "Select a valid choice" in page  # a pair is not among the teams offered
    page = client.post(url, {**base, "out_1": lines[0].team_id, "in_1": lines[1].team_id}).content.decode()
    assert f"Team {lines[1].name} cannot take that place." in page  # already advancing: named, not numbered
    knockout.refresh_from_db()
    assert knockout.settings.entrants == () and knockout.settings.advancement is None


def test_into_a_stage_of_pairs_the_page_offers_pairs(client, played):
    event, swiss, _knockout = played
    pairs_stage = stage_create(tournament=event, name="个人淘汰", format="knockout")
    url = reverse("draw:stage_advance", args=[event.pk, swiss.pk])
    page = client.get(url, {"next": pairs_stage.pk}).content.decode()
    offered = _options(page, "out_1")
    assert "Pairs advancing" in page and "Teams advancing" not in page
    assert any(name in offered for name in event.pairs.values_list("name", flat=True))
    assert not any(f">{n}. 部门" in offered for n in range(1, 7))
    assert f'href="?next={pairs_stage.pk}" aria-current="page"' in page
    assert Stage.objects.get(pk=pairs_stage.pk).settings.entrants == ()
