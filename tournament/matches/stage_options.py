"""A stage's structure options and a round's draw record, typed: the one reader and writer of the
JSON columns ``Stage.options`` and ``Round.draw_options``.

Every key read anywhere is a field here, with the default its readers always assumed; the models
answer with these objects (``Stage.settings``, ``Round.draw_settings``) and every write stores
``to_stored()``, so a key is spelled once and read one way.

Rows stored by older versions are read tolerantly, as the readers before this module did: a
missing key, or a value of the wrong type, reads as the field's default. Keys this module does
not know are **kept**, deliberately, and written back unchanged (``other``; for a round,
``recorded``): a round's draw record holds the generator's own options (a Swiss draw's, a round
robin's ``shuffle``, …) that make it reproducible (docs/design.md, reproducible draws), and a
save must never drop what another version stored. Nothing reads them. ``to_stored()`` writes a
field only when it was stored already or differs from its default, so reading and writing a row
back gives the row it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from django.db.models import Q

from scoring.team_options import TeamOptions

BRACKET_FIXED = "fixed"
BRACKET_REDRAW = "redraw"
Seeding = Literal["seeds", "random"]
"""How a fixed knockout bracket is seeded (the draw's ``knockout_bracket`` takes the same words)."""
SEEDINGS: tuple[Seeding, ...] = ("seeds", "random")


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default


def _seeding(value: object, default: Seeding) -> Seeding:
    return next((seeding for seeding in SEEDINGS if seeding == value), default)


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(item for item in value if _int(item) is not None) if isinstance(value, list | tuple) else ()


def _records(value: Any) -> tuple[Mapping[str, Any], ...]:
    return tuple(dict(item) for item in value if isinstance(item, Mapping)) if isinstance(value, list | tuple) else ()


def _stored(value: Any) -> Any:
    """A field's JSON value."""
    if isinstance(value, Stored):
        return value.to_stored()
    if isinstance(value, tuple | list):
        return [_stored(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _stored(item) for key, item in value.items()}
    return value


class Stored:
    """A frozen dataclass stored as a JSON object: its fields (see the module), then the keys kept."""

    _KEPT = "other"
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    """Every subclass is a dataclass (this says so to the type checker: ``dataclasses.fields`` and
    ``dataclasses.replace`` take it)."""

    def to_stored(self) -> dict[str, Any]:
        given: frozenset[str] = getattr(self, "given", frozenset())
        out: dict[str, Any] = dict(getattr(self, self._KEPT))
        for item in dataclasses.fields(self):
            if item.name in ("given", self._KEPT):
                continue
            value = getattr(self, item.name)
            default = item.default_factory() if item.default_factory is not dataclasses.MISSING else item.default
            if item.name in given or value != default:
                out[item.name] = _stored(value)
        return out

    def with_values(self, **values: Any) -> Self:
        """A copy with ``values`` set; a value set to its default is then no longer stored."""
        given: frozenset[str] = getattr(self, "given", frozenset())
        return dataclasses.replace(self, given=given - set(values), **values)

    def storing(self, **values: Any) -> Self:
        """A copy with ``values`` set and stored, a default one too."""
        given: frozenset[str] = getattr(self, "given", frozenset())
        return dataclasses.replace(self, given=given | set(values), **values)

    @classmethod
    def _known(cls) -> frozenset[str]:
        return frozenset(item.name for item in dataclasses.fields(cls)) - {"given", cls._KEPT}


@dataclass(frozen=True)
class Cut(Stored):
    """A points stage's cut (docs/rules.md §10): after round ``after_round``, ``keep`` players go on."""

    after_round: int
    keep: int
    other: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Advancement(Stored):
    """How a stage's entrants were advanced from an earlier one (written by ``stage_advance``): the
    count, per group or not, the lots drawn for the cut, the standings order, the organiser's
    overrides ``(leaving, joining)`` with the reason, who and when."""

    from_stage: int
    count: int | None = None
    per_group: bool = False
    lots_seed: int | None = None
    by_rank: tuple[int, ...] = ()
    overrides: tuple[tuple[int, int], ...] = ()
    reason: str = ""
    kind: str = "advance"
    by: int | None = None
    at: str = ""
    other: Mapping[str, Any] = field(default_factory=dict)

    def to_stored(self) -> dict[str, Any]:
        """The whole record, every field: it is written whole, once per advancement."""
        return {
            **self.other,
            **{
                item.name: _stored(getattr(self, item.name))
                for item in dataclasses.fields(self)
                if item.name != self._KEPT
            },
        }

    @classmethod
    def from_stored(cls, stored: Any) -> Advancement | None:
        """The record, or None when there is none (or it names no stage it came from)."""
        if not isinstance(stored, Mapping) or _int(stored.get("from_stage")) is None:
            return None
        overrides = tuple(
            (int(pair[0]), int(pair[1]))
            for pair in stored.get("overrides") or ()
            if isinstance(pair, list | tuple) and len(pair) == 2 and all(_int(p) is not None for p in pair)
        )
        return cls(
            from_stage=int(stored["from_stage"]),
            count=_int(stored.get("count")),
            per_group=stored.get("per_group") is True,
            lots_seed=_int(stored.get("lots_seed")),
            by_rank=_ints(stored.get("by_rank")),
            overrides=overrides,
            reason=_text(stored.get("reason"), ""),
            kind=_text(stored.get("kind"), "advance"),
            by=_int(stored.get("by")),
            at=_text(stored.get("at"), ""),
            other={key: value for key, value in stored.items() if key not in cls._known()},
        )


@dataclass(frozen=True)
class StageOptions(Stored):
    """A stage's structure options (``Stage.options``).

    Chosen by the organiser: ``department_rounds`` (department protection in rounds 1…k, every
    format); a knockout's ``bracket`` (``"redraw"``: drawn again every round; ``"fixed"``: one
    bracket drawn at the start, kept in ``bracket_record``), ``seeding`` (``"seeds"`` or
    ``"random"``) and ``third_place``; a round robin's ``groups``; a points stage's ``rounds``,
    ``cuts`` and ``final``; the team total (docs/rules.md §11): ``team_total`` (a team ranking beside
    the stage's) and ``team_count`` (the best k members count; None: all). Written by the services:
    ``bracket_record`` (a fixed bracket's
    ``KnockoutBracket.as_record()``, read by that class), ``schedule_seed`` (a round robin's),
    ``group_of`` (a grouped round robin's pair id → group), ``entrants`` and ``advancement``
    (``stage_advance``), ``lots_seed`` (the lots drawn for a full tie at the cut).
    """

    department_rounds: int = 0
    bracket: str = BRACKET_REDRAW
    seeding: Seeding = "seeds"
    third_place: bool = False
    groups: int = 1
    rounds: int | None = None
    cuts: tuple[Cut, ...] = ()
    final: bool = False
    team_total: bool = False
    team_count: int | None = None
    team_match: Mapping[str, Any] | None = None
    """Team matches (docs/rules.md §11): the match options as the rules core writes them
    (``team_decider``, ``team_match_points``); None: the entrants are pairs."""
    bracket_record: Mapping[str, Any] | None = None
    schedule_seed: int | None = None
    group_of: Mapping[str, int] | None = None
    entrants: tuple[int, ...] = ()
    advancement: Advancement | None = None
    lots_seed: int | None = None
    other: Mapping[str, Any] = field(default_factory=dict)
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    @property
    def team_options(self) -> TeamOptions:
        """The stage's team options as the rules core reads them (defaults: a stage of pairs)."""
        if self.team_match is None:
            return TeamOptions(team_total=self.team_total, team_count=self.team_count)
        return TeamOptions.from_json({**self.team_match, "team_match": True})

    @property
    def ranks_teams(self) -> bool:
        """The stage ranks teams (docs/rules.md §11): by a team total or by its team matches."""
        return self.team_total or self.team_match is not None

    @property
    def fixed_bracket(self) -> bool:
        return self.bracket == BRACKET_FIXED

    def advanced_from(self, stage_id: int) -> bool:
        """Whether this stage's entrants were advanced from stage ``stage_id``."""
        return self.advancement is not None and self.advancement.from_stage == stage_id

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any] | None) -> StageOptions:
        stored = stored if isinstance(stored, Mapping) else {}
        defaults = cls()
        group_of = stored.get("group_of")
        cuts = stored.get("cuts")
        record = stored.get("bracket_record")
        return cls(
            department_rounds=_int(stored.get("department_rounds")) or 0,
            bracket=_text(stored.get("bracket"), defaults.bracket),
            seeding=_seeding(stored.get("seeding"), defaults.seeding),
            third_place=stored.get("third_place") is True,
            groups=_int(stored.get("groups")) or 1,
            rounds=_int(stored.get("rounds")),
            cuts=tuple(
                Cut(
                    after_round=int(item["after_round"]),
                    keep=int(item["keep"]),
                    other={key: value for key, value in item.items() if key not in ("after_round", "keep")},
                )
                for item in (cuts if isinstance(cuts, list) else ())
                if isinstance(item, Mapping)
                and _int(item.get("after_round")) is not None
                and _int(item.get("keep")) is not None
            ),
            final=stored.get("final") is True,
            team_total=stored.get("team_total") is True,
            team_count=_int(stored.get("team_count")),
            team_match=dict(stored["team_match"]) if isinstance(stored.get("team_match"), Mapping) else None,
            bracket_record=dict(record) if isinstance(record, Mapping) and record else None,
            schedule_seed=_int(stored.get("schedule_seed")),
            group_of=(
                {str(pair): int(group) for pair, group in group_of.items() if _int(group) is not None}
                if isinstance(group_of, Mapping) and group_of
                else None
            ),
            entrants=_ints(stored.get("entrants")),
            advancement=Advancement.from_stored(stored.get("advancement")),
            lots_seed=_int(stored.get("lots_seed")),
            other={key: value for key, value in stored.items() if key not in cls._known()},
            given=frozenset(stored) & cls._known(),
        )


@dataclass(frozen=True)
class DrawOptions(Stored):
    """A round's draw record (``Round.draw_options``), kept with its algorithm and seed.

    ``warnings`` (the draw's, as records), ``third_place_pairs`` (a knockout's third-place match),
    ``walkovers`` (pair given a walkover → the withdrawn pair it was due to meet: a forfeit win for
    the standings), ``team_walkovers`` (the same of a knockout of teams: team → the withdrawn team, a
    forfeit win for the team standings, docs/rules.md §11), ``edits`` (the organiser's manual edits
    before publishing), ``referees`` (the settings the referees were assigned with, to prefill the next
    round), a three-seat round's ``reseat`` and ``repeats``; ``recorded``: the generator's own options,
    kept as drawn.
    """

    _KEPT = "recorded"

    warnings: tuple[Mapping[str, Any], ...] = ()
    third_place_pairs: tuple[int | None, ...] = ()
    walkovers: Mapping[int, int] = field(default_factory=dict)
    team_walkovers: Mapping[int, int] = field(default_factory=dict)
    edits: tuple[Mapping[str, Any], ...] = ()
    referees: Mapping[str, Any] | None = None
    reseat: str = ""
    repeats: int = 0
    recorded: Mapping[str, Any] = field(default_factory=dict)
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any] | None) -> DrawOptions:
        stored = stored if isinstance(stored, Mapping) else {}
        third = stored.get("third_place_pairs")
        walkovers = stored.get("walkovers")
        referees = stored.get("referees")
        return cls(
            warnings=_records(stored.get("warnings")),
            third_place_pairs=(
                tuple(pair for pair in third if pair is None or _int(pair) is not None)
                if isinstance(third, list | tuple)
                else ()
            ),
            walkovers=cls.walkovers_of(walkovers),
            team_walkovers=cls.walkovers_of(stored.get("team_walkovers")),
            edits=_records(stored.get("edits")),
            referees=dict(referees) if isinstance(referees, Mapping) else None,
            reseat=_text(stored.get("reseat"), ""),
            repeats=_int(stored.get("repeats")) or 0,
            recorded={key: value for key, value in stored.items() if key not in cls._known()},
            given=frozenset(stored) & cls._known(),
        )

    @staticmethod
    def walkovers_of(stored: Any) -> dict[int, int]:
        """The ``walkovers`` key's value read alone (see :func:`draw_options_lookup`)."""
        if not isinstance(stored, Mapping):
            return {}
        return {int(present): int(gone) for present, gone in stored.items() if _int(gone) is not None}

    @staticmethod
    def third_place_pairs_of(stored: Any) -> tuple[int | None, ...]:
        """The ``third_place_pairs`` key's value read alone (see :func:`draw_options_lookup`)."""
        return DrawOptions.from_stored({"third_place_pairs": stored}).third_place_pairs


def draw_options_lookup(key: str) -> str:
    """The database lookup of one key of the draw record (``values_list`` reads that key alone: the
    record also holds every warning of a large draw)."""
    if key not in DrawOptions._known():
        raise ValueError(f"no draw option {key!r}")
    return f"draw_options__{key}"


def draw_options_have(key: str) -> Q:
    """Rounds whose draw record holds ``key``."""
    draw_options_lookup(key)
    return Q(draw_options__has_key=key)
