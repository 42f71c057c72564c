"""The API's OpenAPI schema class (``DEFAULT_SCHEMA_CLASS``): drf-spectacular's, with the request
bodies that refuse other fields (:class:`tournament.api.schema.StrictInput`) closed to them
(``additionalProperties: false``). Its own module: drf-spectacular's schema module imports DRF's
generic views, which read the pagination class of ``tournament.api.schema`` from the settings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from tournament.api.schema import StrictInput


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, with :class:`StrictInput` bodies closed to other fields."""

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]
        if isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False
        return schema
