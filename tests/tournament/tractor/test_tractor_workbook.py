"""Issue 9: a Tractor event's workbook: the deal log shows the declarer and the defenders' points (with
bottom, penalties and the seed-001 verdict) instead of finishing orders; reopened with openpyxl."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from scoring.levels import level_label
from tournament.exports import headers as h
from tournament.exports.workbook import workbook_build
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db

DEALS = [
    {"declarer": "N", "defender_points": 0},
    {"defender_points": -40, "penalties": [{"side": "EW", "kind": "exposed_card"}]},
    {"defender_points": 125},
    {"defender_points": 300, "bottom": {"points": 10, "capture": "pair"}, "revoke": None},
]


def rows(data: bytes, title: str) -> list[tuple]:
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return [tuple(row) for row in book[title].iter_rows(values_only=True)]
    finally:
        book.close()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_deal_log_of_a_tractor_event(match, ref, language):
    for deal in DEALS:
        deal_record(match_id=match.pk, outcome={k: v for k, v in deal.items() if v is not None}, user=ref)
    target = io.BytesIO()
    workbook_build(tournament=match.round.stage.tournament, target=target, language=language)
    log = rows(target.getvalue(), h.sheet_name("deals", language))
    assert log[0] == tuple(h.titles(h.DEALS_TRACTOR, language))
    titles = h.titles(h.DEALS_TRACTOR, language)
    assert ("名次顺序" if language == "zh" else "Finishing order") not in titles
    column = {key.key: index for index, key in enumerate(h.DEALS_TRACTOR)}
    records = [deal.record for deal in match.deals.order_by("number")]
    assert len(log) == 1 + len(records)
    for row, record in zip(log[1:], records, strict=True):
        assert row[column["deal"]] == record["number"]
        assert row[column["declarer"]] == h.word(record["declarer"], language)
        assert row[column["defender_points"]] == record["defender_points"]
        assert row[column["total_points"]] == record["total_points"]
        assert row[column["tractor_result"]] == h.word(record["result"], language)
        assert row[column["upgrade"]] == record["upgrade"]
        after = record["levels_after"]
        assert (row[column["ns_after"]], row[column["ew_after"]]) == (
            level_label(after["NS"]),
            level_label(after["EW"]),
        )
        assert row[column["entered_by"]] == "ref"
    first, second, third, fourth = log[1:]
    assert first[column["declarer_seat"]] == h.word("N", language)
    assert second[column["penalty_points"]] == -20 and second[column["total_points"]] == -60
    assert third[column["tractor_result"]] == ("防家上台" if language == "zh" else "Defenders take over")
    assert fourth[column["bottom"]] == "10×3=30"
    assert fourth[column["declarer"]] == h.word("EW", language)
