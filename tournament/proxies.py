"""Who is asking: the client's address, from the one setting that says how many proxies are trusted.

``TRUSTED_PROXIES`` (environment variable of the same name) is the number of reverse proxies in
front of the application that each *append* the address they were reached from to
``X-Forwarded-For`` (or, for the edge proxy, set it to that address). With 0 — the default: the
application is reached directly — the client is the socket's peer (``REMOTE_ADDR``) and the header
is ignored, whatever it says. With N, the client is the N-th entry counted from the right: the one
the outermost trusted proxy wrote. Whatever a client puts in the header itself stands to the left
of it and is never read, so a forged header changes nothing.

Everything that asks who a client is asks :func:`client_ip`: the API's rate throttles, the audit's
stored address, django-axes (``AXES_CLIENT_IP_CALLABLE``) and the bound on what one client adds to
the kept public responses; DRF's own ``NUM_PROXIES`` is set from the same setting so its stock
throttles would agree. (The table codes' limit reads no address at all: a room of phones shares
one; it counts per code being guessed and per phone, ``tournament.matches.table_codes``.) The proxy must not
be bypassable (the application listens only where the proxy reaches it): a client that reaches the
application past its proxies can write what the proxies would have written.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from django.conf import settings

__all__ = ["client_ip"]


def _address(text: str) -> str | None:
    """``text`` as an IP address in its canonical form (None if it is not one)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request: Any) -> str | None:
    """The address of the client that sent ``request`` (an ``HttpRequest``, a DRF ``Request``, or a
    WSGI environ / ``META`` mapping), as the ``TRUSTED_PROXIES`` nearest proxies saw it; None when
    there is none (a request built in a test or a command). Never an address the client chose
    unless no proxy is trusted to say otherwise."""
    meta: Mapping[str, Any] = request if isinstance(request, Mapping) else request.META
    peer = _address(str(meta.get("REMOTE_ADDR") or ""))
    trusted = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    if trusted <= 0:
        return peer
    hops = [hop for hop in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if hop.strip()]
    if not hops:  # reached without the proxies' header: only the peer is known
        return peer
    # the entry the outermost trusted proxy wrote; with fewer entries than proxies, the first
    # (the innermost proxies appended all of them): as DRF's NUM_PROXIES reads it
    return _address(hops[-min(trusted, len(hops))]) or peer
