"""A Dou Dizhu table's entry page shows the profile's table conduct (docs/rules.md §7)."""

from __future__ import annotations

from django.urls import reverse

from scoring.conduct import table_conduct
from scoring.profiles import options_for
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round


def test_the_table_entry_page_shows_the_conduct(client, ref, table):
    client.force_login(ref)
    html = client.get(reverse("matches:match", args=[table.pk])).content.decode()
    for line in table_conduct("doudizhu").lines:
        assert line.zh in html


def test_a_table_whose_landlords_are_drawn_reads_the_drawn_landlord_not_the_bidding(client, ref, boss):
    """docs/rules.md §7 and §10 (seed 004 二 3 轮流坐庄): the entry page of a stage with ``landlord_by: lot``
    shows the drawn landlord's line where the profile's bidding line stands."""
    _tournament, stage = doudizhu_event(players=6, boss=boss)
    stage.rules = {**stage.rules, "landlord_by": "lot"}  # as a stage created with that override stores it
    stage.save(update_fields=["rules"])
    match = drawn_round(stage, referee_user=ref, user=boss).matches.order_by("table__number").first()
    client.force_login(ref)
    html = client.get(reverse("matches:match", args=[match.pk])).content.decode()
    drawn = table_conduct("doudizhu", options_for(profile="doudizhu", overrides={"landlord_by": "lot"}))
    assert drawn.lines[0].zh in html and table_conduct("doudizhu").lines[0].zh not in html
