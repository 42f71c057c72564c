"""What a public response is built from, noted while Django builds it.

The cache functions (:mod:`tournament.standings.cache`) and the public views write here; the
worker's kept responses (:mod:`tournament.standings.public_responses`) read it, to serve a page
again only while those values are unchanged. Outside such a request (no :class:`Reads` set: a
test's client, a command, the staff pages) every note is a no-op.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, NamedTuple

__all__ = [
    "Coalesced",
    "Reads",
    "coalesced_note",
    "current_reads",
    "find_layout_note",
    "poll_note",
    "ranks_layout_note",
    "read_note",
    "response_cacheable",
    "response_kept_locally",
    "response_uncacheable",
    "share_later",
    "version_depends",
]


class Coalesced(NamedTuple):
    """A coalesced build a page shows: its marker as read, and when it may be rebuilt."""

    marker_key: str
    marker: Any
    scope_key: str
    built_version: int
    due_at: float
    """From then on a request must reach Django if the scope's version has moved past the build and
    nobody is rebuilding it (then Django would rebuild; while somebody does, it serves this build)."""
    lock_key: str


class Reads:
    """What a public response is built from, noted while Django builds it."""

    __slots__ = ("cacheable", "coalesced", "exact", "found", "later", "local", "polls", "ranked", "read", "spoiled")

    def __init__(self) -> None:
        self.read: dict[str, Any] = {}
        """Every shared version value the request read, by key (a page depends on some of them)."""
        self.exact: dict[str, Any] = {}
        self.coalesced: dict[str, Coalesced] = {}
        self.cacheable = False
        self.spoiled = False
        self.local = False
        """Kept by the worker that built it, never shared (:func:`response_kept_locally`)."""
        self.later: dict[str, tuple[Any, int]] = {}
        """Values built for the shared cache (by key: the value and its timeout) that the kept
        responses' application writes with the response, in its one round trip (:func:`share_later`)."""
        self.polls: dict[str | None, tuple[str, Reads] | None] = {}
        """By poll address (None: the request's own page), the token its live part is polled with
        (``v=``) and what that depends on: the values noted before the view compared it
        (:func:`poll_note`); None if the page noted two tokens."""
        self.found: Any = None
        """Find my table's layout the answers were filled into (:func:`find_layout_note`)."""
        self.ranked: Any = None
        """What a pair's ranks poll was answered from (:func:`ranks_layout_note`)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Shared through the cache (with a kept response, a poll's answer), a Reads is only ever asked
        # whether it holds: its exact values and builds are pickled as plain values, nothing else (its
        # slots' own pickling, attribute by attribute, was most of what a pair's first view pickles).
        return (_reads_held, (self.exact, self.coalesced))

    def keys(self) -> list[str]:
        keys = set(self.exact)
        for build in self.coalesced.values():
            keys.update((build.marker_key, build.scope_key, build.lock_key))
        return sorted(keys)

    def hold(self, found: dict[str, Any], now: float) -> bool:
        """Whether the response is still what Django would build, given the shared values ``found``."""
        if any(found.get(key) != value for key, value in self.exact.items()):
            return False
        for build in self.coalesced.values():
            if found.get(build.marker_key) != build.marker:
                return False
            due = now >= build.due_at and found.get(build.scope_key) != build.built_version
            if due and found.get(build.lock_key) is None:
                return False
        return True


def _reads_held(exact: dict[str, Any], coalesced: dict[str, Coalesced]) -> Reads:
    """A :class:`Reads` read back from the cache: what :meth:`Reads.hold` reads."""
    reads = Reads()
    reads.exact, reads.coalesced = exact, coalesced
    return reads


current_reads: ContextVar[Reads | None] = ContextVar("public_response_reads", default=None)
"""The notes of the request being built, set by the kept responses' application; None elsewhere."""


def read_note(*, values: dict[str, Any]) -> None:
    """Shared version values the request read (:func:`tournament.standings.cache.public_versions_get`)."""
    reads = current_reads.get()
    if reads is None:
        return
    for key, value in values.items():
        if reads.read.setdefault(key, value) != value:  # moved while the page was built: a mix of two
            reads.spoiled = True


def poll_note(*, token: str, url: str | None = None) -> None:
    """The view is about to compare a poll's ``v=`` with ``token``: everything it read to make the
    token is noted by now, so a copy of those notes says for how long the answer to a poll of
    ``v=token`` is the empty 204 (:class:`tournament.standings.public_responses.PublicResponses`
    answers it without Django). ``url``: the poll's address, when it is not the request's own page
    (a part of the page polled on its own: a pair's ranks). A later note of the same page and token
    keeps the first, smaller copy; two tokens for one page note none."""
    reads = current_reads.get()
    if reads is None:
        return
    if url not in reads.polls:
        depends = Reads()
        depends.exact = dict(reads.exact)
        depends.coalesced = dict(reads.coalesced)
        reads.polls[url] = (token, depends)
    elif (noted := reads.polls[url]) is not None and noted[0] != token:
        reads.polls[url] = None


def version_depends(*, key: str) -> None:
    """The response depends on the version under ``key``, as the request read it."""
    reads = current_reads.get()
    if reads is None:
        return
    if key in reads.read:
        reads.exact[key] = reads.read[key]
    else:  # read some other way: nothing to check it against
        reads.spoiled = True


def coalesced_note(
    *, marker_key: str, marker: Any, scope_key: str, built_version: int, due_at: float, lock_key: str
) -> None:
    """The response shows the coalesced build whose marker is ``marker`` (see :class:`Coalesced`);
    a later note of the same build (the request rebuilt it) replaces the earlier one."""
    reads = current_reads.get()
    if reads is not None:
        reads.coalesced[marker_key] = Coalesced(marker_key, marker, scope_key, built_version, due_at, lock_key)


def share_later(*, key: str, value: Any, timeout: int) -> bool:
    """Leave ``value`` to be written under ``key`` (for ``timeout`` seconds) by the kept responses'
    application, with the response, in the round trip it makes anyway; False outside such a request
    (the caller writes it itself). Only for a value under a key that names what it is built from
    (never changed, only added): written a few milliseconds later, it is the same value."""
    reads = current_reads.get()
    if reads is None:
        return False
    reads.later[key] = (value, timeout)
    return True


def response_cacheable() -> None:
    """The view builds its response from the noted values alone: it may be kept."""
    reads = current_reads.get()
    if reads is not None:
        reads.cacheable = True


def response_kept_locally() -> None:
    """The response may be kept, but by the worker that built it alone: it is built from the worker's
    own memory (find my table's seat index) faster than sharing it costs, and it is asked again
    rarely (a player's own name), so it is never written to the shared cache nor looked up there."""
    reads = current_reads.get()
    if reads is not None:
        reads.local = True


def find_layout_note(*, found: Any) -> None:
    """The response is find my table's answers from the seat index filled into ``found``'s layout (a
    :class:`tournament.standings.find_answers.FindLayout`): the worker may answer other names with it."""
    reads = current_reads.get()
    if reads is not None:
        reads.found = found


def ranks_layout_note(*, found: Any) -> None:
    """The response is a pair's ranks poll answered from ``found`` (a
    :class:`tournament.standings.ranks_answers.RanksLayout`): the worker may answer other pairs' polls."""
    reads = current_reads.get()
    if reads is not None:
        reads.ranked = found


def response_uncacheable() -> None:
    """Something this response shows is not covered by the noted values: never keep it."""
    reads = current_reads.get()
    if reads is not None:
        reads.spoiled = True
