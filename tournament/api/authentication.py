"""The referee devices' token, read by a statement compiled once per process.

DRF's :class:`~rest_framework.authentication.TokenAuthentication` reads the token with its user
(``Token.objects.select_related("user").get(key=…)``), and Django compiles that queryset afresh on
every request: every deal a phone sends pays for it. This reads the very same statement through
:func:`tournament.prepared.prepared_rows` (compiled once, run with the key); an unknown key or an
inactive user goes on to DRF's own check, which refuses it in its own words.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from tournament.prepared import prepared_rows


def _token(*, key: str) -> QuerySet[Token]:
    return Token.objects.select_related("user").filter(key=key)[:1]


class PreparedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token read by a statement compiled once."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = prepared_rows("api_token", _token, key=key)
        if not found or not found[0].user.is_active:
            answer: tuple[Any, Token] = super().authenticate_credentials(key)  # refused, as DRF refuses it
            return answer
        return (found[0].user, found[0])
