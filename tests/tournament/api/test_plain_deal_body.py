"""A new Guandan deal's body in the shape every phone sends is read without DRF's serializer
(``deal_serializers.guandan_deal_plain``): for every body it reads, the same values and outcome as
:class:`GuandanDealInput`; every other body (one the serializer converts or refuses) is left to it."""

from __future__ import annotations

import pytest

from tournament.api.deal_serializers import GuandanDealInput, guandan_deal_plain
from tournament.api.match_serializers import VERSION_MAX

PLAIN = [
    {"order": ["N", "S"], "expected_version": 0},
    {"order": ["N", "E", "S"], "expected_version": 7, "idempotency_key": "phone-1-17"},
    {"order": ["W", "N", "E", "S"], "expected_version": VERSION_MAX, "anti_tribute": True},
    {"order": ["E", "W"], "expected_version": 3, "anti_tribute": False, "idempotency_key": ""},
    {"order": ["N", "N"], "expected_version": 1},  # the serializer takes it; the rules core refuses it
    {"order": ["S", "W"], "expected_version": 2, "idempotency_key": "键" * 64},
]
OTHERS = [
    {"order": ["N", "S"], "expected_version": "3"},  # converted by the serializer
    {"order": ["N", "S"], "expected_version": 3.0},
    {"order": ["N", "S"], "expected_version": True},
    {"order": ["N", "S"], "expected_version": -1},
    {"order": ["N", "S"], "expected_version": VERSION_MAX + 1},
    {"order": ["N", "S"]},
    {"expected_version": 1},
    {"order": ["N"], "expected_version": 1},
    {"order": ["N", "E", "S", "W", "N"], "expected_version": 1},
    {"order": ["n", "s"], "expected_version": 1},
    {"order": "NS", "expected_version": 1},
    {"order": ("N", "S"), "expected_version": 1},
    {"order": ["N", 1], "expected_version": 1},
    {"order": ["N", "S"], "expected_version": 1, "anti_tribute": "true"},
    {"order": ["N", "S"], "expected_version": 1, "anti_tribute": None},
    {"order": ["N", "S"], "expected_version": 1, "anti_tribute": 1},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": " padded "},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": 17},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": None},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": "x" * 65},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": "a\x00b"},
    {"order": ["N", "S"], "expected_version": 1, "idempotency_key": "a\ud800b"},
    {"order": ["N", "S"], "expected_version": 1, "declarer": "N"},
    {"order": ["N", "S"], "expected_version": 1, "reason": "x"},
    ["N", "S"],
    None,
]


def _serializer(data: object) -> tuple[dict, dict] | None:
    serializer = GuandanDealInput(data=data)
    if not serializer.is_valid():
        return None
    return dict(serializer.validated_data), serializer.outcome()


@pytest.mark.parametrize("body", PLAIN, ids=range(len(PLAIN)))
def test_a_plain_body_reads_as_the_serializer_reads_it(body):
    read = guandan_deal_plain(body)
    assert read is not None and read == _serializer(body)
    assert list(read[0]) == list(_serializer(body)[0])  # the same fields, in the same order


@pytest.mark.parametrize("body", OTHERS, ids=range(len(OTHERS)))
def test_any_other_body_is_left_to_the_serializer(body):
    assert guandan_deal_plain(body) is None
