"""A table's QR code opens that table's match in that round, and nothing else."""

from __future__ import annotations

import json

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from tests.factories import english_client, organiser, referee, round_match, table_match
from tournament.matches.models import RoundStatus, TableLinkKey
from tournament.matches.table_links import TableLinkRefused, table_link_resolve, table_link_revoke, table_token

pytestmark = pytest.mark.django_db


def forged(token: str, *, round_id: int, table_id: int) -> str:
    """``token`` with its payload changed to another table (the signature kept): what a player who
    edits the address of their table's code would send."""
    payload = signing.b64_encode(json.dumps([round_id, table_id, 0], separators=(",", ":")).encode()).decode()
    return ":".join([payload, *token.split(":")[1:]])


def _url(token: str) -> str:
    return reverse("matches:table", args=[token])


def test_a_table_token_opens_its_own_match_and_is_refused_for_a_forged_or_moved_one():
    match = table_match()
    other = round_match(round_=match.round)
    token = table_token(round_=match.round, table_id=match.table_id)
    assert table_link_resolve(token=token).match == match
    # the same payload for the other table, without the signature's secret, is refused
    moved = forged(token, round_id=match.round_id, table_id=other.table_id)
    assert moved != token and moved.split(":")[1:] == token.split(":")[1:]
    with pytest.raises(TableLinkRefused) as refused:
        table_link_resolve(token=moved)
    assert refused.value.code == "table_link_invalid"
    # signed, but with another salt (e.g. another feature's token): refused
    foreign = signing.dumps([match.round_id, other.table_id, 0], salt="something-else")
    with pytest.raises(TableLinkRefused):
        table_link_resolve(token=foreign)
    client = english_client()
    assert client.get(_url(token)).status_code == 200
    page = client.get(_url(moved))
    assert page.status_code == 403 and "not valid" in page.content.decode()


def test_a_token_of_another_round_does_not_open_this_rounds_match():
    match = table_match()
    later_round = type(match.round).objects.create(stage=match.round.stage, number=9, status=RoundStatus.PUBLISHED)
    token = table_token(round_=later_round, table_id=match.table_id)  # no match at that table in that round
    with pytest.raises(TableLinkRefused):
        table_link_resolve(token=token)


def test_the_token_stops_working_when_the_round_is_over():
    match = table_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    type(match.round).objects.filter(pk=match.round_id).update(status=RoundStatus.FINISHED)
    with pytest.raises(TableLinkRefused) as refused:
        table_link_resolve(token=token)
    assert refused.value.code == "table_link_round_over"
    assert english_client().get(_url(token)).status_code == 403


def test_a_draft_rounds_token_opens_nothing_yet():
    match = table_match(round_status=RoundStatus.DRAFT)
    token = table_token(round_=match.round, table_id=match.table_id)
    with pytest.raises(TableLinkRefused) as refused:
        table_link_resolve(token=token)
    assert refused.value.code == "table_link_not_yet"


def test_revoking_a_tables_link_refuses_its_old_token_only_and_is_audited():
    boss = organiser()
    match = table_match(organiser_user=boss)
    other = round_match(round_=match.round)
    old, other_token = (table_token(round_=match.round, table_id=m.table_id) for m in (match, other))
    assert table_link_revoke(round_=match.round, table_id=match.table_id, user=boss) == 1
    with pytest.raises(TableLinkRefused) as refused:
        table_link_resolve(token=old)
    assert refused.value.code == "table_link_revoked"
    assert table_link_resolve(token=other_token).match == other
    new = table_token(round_=match.round, table_id=match.table_id)
    assert new != old and table_link_resolve(token=new).match == match
    key = TableLinkKey.objects.get(round=match.round, table=match.table)
    assert key.history.first().history_user == boss
    # every table of the round at once
    assert table_link_revoke(round_=match.round, user=boss) == 2
    for token in (new, other_token):
        with pytest.raises(TableLinkRefused):
            table_link_resolve(token=token)


def test_the_organiser_revokes_from_the_table_cards_page_and_the_cards_carry_qr_codes_and_pins():
    boss = organiser()
    match = table_match(organiser_user=boss)
    client = english_client()
    client.force_login(boss)
    tournament_id, round_id = match.round.stage.tournament_id, match.round_id
    page = client.get(reverse("matches:table_cards", args=[tournament_id, round_id]))
    body = page.content.decode()
    assert page.status_code == 200 and body.count('class="qr"') == 1
    assert body.count('class="seat-slip"') == 4 and "PIN" in body
    old = table_token(round_=match.round, table_id=match.table_id)
    response = client.post(
        reverse("matches:table_links_revoke", args=[tournament_id, round_id]), {"table": match.table.number}
    )
    assert response.status_code == 302
    assert english_client().get(_url(old)).status_code == 403
    # a referee (not an organiser) reaches neither page
    ref = referee()
    client.force_login(ref)
    assert client.get(reverse("matches:table_cards", args=[tournament_id, round_id])).status_code == 404
    assert client.post(reverse("matches:table_links_revoke", args=[tournament_id, round_id])).status_code == 404


def test_the_draw_sheet_and_the_score_sheets_carry_each_tables_qr_code():
    boss = organiser()
    match = table_match(organiser_user=boss)
    round_match(round_=match.round)
    client = english_client()
    client.force_login(boss)
    tournament_id, round_id = match.round.stage.tournament_id, match.round_id
    for name in ("exports:round_draw", "exports:score_sheets", "draw:sheet"):
        body = client.get(reverse(name, args=[tournament_id, round_id])).content.decode()
        assert body.count('class="qr"') == 2, name


def test_the_token_reaches_nothing_else():
    """The table's page takes its match from the token: no organiser page, no referee page, no API."""
    match = table_match()
    client = english_client()
    token = table_token(round_=match.round, table_id=match.table_id)
    assert client.get(_url(token)).status_code == 200
    for url in (
        reverse("matches:match", args=[match.pk]),
        reverse("matches:referee_home"),
        reverse("matches:table_cards", args=[match.round.stage.tournament_id, match.round_id]),
    ):
        assert client.get(url).status_code in (302, 404), url
    assert client.get(f"/api/v1/matches/{match.pk}/").status_code in (401, 403, 404)


def test_the_table_cards_name_the_seats_in_the_pages_language():
    boss = organiser()
    match = table_match(organiser_user=boss)
    url = reverse("matches:table_cards", args=[match.round.stage.tournament_id, match.round_id])
    chinese = Client()
    chinese.force_login(boss)
    body = chinese.get(url).content.decode()
    assert '<th scope="row">北</th>' in body and "座位：西" in body
    assert not any(f'<th scope="row">{letter}</th>' in body for letter in "NESW")
    english = english_client()
    english.force_login(boss)
    assert '<th scope="row">North</th>' in english.get(url).content.decode()
