"""A stage's stored rules no longer hold the game: the tournament stores it, once (``Tournament.game``).

Until now ``Stage.rules`` kept ``game`` beside the tournament's own (always equal: a stage of another
game is refused when it is created, and an event's game is not edited), and the rules were read back as
Guandan's when the key was missing. From now on ``tournament.rules.rules_for_stage`` reads them with the
tournament's game, so the key is removed from every stage and its audit history; going back writes it
again from the tournament.

A row holding nothing but the game (every other option at its default) would be left empty, which the
``stage_rules_stored`` constraint forbids: such a row is written out in full, the options it was read as
(the rules core's ``RuleOptions.from_stored(...).to_stored()``), so it still reads the same.
"""

from django.db import migrations


def _without_game(rules, game):
    kept = {name: value for name, value in rules.items() if name != "game"}
    if kept:
        return kept
    from scoring.options import RuleOptions

    return RuleOptions.from_stored(rules, game=game).to_stored()


def _games(apps):
    """Each tournament's game by id (an audit row may outlive its tournament: it keeps its own)."""
    return dict(apps.get_model("registration", "Tournament").objects.values_list("id", "game"))


def drop_game(apps, schema_editor):
    games = _games(apps)
    for name in ("Stage", "HistoricalStage"):
        model = apps.get_model("matches", name)
        changed = []
        for stage in model.objects.iterator():
            if isinstance(stage.rules, dict) and "game" in stage.rules:
                stage.rules = _without_game(stage.rules, games.get(stage.tournament_id, stage.rules["game"]))
                changed.append(stage)
        model.objects.bulk_update(changed, ["rules"], batch_size=500)


def restore_game(apps, schema_editor):
    games = _games(apps)
    for name in ("Stage", "HistoricalStage"):
        model = apps.get_model("matches", name)
        changed = []
        for stage in model.objects.iterator():
            game = games.get(stage.tournament_id)
            if isinstance(stage.rules, dict) and "game" not in stage.rules and game is not None:
                stage.rules = {"game": game, **stage.rules}
                changed.append(stage)
        model.objects.bulk_update(changed, ["rules"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0018_team_knockout"),
        ("registration", "0010_event_time_zone"),
    ]

    operations = [migrations.RunPython(drop_game, restore_game)]
