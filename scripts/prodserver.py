"""Start the production stack (scripts/serve_prod.sh: collectstatic, migrate, gunicorn) on
127.0.0.1 for a measurement, and the page types the measurements visit.

Used by scripts/page_weight.py and scripts/loadtest.py.  The server runs with DEBUG=0 and a
throwaway SECRET_KEY, over plain HTTP (SECURE_SSL_REDIRECT=0, SECURE_COOKIES=0, no HSTS),
on a throwaway SQLite database unless DATABASE_URL is set.
"""

from __future__ import annotations

import html.parser
import http.cookiejar
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def production_server(workers: int | None = None, quiet: bool = True) -> Iterator[str]:
    """Yield the base URL (http://127.0.0.1:PORT) of a running production server."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="chexuan-prod-") as tmp:
        env = dict(os.environ)
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        env.update({
            "DEBUG": "0",
            "SECRET_KEY": env.get("SECRET_KEY") or secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            "PORT": str(port),
            "LOG_LEVEL": env.get("LOG_LEVEL", "WARNING"),
        })
        if "DATABASE_URL" not in env:
            env.update(DATABASE_URL=f"sqlite:///{tmp}/db.sqlite3", DATABASE_CREATE="1")
        if workers is not None:
            env["WEB_CONCURRENCY"] = str(workers)
        log = open(Path(tmp) / "server.log", "w+")
        proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "serve_prod.sh")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(base, proc, log)
            yield base
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            if not quiet:
                log.seek(0)
                sys.stderr.write(log.read())
            log.close()


def _wait_healthy(base: str, proc: subprocess.Popen[bytes], log: IO[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError("the production server exited:\n" + log.read())
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    raise RuntimeError("the production server did not become healthy within 120 s")


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def links(page_html: str) -> list[str]:
    parser = _Links()
    parser.feed(page_html)
    return parser.hrefs


class Browser:
    """A tiny cookie-keeping HTTP client (stdlib only) for one server."""

    def __init__(self, base: str, language: str = "zh-hans") -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.language = language

    def get(
        self, path: str, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, dict[str, str]]:
        """GET ``path`` (or a full URL): status, body as sent (not decompressed), headers."""
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(
            url, headers={"Accept-Language": self.language, **(headers or {})}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read(), dict(response.headers.items())
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers.items())

    def land(self, path: str) -> tuple[int, str]:
        """GET ``path`` following redirects: (final status, final path with query)."""
        request = urllib.request.Request(self.base + path, headers={
            "Accept-Language": self.language})
        try:
            with self.opener.open(request, timeout=30) as response:
                final = response.geturl()
                status = response.status
        except urllib.error.HTTPError as error:
            return error.code, path
        return status, final[len(self.base):] if final.startswith(self.base) else path

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)


@dataclass(frozen=True)
class PageType:
    """One kind of page to measure.  ``path`` is a path, or a function that finds one
    from the running site (returns None when the page is not there yet)."""

    name: str
    path: str | Callable[[Browser], str | None]

    def resolve(self, browser: Browser) -> tuple[str | None, str]:
        """(path, "") when the page answers 200, else (None, why it is skipped)."""
        path = self.path(browser) if callable(self.path) else self.path
        if path is None:
            return None, f"{self.name}: not there yet (no link to one found)"
        status, final = browser.land(path)
        if status != 200:
            return None, f"{self.name}: not there yet ({path} answers {status})"
        return final, ""


def first_link(listing: str, pattern: str) -> Callable[[Browser], str | None]:
    """The first link on ``listing`` whose path matches ``pattern`` (a regex)."""

    def find(browser: Browser) -> str | None:
        status, body, _ = browser.get(listing)
        if status != 200:
            return None
        for href in links(body.decode("utf-8", "replace")):
            if re.fullmatch(pattern, href.split("#")[0]):
                return href.split("#")[0]
        return None

    return find


# Page types in learning order: every kind of GET page (page_weight.py and loadtest.py
# measure each).  Add a row when a new kind of page lands.
PAGE_TYPES: list[PageType] = [
    PageType("home", "/"),
    PageType("course", "/course/"),
    PageType("course lesson", first_link("/course/", r"/course/(?!table/)[^/?#]+/")),
    PageType("course exercise", "/course/cards/1/"),
    PageType("cards", "/cards/"),
    PageType("pairs", "/pairs/"),
    PageType("pairs search", "/pairs/?q=%E5%A4%A9%E4%B9%9D"),  # ?q=天九
    PageType("pair page", first_link("/pairs/", r"/pairs/(?!four/)[^/?]+/")),
    PageType("four cards", "/pairs/four/"),
    PageType("rules", "/rules/"),
    PageType("rules chart", "/rules/chart/"),
    PageType("rules app", "/rules/app/"),
    PageType("rules compare", "/rules/compare/"),
    PageType("splits", "/splits/"),
    PageType("splits table", "/splits/table/"),
    PageType("squeeze", "/squeeze/"),
    PageType("glossary", "/glossary/"),
    PageType("quiz", "/quiz/"),
    PageType("quiz question", first_link("/quiz/", r"/quiz/(?!progress/|review/)[^#]+")),
    PageType("quiz progress", "/quiz/progress/"),
    PageType("quiz review", "/quiz/review/"),
    PageType("walkthroughs", "/walkthroughs/"),
    PageType("walkthrough step", first_link("/walkthroughs/", r"/walkthroughs/[^#]+")),
    PageType("table", "/table/"),
    PageType("calc", "/calc/"),
    PageType("night", "/night/"),
    PageType("coach", "/coach/"),
    PageType("login", "/accounts/login/"),
    PageType("sign-up", "/accounts/signup/"),
]
