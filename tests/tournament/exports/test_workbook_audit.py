"""The workbook an auditor reads — pair numbers of the event, every change to a deal with its
reason, and list sheets that print (page setup read back with openpyxl)."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from tests.factories import PairFactory, TournamentFactory, referee, table_match
from tests.tournament.exports.conftest import build, read_book
from tournament.exports import headers as h
from tournament.matches.services import deal_correct, deal_delete, deal_record, deal_undo

pytestmark = pytest.mark.django_db

ORDERS = [["N", "S", "E", "W"], ["E", "W", "N", "S"], ["N", "E", "S", "W"], ["E", "N", "W", "S"]]


@pytest.fixture
def played():
    """A Guandan match whose deals were corrected, deleted and undone, in an event whose pairs' ids are
    not their numbers (another event registered first)."""
    other = TournamentFactory()
    for _ in range(3):
        PairFactory(tournament=other)
    ref = referee(username="referee-3-ddd5bbc702")
    ref.first_name = "裁判周七"  # a referee's account carries the referee's name (``referee_create``)
    ref.save()
    match = table_match(referee_user=ref)
    for order in ORDERS:
        deal_record(match_id=match.pk, outcome={"order": order}, user=ref)
    deal_correct(match_id=match.pk, number=2, outcome={"order": ["W", "E", "N", "S"]}, reason="录错顺序", user=ref)
    deal_delete(match_id=match.pk, number=3, reason="重复录入", user=ref)
    deal_undo(match_id=match.pk, user=ref, reason="录错了")
    match.refresh_from_db()
    return match


def test_the_workbook_shows_the_events_pair_numbers_not_database_ids(played):
    assert played.ns_pair.number != played.ns_pair_id
    book = read_book(build(tournament=played.round.stage.tournament))
    registration = book["参赛名单"]
    numbers = {row[registration[0].index("对号")] for row in registration[1:]}
    assert numbers == {1, 2}
    results = book["比赛结果"]
    row = results[1]
    assert (row[4], row[6]) == (played.ns_pair.number, played.ew_pair.number)


def test_the_deal_log_carries_corrections_deletions_and_undos_with_their_reasons(played):
    book = read_book(build(tournament=played.round.stage.tournament))
    log = book["牌局记录"]
    column = {title: index for index, title in enumerate(log[0])}
    lines = [(row[column["副"]], row[column["变更"]], row[column["变更原因"]]) for row in log[1:]]
    assert lines == [
        (1, None, None),
        (2, "更正", "录错顺序"),
        (3, "已删除", "重复录入 · 北 › 东 › 南 › 西"),
        # deal 4 became deal 3 when deal 3 went, then was undone: an undo asks a reason and is
        # recorded as the deletion of the last deal, with that reason
        (3, "已删除", "录错了 · 东 › 北 › 西 › 南"),
    ]


def test_the_list_sheets_print_landscape_fitted_to_width_with_the_header_on_every_page(played):
    data = build(tournament=played.round.stage.tournament)
    book = load_workbook(io.BytesIO(data))
    titles = [h.sheet_name(key, "zh") for key in ("registration", "results", "deals", "adjustments", "awards")]
    titles.append(h.sheet_name("standings", "zh", stage=played.round.stage.name))
    for title in titles:
        sheet = book[title]
        assert sheet.page_setup.orientation == "landscape", title
        assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0), title
        assert sheet.sheet_properties.pageSetUpPr.fitToPage, title
        assert sheet.print_title_rows == "$1:$1", title
    deals = book[h.sheet_name("deals", "zh")]
    flagged = [cell.value for cell in deals["S"][1:3]]  # the deals' 待核对: words, not TRUE/FALSE or 1/0
    assert flagged == ["否", "否"] and deals["S1"].value == "待核对"
    assert deals["A2"].alignment.horizontal == "center"  # a number does not run into the next column's text


def test_true_false_read_yes_no_in_english(played):
    book = read_book(build(tournament=played.round.stage.tournament, language="en"))
    log = book["Deal log"]
    column = {title: index for index, title in enumerate(log[0])}
    deals = [row for row in log[1:] if row[column["Change"]] in (None, "Corrected")]
    assert [row[column["Needs referee"]] for row in deals] == ["No", "No"]


def test_a_flagged_deal_shows_what_was_entered_in_the_deal_log():
    """A correction that ends the match earlier flags the deals after it: they have no record, so the
    deal log shows the finishing order entered (read for the flagged deals only)."""
    match = table_match(profile="timed-40")  # +5 a 1-2 (seed 002): 2 → 7 → 12 → A
    for order in (["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "W"], ["N", "E", "S"]):
        deal_record(match_id=match.pk, outcome={"order": order})  # deal 4: a failed A attempt
    deal_correct(match_id=match.pk, number=4, outcome={"order": ["N", "S"]}, reason="passed A")  # ends at 4
    match.refresh_from_db()
    flagged = list(match.deals.filter(flagged=True).values_list("number", "outcome"))
    assert flagged, "the scenario must flag a deal"
    book = read_book(build(tournament=match.round.stage.tournament))
    log = book["牌局记录"]
    column = {title: index for index, title in enumerate(log[0])}
    rows = {row[column["副"]]: row for row in log[1:] if row[column["变更"]] is None}
    for number, outcome in flagged:
        row = rows[number]
        assert row[column["待核对"]] == "是"
        seats = {"N": "北", "E": "东", "S": "南", "W": "西"}
        assert row[column["名次顺序"]] == " › ".join(seats[seat] for seat in outcome["order"])


def test_english_list_sheet_titles_wrap_between_words_and_show_whole(played):
    """Printed, a title wrapped inside a word ("Withd-rawn") or cut to its first line:
    each column is as wide as its title's longest word, and the header row is as tall as its
    longest wrapped title (nothing measures a streamed sheet's rows)."""
    from openpyxl.utils import get_column_letter

    from tournament.exports.xlsx import LINE_HEIGHT, text_width

    book = load_workbook(io.BytesIO(build(tournament=played.round.stage.tournament, language="en")))
    standings = book[h.sheet_name("standings", "en", stage=played.round.stage.name)]
    for sheet in (book[h.sheet_name("deals", "en")], book[h.sheet_name("results", "en")], standings):
        titles = [cell.value for cell in sheet[1]]
        for index, title in enumerate(titles, 1):
            width = sheet.column_dimensions[get_column_letter(index)].width
            assert max(text_width(word) for word in title.split()) + 2 <= width, (sheet.title, title, width)
        assert sheet.row_dimensions[1].height >= 2 * LINE_HEIGHT, sheet.title  # "Awaiting sign-off" wraps


def test_the_deal_log_names_the_referee_not_the_account(played):
    book = read_book(build(tournament=played.round.stage.tournament))
    log = book["牌局记录"]
    column = log[0].index("录入人")
    assert {row[column] for row in log[1:]} == {"裁判周七"}
