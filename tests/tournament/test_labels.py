"""The pages' names of the rules core's values (``tournament.labels``), in the active language."""

from __future__ import annotations

from django.utils import translation

from tournament import labels


def test_seats_and_sides_are_named_in_the_active_language():
    with translation.override("en"):
        assert [labels.seat(code) for code in "NESW"] == ["N", "E", "S", "W"]
        assert labels.side("NS") == "N/S" and labels.side("XX") == "—" and labels.seat("X") == "X"
    with translation.override("zh-hans"):
        assert [labels.seat(code) for code in "NESW"] == ["北", "东", "南", "西"]
        assert labels.side("EW") == "东西"
    with translation.override("en"):
        assert labels.seat("N") == "N" and labels.side("EW") == "E/W"


def test_a_seat_or_side_is_translated_once_per_language(monkeypatch):
    """A pair's page names some 500 seats and sides: a catalogue lookup each was half its rendering."""
    looked_up: list[str] = []

    def gettext(message: str) -> str:
        looked_up.append(message)
        return translation.gettext(message)

    monkeypatch.setattr(labels, "_", gettext)
    monkeypatch.setattr(labels, "_NAMES", {})
    with translation.override("zh-hans"):
        for _deal in range(100):
            " › ".join(labels.seat(code) for code in "NESW")
            labels.side("NS")
    assert len(looked_up) == 4 + 5  # the seats' names and the sides' names, once
