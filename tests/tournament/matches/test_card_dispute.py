"""The referee's dispute assistant page and API: exact verdicts, referees only."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import TournamentFactory, UserFactory, organiser, referee, table_match
from tournament.matches.models import Deal, Match

pytestmark = pytest.mark.django_db


def test_a_referee_sees_the_verdict_the_reading_used_and_the_other_readings(client):
    client.force_login(referee())
    response = client.get(
        reverse("matches:card_dispute"), {"level": "5", "play": "KS,KD,5H,2C,2D", "previous": "QS,QD,QC,3S,3D"}
    )
    assert response.status_code == 200
    verdict = response.context["verdict"]
    assert verdict.beats is True
    assert (verdict.play.type.value, verdict.play.label) == ("full_house", "K")
    assert [r.label for r in response.context["classification"].readings] == ["K", "2"]
    html = response.content.decode()
    assert "能压" in html  # Chinese first


def test_a_declared_reading_is_used(client):
    client.force_login(referee())
    response = client.get(
        reverse("matches:card_dispute"),
        {"level": "5", "play": "KS,KD,5H,2C,2D", "previous": "QS,QD,QC,3S,3D", "declared": "full_house:2"},
    )
    assert response.context["verdict"].beats is False


def test_the_page_is_chinese_first_with_the_card_picker(client):
    client.force_login(organiser())
    with translation.override("zh-hans"):
        response = client.get(
            reverse("matches:card_dispute"), {"level": "9", "play": "9S,9D,9C,9H", "previous": "6D,7D,8D,9D,TD"}
        )
    html = response.content.decode()
    assert response.context["verdict"].beats is False
    assert "同花顺" in response.context["reason"]
    assert 'data-card="BJ"' in html and 'data-card="TH"' in html


def test_bad_cards_are_a_form_error_not_a_crash(client):
    client.force_login(referee())
    response = client.get(reverse("matches:card_dispute"), {"level": "5", "play": "KS,XX", "previous": "QS"})
    assert response.status_code == 200
    assert "XX" in " ".join(response.context["form"].non_field_errors())


def test_htmx_requests_get_only_the_verdict(client):
    client.force_login(referee())
    response = client.get(
        reverse("matches:card_dispute"), {"level": "5", "play": "5S", "previous": "AS"}, HTTP_HX_REQUEST="true"
    )
    assert next(t.name for t in response.templates) == "matches/_card_verdict.html"
    assert response.context["verdict"].beats is True


def test_players_and_the_public_cannot_use_it(client):
    assert client.get(reverse("matches:card_dispute")).status_code == 302
    client.force_login(UserFactory())
    assert client.get(reverse("matches:card_dispute")).status_code == 404


def test_an_organiser_of_a_tournament_may_use_it(client):
    user = UserFactory()
    TournamentFactory().organisers.add(user)
    client.force_login(user)
    assert client.get(reverse("matches:card_dispute")).status_code == 200


def test_api_beats_and_classify(client):
    client.force_login(referee())
    response = client.post(
        reverse("api:cards_beats"),
        {"level": "5", "play": "KS,5H", "previous": "QS,QD"},
        content_type="application/json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["beats"] is True
    assert body["play"] == {"type": "pair", "rank": "K", "size": 2}
    response = client.post(
        reverse("api:cards_classify"), {"level": "5", "cards": "3S,3D,5H,5H"}, content_type="application/json"
    )
    assert response.json() == {
        "readings": [{"type": "bomb", "rank": "3", "size": 4}],
        "default": {"type": "bomb", "rank": "3", "size": 4},
        "wild_reading": "largest",  # no table this round: the rules core's default
    }


# -- wild_reading follows the tournament (docs/rules.md §8) ------------------------------------------

WILD = "4S,5S,6D,7C,5H"  # at level 5 ♥5 is wild: with 4567 it reads 45678 (largest) or 34567 (seed 000)
NATURAL = "4D,5C,6C,7D,8S"  # a natural 45678: it beats the wild straight only when that reads 34567


def test_the_dispute_page_reads_wild_cards_by_the_matchs_rules(client):
    ref = referee(username="ref")
    classic = table_match(profile="classic", referee_user=ref)  # seed 000: stated_example
    knockout = table_match(profile="timed-90", referee_user=ref)  # seed 003: largest
    client.force_login(ref)
    url = reverse("matches:card_dispute")
    query = {"level": "5", "play": NATURAL, "previous": WILD}
    lowest = client.get(url, {**query, "match": classic.pk}).context
    assert lowest["card_rules"].wild_reading.value == "stated_example"
    assert lowest["verdict"].previous.label == "7" and lowest["verdict"].beats is True
    largest = client.get(url, {**query, "match": knockout.pk}).context
    assert largest["verdict"].previous.label == "8" and largest["verdict"].beats is False
    alone = client.get(url, {"level": "5", "play": WILD, "match": classic.pk}).context
    assert alone["classification"].default.label == "7"  # the default reading follows the rules too
    page = client.get(url, {"match": classic.pk}).content.decode()
    assert f'name="match" value="{classic.pk}"' in page and str(classic.round.stage.tournament) in page


def test_without_a_match_the_page_follows_the_referees_table_and_out_of_scope_is_404(client):
    ref = referee(username="ref")
    table_match(profile="classic", referee_user=ref)
    client.force_login(ref)
    context = client.get(reverse("matches:card_dispute"), {"level": "5", "play": WILD}).context
    assert context["card_rules"].wild_reading.value == "stated_example"
    other = table_match(profile="classic")
    assert client.get(reverse("matches:card_dispute"), {"match": other.pk}).status_code == 404


def test_the_cards_api_follows_the_matchs_wild_reading(client):
    ref = referee(username="ref")
    classic = table_match(profile="classic", referee_user=ref)
    client.force_login(ref)
    body = {"level": "5", "cards": WILD, "match": classic.pk}
    answer = client.post(reverse("api:cards_classify"), body, content_type="application/json").json()
    assert answer["wild_reading"] == "stated_example" and answer["default"]["rank"] == "7"
    beats = {"level": "5", "play": NATURAL, "previous": WILD, "match": classic.pk}
    verdict = client.post(reverse("api:cards_beats"), beats, content_type="application/json").json()
    assert (verdict["beats"], verdict["wild_reading"]) == (True, "stated_example")
    other = table_match(profile="classic")
    outside = client.post(reverse("api:cards_beats"), {**beats, "match": other.pk}, content_type="application/json")
    assert outside.status_code == 404


def test_api_errors_carry_the_rules_core_code(client):
    client.force_login(referee())
    url = reverse("api:cards_beats")
    for payload, code in (
        ({"level": "5", "play": "KS,ZZ", "previous": "QS"}, "bad_card"),
        ({"level": "5", "play": "KS,KS,KS", "previous": "QS"}, "too_many_copies"),
        ({"level": "5", "play": "KS,QD", "previous": "QS"}, "not_a_play"),
        ({"level": "5", "play": "KS"}, "bad_input"),
    ):
        response = client.post(url, payload, content_type="application/json")
        assert response.status_code == 400, payload
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["message"]


def test_api_is_for_referees_and_organisers_only(client):
    url = reverse("api:cards_beats")
    payload = {"level": "5", "play": "KS", "previous": "QS"}
    assert client.post(url, payload, content_type="application/json").status_code in (401, 403)
    client.force_login(UserFactory())
    assert client.post(url, payload, content_type="application/json").status_code == 403


def test_it_changes_no_result(client):
    client.force_login(referee())
    before = (Match.objects.count(), Deal.objects.count())
    client.get(reverse("matches:card_dispute"), {"level": "5", "play": "5S", "previous": "AS"})
    assert (Match.objects.count(), Deal.objects.count()) == before
