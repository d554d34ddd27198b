"""Rows left under the key of an account that no longer exists.

Before ``accounts.hold_owner`` (stop 39), an answer, a lesson step or a new practice
table sent from a second device while the account was being deleted on the first could
be written after the deletion, under ``user:<id>`` of an account that was gone: rows
nobody can reach.  This removes them (the tables with their hands, reviews and queued
jobs, as ``accounts.erase`` does); rows of accounts that exist and anonymous visitors'
rows are untouched.  Nothing to undo."""

from django.conf import settings
from django.db import migrations

PREFIX = "user:"  # tutorial.accounts.USER_PREFIX (a migration does not import the app)


def orphaned_keys(apps, field, model):
    users = {str(pk) for pk in apps.get_model(*settings.AUTH_USER_MODEL.split("."))
             .objects.values_list("pk", flat=True)}
    keys = (model.objects.filter(**{f"{field}__startswith": PREFIX})
            .values_list(field, flat=True).distinct())
    return [key for key in keys if key.removeprefix(PREFIX) not in users]


def remove(apps, schema_editor):
    for name in ("CourseProgress", "QuizProgress", "ReviewCard", "QuizQuestion"):
        model = apps.get_model("tutorial", name)
        model.objects.filter(session_key__in=orphaned_keys(apps, "session_key", model)).delete()
    tables = apps.get_model("tutorial", "PracticeTable")
    jobs = apps.get_model("tutorial", "ComputeJob")
    gone = tables.objects.filter(owner__in=orphaned_keys(apps, "owner", tables))
    for table_id in gone.values_list("pk", flat=True):
        jobs.objects.filter(key__contains=f":{table_id}:").delete()
    gone.delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tutorial", "0015_replaced_session"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(remove, migrations.RunPython.noop)]
