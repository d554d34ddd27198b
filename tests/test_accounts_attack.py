"""The hostile script (scripts/accounts_attack.py) against a live production server, on
SQLite and on PostgreSQL (``scripts/test_postgres.sh -m concurrency``): enumeration, brute
force, cross-account reads, fixation, off-site redirects and CSRF get nothing."""

from __future__ import annotations

import pytest

from scripts.accounts_attack import attack
from tests.test_night_concurrency import server_on_test_database

pytestmark = pytest.mark.concurrency


def test_the_hostile_script_gets_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with server_on_test_database(CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR") as base:
        got = attack(base, tries=5)
    out = capsys.readouterr().out
    assert got == 0, out
    assert out.count("\nnone ") >= 20 and "GOT" not in out
