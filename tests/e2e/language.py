"""One check for a page seen in Chinese or in English: it fits the phone's screen, answered without
a server error, and its words are the page's language — no English word (nor an internal code) on the
Chinese page, no Chinese on the English page. What people typed (event, stage, pair, player, referee
and tier names, areas, reasons) is theirs, in whatever language they wrote it, and is left out of the
reading; so is the English the Chinese page deliberately shows beside its Chinese (``lang="en"``).
A screenshot of every check goes to ``test-output/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.e2e.conftest import SCREENSHOTS

LANGUAGES = ["zh-hans", "en"]
URL = re.compile(r"https?://\S+|/[\w\-/]+/")
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z_.\-]{2,}")
CHINESE = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]")
ALLOWED_LATIN = {"Excel", "xlsx", ".xlsx", "PIN", "QR", "API", "English"}
"""Latin words a Chinese page may show: a file kind, a product's name, an acronym Chinese uses too,
the English version's link."""


def _cited_titles() -> set[str]:
    """The rules documents' titles, cited in Chinese as published (the English says what they are)."""
    from scoring.profiles import PROFILE_INFO

    return {
        token.rstrip(",:") for info in PROFILE_INFO.values() for token in info.title.split() if CHINESE.search(token)
    }


GAME_TERMS = {"上游", "二游", "三游", "下游", "双下", "双贡"}
"""The game's own words for the finishing places, which the English rules use as they are
(docs/rules.md §1: "The first player out is 上游, then 二游, 三游 and the last, 下游")."""
ALLOWED_CHINESE = {"中文", *_cited_titles(), *GAME_TERMS}
"""Chinese an English page may show: the Chinese version's link, the rules documents' titles, the
game's terms."""
GLOSS = re.compile(r"\([\u3400-\u9fff]{1,6}\)")
"""A game's term glossed in Chinese after its English, as players know it: "double-down (双下)"."""

MAIN_TEXT = """(language) => { const main = document.querySelector('main').cloneNode(true);
    main.querySelectorAll(language === 'zh-hans' ? '[lang=en]' : '[lang^=zh]').forEach((e) => e.remove());
    main.querySelectorAll('input[type=hidden], script, template').forEach((e) => e.remove());
    document.body.append(main); const text = main.innerText; main.remove(); return text; }"""


def typed_words() -> list[str]:
    """Every name and text people typed into the events (longest first, so a name is removed whole
    before a shorter name inside it)."""
    from django.contrib.auth import get_user_model

    from tournament.exports.models import PrizeTier
    from tournament.matches.models import Referee, Stage, Table
    from tournament.registration.models import Department, Pair, Player, Tournament

    words: set[str] = set()
    for model, fields in (
        (Tournament, ("name", "venue")),
        (Stage, ("name",)),
        (Pair, ("name",)),
        (Player, ("name",)),
        (Department, ("name",)),
        (Referee, ("name",)),
        (Table, ("area",)),
        (PrizeTier, ("name",)),
        (get_user_model(), ("first_name", "last_name", "username")),
    ):
        for row in model.objects.values_list(*fields):
            words.update(str(value) for value in row if value)
    return sorted(words, key=len, reverse=True)


def foreign_words(text: str, language: str, *, typed: Iterable[str] = ()) -> set[str]:
    """The words of ``text`` that are not ``language``'s (after removing what people typed)."""
    text = URL.sub(" ", text)
    if language != "zh-hans":  # the titles first: a typed name may be a part of one
        for word in sorted(ALLOWED_CHINESE, key=len, reverse=True):
            text = text.replace(word, " ")
        text = GLOSS.sub(" ", text)
    for word in (*typed, *typed_words()):
        text = text.replace(word, " ")
    if language == "zh-hans":
        return {word for word in ENGLISH_WORD.findall(text) if word not in ALLOWED_LATIN}
    return set(CHINESE.findall(text))


class Checked:
    """A page at the phone's size in ``language``; every ``check`` asserts width, language and no
    server error, and photographs the page (``<prefix>-<name>-<zh|en>.png``)."""

    def __init__(self, page, language: str, prefix: str) -> None:
        self.page = page
        self.language = language
        self.tag = "zh" if language == "zh-hans" else "en"
        self.prefix = prefix
        self.errors: list[str] = []
        page.on("response", lambda response: response.status >= 500 and self.errors.append(response.url))

    def zh(self, chinese: str, english: str) -> str:
        """The page's words: ``chinese`` on the Chinese page, ``english`` on the English one."""
        return chinese if self.language == "zh-hans" else english

    def visit(self, url: str, name: str, *, typed: Iterable[str] = ()) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status < 400, (url, response and response.status)
        self.check(name, typed=typed)

    def check(self, name: str, *, typed: Iterable[str] = ()) -> None:
        page = self.page
        page.wait_for_load_state()
        assert self.errors == [], self.errors
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{self.prefix}-{name}-{self.tag}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (name, "wider")
        text = page.evaluate(MAIN_TEXT, self.language)
        found = foreign_words(text, self.language, typed=typed)
        assert not found, (name, found, [line for line in text.splitlines() if set(line) & found][:5])
        assert "swiss.v" not in text and "referee-" not in text and "knockout.bracket" not in text, name
