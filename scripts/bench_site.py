"""The site on a throwaway database, for the benchmark scripts (bench_table, bench_night)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def throwaway_site(rate_limits: str) -> Iterator[None]:
    """Django set up (DEBUG on, ``RATE_LIMITS`` lifted as given: one client makes every
    request) on a migrated throwaway SQLite database, or on ``DATABASE_URL`` when set."""
    with tempfile.TemporaryDirectory(prefix="chexuan-bench-") as tmp:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")
        os.environ["DEBUG"] = "1"
        os.environ.setdefault("RATE_LIMITS", rate_limits)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield
