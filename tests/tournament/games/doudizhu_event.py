"""A Dou Dizhu (斗地主, docs/rules.md §10) event built through the services: individuals at three-seat
tables; its rounds drawn and played. Used by the game's tests here and by the browser tests."""

from __future__ import annotations

from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import RefereeAssignment
from tournament.registration.services import PlayerData, player_enter, tournament_create


def doudizhu_event(*, players: int = 9, options: dict | None = None, boss=None):
    """A Dou Dizhu event with ``players`` individuals and a points stage (not drawn yet)."""
    tournament = tournament_create(name="斗地主赛", rule_profile="doudizhu", game="doudizhu", organiser=boss)
    for number in range(1, players + 1):
        player_enter(tournament=tournament, player=PlayerData(name=f"选手{number}", employee_number=f"D{number:03d}"))
    stage = stage_create(
        tournament=tournament, name="积分赛", format="points", options=options or {"rounds": 3}, user=boss
    )
    return tournament, stage


def drawn_round(stage, *, seed: int = 7, referee_user=None, user=None):
    round_ = round_draw(stage=stage, seed=seed, user=user)
    round_publish(round_=round_, user=user)
    if referee_user is not None:
        for match in round_.matches.all():
            RefereeAssignment.objects.create(round=round_, table=match.table, referee=referee_user)
    return round_


def play_table(match, deals, user=None):
    """Enter ``deals`` at ``match`` through the services and sign it off."""
    from tournament.matches import services

    for deal in deals:
        services.deal_record(match_id=match.pk, outcome=deal, user=user)
    match.refresh_from_db()
    services.match_sign_off(match_id=match.pk, user=user, expected_version=match.version)
    match.refresh_from_db()
    return match


def play_round(round_, user=None):
    """Every table of ``round_`` plays three deals: the E seat wins each as landlord at bid 1 + table number
    (so tables differ), and signs off."""
    for match in round_.matches.order_by("table__number"):
        bid = 1 + (match.table.number % 3)
        play_table(match, [{"landlord": "E", "bid": bid, "winner": "landlord"}] * 3, user=user)
