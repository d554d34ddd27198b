"""Regression (found by scripts/soak.py): with several gunicorn workers on one SQLite file,
two requests that each read and then write in one transaction (every table action does)
made one of them fail at once with "database is locked" — a 500.  The settings now begin
SQLite transactions IMMEDIATE (with a busy timeout and WAL), so the second one waits."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction

ALIAS = "concurrency_probe"


def _writer(results: list[Any]) -> None:
    try:
        with transaction.atomic(using=ALIAS):
            cursor = connections[ALIAS].cursor()
            cursor.execute("SELECT n FROM counter")
            (n,) = cursor.fetchone()
            time.sleep(0.3)  # the other request reads meanwhile
            cursor.execute("UPDATE counter SET n = %s", [n + 1])
        results.append("ok")
    except Exception as e:  # the failure is the result
        results.append(e)
    finally:
        connections[ALIAS].close()


def test_two_read_then_write_transactions_both_succeed(tmp_path: Path,
                                                       django_db_blocker: Any) -> None:
    configured = settings.DATABASES["default"]
    if configured["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite only")
    connections.settings[ALIAS] = {
        **connections["default"].settings_dict,
        "NAME": str(tmp_path / "probe.sqlite3"),
        "OPTIONS": dict(configured.get("OPTIONS", {})),
    }
    try:
        with django_db_blocker.unblock():
            with connections[ALIAS].cursor() as cursor:
                cursor.execute("CREATE TABLE counter (n INTEGER)")
                cursor.execute("INSERT INTO counter VALUES (0)")
            connections[ALIAS].close()
            results: list[Any] = []
            threads = [threading.Thread(target=_writer, args=(results,)) for _ in range(2)]
            for t in threads:
                t.start()
                time.sleep(0.05)
            for t in threads:
                t.join(timeout=30)
            assert results == ["ok", "ok"]
            with connections[ALIAS].cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                assert cursor.fetchone() == (2,)  # no lost update either
            connections[ALIAS].close()
    finally:
        del connections.settings[ALIAS]
