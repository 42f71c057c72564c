"""Schemathesis hooks for the API run of ``test_public_schemathesis``: besides the ids it invents,
half of the generated requests use ids that exist (``PUBLIC_API_IDS``: parameter → ids), so
the runs reach real tournaments, rounds, stages, pairs and matches and not only 404s."""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis
from hypothesis import strategies as st


@schemathesis.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
    if not path_parameters:
        return st.just(path_parameters)
    known = json.loads(os.environ.get("PUBLIC_API_IDS", "{}"))
    real = {name: st.sampled_from(known[name]) for name in path_parameters if known.get(name)}
    if not real:
        return st.just(path_parameters)
    return st.one_of(st.just(path_parameters), st.fixed_dictionaries(real).map(lambda ids: {**path_parameters, **ids}))
