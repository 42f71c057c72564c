"""A match's result in columns of its own, for the standings to read without its snapshot.

A stage's standings (of pairs, and the tables of a team match) read each counted match's winner, reason,
levels and points. Read out of the stored snapshot (``state``), every key inflated the whole compressed
snapshot, deal list and all: over a 5,000-pair stage's 5,834 matches 40-50 ms of PostgreSQL per key,
~200 ms per rebuild. They become columns the database generates from ``state``: computed for the old rows
as the columns are added, and on every write after, so no write path can leave them behind it.
"""

import django.db.models.fields.json
import django.db.models.functions.comparison
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0019_stage_rules_without_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='snapshot_levels_ew',
            field=models.GeneratedField(db_persist=True, expression=django.db.models.functions.comparison.Cast(django.db.models.fields.json.KeyTextTransform('EW', django.db.models.fields.json.KeyTransform('levels', 'state')), models.IntegerField()), output_field=models.IntegerField(null=True)),
        ),
        migrations.AddField(
            model_name='match',
            name='snapshot_levels_ns',
            field=models.GeneratedField(db_persist=True, expression=django.db.models.functions.comparison.Cast(django.db.models.fields.json.KeyTextTransform('NS', django.db.models.fields.json.KeyTransform('levels', 'state')), models.IntegerField()), output_field=models.IntegerField(null=True)),
        ),
        migrations.AddField(
            model_name='match',
            name='snapshot_points_ew',
            field=models.GeneratedField(db_persist=True, expression=django.db.models.functions.comparison.Cast(django.db.models.fields.json.KeyTextTransform('EW', django.db.models.fields.json.KeyTransform('points', 'state')), models.IntegerField()), output_field=models.IntegerField(null=True)),
        ),
        migrations.AddField(
            model_name='match',
            name='snapshot_points_ns',
            field=models.GeneratedField(db_persist=True, expression=django.db.models.functions.comparison.Cast(django.db.models.fields.json.KeyTextTransform('NS', django.db.models.fields.json.KeyTransform('points', 'state')), models.IntegerField()), output_field=models.IntegerField(null=True)),
        ),
        migrations.AddField(
            model_name='match',
            name='snapshot_reason',
            field=models.GeneratedField(db_persist=True, expression=models.Case(models.When(state__reason=None, then=models.Value(None)), default=django.db.models.fields.json.KeyTextTransform('reason', 'state')), output_field=models.TextField(null=True)),
        ),
        migrations.AddField(
            model_name='match',
            name='snapshot_winner',
            field=models.GeneratedField(db_persist=True, expression=models.Case(models.When(state__winner=None, then=models.Value(None)), default=django.db.models.fields.json.KeyTextTransform('winner', 'state')), output_field=models.TextField(null=True)),
        ),
    ]
