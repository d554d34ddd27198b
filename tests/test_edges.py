"""Small hardening edges (issue 12): the page cache answers only GET and HEAD, the language
cookie is flagged like the others, the CSRF failure page is the site's own (no inline
style), and git ignores SQLite's WAL files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.test_prod_settings import run_django

ROOT = Path(__file__).resolve().parent.parent
CACHED = ["/", "/cards/", "/pairs/", "/pairs/RQ-B9/", "/rules/", "/splits/"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", CACHED)
def test_cached_pages_answer_only_get_and_head(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    for method in ("trace", "put", "delete", "patch"):
        response = getattr(client, method)(url)
        assert response.status_code == 405, (method, url)
        assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
    assert client.post(url).status_code in (403, 405)  # CSRF first, then not allowed


def test_language_cookie_is_lax_and_http_only(client: Client) -> None:
    cookie = client.get("/lang/?language=en&next=/").cookies["django_language"]
    assert cookie["samesite"] == "Lax" and cookie["httponly"] is True


@pytest.mark.parametrize(("secure_cookies", "expected"), [("1", True), ("0", False)])
def test_language_cookie_is_secure_with_the_others(secure_cookies: str, expected: bool) -> None:
    code = ("import json, django; django.setup()\n"
            "from django.conf import settings as s\n"
            "print(json.dumps([s.LANGUAGE_COOKIE_SECURE, s.SESSION_COOKIE_SECURE]))\n")
    result = run_django(["-c", code], {"DJANGO_SETTINGS_MODULE": "chexuan_site.settings",
                                        "SECURE_COOKIES": secure_cookies})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [expected, expected]


@pytest.mark.django_db
def test_csrf_failure_page_is_the_sites_own() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/table/", {"bots": "2"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "<style" not in html and " style=" not in html
    assert "表单已经过期" in html and 'href="/"' in html
    client.cookies["django_language"] = "en"
    english = client.post("/table/", {"bots": "2"}).content.decode()
    assert "This form has expired" in english


@pytest.mark.parametrize("name", ["db.sqlite3-wal", "db.sqlite3-shm", "db.sqlite3-journal"])
def test_git_ignores_sqlite_side_files(name: str) -> None:
    result = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT, check=False)
    assert result.returncode == 0, f"{name} is not ignored"


@pytest.mark.django_db
def test_too_many_fields_is_a_400_logged_in_one_line(client: Client, caplog: Any) -> None:
    """3,000 fields: Django refuses the body (a 400) and logs it under django.security with
    the exception attached; the console prints it as one line, never a traceback."""
    import logging

    caplog.set_level(logging.INFO)
    response = client.post("/quiz/bigger/", {f"f{i}": "x" for i in range(3000)})
    assert response.status_code == 400
    refusals = [r for r in caplog.records if r.name.startswith("django.security.")]
    assert refusals and refusals[0].exc_info  # Django attaches the traceback…
    console = next(h for h in logging.getLogger().handlers if h.name == "console")
    assert console.formatter is not None
    shown = console.formatter.format(refusals[0])
    assert "\n" not in shown and "Traceback" not in shown  # … the log does not print it
    assert "TooManyFieldsSent" in shown
    other = logging.LogRecord("tutorial", logging.ERROR, __file__, 1, "crash", None,
                              refusals[0].exc_info)
    assert "Traceback" in console.formatter.format(other)  # a real crash keeps it


def test_the_console_writes_to_the_stderr_of_the_moment(monkeypatch: Any) -> None:
    """A log line goes to ``sys.stderr`` as it is when the line is written: pytest swaps
    it for each test and closes the old one, and the task worker's thread beside a live
    server logged to the closed one ("I/O operation on closed file" in CI's output)."""
    import io
    import logging
    import sys

    console = next(h for h in logging.getLogger().handlers if h.name == "console")
    first, now = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    first.close()
    monkeypatch.setattr(sys, "stderr", now)
    console.emit(logging.LogRecord("tutorial", logging.INFO, __file__, 1, "hello", None, None))
    assert now.getvalue() == "hello\n"
