"""The organiser's teams page and the door's team view: forms call the services, refusals are shown."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import DepartmentFactory, PairFactory, PlayerFactory, TournamentFactory, organiser
from tournament.registration.models import PairMember, Team, TeamMember
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the messages asserted below are the English ones
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    return tournament


def _url(event, name="registration:teams", *args):
    return reverse(name, args=[event.pk, *args])


def test_a_team_is_named_with_members_by_number(client, event):
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    response = client.post(_url(event), {"name": "销售部", "members": f"#{pairs[0].number}，{pairs[2].number}"})
    assert response.status_code == 302
    team = Team.objects.get(tournament=event)
    assert [m.pair_id for m in team.members.all()] == [pairs[0].pk, pairs[2].pk]
    page = client.get(_url(event)).content.decode()
    assert "销售部" in page and pairs[1].name in page  # the pair in no team is listed
    assert "1 entrant in no team" in page and "Every entrant is in a team." not in page
    client.post(_url(event, "registration:team_member_add", team.pk), {"number": str(pairs[1].number)})
    page = client.get(_url(event)).content.decode()
    assert "Every entrant is in a team." in page and "in no team</h2>" not in page  # not "0 entrants in no team"


def test_an_unknown_number_or_a_taken_pair_is_shown_and_nothing_changes(client, event):
    pairs = [PairFactory(tournament=event) for _ in range(2)]
    team_create(tournament=event, name="甲", pairs=pairs)
    response = client.post(_url(event), {"name": "乙", "members": "999"})
    assert response.status_code == 200 and "999" in response.content.decode()
    response = client.post(_url(event), {"name": "乙", "members": f"{pairs[0].number}"})
    assert response.status_code == 200 and "already in team" in response.content.decode()
    response = client.post(_url(event), {"name": "乙", "members": "one two"})
    assert response.status_code == 200
    assert Team.objects.filter(tournament=event).count() == 1


def test_members_and_substitutes_are_added_and_removed(client, event):
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    team = team_create(tournament=event, name="甲", pairs=pairs[:2])
    other = team_create(tournament=event, name="乙", pairs=pairs[2:3])
    client.post(_url(event, "registration:team_member_add", team.pk), {"number": pairs[3].number, "substitute": "on"})
    assert TeamMember.objects.get(pair=pairs[3]).substitute
    response = client.post(
        _url(event, "registration:team_member_add", other.pk),
        {"number": pairs[3].number, "substitute": "on"},
        follow=True,
    )
    assert "substitute of another team" in response.content.decode()
    assert TeamMember.objects.get(pair=pairs[3]).team_id == team.pk
    client.post(_url(event, "registration:team_member_remove", team.pk, pairs[3].pk))
    assert not TeamMember.objects.filter(pair=pairs[3]).exists()
    client.post(_url(event, "registration:team_delete", other.pk))
    assert not Team.objects.filter(pk=other.pk).exists()


def test_one_click_from_departments(client, event):
    department = DepartmentFactory(tournament=event, name="研发部")
    for _ in range(2):
        pair = PairFactory(tournament=event, with_players=False)
        for slot in (1, 2):
            PairMember.objects.create(
                pair=pair, player=PlayerFactory(tournament=event, department=department), slot=slot
            )
    response = client.post(_url(event, "registration:teams_from_departments"), follow=True)
    assert Team.objects.get(tournament=event).name == "研发部"
    assert "1 teams made, 2 entrants placed" in response.content.decode()


def test_another_organisers_event_is_not_found(client, event):
    stranger = TournamentFactory()
    assert client.get(_url(stranger)).status_code == 404


def test_the_door_shows_a_teams_members_together(client, event):
    pairs = [PairFactory(tournament=event) for _ in range(5)]
    team = team_create(tournament=event, name="财务队", pairs=[pairs[3], pairs[1]])
    page = client.get(reverse("registration:checkin", args=[event.pk]), {"team": team.pk}).content.decode()
    assert page.index(pairs[3].name) < page.index(pairs[1].name)
    assert pairs[0].name not in page and pairs[4].name not in page
    everyone = client.get(reverse("registration:checkin", args=[event.pk]), {"q": "财务"}).content.decode()
    assert pairs[3].name in everyone and pairs[1].name in everyone and pairs[0].name not in everyone


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "团体瑞士 plays team matches, so a team has at least two members"),
        ("zh-hans", "团体瑞士 进行团体对抗，每个团体至少需要两名成员"),
    ],
)
def test_a_team_of_one_is_refused_on_the_members_field_while_a_stage_plays_team_matches(
    client, event, language, words
):
    from tournament.draw.stages import stage_create

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    pairs = [PairFactory(tournament=event) for _ in range(5)]
    team_create(tournament=event, name="甲", pairs=pairs[:2])
    team_create(tournament=event, name="乙", pairs=pairs[2:4])
    stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    response = client.post(_url(event), {"name": "丙", "members": str(pairs[4].number)})
    page = response.content.decode()
    assert response.status_code == 200 and words in page
    errors = page[page.index('id="id_members"') :]  # the message is on the members field, after its input
    assert words in errors[: errors.index("</p>", errors.index(words))]
    assert not Team.objects.filter(tournament=event, name="丙").exists()


def test_the_team_words_are_english_on_english_pages_and_chinese_on_chinese_ones(client, event):
    """The teams page and a stage's team ranking: no Chinese gloss of the team words in English (the
    teams' names are the organiser's), the Chinese words in Chinese."""
    from tournament.draw.stages import stage_create

    pairs = [PairFactory(tournament=event) for _ in range(2)]
    team_create(tournament=event, name="Sales", pairs=pairs)
    stage = stage_create(tournament=event, name="Swiss", format="swiss", options={"team_total": True})
    pages = {
        _url(event): "(a team total, chosen",
        reverse("draw:stage", args=[event.pk, stage.pk]): "Team ranking (team total)",
    }
    for url, words in pages.items():
        english = client.get(url).content.decode()
        assert words in english and "集体比赛" not in english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    for url in pages:
        assert "集体比赛" in client.get(url).content.decode()
