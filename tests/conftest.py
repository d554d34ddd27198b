"""Shared test fixtures.

Browser fixtures (Playwright sync API driving Debian's /usr/bin/chromium; never run
``playwright install``).  Names are chosen not to clash with pytest-playwright:

* ``chromium_browser`` (session): the launched browser.
* ``browser_page`` (function): a new context + page per test, viewport 1280x900,
  Chinese Accept-Language.  ``phone_page`` is the same at a phone size (390x844),
  ``nojs_page`` the same with JavaScript turned off.
* ``screenshot``: ``screenshot(page, "name")`` saves tests/artifacts/name.png (full page).
* ``axe``: ``axe(page)`` runs axe-core and fails on serious/critical violations.

Every page fixture fails its test on a request to another host, any console error (a
Content-Security-Policy violation among them), an uncaught script error, a failed request
or an HTTP response of 400 or more.  A test that provokes 4xx answers on purpose says so
with ``@pytest.mark.allow_http_errors`` (then 4xx responses, and the console lines the
browser writes about them, are allowed; 5xx never are).

Browser tests use pytest-django's ``live_server`` and are marked ``@pytest.mark.browser``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

# Playwright's sync API runs an event loop in the test thread; Django would otherwise
# refuse ORM calls from it (SynchronousOnlyOperation).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # no name but this machine's resolves: a request to another host fails at once
    # (and is reported by the page fixtures) instead of reaching the network
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


TEST_DB_FOLDER = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    # The manifest storage of production needs `collectstatic`; tests use plain storage.
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Serve static files straight from the apps and static/ (no collectstatic in tests).
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    # On SQLite the test database is a file, as the site's is: a live server and the task
    # worker beside it (two threads, two connections) then wait for each other's locks
    # (WAL, busy timeout) where an in-memory database shared between threads would fail
    # at once ("database table is locked").
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        import tempfile

        folder = tempfile.mkdtemp(prefix="chexuan-test-db-")
        config.stash[TEST_DB_FOLDER] = folder
        database["TEST"] = {**database.get("TEST", {}), "NAME": f"{folder}/test.sqlite3"}


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    folder = config.stash.get(TEST_DB_FOLDER, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language: a test that activates English
    (``translation.activate``) without deactivating it left the rest of its worker's
    tests in English, and a test that reads a Chinese sentence failed after it."""
    from django.utils import translation

    translation.activate("zh-hans")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_page_cache() -> None:
    """Each test starts with an empty cache (whole pages are cached per process)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _task_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Beside a live server, a task worker (the worker's own loop, in a thread on the
    test database) runs what its pages queue: reviews, prices, expert moves."""
    if "live_server" not in request.fixturenames:
        yield
        return
    import threading

    from django.db import connection
    from django_tasks_db.management.commands.db_worker import Worker

    request.getfixturevalue("live_server")
    worker = Worker(queue_names=["*"], interval=0.1, batch=False, backend_name="default",
                    startup_delay=False, max_tasks=None, worker_id="live",
                    excluded_queue_names=[])

    def run() -> None:
        try:
            worker.run()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield
    worker.running = False
    thread.join(timeout=30)


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test does)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _allows_http_errors(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("allow_http_errors") is not None


def watch(context: Any, page: Any, problems: list[str], *, allow_4xx: bool = False) -> None:
    """Record on ``page`` what must never happen on our pages: a console error, an uncaught
    script error, a failed request, an HTTP error response (4xx only if ``allow_4xx``)."""

    def console(msg: Any) -> None:
        if msg.type != "error":
            return
        if allow_4xx and re.search(r"status of 4\d\d", msg.text):
            return  # the browser's own line about an expected 4xx response
        problems.append(f"console: {msg.text}")

    def response(resp: Any) -> None:
        if resp.status >= 500 or (resp.status >= 400 and not allow_4xx):
            problems.append(f"HTTP {resp.status}: {resp.request.method} {resp.url}")

    def failed(req: Any) -> None:
        # ERR_ABORTED is the browser cancelling a request itself (a navigation leaves the
        # page before the favicon arrived, htmx drops a superseded request): no failure.
        if not context.closing and req.failure != "net::ERR_ABORTED":
            problems.append(f"request failed ({req.failure}): {req.method} {req.url}")

    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("console", console)
    page.on("response", response)
    page.on("requestfailed", failed)


class _Context:
    """A browser context that knows when it is being closed (requests cut off then are
    not failures of the page)."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.closing = False


def _new_page(browser: Any, viewport: dict[str, int], allow_4xx: bool,
              javascript: bool = True) -> Iterator[Any]:
    """A page that records what must never happen on our pages (see :func:`watch`) and
    requests to another host; the test fails on any."""
    context = browser.new_context(viewport=viewport, locale="zh-CN",
                                  java_script_enabled=javascript)
    state = _Context(context)
    problems: list[str] = []

    def request(req: Any) -> None:
        # a listener, not a route: routing every request through Python would also turn
        # off the browser's cache (each page load several times slower)
        host = urlsplit(req.url).hostname
        if not req.url.startswith(("data:", "blob:")) and host not in LOCAL_HOSTS:
            problems.append(f"third-party request: {req.url}")

    context.on("request", request)
    page = context.new_page()
    watch(state, page, problems, allow_4xx=allow_4xx)
    context.on("page", lambda other: watch(state, other, problems, allow_4xx=allow_4xx))
    page.set_default_timeout(10_000)
    yield page
    state.closing = True
    context.close()
    if problems:
        pytest.fail("browser problems:\n" + "\n".join(problems))


@pytest.fixture
def browser_page(chromium_browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh desktop-size page (new browser context per test)."""
    yield from _new_page(chromium_browser, DESKTOP, _allows_http_errors(request))


@pytest.fixture
def nojs_page(chromium_browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh desktop-size page with JavaScript turned off."""
    yield from _new_page(chromium_browser, DESKTOP, _allows_http_errors(request), False)


@pytest.fixture
def phone_page(chromium_browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh phone-size page (390x844)."""
    yield from _new_page(chromium_browser, PHONE, _allows_http_errors(request))


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """``screenshot(page, name, full_page=True)`` -> path of tests/artifacts/<name>.png."""

    def take(page: Any, name: str, *, full_page: bool = True) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
        # caret="initial": Playwright's default hides the caret with an injected inline
        # style, which the strict CSP reports (and htmx may copy into swapped inputs).
        page.screenshot(path=str(path), full_page=full_page, caret="initial")
        return path

    return take


@pytest.fixture
def axe() -> Callable[..., Any]:
    """``axe(page)`` runs axe-core on the page; fails on serious or critical violations."""
    from axe_playwright_python.sync_playwright import Axe

    checker = Axe()

    def run(page: Any, *, impacts: tuple[str, ...] = ("serious", "critical")) -> Any:
        results = checker.run(page)
        bad = [v for v in results.response["violations"] if v.get("impact") in impacts]
        if bad:
            lines = [
                f"{v['id']} ({v['impact']}): {v['help']} -> "
                + ", ".join(" ".join(n["target"]) for n in v["nodes"][:5])
                for v in bad
            ]
            pytest.fail("accessibility violations:\n" + "\n".join(lines))
        return results

    return run
