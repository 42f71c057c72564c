"""Result entry first: while a public worker's queue is long, the pages' polls are answered 503 with
Retry-After before anything is built; a page a person opens, or a find, never is."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournament.standings.events import swiss_event
from tests.tournament.standings.test_public_responses import Counted, Visitor
from tournament import overload
from tournament.standings.public_responses import PublicResponses

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("connections_kept"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the accept queue is read from Linux's TCP_INFO"),
]



@pytest.fixture
def queue():
    """A listening socket as a uWSGI worker holds it, and a way to make ``n`` connections wait."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    waiting: list[socket.socket] = []
    overload.listeners_set([listener])

    def fill(n: int) -> None:
        for _ in range(n):
            client = socket.socket()
            client.connect(listener.getsockname())
            waiting.append(client)
        deadline = time.monotonic() + 2
        while overload.queue_length() < n and time.monotonic() < deadline:
            time.sleep(0.01)

    yield fill
    overload.listeners_set([])
    for client in waiting:
        client.close()
    listener.close()


@pytest.fixture
def app(settings):
    settings.PUBLIC_SHED_QUEUE = 4
    settings.PUBLIC_SHED_RETRY_SECONDS = 7
    django_app = Counted()
    return PublicResponses(django_app), django_app


def test_the_queue_is_read_from_the_listening_socket(queue):
    assert overload.queue_length() == 0
    queue(3)
    assert overload.queue_length() == 3


def test_a_poll_is_shed_while_the_queue_is_long_and_a_page_is_not(queue, app):
    application, django_app = app
    event = swiss_event()
    draw = reverse("standings:draw", args=(event.tournament.pk,))
    phone = Visitor(application)
    status, _headers, _body = phone.get(f"{draw}?v=1", HTTP_HX_REQUEST="true")
    assert status.startswith("200")  # an old version: the new fragment, built

    queue(5)
    calls = django_app.calls
    status, headers, body = phone.get(f"{draw}?v=1", HTTP_HX_REQUEST="true")
    assert status.startswith("503") and headers["Retry-After"] == "7" and body == b""
    assert django_app.calls == calls  # nothing built, not even looked up
    status, _headers, body = phone.get(draw)  # a person opening the page: served
    assert status.startswith("200") and b"<html" in body
    find = reverse("standings:find", args=(event.tournament.pk,))
    assert phone.get(f"{find}?q=x", HTTP_HX_REQUEST="true")[0].startswith("200")


def test_nothing_is_shed_below_the_threshold_when_off_or_without_listeners(queue, app, settings):
    application, _django_app = app
    event = swiss_event()
    poll = f"{reverse('standings:draw', args=(event.tournament.pk,))}?v=1"
    queue(3)
    assert Visitor(application).get(poll, HTTP_HX_REQUEST="true")[0].startswith("200")
    queue(2)
    settings.PUBLIC_SHED_QUEUE = 0  # off
    assert Visitor(application).get(poll, HTTP_HX_REQUEST="true")[0].startswith("200")
    settings.PUBLIC_SHED_QUEUE = 4
    assert Visitor(application).get(poll, HTTP_HX_REQUEST="true")[0].startswith("503")
    overload.listeners_set([])  # the staff pool, runserver: no listeners handed over
    assert Visitor(application).get(poll, HTTP_HX_REQUEST="true")[0].startswith("200")


AUTOGROUPS = overload.AUTOGROUP_ENABLED.exists() and overload.AUTOGROUP_ENABLED.read_text().strip() == "1"
WORKER = """
import os, sys
sys.path.insert(0, {root!r})
from tournament import overload
worker = os.fork()  # as uWSGI forks its workers: not a process group's leader
if worker == 0:
    moved = overload.priority_own_group()
    print(moved, os.getsid(0) == os.getpid(), open("/proc/self/autogroup").read().split()[-1], flush=True)
    os._exit(0)
os.waitpid(worker, 0)
"""


@pytest.mark.skipif(not AUTOGROUPS, reason="Linux's autogroups are off here: a nice value counts as it is")
@pytest.mark.parametrize(("nice", "expected"), [(10, "True True 10"), (0, "False False 0")])
def test_a_public_worker_below_normal_priority_gets_a_cpu_group_of_its_own_at_that_priority(nice, expected):
    """In a session, hence an autogroup, of its own at its nice value, so that the value counts
    against the other sessions' processes (the staff pool's); at the normal priority nothing moves."""
    script = WORKER.format(root=str(Path(__file__).resolve().parents[3]))
    command = ["nice", "-n", str(nice), sys.executable, "-c", script]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, start_new_session=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == expected
