"""The public pool as README's "Production" runs it: uWSGI with ``tournament/site/uwsgi.ini``'s
``public`` section, here one worker on a free port of the loopback with the development settings on
an empty SQLite database (the pages asked for read none), at the lower priority (``nice``).

One real uWSGI serves the module's tests: it answers over HTTP, answers a request whose headers
are larger than uWSGI's default buffer, sheds a live page's poll while requests wait in its
queue (its worker was handed the listening socket), and its worker runs in a CPU group of its own
at the pool's priority."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournament import overload

ROOT = Path(__file__).resolve().parents[3]
NICE = 10
RETRY_SECONDS = 7

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="uWSGI's wheel and the accept queue's TCP_INFO are Linux's"
)


def exchange(port: int, request: bytes, *, client: socket.socket | None = None) -> bytes:
    """``request`` sent on a connection of its own (or ``client``'s), and everything answered until
    the server closed it (a pool's worker answers one request a connection)."""
    client = client or socket.create_connection(("127.0.0.1", port), timeout=30)
    with client:
        client.sendall(request)
        answer = bytearray()
        while chunk := client.recv(65536):
            answer += chunk
    return bytes(answer)


def get(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *headers, "", ""]
    return "\r\n".join(lines).encode()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def pool_workers(master: int) -> list[int]:
    workers = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                workers.append(int(entry))
        except OSError:
            continue
    return workers


@pytest.fixture(scope="module")
def pool(tmp_path_factory) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The public pool's one worker on a free port, ready; its port and its master."""
    uwsgi = Path(sys.executable).with_name("uwsgi")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The development settings, said outright (a .env file fills only what the environment leaves
    # unset): no shared cache, no broker, a database of its own.
    env = {**os.environ, "DEBUG": "1", "CACHE_URL": "", "REDIS_URL": "", "CELERY_BROKER_URL": ""}
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('uwsgi') / 'empty.sqlite3'}"}
    env |= {"PUBLIC_SHED_QUEUE": "2", "PUBLIC_SHED_RETRY_SECONDS": str(RETRY_SECONDS)}
    command = [shutil.which("nice") or "nice", "-n", str(NICE), str(uwsgi)]
    command += ["--ini", "tournament/site/uwsgi.ini:public", "--http-socket", f"127.0.0.1:{port}", "--processes", "1"]
    log = tmp_path_factory.mktemp("uwsgi_log") / "uwsgi.log"
    with log.open("wb") as output:
        master = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if status_of(exchange(port, get("/accounts/login/"))) == 200:
                    break
            except OSError:
                pass
            assert master.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.2)
        yield port, master
    finally:
        # SIGTERM stops the whole pool (die-on-term): the workers, in sessions of their own, are
        # the master's to stop.
        master.send_signal(signal.SIGTERM)
        try:
            master.wait(timeout=30)
        except subprocess.TimeoutExpired:
            for worker in pool_workers(master.pid):
                os.kill(worker, signal.SIGKILL)
            master.kill()
            master.wait()


def test_the_public_pool_answers_a_page_and_a_static_file(pool):
    port, _master = pool
    answer = exchange(port, get("/accounts/login/"))
    assert status_of(answer) == 200 and b"<form" in answer
    answer = exchange(port, get("/static/js/public.js"))
    assert status_of(answer) == 200
    assert answer.partition(b"\r\n\r\n")[2] == (ROOT / "static" / "js" / "public.js").read_bytes()


def test_a_request_with_8_kib_of_headers_is_answered(pool):
    """uWSGI's default 4 KiB buffer would drop it without an answer (the pool's buffer-size)."""
    port, _master = pool
    cookie = "Cookie: " + "; ".join(f"c{number}={'x' * 100}" for number in range(80))
    assert len(cookie) > 8192
    assert status_of(exchange(port, get("/accounts/login/", cookie))) == 200


def test_a_poll_is_shed_while_requests_wait_in_the_pool_queue(pool):
    """The worker reads the queue of the listening socket uWSGI handed it: with one request being
    read and two waiting behind it (PUBLIC_SHED_QUEUE=2), a poll is answered 503 with Retry-After,
    and the two are answered after it; with nothing waiting, the same poll is served. (uWSGI defers
    a connection's accept until its request arrives, so only requests sent wait in the queue.)"""
    port, _master = pool
    poll = get("/accounts/login/?v=1", "HX-Request: true")
    answered = socket.create_connection(("127.0.0.1", port), timeout=30)
    answered.sendall(poll[:10])  # the worker takes it and waits for the rest
    waiting = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(2)]
    for client in waiting:
        client.sendall(get("/accounts/login/"))
    answer = exchange(port, poll[10:], client=answered)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert status_of(answer) == 503 and body == b""
    assert f"Retry-After: {RETRY_SECONDS}".encode() in head.split(b"\r\n")
    assert [status_of(exchange(port, b"", client=client)) for client in waiting] == [200, 200]
    assert status_of(exchange(port, poll)) == 200


AUTOGROUPS = overload.AUTOGROUP_ENABLED.exists() and overload.AUTOGROUP_ENABLED.read_text().strip() == "1"


@pytest.mark.skipif(not AUTOGROUPS, reason="Linux's autogroups are off here: a nice value counts as it is")
def test_the_public_worker_runs_in_a_cpu_group_of_its_own_at_the_pool_priority(pool):
    _port, master = pool
    (worker,) = pool_workers(master.pid)
    assert os.getsid(worker) == worker
    assert Path(f"/proc/{worker}/autogroup").read_text().split()[-1] == str(NICE)
