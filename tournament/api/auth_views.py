"""The API's token login (``POST /api/auth/token/``): DRF's, with a lockout answered as a lockout.

django-axes locks a username + address out after ``AXES_FAILURE_LIMIT`` wrong passwords; the
login page answers 429 then (axes' middleware), but DRF's token view only saw ``authenticate()``
return None and answered 400 "unable to log in", so a device could not tell a lockout from a
typo. Here a lockout is 429 ``locked_out`` with a message saying for how long, and a wrong
username or password 401 ``invalid_credentials`` (a well-formed request that failed to
authenticate; 400 is left for a missing field).
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.api.match_serializers import ErrorOutput
from tournament.api.parsers import BoundedJSONParser
from tournament.api.schema import StrictQueryParams
from tournament.errors import UserError


def _locked_out(request: Request) -> bool:
    # axes marks the request it was given: DRF's Request wrapper (attributes set on it stay there)
    return bool(getattr(request, "axes_locked_out", False) or getattr(request._request, "axes_locked_out", False))


class TokenInput(serializers.Serializer[None]):
    """The token login's body as the schema documents it (DRF's serializer has no lengths)."""

    username = serializers.CharField(min_length=1, max_length=150)
    password = serializers.CharField(min_length=1, max_length=128, trim_whitespace=False)


class TokenView(StrictQueryParams, ObtainAuthToken):
    # DRF's token view names its parsers itself: the same ones, with JSON bounded (api/parsers.py)
    parser_classes = (FormParser, MultiPartParser, BoundedJSONParser)

    @extend_schema(
        summary="A device's token for a referee's or organiser's login",
        request=TokenInput,
        responses={
            200: inline_serializer("TokenOutput", {"token": serializers.CharField()}),
            400: OpenApiResponse(ErrorOutput, description="bad_input: the username or password is missing."),
            401: OpenApiResponse(ErrorOutput, description="invalid_credentials: wrong username or password."),
            429: OpenApiResponse(ErrorOutput, description="locked_out: too many wrong passwords; wait."),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        if _locked_out(request):
            cool_off = get_cool_off(request)
            minutes = max(1, int(cool_off.total_seconds() // 60)) if cool_off else 1
            raise UserError(
                "locked_out",
                _("Too many wrong passwords: this login is locked for %(minutes)d minutes.") % {"minutes": minutes},
                status=429,
                headers={"Retry-After": str(minutes * 60)},
            )
        if not valid:
            if set(serializer.errors) == {"non_field_errors"}:  # both given, and they do not match
                raise UserError(
                    "invalid_credentials",
                    _("Wrong username or password."),
                    status=401,
                    headers={"WWW-Authenticate": 'Token realm="api"'},
                )
            raise serializers.ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


token_view = TokenView.as_view()
