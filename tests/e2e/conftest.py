"""Browser tests: a real Chromium (Debian's ``chromium`` at /usr/bin/chromium) through Playwright,
at a phone's viewport (390×844), against pytest-django's live server. Screenshots go to
``test-output/screenshots/`` for a person to look at.

Without Chromium the tests are skipped with the reason; with ``REQUIRE_SERVICES=1`` (CI) they fail.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def wait_until(page, expression: str, *, timeout: float = 15_000) -> None:
    """Wait until the script ``expression`` (a promise is awaited) is truthy in ``page``.

    Playwright's ``wait_for_function`` evaluates its predicate string inside the page once it has
    to poll, and the site's Content-Security-Policy (no 'unsafe-eval') refuses that: the wait then
    fails only when the condition is not already true — on a slower machine. ``page.evaluate``
    goes through the DevTools protocol, which the page's CSP does not govern, so poll with it.
    A navigation in between (a reload, the page coming back online) is waited out."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError as error:
            if "context was destroyed" not in str(error) and "navigat" not in str(error).lower():
                raise
        if time.monotonic() > deadline:
            raise PlaywrightTimeoutError(f"waited {timeout:.0f} ms for: {expression}")
        page.wait_for_timeout(100)


HERE = Path(__file__).resolve().parent
_chromium: dict = {}  # the running Playwright and Chromium, and DJANGO_ALLOW_ASYNC_UNSAFE's value before them


def _chromium_start():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django would refuse database access
    # from the test body (deal entry while the browser watches) without this. Set for the browser
    # tests only: subprocesses of other tests (``check --deploy``) must not inherit it.
    _chromium["previous"] = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    _chromium["playwright"] = sync_playwright().start()
    _chromium["browser"] = _chromium["playwright"].chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def _chromium_stop():
    if not _chromium:
        return
    try:
        if "browser" in _chromium:
            _chromium["browser"].close()
        if "playwright" in _chromium:
            _chromium["playwright"].stop()
    finally:
        previous = _chromium.get("previous")
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
        _chromium.clear()


@pytest.fixture(scope="module")
def browser():
    """One Chromium for a run of browser tests: the modules of this folder that follow each other in a
    test process share it (starting it took 2–4 s a module), each test in browser contexts of its own
    (cookies, storage, service workers). It is stopped before the first test outside this folder
    (``pytest_runtest_teardown`` below), so no event loop outlives the browser tests."""
    if not Path(CHROMIUM).exists():
        reason = f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
    if _chromium and not _chromium["browser"].is_connected():  # a crashed browser is not handed on
        _chromium_stop()
    if not _chromium:
        try:
            _chromium_start()
        except BaseException:
            _chromium_stop()
            raise
    yield _chromium["browser"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a test of this folder (its fixtures torn down), Chromium stops unless the next test is of
    this folder too."""
    yield
    if nextitem is None or not Path(nextitem.path).resolve().is_relative_to(HERE):
        _chromium_stop()


def pytest_sessionfinish(session, exitstatus):
    _chromium_stop()


@pytest.fixture(autouse=True)
def empty_cache():
    """Each browser test starts with an empty cache (the public pages' version keys of one test never
    meet another's)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(size, language, bypass_csp=False)``: a page in a browser context of its own (its own
    login and language cookie). ``bypass_csp``: for axe-core's script, which the site's CSP forbids."""
    from django.conf import settings

    contexts = []
    host = live_server.url.split("//", 1)[1].split(":")[0]

    def make(size=PHONE, language="zh-hans", *, bypass_csp=False):
        context = browser.new_context(viewport=size, locale="zh-CN", base_url=live_server.url, bypass_csp=bypass_csp)
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def screenshot(page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


def new_phone(browser, live_server, *, size=PHONE, locale="zh-CN", timeout=10_000):
    """A page in a browser context of its own: one phone (its own cookies, storage, network)."""
    context = browser.new_context(viewport=size, locale=locale, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(timeout)
    return page


def signed_in(page, user, live_server) -> None:
    """``user``'s session, made by Django's test client, handed to the browser."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def log_in(page, username: str, password: str) -> None:
    """Sign in through the login form, as a user does."""
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
