"""The prizes' lots become the prize stage's own lots (``Stage.options["lots_seed"]``): one seed per
stage, read by every reader of its ranking. A seed drawn for the prizes moves to the stage it ranked
(the chosen stage, else the last one) unless that stage has lots of its own already — those are
what its pages and its advancement showed, so they stay."""

from django.db import migrations


def _move_prize_lots(apps, schema_editor):
    PrizeRanking = apps.get_model("exports", "PrizeRanking")
    Stage = apps.get_model("matches", "Stage")
    for ranking in PrizeRanking.objects.exclude(lots_seed=None):
        stage = ranking.stage or Stage.objects.filter(tournament_id=ranking.tournament_id).order_by("-order").first()
        if stage is None:
            continue
        options = dict(stage.options or {})
        seed = options.get("lots_seed")
        if isinstance(seed, int) and not isinstance(seed, bool):
            continue
        options["lots_seed"] = ranking.lots_seed
        stage.options = options
        stage.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("exports", "0002_column_ranges"),
        ("matches", "0013_round_draw_proof"),
    ]

    operations = [
        migrations.RunPython(_move_prize_lots, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="prizeranking",
            name="prize_ranking_lots_seed_in_range",
        ),
        migrations.RemoveField(
            model_name="historicalprizeranking",
            name="lots_seed",
        ),
        migrations.RemoveField(
            model_name="prizeranking",
            name="lots_seed",
        ),
    ]
