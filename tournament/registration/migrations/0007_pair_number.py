"""Each event numbers its pairs 1…N. Existing pairs are numbered in the order they were
registered (their id), per tournament; the column then becomes required and unique per event."""

from django.db import migrations, models
from django.db.models.functions import Coalesce


def number_existing_pairs(apps, schema_editor):
    Pair = apps.get_model("registration", "Pair")
    tournament_id, number, changed = None, 0, []
    for pair in Pair.objects.order_by("tournament_id", "id").only("id", "tournament_id").iterator(chunk_size=2000):
        if pair.tournament_id != tournament_id:
            tournament_id, number = pair.tournament_id, 0
        number += 1
        pair.number = number
        changed.append(pair)
        if len(changed) >= 2000:
            Pair.objects.bulk_update(changed, ["number"])
            changed = []
    Pair.objects.bulk_update(changed, ["number"])
    # The history gets each pair's number too (a deleted pair's past rows have none to take: 0).
    HistoricalPair = apps.get_model("registration", "HistoricalPair")
    number_of = Pair.objects.filter(pk=models.OuterRef("id")).values("number")[:1]
    HistoricalPair.objects.update(number=Coalesce(models.Subquery(number_of), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("registration", "0006_provisional_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalpair",
            name="number",
            field=models.PositiveIntegerField(null=True, verbose_name="pair number"),
        ),
        migrations.AddField(
            model_name="pair",
            name="number",
            field=models.PositiveIntegerField(null=True, verbose_name="pair number"),
        ),
        migrations.RunPython(number_existing_pairs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="historicalpair",
            name="number",
            field=models.PositiveIntegerField(verbose_name="pair number"),
        ),
        migrations.AlterField(
            model_name="pair",
            name="number",
            field=models.PositiveIntegerField(verbose_name="pair number"),
        ),
        migrations.AddConstraint(
            model_name="pair",
            constraint=models.UniqueConstraint(fields=("tournament", "number"), name="pair_number_unique"),
        ),
        migrations.AddConstraint(
            model_name="pair",
            constraint=models.CheckConstraint(condition=models.Q(("number__gte", 1)), name="pair_number_positive"),
        ),
        migrations.AddConstraint(
            model_name="pair",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 0), ("number__lte", 2147483647)), name="pair_number_in_range"
            ),
        ),
    ]
