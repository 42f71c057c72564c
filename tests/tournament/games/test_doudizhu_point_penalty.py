"""A point penalty against one Dou Dizhu player through the adjustments page (docs/rules.md §7: in Dou
Dizhu points are deducted from one player, not zero-sum, with a reason); a stage stored before point
penalties counted keeps recording them without effect."""

from __future__ import annotations

from django.urls import reverse

from tournament.matches import services
from tournament.matches.models import Adjustment


def test_a_point_penalty_comes_off_one_players_points(client, boss, table):
    services.deal_record(match_id=table.pk, outcome={"landlord": "E", "winner": "landlord"})
    table.refresh_from_db()
    client.force_login(boss)
    url = reverse("matches:adjustments", args=[table.pk])
    page = client.get(url).content.decode()
    assert "罚分" in page and 'name="points"' in page
    refused = client.post(url, {"version": table.version, "side": "S", "kind": "penalty", "reason": "拖延"})
    assert refused.status_code == 400 and not Adjustment.objects.exists()
    answer = client.post(
        url, {"version": table.version, "side": "S", "kind": "penalty", "points": 5, "reason": "拖延出牌"}
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.table_snapshot.points == (2, -1 - 5, -1)
    record = table.state["adjustments"][0]
    assert (record["kind"], record["seat"], record["effect"], record["after_deal"]) == (
        "point_penalty",
        "S",
        "points_deducted",
        1,
    )


def test_a_stage_stored_before_point_penalties_counted_keeps_them_without_effect(boss, table):
    stage = table.round.stage
    del stage.rules["point_penalties"]  # stored before the option existed
    stage.save(update_fields=["rules"])
    services.deal_record(match_id=table.pk, outcome={"landlord": "E", "winner": "landlord"})
    seat_s = table.seats.get(seat="S")
    services.adjustment_record(match_id=table.pk, pair_id=seat_s.pair_id, kind="penalty", points=5, reason="拖延")
    table.refresh_from_db()
    assert table.table_snapshot.points == (2, -1, -1)
    assert table.state["adjustments"][0]["effect"] == "warning"
