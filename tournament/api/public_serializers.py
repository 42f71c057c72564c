"""Output (and query) serializers of the public, read-only API — explicit fields, nothing private.

They read the immutable values of ``tournament.standings.public`` (the same cached read models
as the public pages), so the API and the pages always agree.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournament.standings.public_types import QUERY_MAX


class PairOfNumbers(serializers.Serializer[object]):
    """A value per side: N/S (南北) and E/W (东西)."""

    NS = serializers.IntegerField()
    EW = serializers.IntegerField()

    def to_representation(self, instance: Any) -> dict[str, int]:
        return {"NS": instance[0], "EW": instance[1]}


class StageOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField(help_text="knockout, swiss or round_robin")
    order = serializers.IntegerField()
    advancement_changed = serializers.BooleanField(
        help_text="A corrected result of the stage it was advanced from changes who advances; "
        "the organiser has not decided yet (redraw, or keep with a reason)."
    )
    rounds_changed = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Numbers of this stage's rounds drawn from standings a correction of an earlier round "
        "changed; the organiser has not decided yet (redraw, or keep with a reason).",
    )


class RoundOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    stage_id = serializers.IntegerField()
    stage_name = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="published, running, time_called or finished")
    published_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When the round's time cap is reached.")
    time_called_at = serializers.DateTimeField(allow_null=True)


class ProgressOut(serializers.Serializer[object]):
    tables = serializers.IntegerField()
    finished = serializers.IntegerField()
    running = serializers.IntegerField()


class TournamentListOut(serializers.Serializer[object]):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    venue = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)


class TournamentOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    venue = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    stages = StageOut(many=True)
    current_round = RoundOut(allow_null=True, help_text="The round being played now (or the last one).")
    current_round_progress = ProgressOut(source="progress", allow_null=True)


class SideOut(serializers.Serializer[object]):
    pair_id = serializers.IntegerField(allow_null=True, help_text="null: nobody (a bye)")
    name = serializers.CharField()
    number = serializers.IntegerField(allow_null=True, help_text="The pair's number in the event (1…N), as shown.")


class DrawRowOut(serializers.Serializer[object]):
    match_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="null for a bye")
    area = serializers.CharField(help_text="The referees' area of the table.")
    ns = SideOut()
    ew = SideOut()
    is_bye = serializers.BooleanField()
    status = serializers.CharField(help_text="pending, running, finished or confirmed")
    winner = serializers.CharField(help_text='"NS", "EW" or "" (none yet, or a draw)')
    levels = PairOfNumbers(allow_null=True, help_text="Levels 2–14 (14 = A).")
    points = PairOfNumbers(allow_null=True)
    walkover_over = serializers.CharField(
        help_text='A walkover (不战而胜, is_bye true): the withdrawn pair this one was due to meet; "" for a bye.'
    )


class FindQuery(serializers.Serializer[object]):
    q = serializers.CharField(
        min_length=1,
        max_length=QUERY_MAX,
        trim_whitespace=False,  # lengths count what was sent, as the schema says (the search trims)
        # the schema says what the server accepts: something besides spaces, and no NUL
        validators=[RegexValidator(r"^[^\x00]*\S[^\x00]*$", "Type part of a name or an employee number.")],
        help_text="Part of a player's name, a whole employee number, or a pair's number in the event (\"#12\").",
    )


class SeatOut(serializers.Serializer[object]):
    player_name = serializers.CharField()
    pair_id = serializers.IntegerField()
    pair_name = serializers.CharField()
    pair_number = serializers.IntegerField(allow_null=True, help_text="The pair's number in the event (1…N).")
    round_id = serializers.IntegerField()
    round_number = serializers.IntegerField()
    stage_name = serializers.CharField()
    match_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="null for a bye")
    area = serializers.CharField()
    side = serializers.CharField(help_text='"NS" (南北) or "EW" (东西)')
    opponent = SideOut()


class TieBreakOut(serializers.Serializer[object]):
    name = serializers.CharField(help_text="The rules core's metric (match_points, small_points, …).")
    title = serializers.CharField()
    title_zh = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)


class StandingOut(serializers.Serializer[object]):
    rank = serializers.IntegerField(help_text="Within the group when the stage is played in groups.")
    shared = serializers.BooleanField(help_text="The rank is shared (a full tie).")
    group = serializers.IntegerField(allow_null=True, help_text="A round robin's group (1, 2, …), else null.")
    withdrawn = serializers.BooleanField(help_text="The pair withdrew: listed after its group's active pairs.")
    provisional = serializers.BooleanField(
        help_text="A result counted for the pair awaits sign-off (待确认); the event counts such results, marked."
    )
    movement = serializers.IntegerField(allow_null=True, help_text="Places gained since the round before.")
    previous_rank = serializers.IntegerField(allow_null=True)
    pair_id = serializers.IntegerField()
    pair_name = serializers.CharField()
    pair_number = serializers.IntegerField(help_text="The pair's number in the event (1…N).")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    tie_breaks = serializers.SerializerMethodField()

    @extend_schema_field(TieBreakOut(many=True))
    def get_tie_breaks(self, line: Any) -> list[dict[str, Any]]:
        columns = self.context.get("columns", ())
        return [
            {"name": column.name, "title": column.title, "title_zh": column.title_zh, "value": value}
            for column, value in zip(columns, line.values, strict=False)
        ]


class BracketMatchOut(serializers.Serializer[object]):
    match_id = serializers.IntegerField(allow_null=True, help_text="null: a match still to be drawn")
    position = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    ns = SideOut(allow_null=True)
    ew = SideOut(allow_null=True)
    is_bye = serializers.BooleanField()
    status = serializers.CharField()
    winner = serializers.CharField(help_text='The entered winner ("NS", "EW" or ""); see confirmed.')
    confirmed = serializers.BooleanField(
        help_text="The result is signed off (a bye always): only a confirmed winner goes on. "
        "False with a winner: awaiting sign-off (待确认)."
    )
    levels = PairOfNumbers(allow_null=True)
    points = PairOfNumbers(allow_null=True)
    third_place = serializers.BooleanField()
    walkover_over = serializers.CharField(
        help_text='A walkover (不战而胜, is_bye true): the withdrawn pair this one was due to meet; "" for a bye.'
    )
    next_sets_level = serializers.CharField(
        allow_null=True, help_text="While running: the side whose level the next deal is played at (Tractor: declarer)."
    )


class BracketRoundOut(serializers.Serializer[object]):
    number = serializers.IntegerField()
    drawn = serializers.BooleanField()
    remaining = serializers.IntegerField(help_text="Pairs still in when the round starts (2: the final).")
    matches = BracketMatchOut(many=True)


class BracketOut(serializers.Serializer[object]):
    stage = StageOut()
    rounds = BracketRoundOut(many=True)
    third_place = BracketMatchOut(allow_null=True)
    champion = SideOut(allow_null=True)
    byes = serializers.IntegerField()


class DealOut(serializers.Serializer[object]):
    number = serializers.IntegerField()
    order = serializers.ListField(child=serializers.CharField(), help_text="Seats in finishing order.")
    winner = serializers.CharField()
    level = serializers.IntegerField(allow_null=True, help_text="The level played.")
    sets_level = serializers.CharField(allow_null=True)
    upgrade = serializers.IntegerField()
    levels_after = PairOfNumbers(allow_null=True)
    a_attempt = serializers.BooleanField()
    passed_a = serializers.BooleanField()
    reset = serializers.BooleanField()
    extra = serializers.BooleanField(help_text="A tiebreak deal.")
    points = serializers.IntegerField(allow_null=True)
    points_after = PairOfNumbers(allow_null=True)
    declarer = serializers.CharField(allow_null=True, required=False, help_text="Tractor: the declaring side (庄家).")
    declarer_seat = serializers.CharField(allow_null=True, required=False)
    defender_points = serializers.IntegerField(allow_null=True, required=False, help_text="Tractor: as entered.")
    total_points = serializers.IntegerField(
        allow_null=True, required=False, help_text="Tractor: with bottom and penalties (the table is read with it)."
    )
    bottom_points = serializers.IntegerField(
        allow_null=True, required=False, help_text="Tractor: the bottom's points × its multiplier (抠底)."
    )
    penalty_points = serializers.IntegerField(
        allow_null=True, required=False, help_text="Tractor: the penalties' and late arrival's points in the deal."
    )
    result = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="Tractor: declarers_up, defenders_take_over, defenders_up or replayed (a wrong card count in "
        "both sides' hands, seed 001 §18).",
    )
    anti_tribute = serializers.BooleanField(help_text="抗贡 was recorded for this deal (docs/rules.md §6).")
    revoke = serializers.CharField(allow_null=True, help_text="Tractor: the side that revoked (藏张, seed 001 §17).")
    wrong_bottom = serializers.BooleanField(help_text="Tractor: the declarers buried a wrong bottom (seed 001 §9.1).")
    wrong_count = serializers.CharField(
        allow_null=True, help_text="Tractor: a wrong card count in NS's, EW's or both sides' hands (seed 001 §18)."
    )


class AdjustmentOut(serializers.Serializer[object]):
    kind = serializers.CharField(required=False)
    side = serializers.CharField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {key: instance.get(key) for key in ("kind", "side", "reason")}


class NextDealOut(serializers.Serializer[object]):
    level = serializers.IntegerField()
    sets_level = serializers.CharField(allow_null=True)


class MatchOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    stage_id = serializers.IntegerField()
    stage_name = serializers.CharField()
    round_id = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    area = serializers.CharField()
    ns = SideOut()
    ew = SideOut()
    is_bye = serializers.BooleanField()
    walkover_over = serializers.CharField(
        help_text='A walkover (不战而胜, is_bye true): the withdrawn pair this one was due to meet; "" for a bye.'
    )
    status = serializers.CharField()
    winner = serializers.CharField()
    reason = serializers.CharField(help_text="passed_a, higher_level, … as the rules core names it")
    levels = PairOfNumbers(allow_null=True)
    a_failures = PairOfNumbers(allow_null=True)
    points = PairOfNumbers(allow_null=True)
    games = PairOfNumbers(allow_null=True)
    next_deal = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField(allow_null=True)
    clock_ends_at = serializers.DateTimeField(allow_null=True)
    deals = DealOut(many=True)
    adjustments = AdjustmentOut(many=True)

    @extend_schema_field(NextDealOut(allow_null=True))
    def get_next_deal(self, match: Any) -> dict[str, Any] | None:
        if match.next_level is None:
            return None
        return {"level": match.next_level, "sets_level": match.next_sets_level}


class PlayerOut(serializers.Serializer[object]):
    name = serializers.CharField()
    department = serializers.CharField()

    def to_representation(self, instance: Any) -> dict[str, str]:
        return {"name": instance[0], "department": instance[1]}


class RankOut(serializers.Serializer[object]):
    stage_id = serializers.IntegerField()
    stage_name = serializers.CharField()
    rank = serializers.IntegerField()
    movement = serializers.IntegerField(allow_null=True)
    provisional = serializers.BooleanField(
        help_text="The rank counts a result awaiting sign-off (待确认): it may still change, as the standings mark it."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        stage, line = instance
        return {
            "stage_id": stage.id,
            "stage_name": stage.name,
            "rank": line.rank,
            "movement": line.movement,
            "provisional": line.provisional,
        }


class PairOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The pair's number in the event (1…N), as pages and sheets show it.")
    name = serializers.CharField()
    status = serializers.CharField()
    players = PlayerOut(many=True)
    ranks = RankOut(many=True)


class TeamMemberOut(serializers.Serializer[object]):
    pair_id = serializers.IntegerField(help_text="The entrant's id (a pair; in Dou Dizhu a player).")
    number = serializers.IntegerField(help_text="The entrant's number in the event (1…N).")
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="Its place in the stage; null: not in the stage.")
    points = serializers.IntegerField(
        allow_null=True, help_text="Match points (docs/rules.md §5); Dou Dizhu: points (§10)."
    )
    small_points = serializers.IntegerField(
        allow_null=True, help_text="Small points (points formats: deal points); Dou Dizhu: deals won."
    )
    counted = serializers.BooleanField(help_text="Its results count for the team (team_count: the best k).")
    substitute = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


class TeamStandingOut(serializers.Serializer[object]):
    """One team's line of a stage's team total (docs/rules.md §11)."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared (a full tie, no lots drawn).")
    team_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The team's number in the event (1…N).")
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="The counted members' match points summed (Dou Dizhu: points).")
    small_points = serializers.IntegerField(
        help_text="The first tie-break: the counted members' small points summed (points formats: deal points; "
        "Dou Dizhu: deals won)."
    )
    best_place = serializers.IntegerField(
        allow_null=True, help_text="The second tie-break: the best counted member's place in the stage."
    )
    lots = serializers.IntegerField(allow_null=True, help_text="The lot drawn for this team where a tie needed one.")
    short = serializers.BooleanField(help_text="Fewer members counted than team_count asks for.")
    counted = serializers.IntegerField(help_text="How many members' results count.")
    provisional = serializers.BooleanField(help_text="A counted member's result awaits sign-off (待确认).")
    members = TeamMemberOut(many=True)


class TeamMatchStandingOut(serializers.Serializer[object]):
    """One team's line of a team match stage's standings (docs/rules.md §11): team match points, then
    tables won, small points, head-to-head, Buchholz and lots."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared (a full tie, no lots drawn).")
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField(help_text="Team matches against a team (forfeits included, byes not).")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    match_points = serializers.IntegerField(help_text="Team match points (the stage's team_match_points).")
    tables_won = serializers.IntegerField(help_text="The first tie-break: tables won.")
    small_points = serializers.IntegerField(help_text="The second tie-break: both tables' small points summed.")
    head_to_head = serializers.IntegerField(
        allow_null=True,
        help_text="Team match points against the teams still tied with it (null where not needed or not met).",
    )
    buchholz = serializers.IntegerField(help_text="The opponents' team match points summed.")
    lots = serializers.IntegerField(allow_null=True, help_text="The lot drawn for this team where a tie needed one.")
