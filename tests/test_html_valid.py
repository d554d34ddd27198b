"""Every page is valid HTML: the W3C Nu HTML checker (vnu.jar, npm's ``vnu-jar``, run by
Java) reports no error, in Chinese and in English.

The pages are found by walking the site the way a visitor does: start from the site walk's
page list (tests/test_site_walk.py ``PAGES``) and its stateful scenarios (a quiz answer's
feedback, a table mid-hand, a game night …) plus a coached practice table, then follow every
same-site link of every page, at most ``PER_ROUTE`` more addresses per URL route.  A new
page is checked as soon as a page links to it; a URL route that no walk reaches fails the
test: link it, add an address to ``PAGES`` or a scenario, or list the route in
``NOT_PAGES`` when it answers no HTML page to a GET.

All pages of one language are saved to a folder and checked by one run of the checker (one
JVM start).  htmx attributes (``hx-get`` …) are not HTML: only the checker's "Attribute
“hx-…” not allowed" errors are left out.  ``make test`` installs Java (Debian's
default-jre-headless) and vnu-jar (package.json, ``npm ci``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from tests.coach_hands import coached
from tests.test_accounts import FAST_HASHER, signup
from tests.test_site_walk import PAGES, SCENARIOS, _run

ROOT = Path(__file__).resolve().parent.parent
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
PER_ROUTE = 5  # addresses found by following links, per route (the start list: all)
# Routes that answer no HTML page to a plain GET (POST-only actions, files, htmx fragments;
# coach-retry-raise answers a form with an amount).
NOT_PAGES = {
    "coach-summary", "coach-retry-raise", "coach-retry-raise-ask", "coach-review-ask",
    "healthz", "switch_language", "table-act", "table-bot", "table-squeeze",
    "table-squeeze-card", "night_csv", "coach-switch", "coach-review-rest",
    "coach-export", "teaching_stop", "logout", "account_data", "recovery_codes",
}
ACCOUNT_PAGES = ["account", "password_change", "account_delete"]  # logged in
HTMX_ATTRIBUTE = re.compile(r"^Attribute “hx-[a-z-]+” not allowed on element")

pytestmark = pytest.mark.django_db


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _route(path: str) -> str | None:
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name


class Walk:
    """The pages a visitor with one client reaches: address → HTML."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.pages: dict[str, str] = {}
        self.routes: Counter[str] = Counter()
        self.queue: list[str] = []

    def add(self, name: str, response: object, status: int = 200) -> None:
        assert getattr(response, "status_code", None) == status, name
        html = response.content.decode()  # type: ignore[attr-defined]
        self.pages[name] = html
        parser = _Links()
        parser.feed(html)
        for href in parser.hrefs:
            href = href.split("#")[0]
            if href.startswith("/") and not href.startswith("/static/"):
                self.queue.append(href)

    def crawl(self, start: list[str]) -> None:
        """Visit every address of ``start``, then follow links (``PER_ROUTE`` per route)."""
        self.queue = start + self.queue
        listed = set(start)
        seen: set[str] = set(self.pages)
        while self.queue:
            path = self.queue.pop(0)
            route = _route(path)
            if path in seen or route is None or route in NOT_PAGES:
                continue
            seen.add(path)
            if path not in listed and self.routes[route] >= PER_ROUTE:
                continue
            self.routes[route] += 1
            response = self.client.get(path)
            if response.status_code in (301, 302, 303):
                self.queue.append(response["Location"])
            else:
                assert response.status_code in (200, 400), (path, response.status_code)
                assert response["Content-Type"].startswith("text/html"), path
                self.add(path, response, response.status_code)


def walk(language: str, monkeypatch: pytest.MonkeyPatch) -> Walk:
    """Every page of the site in ``language`` (site walk pages, scenarios, a coached table),
    then the pages of a learner who signed up."""
    client, table = coached(monkeypatch, hands=1)
    if language == "en":
        client.cookies["django_language"] = "en"
    else:
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-CN"
    site = Walk(client)
    for name in SCENARIOS:
        response = _run(name, client, monkeypatch)
        site.routes[str(_route(response.request["PATH_INFO"]))] += 1
        site.add(f"scenario:{name}", response)
    site.crawl(["/", *PAGES, f"/coach/{table}/", f"/table/{table}/",
                f"/table/{table}/history"])
    signed_up = signup(client, "learner")  # the recovery codes page (or a redirect to it)
    while signed_up.status_code in (302, 303):
        signed_up = client.get(signed_up["Location"])
    site.add("scenario:signed-up", signed_up)
    site.crawl([reverse(name) for name in ACCOUNT_PAGES])
    return site


def vnu(folder: Path) -> list[dict[str, object]]:
    """The checker's error messages for every .html file in ``folder``."""
    java = shutil.which("java")
    if java is None or not VNU_JAR.exists():
        pytest.fail("Java or vnu.jar is missing: `make test` installs both "
                    "(apt-get install default-jre-headless; npm ci)")
    result = subprocess.run(
        [java, "-Xss4m", "-jar", str(VNU_JAR), "--format", "json", "--errors-only",
         "--exit-zero-always", str(folder)],
        capture_output=True, text=True, timeout=600, check=True,
    )
    messages: list[dict[str, object]] = json.loads(result.stderr)["messages"]
    return [m for m in messages
            if not (m.get("type") == "error" and HTMX_ATTRIBUTE.match(str(m.get("message"))))]


def _save(pages: dict[str, str], folder: Path) -> dict[str, str]:
    """Write each page to ``folder``; file name → address."""
    names = {}
    for n, (address, html) in enumerate(sorted(pages.items())):
        name = f"{n:04d}.html"
        (folder / name).write_text(html)
        names[name] = address
    return names


def _report(messages: list[dict[str, object]], names: dict[str, str]) -> list[str]:
    lines = []
    for m in messages:
        file = Path(urlsplit(str(m.get("url", ""))).path).name
        lines.append(f"{names.get(file, file)}:{m.get('lastLine')}: {m.get('message')} "
                     f"[{str(m.get('extract', '')).strip()[:120]}]")
    return lines


def _routes(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, str]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{entry.namespace}:" if entry.namespace else ""
            yield from ((prefix + namespace + n, p) for n, p in _routes(entry))
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name, str(entry.pattern)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_page_is_valid_html(language: str, tmp_path: Path, settings: Any,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    settings.PASSWORD_HASHERS = FAST_HASHER
    site = walk(language, monkeypatch)
    assert len(site.pages) > 150  # the walk really went through the site
    routes = {name for name, _ in _routes(get_resolver())}
    assert routes - set(site.routes) - NOT_PAGES == set(), "routes no walk reaches"
    names = _save(site.pages, tmp_path)
    errors = _report(vnu(tmp_path), names)
    assert errors == [], f"{len(errors)} errors:\n" + "\n".join(errors[:200])


def test_the_checker_finds_errors_and_leaves_out_only_htmx(tmp_path: Path) -> None:
    (tmp_path / "bad.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body>'
        '<p aria-label="x" hx-get="/">a</p><form action=""></form></body></html>')
    messages = [str(m["message"]) for m in vnu(tmp_path)]
    assert any("aria-label" in m for m in messages)
    assert any("action" in m for m in messages)
    assert not any("hx-get" in m for m in messages)
