"""``python -m scoring teams [FILE]``: team events on the command line (docs/rules.md §11).

The stage's team options (``stage_options``) say what is asked, as they say what a stage is:

- ``{"team_total": true, "team_count": …}``: the teams ranked by their members' results — the pairs'
  match results (``results``, as ``python -m scoring standings`` reads them) or, in Dou Dizhu, the
  players' rounds (``rounds``) — through the stage's one ranking (:func:`scoring.teams.team_total_rank`);
- ``{"team_match": true, "team_decider": …}``: each team match decided from its two tables' results
  (``matches``; :func:`scoring.team_matches.team_match_decide`) and, in a Swiss or round-robin stage,
  the team standings (:func:`scoring.team_matches.team_standings_rank`).

Input and output shapes, with examples: docs/scoring-cli.md. Bad input exits 2 with
``{"error": {"code": "bad_input" | "unknown_profile", "message": …, "message_zh": …}}``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.cli import CliError, JsonObject, read_json_input
from scoring.doudizhu_standings import PlayerRound, RoundOutcome, rank_players
from scoring.errors import ScoringError, bad_input
from scoring.levels import ACE, LOWEST
from scoring.options import RuleOptions, Stage
from scoring.profiles import options_for
from scoring.seats import PerSide, Side
from scoring.stage_ranking import rank_stage
from scoring.standings import MatchRecord, knockout_placings, parse_results, rank
from scoring.team_matches import (
    TeamMatchRecord,
    team_results_decide,
    team_standings_rank,
)
from scoring.team_options import TeamOptions
from scoring.teams import Team, members_of_players, members_of_standings, team_total_rank

__all__ = ["register", "teams_json"]

_COMMON = {"profile", "rules", "stage", "stage_options", "lots_seed", "teams"}
_TOTAL_FIELDS = _COMMON | {"entrants", "withdrawn", "results", "rounds"}
_MATCH_FIELDS = _COMMON | {"matches"}


def teams_json(data: object) -> dict[str, Any]:
    """The ``teams`` command: a team total or team matches, as ``stage_options`` say (module docstring)."""

    if not isinstance(data, Mapping):
        raise bad_input(
            'The input must be a JSON object like {"stage_options": {"team_total": true}, …}.',
            '输入必须是 JSON 对象，例如 {"stage_options": {"team_total": true}, …}。',
        )
    team_options = TeamOptions.from_json(data.get("stage_options") or {})
    if not team_options.is_team_event:
        raise bad_input(
            "Say what to compute: stage_options needs team_total or team_match set to true.",
            "请说明要计算什么：stage_options 中需要把 team_total 或 team_match 设为 true。",
        )
    allowed = _TOTAL_FIELDS if team_options.team_total else _MATCH_FIELDS
    unknown = sorted(set(data) - allowed)
    if unknown:
        names = ", ".join(sorted(allowed))
        raise bad_input(
            f"Unknown field {unknown[0]!r} for {'a team total' if team_options.team_total else 'team matches'}; "
            f"the fields are: {names}.",
            f"未知字段 {unknown[0]!r}；可用字段：{names}。",
        )
    options = options_for(profile=data.get("profile", "classic"), overrides=data.get("rules") or {})
    default_stage = Stage.POINTS if options.is_doudizhu else Stage.SWISS
    stage = _stage(data.get("stage", default_stage.value))
    options.check_stage(stage)
    team_options.check_stage(stage=stage, rules=options)
    seed = data.get("lots_seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise bad_input("'lots_seed' must be a whole number.", "lots_seed 必须是整数。")
    if team_options.team_total:
        return _team_total(data, options=options, team_options=team_options, stage=stage, seed=seed)
    return _team_matches(data, options=options, team_options=team_options, stage=stage, seed=seed)


def _stage(value: object) -> Stage:
    try:
        return Stage(value)
    except ValueError:
        choices = ", ".join(stage.value for stage in Stage)
        raise bad_input(
            f"'stage' must be one of {choices}; got {value!r}.", f"stage 必须是以下之一：{choices}；收到 {value!r}。"
        ) from None


def _names(value: object, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise bad_input(f"'{field}' must be a list of ids (text).", f"{field} 必须是编号（文字）的列表。")
    return value


# -- the team total -------------------------------------------------------------------------------------


def _roster(value: object) -> list[Team]:
    if not isinstance(value, Mapping) or not all(
        isinstance(members, list) and all(isinstance(member, str) for member in members) for members in value.values()
    ):
        raise bad_input(
            'A team total needs \'teams\': {"team name": ["member id", …], …}.',
            '团体总分需要 teams：{"团体名称": ["成员编号", …], …}。',
        )
    return [Team(str(name), tuple(members)) for name, members in value.items()]


def _team_total(
    data: Mapping[str, Any], *, options: RuleOptions, team_options: TeamOptions, stage: Stage, seed: int | None
) -> dict[str, Any]:
    teams = _roster(data.get("teams"))
    withdrawn = _names(data.get("withdrawn", []), "withdrawn")
    if options.is_doudizhu:
        if "results" in data:
            raise bad_input(
                "Dou Dizhu players' results are their rounds ('rounds'), not pairings ('results').",
                "斗地主选手的成绩是各轮成绩（rounds），不是对局结果（results）。",
            )
        rounds = _player_rounds(data.get("rounds"))
        players = _names(data["entrants"], "entrants") if "entrants" in data else None
        members = members_of_players(rank_players(players=players, rounds=rounds, lots_seed=seed))
        players_kind = True
    else:
        if "rounds" in data:
            raise bad_input(
                "Pairs' results are pairings ('results'); 'rounds' are Dou Dizhu players'.",
                "搭档的成绩是对局结果（results）；rounds 是斗地主选手的成绩。",
            )
        if "results" not in data:
            raise bad_input(
                "A team total needs the members' 'results' (a list).", "团体总分需要成员的 results（列表）。"
            )
        results = parse_results(data["results"])
        if "entrants" in data:
            entrants = _names(data["entrants"], "entrants")
        else:
            seen = dict.fromkeys(member for team in teams for member in team.members)
            for record in results:
                seen.update(dict.fromkeys(entrant for entrant in (record.ns, record.ew) if entrant is not None))
            entrants = list(seen)
        if stage is Stage.KNOCKOUT:
            standings = knockout_placings(
                standings=rank(entrants=entrants, results=results, options=options, lots_seed=seed),
                results=results,
                withdrawn=frozenset(withdrawn),
            )
        else:
            standings = rank_stage(
                entrants=entrants, results=results, options=options, withdrawn=withdrawn, lots_seed=seed
            ).standings()
        members = members_of_standings(standings, options=options)
        players_kind = False
    total = team_total_rank(
        teams=teams, members=members, team_count=team_options.team_count, lots_seed=seed, players=players_kind
    )
    return {"kind": "team_total", **total.to_json()}


_ROUND_FIELDS = {"round", "player", "points", "deals_won", "landlord_wins", "outcome"}


def _player_rounds(value: object) -> list[PlayerRound]:
    if not isinstance(value, list):
        raise bad_input(
            "A Dou Dizhu team total needs the players' 'rounds' (a list).", "斗地主团体总分需要选手的 rounds（列表）。"
        )
    rounds = []
    for index, item in enumerate(value, 1):
        if not isinstance(item, Mapping) or not {"round", "player", "points"} <= set(item) <= _ROUND_FIELDS:
            raise bad_input(
                f"Round entry {index} needs 'round', 'player' and 'points' (and may have 'deals_won', "
                "'landlord_wins', 'outcome').",
                f"第 {index} 条成绩需要 round、player 和 points（可选 deals_won、landlord_wins、outcome）。",
            )
        numbers = {name: item.get(name, 0) for name in ("round", "points", "deals_won", "landlord_wins")}
        bad = [
            name
            for name, number in numbers.items()
            if isinstance(number, bool)
            or not isinstance(number, int)
            or (number < 1 if name == "round" else name != "points" and number < 0)
        ]
        if bad or not isinstance(item["player"], str):
            what = bad[0] if bad else "player"
            raise bad_input(f"Round entry {index}: {what!r} is not valid.", f"第 {index} 条成绩：{what} 取值无效。")
        try:
            outcome = RoundOutcome(item.get("outcome", RoundOutcome.PLAYED.value))
        except ValueError:
            choices = ", ".join(outcome.value for outcome in RoundOutcome)
            raise bad_input(
                f"Round entry {index}: 'outcome' must be one of {choices}.",
                f"第 {index} 条成绩：outcome 必须是以下之一：{choices}。",
            ) from None
        rounds.append(
            PlayerRound(
                round=numbers["round"],
                player=item["player"],
                points=numbers["points"],
                deals_won=numbers["deals_won"],
                landlord_wins=numbers["landlord_wins"],
                outcome=outcome,
            )
        )
    return rounds


# -- team matches ------------------------------------------------------------------------------------

_MATCH_KEYS = {"round", "teams", "a", "b", "extra_deal", "bye", "walkover"}
_TABLE_KEYS = {"winner", "levels", "passed_a", "points", "forfeit"}


def _per_side(value: object, what: str, where: str, where_zh: str, *, levels: bool) -> PerSide:
    if not isinstance(value, Mapping) or set(value) != {"NS", "EW"}:
        raise bad_input(
            f'{where}: {what} must look like {{"NS": …, "EW": …}}.',
            f'{where_zh}：{what} 的格式应为 {{"NS": …, "EW": …}}。',
        )
    out = []
    for side in ("NS", "EW"):
        item = value[side]
        ok = isinstance(item, int) and not isinstance(item, bool) and (not levels or LOWEST <= item <= ACE)
        if not ok:
            rule = "a level 2..14" if levels else "a whole number"
            raise bad_input(f"{where}: {what} {side} must be {rule}.", f"{where_zh}：{what} {side} 取值无效。")
        out.append(item)
    return (out[0], out[1])


def _side(value: object, where: str, where_zh: str, what: str) -> Side:
    if value not in ("NS", "EW"):
        raise bad_input(f"{where}: {what} must be NS or EW.", f"{where_zh}：{what} 必须是 NS 或 EW。")
    return Side.parse(value)


def _table(item: object, *, round_number: int, ns: str, ew: str, where: str, where_zh: str) -> MatchRecord | None:
    """One table's result (None: not finished), as ``standings`` reads a result, seated NS/EW."""
    if item is None:
        return None
    if not isinstance(item, Mapping):
        raise bad_input(f"{where} must be a JSON object or null.", f"{where_zh} 必须是 JSON 对象或 null。")
    unknown = sorted(set(item) - _TABLE_KEYS)
    if unknown:
        raise bad_input(f"{where} has an unknown field {unknown[0]!r}.", f"{where_zh} 有未知字段 {unknown[0]!r}。")
    forfeit_raw = item.get("forfeit")
    double = forfeit_raw == "both"
    forfeit = _side(forfeit_raw, where, where_zh, "forfeit") if forfeit_raw is not None and not double else None
    winner = _side(item["winner"], where, where_zh, "winner") if item.get("winner") is not None else None
    if forfeit is not None:
        if winner is forfeit:
            raise bad_input(
                f"{where}: the side that forfeited cannot be the winner.", f"{where_zh}：弃权的一方不能是胜方。"
            )
        winner = forfeit.other
    if double and winner is not None:
        raise bad_input(f"{where}: a double forfeit has no winner.", f"{where_zh}：双方弃权没有胜方。")
    if "winner" not in item and forfeit_raw is None:
        raise bad_input(
            f'{where} needs a "winner" (NS, EW, or null for a draw) or a "forfeit".',
            f"{where_zh} 需要 winner（NS、EW，平局为 null）或 forfeit。",
        )
    levels = _per_side(item["levels"], "levels", where, where_zh, levels=True) if "levels" in item else (LOWEST, LOWEST)
    points = (
        _per_side(item["points"], "points", where, where_zh, levels=False) if item.get("points") is not None else None
    )
    passed_a = item.get("passed_a", False)
    if not isinstance(passed_a, bool):
        raise bad_input(f"{where}: passed_a must be true or false.", f"{where_zh}：passed_a 必须是 true 或 false。")
    if passed_a and (winner is None or levels[winner] != ACE):
        raise bad_input(
            f"{where}: passed_a needs a winner whose level is A (14).", f"{where_zh}：过A需要胜方的级数为 A（14）。"
        )
    return MatchRecord(
        round=round_number,
        ns=ns,
        ew=ew,
        winner=winner,
        levels=levels,
        passed_a=passed_a,
        points=points,
        forfeit=forfeit,
        double_forfeit=double,
    )


def _team_match_records(value: object) -> list[TeamMatchRecord]:
    if not isinstance(value, list):
        raise bad_input("Team matches need 'matches' (a list).", "团体对抗需要 matches（列表）。")
    records = []
    for index, item in enumerate(value, 1):
        where, where_zh = f"Team match {index}", f"第 {index} 场团体对抗"
        if not isinstance(item, Mapping):
            raise bad_input(f"{where} must be a JSON object.", f"{where_zh}必须是 JSON 对象。")
        unknown = sorted(set(item) - _MATCH_KEYS)
        if unknown:
            raise bad_input(f"{where} has an unknown field {unknown[0]!r}.", f"{where_zh}有未知字段 {unknown[0]!r}。")
        round_number = item.get("round")
        if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
            raise bad_input(f"{where} needs a 'round' (1 or more).", f"{where_zh}需要 round（从 1 开始）。")
        teams = item.get("teams")
        bye = item.get("bye", False) is True
        if (
            not isinstance(teams, list)
            or len(teams) != 2
            or not isinstance(teams[0], str)
            or not (isinstance(teams[1], str) or (teams[1] is None and bye))
        ):
            raise bad_input(
                f'{where} needs "teams": [X, Y] (team X is N/S at table a; Y null only with "bye": true).',
                f'{where_zh}需要 "teams": [X, Y]（X 在 a 桌坐南北；只有轮空时 Y 才能为 null）。',
            )
        x, y = teams[0], teams[1]
        if bye:
            if y is not None or "a" in item or "b" in item or "extra_deal" in item:
                raise bad_input(
                    f"{where}: a bye has no opponent, no tables and no tie-break deal.",
                    f"{where_zh}：轮空没有对手、牌桌和加赛。",
                )
            records.append(TeamMatchRecord(round=round_number, x=x, y=None))
            continue
        if "walkover" in item:
            absent = item["walkover"]
            if absent not in (x, y) or "a" in item or "b" in item or "extra_deal" in item:
                raise bad_input(
                    f'{where}: "walkover" names the team of the two that did not come (no tables, no tie-break deal).',
                    f"{where_zh}：walkover 须写明两队中未到的一队（没有牌桌成绩，也没有加赛）。",
                )
            records.append(TeamMatchRecord(round=round_number, x=x, y=y, walkover=str(absent)))
            continue
        a = _table(
            item.get("a"),
            round_number=round_number,
            ns=f"{x} 1",
            ew=f"{y} 1",
            where=f"{where}, table a",
            where_zh=f"{where_zh} a 桌",
        )
        b = _table(
            item.get("b"),
            round_number=round_number,
            ns=f"{y} 2",
            ew=f"{x} 2",
            where=f"{where}, table b",
            where_zh=f"{where_zh} b 桌",
        )
        extra = item.get("extra_deal")
        extra_deal = _side(extra, where, where_zh, "extra_deal") if extra is not None else None
        records.append(TeamMatchRecord(round=round_number, x=x, y=y, a=a, b=b, extra_deal=extra_deal))
    return records


def _team_matches(
    data: Mapping[str, Any], *, options: RuleOptions, team_options: TeamOptions, stage: Stage, seed: int | None
) -> dict[str, Any]:
    teams: Sequence[str] | None = _names(data["teams"], "teams") if "teams" in data else None
    records = _team_match_records(data.get("matches"))
    results = team_results_decide(records, options=options, team_options=team_options, stage=stage)
    standings = None
    if stage is not Stage.KNOCKOUT:
        standings = team_standings_rank(
            teams=teams, results=results, team_options=team_options, lots_seed=seed
        ).to_json()
    elif teams is not None:
        known = set(teams)
        for result in results:
            for team in (result.x, result.y):
                if team is not None and team not in known:
                    raise bad_input(
                        f"Team {team!r} in round {result.round} is not one of the stage's teams.",
                        f"第 {result.round} 轮的团体 {team!r} 不在本阶段的团体名单中。",
                    )
    return {
        "kind": "team_match",
        "team_decider": team_options.team_decider.value,
        "matches": [result.to_json() for result in results],
        "standings": standings,
    }


# -- the command ------------------------------------------------------------------------------------------


def _teams(args: argparse.Namespace) -> JsonObject:
    data = read_json_input(args.file)
    try:
        return teams_json(data)
    except ScoringError as error:
        raise CliError(error.code.value, error.message, message_zh=error.message_zh) from None


def register(subparsers: Any) -> None:
    """Add the ``teams`` command."""
    teams = subparsers.add_parser(
        "teams",
        help="team events: rank teams from members' results, or decide team matches from two tables",
        description="Read a team event as JSON from FILE (or stdin) and print the team ranking or the team "
        "matches' results as JSON.",
    )
    teams.add_argument("file", nargs="?", metavar="FILE", help="JSON input; stdin when omitted or '-'")
    teams.set_defaults(handler=_teams)
