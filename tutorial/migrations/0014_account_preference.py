"""The coach switch follows the account (``AccountPreference``): a learner who turns the
coach off on one device finds it off on every device logged in to the account."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('tutorial', '0013_username_unique_any_case'),
    ]

    operations = [
        migrations.CreateModel(
            name='AccountPreference',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='preference', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('coach_off', models.BooleanField(default=False)),
                ('coach_switched', models.DateTimeField(null=True)),
            ],
        ),
    ]
