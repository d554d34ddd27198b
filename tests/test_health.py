"""/healthz answers 503 whenever the pages could not use the database: a missing file, a
file without the schema, a read-only file, a file deleted under the running server.  In
production a missing SQLite file is never created."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_prod_settings import run_django

# GET /healthz in a production process; with REMOVE set, delete the file and ask again.
PROBE = (
    "import os, django\n"
    "os.environ['DJANGO_SETTINGS_MODULE'] = 'chexuan_site.settings'\n"
    "django.setup()\n"
    "from django.test import Client\n"
    "client = Client()\n"
    "print(client.get('/healthz').status_code)\n"
    "if os.environ.get('REMOVE'):\n"
    "    os.remove(os.environ['REMOVE'])\n"
    "    print(client.get('/healthz').status_code)\n"
)


def probe(db: Path, **extra: str) -> list[int]:
    result = run_django(["-c", PROBE], {"DATABASE_URL": f"sqlite:///{db}",
                                        "ALLOWED_HOSTS": "testserver", **extra})
    assert result.returncode == 0, result.stderr
    return [int(line) for line in result.stdout.split()]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("health") / "db.sqlite3"
    result = run_django(["manage.py", "migrate", "--noinput"],
                        {"DATABASE_URL": f"sqlite:///{db}", "DATABASE_CREATE": "1"})
    assert result.returncode == 0, result.stderr
    return db


@pytest.fixture
def db_copy(migrated: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(migrated, tmp_path / "db.sqlite3"))


def test_migrated_database_is_healthy(db_copy: Path) -> None:
    assert probe(db_copy) == [200]


def test_missing_file_is_503_and_stays_missing(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    assert probe(db) == [503]
    assert not db.exists()


def test_migrate_refuses_to_create_the_file_in_production(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    result = run_django(["manage.py", "migrate", "--noinput"], {"DATABASE_URL": f"sqlite:///{db}"})
    assert result.returncode != 0 and not db.exists()


def test_empty_file_without_schema_is_503(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    db.touch()
    assert probe(db) == [503]


def test_file_deleted_under_the_running_server_is_503(db_copy: Path) -> None:
    assert probe(db_copy, REMOVE=str(db_copy)) == [200, 503]


@pytest.fixture
def read_only(db_copy: Path) -> Iterator[Path]:
    if os.geteuid() != 0:
        db_copy.chmod(0o444)
        yield db_copy
        return
    # root ignores permission bits; the immutable attribute stops even root
    if subprocess.run(["chattr", "+i", str(db_copy)], check=False).returncode != 0:
        pytest.skip("running as root on a file system without chattr +i")
    try:
        yield db_copy
    finally:
        subprocess.run(["chattr", "-i", str(db_copy)], check=True)


def test_read_only_file_is_503(read_only: Path) -> None:
    assert probe(read_only) == [503]


def test_a_flushed_probe_row_is_written_again(db_copy: Path) -> None:
    # `flush` (between live-server tests) empties every table, the probe's row too
    result = run_django(["manage.py", "flush", "--noinput"], {"DATABASE_URL": f"sqlite:///{db_copy}"})
    assert result.returncode == 0, result.stderr
    assert probe(db_copy) == [200]
