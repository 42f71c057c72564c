"""Template filters of the public pages: levels, sides, statuses and movement as players read them."""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import lru_cache
from typing import TypeVar

from django import template
from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.html import conditional_escape, escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from scoring.snapshot import DealSnapshot
from tournament import labels
from tournament.games import PAIRS, GameKind, UnknownGame, game_kind
from tournament.locale import in_ui_language, ui_is_chinese
from tournament.matches.models import AdjustmentKind, MatchStatus
from tournament.registration.models import Tournament
from tournament.registration.text import NAMES_SEPARATOR
from tournament.standings import results
from tournament.standings.cache import LocalMemo
from tournament.standings.public import RankShown
from tournament.standings.public_types import (
    Column,
    DrawRow,
    MatchPage,
    PairView,
    StageTable,
    StandingLine,
    TournamentOverview,
)
from tournament.standings.teams import TeamLine

register = template.Library()

T = TypeVar("T")


register.filter("level", labels.level)
register.filter("side_label", labels.side)
register.filter("reason_label", labels.reason)
register.filter("seat_label", labels.seat)
register.filter("a_attempt_note", labels.a_attempt_note)


@register.filter
def game_of(game: str) -> GameKind:
    """The registry entry of a public match's game (``MatchPage.game``): its deal heading and texts."""
    return game_kind(game)


@register.filter
def deal_faults(deal: DealSnapshot) -> str:
    """A deal's faults in words (a Tractor revoke, wrong bottom, wrong count: seed 001 §9.1, §17,
    §18); "" for a deal without any."""
    names = ("revoke", "wrong_bottom", "wrong_count")
    return " · ".join(str(fault) for fault in labels.tractor_faults({name: getattr(deal, name) for name in names}))


@register.filter
def match_status(value: str) -> str:
    try:
        return str(MatchStatus(value).label)
    except ValueError:
        return ""


@register.filter
def adjustment_kind(value: str) -> str:
    """ "forfeit" → 弃权判负: an adjustment of a match's history by the label the referee chose."""
    return str(dict(AdjustmentKind.choices).get(value, value or ""))


@register.filter
def metric_title(column: Column) -> str:
    """A tie-break column's title from the rules core's metric registry, Chinese first."""
    return in_ui_language(en=str(column.title), zh=str(column.title_zh))


@register.filter
def dash(value: T) -> T | str:
    return "—" if value is None or value == "" else value


@register.simple_tag
def bracket_gap() -> str:
    """The space before a bracketed aside ("X wins (on small points)"): none in Chinese, whose
    full-width brackets （…） carry their own spacing, one in English."""
    return "" if ui_is_chinese() else " "


@register.simple_tag
def movement(line: StandingLine, said_once: bool = False) -> str:
    """▲ 3 / ▼ 2 / – with the words for screen readers (colour is never the only cue). ``said_once``:
    the page already says there is no earlier round, so a line without one shows nothing."""
    return _movement_html(line.movement, said_once=said_once)


def _movement_html(change: int | None, *, said_once: bool = False) -> str:
    """:func:`movement`'s HTML for a change of ``change`` places, in the active language."""
    return _movement_said(get_language(), change, said_once)


@lru_cache(maxsize=4096)
def _movement_said(language: str, change: int | None, said_once: bool) -> str:
    """:func:`_movement_html` in ``language`` (the active one), made once per worker: a standings page
    says it on each of its hundred lines, and its catalogue lookups and escapes were a third of the
    page's rendering."""
    if change is None and said_once:
        return ""
    if change is None:
        return format_html(
            '<span class="move new" title="{0}">·<span class="visually-hidden">{0}</span></span>', _("no earlier round")
        )
    if change == 0:
        return format_html('<span class="move same">–<span class="visually-hidden">{}</span></span>', _("unchanged"))
    if change > 0:
        words = ngettext("up %(n)d place", "up %(n)d places", change) % {"n": change}
        return format_html('<span class="move up">▲{}<span class="visually-hidden"> {}</span></span>', change, words)
    words = ngettext("down %(n)d place", "down %(n)d places", -change) % {"n": -change}
    return format_html('<span class="move down">▼{}<span class="visually-hidden"> {}</span></span>', -change, words)


@register.filter
def of_side(pair: tuple[T, T] | None, side: str) -> T | None:
    """The NS or EW half of a (ns, ew) tuple."""
    if not pair:
        return None
    return pair[0] if side == "NS" else pair[1]


@register.filter
def in_language(texts: tuple[str, str] | None) -> str:
    """``(english, chinese)`` → the one of the interface language (a rules-core text carries both)."""
    if not texts:
        return ""
    return in_ui_language(en=texts[0], zh=texts[1])


@register.filter
def knockout_round_name(pairs: int | None) -> str:
    """``{{ round.remaining|knockout_round_name }}``: 决赛, 半决赛, 四分之一决赛, 1/8 决赛 … (``labels``)."""
    return labels.knockout_round_name(int(pairs or 0))


@register.filter
def third_place_name(_value: object) -> str:
    return labels.third_place_name()


@register.filter
def entrant_word(game: str, name: str) -> str:
    """``{{ overview.game|entrant_word:"find" }}``: one of the sentences of the event's entrant kind
    (``EntrantKind.words``: a Dou Dizhu page says seat, not table); a pairs event's for an unknown game."""
    try:
        kind = game_kind(game).entrants
    except UnknownGame:
        kind = PAIRS
    return str(kind.words[name])


@register.filter
def whole_names(name: object) -> SafeString:
    """``{{ pair.name|whole_names }}``: an entrant's name ("张伟 / Li Na") with each player's name on
    one line: a phone's narrow column breaks between the names, never inside one ("Li / Na")."""
    parts = str(name).split(NAMES_SEPARATOR)
    return format_html_join(NAMES_SEPARATOR, '<span class="nowrap">{}</span>', ((part,) for part in parts))


@register.filter
def entrants_counted(tournament: Tournament, count: int) -> str:
    """``{{ tournament|entrants_counted:n }}``: "12 pairs" or "12 players", as the event's entrant kind counts."""
    return str(tournament.entrants.words["counted"] % {"counter": count})


_PAIR_ID = 987654321
"""A pair id no event has, put in a page's one reversed pair URL and replaced by each line's."""


@lru_cache(maxsize=1024)
def url_around(name: str, tournament_id: int) -> tuple[str, str]:
    """What comes before and after the last id of ``name``'s address in ``tournament_id``'s event
    (a route whose last argument is an ``<int:…>``), reversed once per worker: a pair's first view
    names a few of them, and each ``reverse`` cost more than the line it went into."""
    before, after = reverse(name, args=[tournament_id, _PAIR_ID]).rsplit(str(_PAIR_ID), 1)
    return before, after


def _number(value: object) -> str:
    """As ``{{ value }}`` shows a number (localized), the common case without its machinery."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return str(conditional_escape(str(localize(value))))


def _cell(value: object) -> str:
    """A tie-break value as its column shows it: "—" when there is none."""
    return "—" if value is None or value == "" else _number(value)


@register.simple_tag
def standings_rows(page: Iterable[StandingLine], table: StageTable, tournament_id: int) -> SafeString:
    """The body rows of a standings page: what a template loop over the lines would render, in
    Python — a 100-line page is rendered once per build for every worker, and the template's
    per-cell lookups, filters and ``{% url %}`` were most of a rebuild's cost."""
    lines = list(page)
    if not lines:
        return format_html('<tr><td colspan="3" class="muted">{}</td></tr>', _("No pairs yet."))
    pair_url = reverse("standings:pair", args=[tournament_id, _PAIR_ID])
    before, after = pair_url.split(str(_PAIR_ID))
    shared = f'<abbr title="{escape(_("shared"))}">=</abbr>'
    withdrawn = f' <span class="tag muted small">{escape(_("withdrawn"))}</span>'
    provisional = f' <span class="tag warning small provisional">{escape(_("awaiting sign-off"))}</span>'
    colspan = len(table.columns) + 3
    said_once = table.no_earlier_round
    language = get_language()
    # A whole number shows as its digits unless thousands are separated (_number's common case, its
    # setting read once a page, not eleven times a line).
    number = str if not settings.USE_THOUSAND_SEPARATOR else _number
    out: list[str] = []
    group: object = object()
    for line in lines:
        if line.group != group:
            group = line.group
            if group:
                title = escape(_("Group %(group)s") % {"group": group})
                out.append(f'<tr class="group-row"><th scope="rowgroup" colspan="{colspan}">{title}</th></tr>')
        byes = ""
        if line.byes:
            words = ngettext("%(counter)s bye", "%(counter)s byes", line.byes) % {"counter": line.byes}
            byes = f' <span class="muted small">({escape(words)})</span>'
        values = "".join(f'<td class="num">{number(v) if type(v) is int else _cell(v)}</td>' for v in line.values)
        out.append(
            f'<tr><th scope="row" class="sticky"><span class="rank">{number(line.rank)}{shared if line.shared else ""}'
            f"</span>{_movement_said(language, line.movement, said_once)} "
            f'<span class="muted small">#{number(line.pair_number)}</span> '
            f'<a href="{before}{line.pair_id}{after}">{_escape(line.pair_name)}</a>'
            f"{withdrawn if line.withdrawn else ''}{provisional if line.provisional else ''}</th>"
            f'<td class="num">{number(line.played)}</td>'
            f'<td class="num nowrap">{number(line.wins)}-{number(line.draws)}-{number(line.losses)}{byes}</td>'
            f"{values}</tr>"
        )
    return mark_safe("\n".join(out))  # every value above is escaped


@register.simple_tag
def team_total_rows(page: Iterable[TeamLine], tournament_id: int, big: bool = False) -> SafeString:
    """The body rows of a team total's page (``public/_team_standings.html``), in Python as
    :func:`standings_rows` renders the pairs': a page is rendered once per standings build, and its
    hundred teams' five members each through the template (lookups, ``{% url %}``, translations) took
    some 50 ms. ``big``: the big screen's rows, without the members."""
    pair_url = reverse("standings:pair", args=[tournament_id, _PAIR_ID])
    before, after = pair_url.split(str(_PAIR_ID))
    short = (
        f' <span class="badge" title="{escape(_("Fewer members counted than the rule asks for"))}">'
        f"{escape(_('short'))}</span>"
    )
    provisional = f' <span class="small provisional">{escape(_("awaiting sign-off"))}</span>'
    not_in_stage = f" · {escape(_('not in this stage'))}"
    substitute = f" · {escape(_('Substitute'))}"
    withdrawn = f" · {escape(_('withdrawn'))}"
    muted = ' class="muted"'
    # Translated and escaped once a page, not once a member: a page's hundred teams have 500 members.
    place_words = _("place %(place)s")
    counted_words: dict[int, str] = {}
    # every number of a line is an int: as ``_number`` shows one (str, without a thousand separator)
    num = _number if settings.USE_THOUSAND_SEPARATOR else str
    out: list[str] = []
    for line in page:
        lots = f' <span class="muted small">{escape(_("lot %(n)s") % {"n": line.lots})}</span>' if line.lots else ""
        detail = ""
        if not big:
            counted = counted_words.get(line.counted)
            if counted is None:
                counted = counted_words[line.counted] = _escape(
                    ngettext("%(counter)s member counted", "%(counter)s members counted", line.counted)
                    % {"counter": line.counted}
                )
            members = []
            for pair_id, number, name, place, points, _small, counts, substitutes, withdrew in line.member_rows:
                if place:
                    standing = f" · {_escape(place_words % {'place': num(place)})} · {num(points)}"
                else:
                    standing = not_in_stage
                members.append(
                    f"<li{'' if counts else muted}>"
                    f'<a href="{before}{pair_id}{after}">#{num(number)} {_escape(name)}</a>'
                    f"{standing}{' ✓' if counts else ''}{substitute if substitutes else ''}"
                    f"{withdrawn if withdrew else ''}</li>"
                )
            detail = (
                f'\n<details class="team-detail"><summary class="small">{counted}</summary>'
                f'\n<ul class="small">{"".join(members)}</ul></details>'
            )
        best = "—" if line.best_place is None else num(line.best_place)
        out.append(
            f'<tr><td class="num">{"=" if line.shared else ""}{num(line.rank)}</td>'
            f'<th scope="row">{_escape(line.name)}{short if line.short else ""}'
            f"{provisional if line.provisional else ''}{lots}{detail}</th>"
            f'<td class="num">{num(line.points)}</td><td class="num">{num(line.small_points)}</td>'
            f'<td class="num">{best}</td></tr>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped


DRAW_ROWS_KEPT = 6000
"""Rows of the draw a worker keeps rendered: a 5,000-pair round's 2,500 tables in both languages."""
draw_rows_kept = LocalMemo(DRAW_ROWS_KEPT)


def _draw_row_words() -> dict[str, object]:
    """A draw row's words, each escaped as ``{% translate %}`` writes it."""
    words = {
        "withdrawn": _("withdrawn"),
        "bye": _("Bye"),
        "walkover": _("Walkover"),
        "levels": _("Levels N/S : E/W"),
        "third_place": labels.third_place_name(),
    }
    return {name: _escape(word) for name, word in words.items()}


def _score_html(row: DrawRow, words: dict[str, str]) -> str:
    """What ``public/_score.html`` renders of a played (or playing) table: its forfeit, points or levels,
    then its status."""
    forfeit = forfeit_text(row)
    if forfeit:
        score = f'<span class="badge forfeit">{_escape(forfeit)}</span>'
    elif row.points:
        score = f'<span class="score">{_number(row.points[0])} : {_number(row.points[1])}</span>'
    elif row.levels and row.status != "pending":
        live = " live-score" if row.status == "running" else ""
        levels = f"{_escape(labels.level(row.levels[0]))} : {_escape(labels.level(row.levels[1]))}"
        score = f'<span class="score{live}" title="{words["levels"]}">{levels}</span>'
    else:
        score = ""
    if row.status in ("running", "pending"):
        status = f'<span class="status {_escape(row.status)}">{_escape(match_status(row.status))}</span>'
    elif row.status == "confirmed":
        said = _escape(match_status(row.status))
        status = f'<span class="status confirmed" title="{said}">✔<span class="visually-hidden">{said}</span></span>'
    else:
        status = ""
    return f"{score} {status}\n"


def _pair_row_html(row: DrawRow, pair: tuple[str, str], match: tuple[str, str]) -> str:
    """A table of a round of pairs as ``public/_draw_row.html`` renders it (the same bytes), in Python: a
    round just published renders each of its rows once in every worker, and the template's lookups
    took some 0.5–0.8 ms a row (a team round's rows, with their team match, go through the template)."""
    words = labels.names_once("draw-row", _draw_row_words)
    where = _number(row.table) if row.table else "—"
    if row.area:
        where += f'<br><span class="muted small">{_escape(row.area)}</span>'
    if row.third_place:
        where += f'<br><span class="small third-place">{words["third_place"]}</span>'
    ns = (
        f'<span class="muted small">#{_number(row.ns.number)}</span> '
        f'<a href="{pair[0]}{row.ns.pair_id}{pair[1]}">{whole_names(row.ns.name)}</a>'
    )
    if row.walkover_over:
        ew = f'<span class="muted">{_escape(row.walkover_over)} · {words["withdrawn"]}</span>'
        result = f'<span class="badge">{words["walkover"]}</span>'
    elif row.is_bye:
        ew = f'<span class="muted">{words["bye"]}</span>'
        result = f'<span class="badge">{words["bye"]}</span>'
    else:
        ew = (
            f'<span class="muted small">#{_number(row.ew.number)}</span> '
            f'<a href="{pair[0]}{row.ew.pair_id}{pair[1]}">{whole_names(row.ew.name)}</a>'
        )
        result = f'<a href="{match[0]}{row.match_id}{match[1]}">{_score_html(row, words)}</a>'
    ns_won = ' class="winner"' if row.winner == "NS" else ""
    ew_won = ' class="winner"' if row.winner == "EW" else ""
    return (
        f'<tr id="match-{_number(row.match_id)}">\n'
        f'  <th scope="row">{where}</th>\n'
        f"  <td{ns_won}>{ns}</td>\n"
        f"  <td{ew_won}>{ew}</td>\n"
        f"  <td>{result}</td>\n"
        "</tr>"
    )


@register.simple_tag
def draw_rows(page: Iterable[DrawRow], overview: TournamentOverview) -> SafeString:
    """The body rows of a draw page, each row rendered once per worker and kept while it is the same
    (``public/_draw_row.html``). During a round a deal moves one table's live levels and the round's
    draw is built again every few seconds: a page changed by one deal renders that row alone, not its
    hundred (a row through the template took about 0.3 ms, a page 30 ms, and every page changed with
    every build)."""
    language = get_language()
    row_template = get_template("public/_draw_row.html")
    # Its addresses made here, not by the row's {% url %}s: they were a third of a row's rendering, and
    # a round just published renders each of its 2,500 rows once in each worker.
    pair, match = url_around("standings:pair", overview.id), url_around("standings:match", overview.id)
    team_match = url_around("standings:team_match", overview.id)
    out: list[str] = []
    for row in page:
        key = (language, overview.id, row)
        html = draw_rows_kept.get(key)
        if html is None and row.team is None:
            html = _pair_row_html(row, pair, match)
            draw_rows_kept.put(key, html)
        elif html is None:
            urls = {
                "ns_url": f"{pair[0]}{row.ns.pair_id}{pair[1]}",
                "ew_url": f"{pair[0]}{row.ew.pair_id}{pair[1]}",
                "match_url": f"{match[0]}{row.match_id}{match[1]}",
                "team_url": f"{team_match[0]}{row.team.id}{team_match[1]}" if row.team else "",
            }
            html = row_template.render({"row": row, "overview": overview, **urls}).strip("\n")
            draw_rows_kept.put(key, html)
        out.append(html)
    if not out:
        return format_html('<tr><td colspan="4" class="muted">{}</td></tr>', _("No tables in this round."))
    return mark_safe("\n".join(out))  # each row rendered by its template, which escapes


@register.simple_tag
def pair_result(match: MatchPage, pair_id: int) -> results.PairResult:
    """``{% pair_result match pair.id as result %}``: the match from that pair's side, own score first."""
    return results.pair_result(match, pair_id)


@register.filter
def forfeit_text(match: results.Decided) -> str:
    """ "东西弃权" / "双方弃权" for a forfeited match (a public row), "" for a played one."""
    return results.forfeit_text(match)


@register.filter
def forfeited_by(match: results.Decided) -> str:
    """Who forfeited a public row: "NS", "EW", "both", or "" (played)."""
    return results.forfeited_by(match)


@register.simple_tag
def entrants_said(tournament: Tournament, name: str, **values: object) -> str:
    """``{% entrants_said tournament "to_come" n=5 %}``: one of the event's entrant kind's sentences with
    its values filled in ("5 pairs to come", "5 players to come")."""
    return str(tournament.entrants.words[name]) % values


def _escape(text: object) -> str:
    """As ``escape`` gives it (Django's is ``html.escape``), without its lazy-text wrapper: a pair's
    page escapes a few thousand short texts."""
    return html.escape(str(text))


def _conditional_escape(text: object) -> str:
    """As ``conditional_escape`` gives it: safe text as it is, anything else escaped."""
    if isinstance(text, Promise):
        text = str(text)
    html_of = getattr(text, "__html__", None)
    return str(html_of()) if html_of is not None else html.escape(str(text))


@register.simple_tag
def deal_rows(match: MatchPage) -> SafeString:
    """The body rows of a public match's deal history: what a template loop over its deals would
    render, in Python — a pair's page shows every deal of every match it played, and the loop's
    per-cell filters were most of the page's build."""
    entry = game_kind(match.game)
    points = bool(match.points)
    words = labels.names_once("deal-rows", _deal_rows_words)
    played_at, tiebreak, anti_tribute, replayed = (
        words["played_at"],
        words["tiebreak"],
        words["anti_tribute"],
        words["replayed"],
    )
    # A whole number shows as its digits unless thousands are separated (_number's common case, its
    # setting read once a list, not a few times a deal).
    number = str if not settings.USE_THOUSAND_SEPARATOR else _number
    levels: dict[int | str | None, str] = {}

    def level(value: int | str | None) -> str:  # a few levels, each escaped once per list
        shown = levels.get(value)
        if shown is None:
            shown = levels[value] = _escape(labels.level(value))
        return shown

    sides: dict[str | None, str] = {}

    def side(code: str | None) -> str:  # the two sides, each named (in the active language) once per list
        shown = sides.get(code)
        if shown is None:
            shown = sides[code] = _escape(labels.side(code))
        return shown

    out: list[str] = []
    texts = entry.deal_texts(match.deals)  # the game's words read once for the list (GameKind.deal_texts)
    for deal, text in zip(match.deals, texts, strict=True):
        if points:
            gained = "—" if deal.points is None else number(deal.points)
        else:
            gained = f"+{number(deal.upgrade)}" if deal.upgrade else "0"
        if deal.points_after:
            ns_after, ew_after = number(deal.points_after[0]), number(deal.points_after[1])
            after = f'<td class="num">{ns_after}</td><td class="num">{ew_after}</td>'
        else:
            ns, ew = (deal.levels_after[0], deal.levels_after[1]) if deal.levels_after else (None, None)
            after = f'<td class="num">{level(ns)}</td><td class="num">{level(ew)}</td>'
        notes = played_at % {"level": level(deal.level)} if deal.level else ""
        if deal.passed_a or deal.reset or deal.a_attempt:  # else no A note (labels.a_attempt_note)
            note = labels.a_attempt_note(deal)
            if note:
                failed = "" if deal.passed_a else " a-failed"
                notes += f' · <strong class="a-note{failed}">{_conditional_escape(note)}</strong>'
        if deal.extra:
            notes += f" · {tiebreak}"
        if deal.anti_tribute:
            notes += anti_tribute
        if deal.revoke or deal.wrong_bottom or deal.wrong_count:  # else no faults (deal_faults)
            faults = deal_faults(deal)
            if faults:
                notes += f" · {_conditional_escape(faults)}"
        if deal.result == "replayed":
            notes += replayed
        shown = number(deal.number)
        out.append(
            f'<tr class="deal" data-deal="{shown}">'
            f'<td class="num">{shown}</td>'
            f'<td class="nowrap">{_escape(text)}</td>'
            f"<td>{side(deal.winner)}</td>"
            f'<td class="num">{gained}</td>{after}'
            f'<td class="small">{notes}</td></tr>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped


def _deal_rows_words() -> dict[str, object]:
    """The deal rows' notes, each escaped as :func:`deal_rows` writes it ("played at" takes its level)."""
    return {
        "played_at": _("played at %(level)s"),
        "tiebreak": escape(_("tiebreak deal")),
        "anti_tribute": f' · <strong class="anti-tribute">{escape(_("anti-tribute (抗贡)"))}</strong>',
        "replayed": f" · <strong>{escape(_('replayed'))}</strong>",
    }


def _match_deals_words() -> dict[str, object]:
    """The deal history's words, each escaped as ``{% translate %}`` writes it."""
    words = {
        "deals_label": _("Deals"),
        "deal": _("Deal"),
        "won_by": _("Won by"),
        "points": _("Points"),
        "up": _("Up"),
        "ns": _("N/S"),
        "ew": _("E/W"),
        "notes": _("Notes"),
        "none": _("No deals entered yet."),
        "adjustments": _("Adjustments"),
    }
    return {name: _escape(word) for name, word in words.items()}


@register.simple_tag
def match_deals(match: MatchPage) -> SafeString:
    """A public match's deal history — its deals' table (or that none was entered) and its
    adjustments — as one pass of Python: a match's page, a team match's and, once per match it
    played, a pair's page show it (the template's tags were most of a pair page's first view)."""
    words = labels.names_once("match-deals", _match_deals_words)
    if match.deals:
        up = words["points"] if match.points else words["up"]
        deals = (
            f'\n<div class="scroll-x" tabindex="0" role="region" aria-label="{words["deals_label"]}">\n'
            '<table class="list deals deal-history">\n'
            f'  <caption class="visually-hidden">{words["deals_label"]}</caption>\n'
            f'  <thead><tr>\n    <th scope="col">{words["deal"]}</th>\n'
            # A catalogue text, written as {% translate %} writes it.
            f'    <th scope="col">{game_kind(match.game).deal_heading}</th>\n'
            f'    <th scope="col">{words["won_by"]}</th>\n'
            f'    <th scope="col" class="num">{up}</th>\n'
            f'    <th scope="col" class="num">{words["ns"]}</th>\n'
            f'    <th scope="col" class="num">{words["ew"]}</th>\n'
            f'    <th scope="col">{words["notes"]}</th>\n'
            f"  </tr></thead>\n  <tbody>\n  {deal_rows(match)}\n  </tbody>\n</table>\n</div>\n"
        )
    else:
        deals = f'\n<p class="muted">{words["none"]}</p>\n'
    adjusted = ""
    if match.adjustments:
        items = []
        for item in match.adjustments:
            text = str(escape(adjustment_kind(item.get("kind", ""))))
            if item.get("side"):
                text += f" · {escape(labels.side(item['side']))}"
            if item.get("reason"):
                text += " · " + _("Reason: %(reason)s") % {"reason": escape(item["reason"])}
            items.append(f"<li>{text}</li>")
        adjusted = f"\n<h3>{words['adjustments']}</h3>\n<ul>{''.join(items)}</ul>\n"
    # The template that shows it (public/_deals.html) ends the line.
    return mark_safe(f"{deals}\n{adjusted}")  # every value above is escaped


_BADGES = {"walkover": "badge win", "bye": "badge win", "won": "badge win", "lost": "badge loss", "draw": "badge"}
"""A decided match's badge from the pair's side, by outcome."""


def _pair_result_words() -> dict[str, object]:
    """A pair's results' words, each escaped as ``{% translate %}`` writes it."""
    words = {
        "walkover": _("Walkover"),
        "bye": _("Bye"),
        "won": _("Won"),
        "lost": _("Lost"),
        "draw": pgettext("match result", "Draw"),
        "score": _("own : opponent"),
    }
    return {name: _escape(word) for name, word in words.items()}


def _pair_matches_words() -> dict[str, object]:
    """A pair's matches' words (the two sentences take their values when used, as ``{% blocktranslate %}``)."""
    return {
        "table": _("Table %(table)s"),
        "withdrawn": _("withdrawn"),
        "bye": _("Bye"),
        "against": _("against"),
        "sat": _("sat %(side)s"),
        "match_page": _("Match page"),
    }


def _pair_result_html(match: MatchPage, result: results.PairResult) -> str:
    """A match's result from the pair's side: its badge, then the forfeit or the score (own first)."""
    words = labels.names_once("pair-result", _pair_result_words)
    badge = _BADGES.get(result.outcome)
    if badge is not None:
        shown = f'<span class="{badge}">{words[result.outcome]}</span>'
    else:
        shown = f'<span class="status {_escape(match.status)}">{_escape(match_status(match.status))}</span>'
    if result.forfeit:
        shown += f' <span class="badge forfeit">{_escape(result.forfeit_text)}</span>'
    elif result.score:
        own, other = result.score
        shown += f' <span class="score" title="{words["score"]}">{_escape(own)} : {_escape(other)}</span>'
    return shown


@register.simple_tag
def pair_matches(pair: PairView, tournament_id: int) -> SafeString:
    """The matches of a pair's page, each a card with its result from the pair's side and its deal
    history (the last one open): what a template loop over them rendered, in Python — a pair's first
    view renders every match it played, and the loop's tags were most of its build."""
    if not pair.matches:
        return mark_safe(f'\n  <p class="muted">{escape(_("No matches yet."))}</p>\n  ')
    words = labels.names_once("pair-matches", _pair_matches_words)
    before, after = url_around("standings:match", tournament_id)
    last = len(pair.matches) - 1
    out: list[str] = []
    for index, match in enumerate(pair.matches):
        result = results.pair_result(match, pair.id)
        table = ""
        if match.table:
            table = " · " + words["table"] % {"table": _number(match.table)}
        if match.walkover_over:
            against = f"{_escape(match.walkover_over)} · {_escape(words['withdrawn'])}"
        elif match.is_bye:
            against = _escape(words["bye"])
        else:
            opponent = match.ew.name if match.ns.pair_id == pair.id else match.ns.name
            sat = words["sat"] % {"side": _escape(labels.side(result.side))}
            against = f'{_escape(words["against"])} {_escape(opponent)} <span class="muted">({sat})</span>'
        history = ""
        if not match.is_bye:
            link = f'<p><a href="{before}{match.id}{after}">{_escape(words["match_page"])}</a></p>'
            history = f"{link}\n    {match_deals(match)}\n"
        out.append(
            f'\n  <details class="card match-history"{" open" if index == last else ""}>\n    <summary>\n'
            f"      <strong>{_escape(match.stage_name)} · {_escape(match.round_name)}</strong>\n"
            f"      {table}\n      · {against}\n      · {_pair_result_html(match, result)}\n\n    </summary>\n"
            f"    {history}\n  </details>\n  "
        )
    return mark_safe("".join(out))  # every value above is escaped


def _pair_page_words() -> dict[str, object]:
    """A pair's page's words, each escaped as ``{% translate %}`` writes it."""
    words = {
        "calendar": _("Add our rounds to my calendar (.ics)"),
        "withdrawn": _("Withdrawn"),
        "matches": _("Matches"),
    }
    return {name: _escape(word) for name, word in words.items()}


@register.simple_tag
def pair_page(pair: PairView, tournament_id: int, ranks_hole: str, poll_url: str, poll_seconds: int) -> SafeString:
    """A pair's page (its live part): its number, name and players, the calendar link, the hole its
    ranks fill (``ranks_hole``, kept as it is) and its matches — what the page's template rendered, in
    Python: a first view of each of thousands of pairs' pages renders it, and the template's tags
    (the calendar's reversed address, the translations, the players' loop) were a third of it."""
    words = labels.names_once("pair-page", _pair_page_words)
    before, after = url_around("standings:pair_calendar", tournament_id)
    players = []
    for name, department in pair.players:
        of = f' <span class="muted">· {_escape(department)}</span>' if department else ""
        players.append(f"<li>{_escape(name)}{of}</li>")
    withdrawn = (
        f'<p><span class="badge withdrawn">{words["withdrawn"]}</span></p>' if pair.status == "withdrawn" else ""
    )
    return mark_safe(  # every value is escaped
        f'<section id="live" class="live" hx-get="{_conditional_escape(poll_url)}"'
        f' hx-trigger="every {_number(poll_seconds)}s" hx-swap="outerHTML" aria-labelledby="page-title">\n'
        f'  <h1 id="page-title"><span class="muted">#{_number(pair.number)}</span> {_escape(pair.name)}</h1>\n'
        f'  <ul class="players">{"".join(players)}</ul>\n'
        f'  <p class="small"><a href="{before}{pair.id}{after}" download>{words["calendar"]}</a></p>\n'
        f"  {withdrawn}\n"
        f"  {_conditional_escape(ranks_hole)}\n"
        f"  <h2>{words['matches']}</h2>\n"
        f"  {pair_matches(pair, tournament_id)}\n"
        "</section>"
    )


def pair_ranks_html(shown: Iterable[RankShown], *, tournament_id: int, poll_url: str, poll_seconds: int) -> SafeString:
    """The ranks part of a pair's page (polled on its own): its rank, movement and record in each
    ranked stage, from what it shows alone (``RankShown``: the part's version is a digest of it)."""
    before, after = url_around("standings:stage_standings", tournament_id)
    provisional = f' <span class="tag warning small provisional">{escape(_("awaiting sign-off"))}</span>'
    out = [
        f'<div id="pair-ranks" hx-get="{escape(poll_url)}" hx-trigger="every {_number(poll_seconds)}s"'
        ' hx-swap="outerHTML">\n  '
    ]
    for line in shown:
        rank = _("rank %(rank)s") % {"rank": _number(line.rank)}
        out.append(
            f'\n  <p class="card rankline"><a href="{before}{line.stage_id}{after}">{escape(line.stage_name)}</a>:\n'
            f"    {rank}{provisional if line.provisional else ''} {_movement_html(line.movement)}\n"
            f"    · {_number(line.wins)}-{_number(line.draws)}-{_number(line.losses)}</p>\n  "
        )
    out.append("\n</div>\n")
    return mark_safe("".join(out))  # every value above is escaped
