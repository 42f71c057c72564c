"""The organiser's team match page offers only what can be done (docs/rules.md §11): the sign-off once both
tables have their result and until they are signed off (before, it says so), not while a tie-break deal
is pending; the line-ups while the round is a draft; and no form at all on an archived event (its
services refuse them), which says it is read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.matches.models import TeamMatch
from tournament.matches.services import deal_record
from tournament.registration.lifecycle import tournament_archive, tournament_unarchive
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # N/S passes A
SIGN_OFF = "Sign off the team match"
WAITS = "It is signed off here once both tables have their result."
LINE_UP = "Save line-up"
READ_ONLY = "This event is archived: it is read-only"


def _play(match, orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


@pytest.fixture
def knockout(client):
    """Two teams in a knockout (one team match), its round a draft; the organiser signed in, in English."""
    event = TournamentFactory()
    for n in range(2):
        team_create(tournament=event, name=f"队{n + 1}", pairs=[PairFactory(tournament=event) for _ in range(2)])
    stage = stage_create(tournament=event, name="团体淘汰", format="knockout", options={"team_match": True})
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    round_ = round_draw(stage=stage, seed=5)
    return event, round_, reverse("draw:round_team_matches", args=[event.pk, round_.pk])


def test_an_archived_event_offers_no_line_up_and_says_it_is_read_only(client, knockout):
    event, _round, url = knockout
    page = client.get(url).content.decode()
    assert page.count(LINE_UP) == 2 and READ_ONLY not in page  # a draft: each team's line-up
    tournament_archive(tournament=event)
    page = client.get(url).content.decode()
    assert LINE_UP not in page and 'class="stack line-up"' not in page and READ_ONLY in page
    tournament_unarchive(tournament=event)
    assert client.get(url).content.decode().count(LINE_UP) == 2


def test_the_sign_off_is_offered_until_signed_off_and_not_while_a_tie_break_deal_waits(client, knockout):
    event, round_, url = knockout
    round_publish(round_=round_)
    row = TeamMatch.objects.select_related("table_a", "table_b").get(round=round_)
    page = client.get(url).content.decode()
    assert LINE_UP not in page  # published: the line-ups are fixed
    assert SIGN_OFF not in page and WAITS in page  # nothing played yet: the page says when it can be signed off
    _play(row.table_a, NS_WINS)
    page = client.get(url).content.decode()
    assert SIGN_OFF not in page and WAITS in page  # one table has its result, the other is still playing
    tournament_archive(tournament=event)
    page = client.get(url).content.decode()
    assert SIGN_OFF not in page and WAITS not in page and READ_ONLY in page  # archived: nothing to sign off here
    tournament_unarchive(tournament=event)

    _play(row.table_b, NS_WINS)  # one table each by the same margin: level, a tie-break deal is due
    page = client.get(url).content.decode()
    assert "Which side won the tie-break deal?" in page and SIGN_OFF not in page
    team_match_extra_deal_record(team_match=row, side="NS")
    page = client.get(url).content.decode()
    assert SIGN_OFF in page  # decided, its tables still to be signed off
    response = client.post(url, {"team_match": row.pk}, follow=True)
    page = response.content.decode()
    assert "Team match signed off." in page and SIGN_OFF not in page and WAITS not in page
    assert "✓ Team match signed off." in client.get(url).content.decode()  # the page says so, not only the message


def test_a_round_of_team_matches_refuses_a_swap_of_pairs_and_its_page_points_to_the_line_ups(client):
    from tests.tournament.draw.test_team_match_draw import _event
    from tournament.draw.edits import round_pairs_swap
    from tournament.errors import UserError
    from tournament.matches.models import Match

    event, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    first, second = TeamMatch.objects.filter(round=round_).order_by("number")
    before = sorted(Match.objects.filter(round=round_).values_list("pk", "ns_pair_id", "ew_pair_id"))
    with pytest.raises(UserError) as refused:  # a pair of team match 1 into team match 2: another team's table
        round_pairs_swap(
            round_=round_, first_pair_id=first.table_a.ns_pair_id, second_pair_id=second.table_a.ns_pair_id
        )
    assert refused.value.code == "team_round"
    assert sorted(Match.objects.filter(round=round_).values_list("pk", "ns_pair_id", "ew_pair_id")) == before
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("draw:round", args=[event.pk, round_.pk])).content.decode()
    assert reverse("draw:round_swap", args=[event.pk, round_.pk]) not in page
    assert "the line-ups seat the pairs" in page
    page = client.get(reverse("draw:round_team_matches", args=[event.pk, round_.pk])).content.decode()
    assert "The round is a draft" in page and "Tables won" not in page  # nothing to count before it is played
