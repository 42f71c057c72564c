"""How pages name the rules core's values: levels, sides, seats and why a match was won.

One vocabulary for every page (referee's and public), in the user's language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.levels import level_label
from scoring.profiles import PROFILE_INFO, rules_summary
from scoring.tractor import Capture, Infraction
from tournament.locale import in_ui_language

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from scoring.options import RuleOptions


def level(value: int | str | None) -> str:
    """14 → "A", 11 → "J" (docs/rules.md §1); "—" when there is no level."""
    if value is None:
        return "—"
    try:
        return level_label(int(value))
    except (TypeError, ValueError, KeyError, IndexError):
        return "—"


_NAMES: dict[tuple[str, str | None], dict[str, str]] = {}


def _names(kind: str, build: Callable[[], dict[str, object]]) -> dict[str, str]:
    """``build()``'s names in the active language, translated once per language and process (a
    catalogue never changes while a process runs): a pair's page names some 500 seats and sides, and
    a translation looked up each time was half of its rendering."""
    key = (kind, get_language())
    names = _NAMES.get(key)
    if names is None:
        names = _NAMES[key] = {code: str(name) for code, name in build().items()}
    return names


def side(code: object) -> str:
    """ "NS" → "N/S" (南北); at a three-seat table a player is their own side, named by the seat
    ("E" → "East", 东)."""
    names = _names("side", lambda: {"NS": _("N/S"), "EW": _("E/W"), "E": _("East"), "S": _("South"), "W": _("West")})
    return names.get(str(code), "—")


def seat_names() -> dict[str, str]:
    """Each seat's letter in a finishing order, in the active language (:func:`seat`), looked up once
    for a whole order or deal list."""
    return _names("seat", lambda: {"N": _("N"), "E": _("E"), "S": _("S"), "W": _("W")})


def seat(code: object) -> str:
    """ "N" → "N" (北): a seat in a finishing order."""
    code = str(code)
    return seat_names().get(code, code)


def names_once(kind: str, build: Callable[[], dict[str, object]]) -> dict[str, str]:
    """``build()``'s words in the active language, translated once per language and process (a page
    rendered in Python that says the same few words for every row of it)."""
    return _names(kind, build)


def a_attempt_note(deal: object) -> str:
    """A deal played at A as the deal histories mark it, the referee's and the public's alike (docs/rules.md
    §1, A rules): "passed A", "A failed", or "A failed · back to 2" (the last allowed failure); "" for
    a deal not played at A. ``deal``: a stored record (``Deal.snapshot``, the public page's too) or its JSON."""

    def flag(name: str) -> bool:
        return bool(deal.get(name) if isinstance(deal, dict) else getattr(deal, name, False))

    if flag("passed_a"):
        return str(_("passed A"))
    if flag("reset"):
        return f"{_('A failed')} · {_('back to 2')}"
    if flag("a_attempt"):
        return str(_("A failed"))
    return ""


def seat_name(code: object) -> str:
    """ "N" → "North" (北家): a seat on its own, as on the referee's tap buttons; no seat: ""."""
    if code is None:
        return ""
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}.get(str(code), str(code))


def reason(code: object) -> str:
    """Why a match was won, as the rules core names it (docs/rules.md §2–3)."""
    names = {
        "passed_a": _("passed A"),
        "higher_level": _("higher level"),
        "first_to_reach": _("first to reach the level"),
        "setting_side": _("side setting the level"),
        "extra_deal": _("extra deal"),
        "draw": _("draw"),
        "points": _("more points"),
        "games": _("more games"),
        "forfeit": _("forfeit"),
    }
    return str(names.get(str(code), code or ""))


# -- the rules in force -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileView:
    """A profile as an organiser or player recognises it: its title and the rulebook (seed) it follows."""

    name: str
    title: str
    seed: str


def profile_view(name: str) -> ProfileView:
    """The profile ``name`` by its title in the active language (not ``timed-40``)."""
    info = PROFILE_INFO.get(name)
    if info is None:
        return ProfileView(name=name, title=name, seed="")
    return ProfileView(name=name, title=in_ui_language(en=info.title, zh=info.title_zh), seed=info.seed)


def profile_title(name: object) -> str:
    """A rule profile by its title and the rulebook it follows ("40分钟限时…（规则 002）"), not "timed-40"."""
    view = profile_view(str(name))
    if not view.seed or view.seed in view.title:  # the title names its rulebook already
        return view.title
    return _("%(title)s (rulebook %(seed)s)") % {"title": view.title, "seed": view.seed}


def rules_title(*, profile: str, options: RuleOptions) -> str:
    """The rules in force summarised in the active language (``scoring.profiles.rules_summary``): the
    profile's title (:func:`profile_title`) while the stored options score as the profile does."""
    en, zh = rules_summary(profile=profile, options=options)
    view = profile_view(profile)
    if view.title in (en, zh):  # the profile's own title: with its rulebook, as elsewhere
        return profile_title(profile)
    return in_ui_language(en=en, zh=zh)


_OPTION_NAMES: dict[str, StrPromise] = {
    "game": gettext_lazy("Game"),
    "format": gettext_lazy("Match format"),
    "deals": gettext_lazy("Number of deals"),
    "games": gettext_lazy("Number of games"),
    "time_cap_minutes": gettext_lazy("Time cap"),
    "at_time_up": gettext_lazy("When time is up"),
    "time_up_tie": gettext_lazy("Equal levels at time"),
    "cap_scope": gettext_lazy("Time cap runs for"),
    "upgrades": gettext_lazy("Upgrades (1-2 / 1-3 / 1-4)"),
    "points_table": gettext_lazy("Points (1-2 / 1-3 / 1-4)"),
    "a_pass": gettext_lazy("Passing A"),
    "a_failure_limit": gettext_lazy("Failed A attempts"),
    "a_reset": gettext_lazy("After the reset"),
    "tribute_variant": gettext_lazy("Tribute"),
    "wild_reading": gettext_lazy("Wild cards (card assistant)"),
    "match_points": gettext_lazy("Match points"),
    "tie_breakers": gettext_lazy("Tie-breakers"),
    "small_points": gettext_lazy("Small points"),
    "bye_result": gettext_lazy("Bye"),
    "bye_margin": gettext_lazy("Bye margin"),
    "forfeit_margin": gettext_lazy("Forfeit margin"),
    "late_arrival": gettext_lazy("Late arrival"),
    "deal_scoring": gettext_lazy("Deal scoring"),
    "cards_left_winner": gettext_lazy("Who wins a deal scored by cards left"),
    "base": gettext_lazy("Base stake"),
    "multiple_cap": gettext_lazy("Multiple cap"),
    "landlord_by": gettext_lazy("Landlord"),
    "landlord_rotation": gettext_lazy("Landlord after the first deal"),
    "reseat": gettext_lazy("Seating each round"),
    "bye_points": gettext_lazy("Points for a bye"),
    "forfeit_points": gettext_lazy("Points for a forfeit"),
    "late_forfeit_minutes": gettext_lazy("Late forfeit after (minutes)"),
}
"""Each option's name in words, translated when it is read: a stage's rules are shown on every page of its
standings, rendered anew with each build, and a catalogue made whole for each line was half a page's
rendering."""


def rule_option(name: object) -> str:
    """An option's name as an organiser reads it (docs/rules.md names the option itself)."""
    return str(_OPTION_NAMES.get(str(name), name))


def _place_table(value: object, sign: str) -> str:
    if isinstance(value, dict):
        return " / ".join(f"{sign}{value.get(key)}" for key in ("1-2", "1-3", "1-4"))
    return str(value)


_VALUE_WORDS: dict[str, dict[str, StrPromise]] = {
    "game": {
        "guandan": gettext_lazy("Guandan"),
        "tractor": gettext_lazy("Tractor"),
        "doudizhu": gettext_lazy("Dou Dizhu"),
    },
    "format": {
        "level_game": gettext_lazy("one game 2→A"),
        "best_of": gettext_lazy("best of several games"),
        "fixed_deals_points": gettext_lazy("fixed deals, points 3/2/1"),
        "fixed_deals_levels": gettext_lazy("fixed deals with levels"),
    },
    "at_time_up": {
        "finish_current_deal": gettext_lazy("the current deal is the last"),
        "one_more_deal": gettext_lazy("one more deal"),
    },
    "time_up_tie": {
        "first_to_reach": gettext_lazy("first to reach the level wins"),
        "extra_deal": gettext_lazy("an extra deal: the side that goes up wins"),
        "setting_side": gettext_lazy("the side on stage wins"),
        "draw": gettext_lazy("a draw"),
    },
    "a_pass": {
        "top_and_partner_not_last": gettext_lazy("上游 with the partner not last (1-2, 1-3)"),
        "side_not_last": gettext_lazy("neither player last (also the opponents' 1-4)"),
        "one_two_only": gettext_lazy("only a 1-2 finish"),
    },
    "a_reset": {
        "to_2": gettext_lazy("plays on from 2"),
        "upgrade_from_2": gettext_lazy("its upgrade of that deal counts from 2"),
    },
    "cap_scope": {"match": gettext_lazy("the whole match"), "game": gettext_lazy("each game")},
    "tribute_variant": {
        "standard": gettext_lazy("standard"),
        "seed_000": gettext_lazy("rulebook 000"),
        "seed_002": gettext_lazy("rulebook 002 (winners choose equal cards)"),
        "national_2017": gettext_lazy("national rules 2017"),
    },
    "wild_reading": {
        "largest": gettext_lazy("the largest reading"),
        "stated_example": gettext_lazy("the lowest straight (rulebook 000)"),
    },
    "deal_scoring": {
        "stake": gettext_lazy("base × bid × 2 per bomb × 2 for a spring"),
        "cards_left": gettext_lazy("by the cards left in hand (rulebook 004)"),
    },
    "cards_left_winner": {
        "player": gettext_lazy("the player who went out, alone"),
        "side": gettext_lazy("the side of the player who went out"),
    },
    "landlord_by": {
        "bid": gettext_lazy("by bidding 1–3"),
        "lot": gettext_lazy("drawn by lot, then in turn (轮流坐庄)"),
    },
    "landlord_rotation": {
        "counter_clockwise": gettext_lazy("passes to the next seat each deal"),
        "none": gettext_lazy("any seat, deal by deal"),
    },
    "reseat": {"lot": gettext_lazy("by lot"), "score": gettext_lazy("by standing")},
}
"""An option's values in words, by option (translated when read, as :data:`_OPTION_NAMES`)."""


def rule_value(name: object, value: object) -> str:
    """An option's value in words (docs/rules.md §1–§9)."""
    name = str(name)
    if name in ("upgrades", "points_table"):
        return _place_table(value, "+" if name == "upgrades" else "")
    if name == "time_cap_minutes":
        return _("untimed") if value is None else _("%(minutes)s minutes") % {"minutes": value}
    if name == "a_failure_limit":
        if value is None:
            return _("no reset: A is played until passed")
        return _("%(n)s failures: back to 2") % {"n": value}
    if name == "multiple_cap" and value is None:
        return str(_("no cap"))
    said = _VALUE_WORDS.get(name, {}).get(str(value))
    if said is not None:
        return str(said)
    if value is None:
        return "—"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


# -- Tractor faults (seed 001 §9.1, §17, §18; docs/rules.md §9) -------------------------------------------


CAPTURE_LABELS: dict[Capture, StrPromise] = {
    Capture.SINGLE: gettext_lazy("single ×2"),
    Capture.PAIR: gettext_lazy("pair ×3"),
    Capture.TRIPLE: gettext_lazy("triple ×4"),
    Capture.TRACTOR_2_PAIRS: gettext_lazy("tractor of 2 pairs ×5"),
    Capture.TRACTOR_3_PAIRS: gettext_lazy("tractor of 3 pairs ×6"),
    Capture.TRACTOR_2_TRIPLES: gettext_lazy("tractor of 2 triples ×7"),
}
"""How the defenders captured the bottom (抠底, seed 001 §15), with its multiplier: the entry form's
choices and every text of a deal."""

INFRACTION_LABELS: dict[Infraction, StrPromise] = {
    Infraction.EXPOSED_CARD: gettext_lazy("exposed card"),
    Infraction.OUT_OF_TURN: gettext_lazy("out of turn"),
    Infraction.FAILED_THROW: gettext_lazy("failed throw"),
    Infraction.WRONG_FOLLOW: gettext_lazy("wrong follow"),
}
"""The 20-point infractions (seed 001 §13, §16, §19, §20)."""


def capture(code: object) -> str:
    """ "pair" → "pair ×3" (对子 ×3); an unknown code is shown as it is."""
    try:
        return str(CAPTURE_LABELS[Capture(code)])
    except ValueError:
        return str(code)


def infraction(code: object) -> str:
    """ "exposed_card" → "exposed card" (亮牌); an unknown code is shown as it is."""
    try:
        return str(INFRACTION_LABELS[Infraction(code)])
    except ValueError:
        return str(code)


def declarer(side_code: object, seat_code: object = None) -> str:
    """Who declares (庄家): the seat when it is known ("North"), else the side ("N/S"); entered as
    either ("N" or "NS")."""
    code = seat_code or side_code
    if str(code) in ("N", "E", "S", "W"):
        return seat_name(code)
    return side(code)


def wrong_count(code: object) -> str:
    """Whose hands held a wrong number of cards: "NS" → "N/S", "both" → "both sides"."""
    return _("both sides") if str(code) == "both" else side(code)


def tractor_faults(deal: object) -> list[str]:
    """The faults a Tractor deal (as entered, or as recorded) ended with, in words."""
    if not isinstance(deal, dict):
        return []
    faults = []
    if deal.get("revoke"):
        faults.append(_("revoke (藏张) by %(side)s") % {"side": side(deal["revoke"])})
    if deal.get("wrong_bottom"):
        faults.append(_("wrong number of bottom cards (留错底牌)"))
    if deal.get("wrong_count") == "both":
        faults.append(_("wrong card count (牌张数目不符) in both sides' hands: the deal is replayed"))
    elif deal.get("wrong_count"):
        faults.append(_("wrong card count (牌张数目不符) in %(side)s's hands") % {"side": side(deal["wrong_count"])})
    return faults


# -- knockout rounds by their names ------------------------------------------------------


def knockout_round_name(pairs: int) -> str:
    """A knockout round by its name, from the pairs still in (byes count): 2 → 决赛 (final),
    3–4 → 半决赛, 5–8 → 四分之一决赛, then 1/8 决赛, 1/16 决赛 … (the bracket's size: the pairs
    rounded up to a power of two, halved)."""
    size = 2
    while size < pairs:
        size *= 2
    if size <= 2:
        return _("Final")
    if size == 4:
        return _("Semi-finals")
    if size == 8:
        return _("Quarter-finals")
    return _("1/%(fraction)d final") % {"fraction": size // 2}


def third_place_name() -> str:
    return _("Third-place match")


def round_name(*, number: int, knockout_pairs: int | None = None, third_place: bool = False) -> str:
    """A round — or one match of it — as every page, sheet and workbook names it: a knockout's
    third-place match by its name (``third_place``: played beside the final, not the final), a knockout
    round by its name (given the pairs still in, :func:`knockout_round_name`), any other by its number."""
    if third_place:
        return third_place_name()
    if knockout_pairs:
        return knockout_round_name(knockout_pairs)
    return _("Round %(number)s") % {"number": number}


_DRAW_METHODS = {
    "swiss": gettext_lazy("Swiss pairing"),
    "knockout.bracket": gettext_lazy("Knockout bracket"),
    "knockout.redraw": gettext_lazy("Knockout, redrawn each round"),
    "round_robin.circle": gettext_lazy("Round robin (circle method)"),
    "three-seats": gettext_lazy("Three-seat tables"),
}


def table_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7] → "1–3, 7" (numbers sorted): a referee's or an area's tables."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def draw_algorithm(code: object) -> str:
    """A round's recorded draw algorithm as an organiser reads it: "Swiss pairing" — the method in
    words; the recorded version (which code redraws the round) is the page's tooltip, not its text."""
    code = str(code or "")
    method = next((label for prefix, label in _DRAW_METHODS.items() if code.startswith(prefix)), None)
    return str(method) if method is not None else code or "—"


def adjustment_effect(effect: str, amount: int) -> str:
    """What an adjustment did to the match, as the rules core recorded it (docs/rules.md §7): the
    referee sees it next to the row (a late arrival's "opponents up 2 levels")."""
    texts = {
        "opponents_upgrade": _("opponents up %(n)d levels"),
        "points_deducted": _("%(n)d points deducted"),
        "next_deal_points": _("%(n)d points off the next deal"),
        "first_deal_forfeited": _("the first deal forfeited"),
        "forfeit": _("the match forfeited"),
        "warning": _("a warning: the score does not change"),
    }
    text = texts.get(effect)
    return str(text % {"n": amount}) if text is not None and "%(n)d" in str(text) else str(text or effect)
