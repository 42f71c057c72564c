"""Answers to the offline queue (``static/js/deal_queue.js``).

A deal the queue sends carries the header ``X-Deal-Queue: 1``, its idempotency key and the state it
was entered against (the match version for a referee, the deal number for a player). The answer is
JSON the phone shows as it is: ``accepted``, ``already`` (recorded before — the same idempotency key
came back) or ``refused`` with the stable code and the reason in the user's language (a stale
version: someone else entered first). The server's keys and versions decide; the phone only asks.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from tournament.errors import user_error_of

HEADER = "X-Deal-Queue"


def queued(request: HttpRequest) -> bool:
    """Whether the offline queue sent this request (it wants JSON, not a page)."""
    return request.headers.get(HEADER) == "1"


def accepted(*, replayed: bool, message: str, number: int | None) -> JsonResponse:
    return JsonResponse({"result": "already" if replayed else "accepted", "message": message, "number": number})


def refused(error: Exception) -> JsonResponse:
    failure = user_error_of(error)
    return JsonResponse({"result": "refused", "code": failure.code, "message": failure.message}, status=failure.status)
