"""One account per username whatever its case, held by the database.

Django's sign-up form refuses a name that differs from an existing one only by case
(``username__iexact``), but two devices signing up "Bob" and "bob" at the same instant
both passed that check and both got an account.  A unique index on ``lower(username)``
(SQLite and PostgreSQL both index an expression) makes the second insert fail, and the
sign-up view answers it as "name taken", as it does for the very same name."""

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tutorial", "0012_night_event_state"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX tutorial_username_any_case ON auth_user (lower(username))",
            "DROP INDEX tutorial_username_any_case",
        ),
    ]
