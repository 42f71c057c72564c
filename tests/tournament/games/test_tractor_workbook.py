"""A Tractor event's workbook: the deal log shows the declarer and the defenders' points (with
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


def _sheet(data: bytes, key: str, language: str = "zh") -> tuple[list[tuple], dict[str, int]]:
    table = rows(data, h.sheet_name(key, language))
    return table, {title: index for index, title in enumerate(table[0])}


def test_late_arrivals_read_in_the_rules_figures_and_the_forfeited_first_deal_is_in_the_deal_log(match, ref):
    """12 minutes late is 扣分 30 in the first deal, 17 minutes the first deal forfeited and
    the opponents up one — not 扣分 0 / 对方升级 0 — and the deal log reconciles every level."""
    from tests.factories import round_match
    from tournament.matches.services import adjustment_record

    tournament = match.round.stage.tournament
    other = round_match(round_=match.round)
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="late_arrival", minutes_late=12, reason="堵车")
    adjustment_record(match_id=other.pk, pair_id=other.ew_pair_id, kind="late_arrival", minutes_late=17, reason="迷路")
    deal_record(match_id=other.pk, outcome={"declarer": "N", "defender_points": 40}, user=ref)
    target = io.BytesIO()
    workbook_build(tournament=tournament, target=target)
    data = target.getvalue()

    adjustments, column = _sheet(data, "adjustments")
    twelve = next(row for row in adjustments[1:] if row[column["迟到(分钟)"]] == 12)
    seventeen = next(row for row in adjustments[1:] if row[column["迟到(分钟)"]] == 17)
    assert (twelve[column["处理结果"]], twelve[column["扣分"]], twelve[column["对方升级"]]) == ("下一副扣分", 30, None)
    assert (seventeen[column["处理结果"]], seventeen[column["对方升级"]], seventeen[column["扣分"]]) == (
        "首局判负",
        1,
        None,
    )
    assert (seventeen[column["南北级数"]], seventeen[column["东西级数"]]) == ("3", "2")

    log, column = _sheet(data, "deals")
    lines = [row for row in log[1:] if row[column["比赛编号"]] == other.pk]
    forfeited, first = lines  # the forfeited first deal, then the deal played
    assert forfeited[column["变更"]] == "首局判负" and forfeited[column["副"]] is None
    assert "迟到 17 分钟" in forfeited[column["变更原因"]] and "迷路" in forfeited[column["变更原因"]]
    assert (forfeited[column["南北级数"]], forfeited[column["东西级数"]]) == ("3", "2")
    assert first[column["副"]] == 1 and first[column["打几"]] == "3"  # N/S declare at 3, as the forfeit left them


def test_a_tractor_workbook_has_only_tractor_columns(match, ref):
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 0}, user=ref)
    target = io.BytesIO()
    workbook_build(tournament=match.round.stage.tournament, target=target)
    results, _column = _sheet(target.getvalue(), "results")
    log, _column = _sheet(target.getvalue(), "deals")
    assert not {"南北局分", "东西局分", "南北胜局", "东西胜局"} & set(results[0])
    assert "过A" not in log[0]
    assert {"南北级数", "东西级数"} <= set(results[0])
