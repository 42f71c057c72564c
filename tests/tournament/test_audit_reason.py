"""One reason helper for every audited write (tournament.audit.reason_clean)."""

from __future__ import annotations

import pytest

from tournament.audit import REASON_MAX, reason_clean
from tournament.errors import UserError


def test_a_reason_is_kept_with_its_white_space_collapsed() -> None:
    assert reason_clean("  fire \n alarm ") == "fire alarm"
    assert reason_clean("x" * REASON_MAX) == "x" * REASON_MAX  # exactly the column fits


def test_a_missing_reason_is_refused_only_where_one_is_required() -> None:
    with pytest.raises(UserError) as refused:
        reason_clean("   ")
    assert (refused.value.code, refused.value.status) == ("reason_required", 400)
    assert refused.value.fields == {"reason": [refused.value.message]}
    assert reason_clean(None, required=False) == ""


def test_a_reason_longer_than_its_column_is_refused_not_cut() -> None:
    with pytest.raises(UserError) as refused:
        reason_clean("x" * (REASON_MAX + 1), required=False)
    assert (refused.value.code, refused.value.status) == ("reason_too_long", 400)
    assert str(REASON_MAX) in refused.value.message
