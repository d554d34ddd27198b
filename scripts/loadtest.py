#!/usr/bin/env python3
"""Load test: gunicorn with the production settings on 127.0.0.1, driven by ``wrk``.

Starts scripts/serve_prod.sh (via scripts/prodserver.py: DEBUG=0, collectstatic, migrate,
a throwaway SQLite database unless DATABASE_URL is set), then runs ``wrk`` for a fixed
time with a fixed number of connections against each target, in one run:

* a WhiteNoise static file (the hashed site.css) — measured before each page and once at
  the end: each page's throughput is printed as a share of the mean of the two static
  runs around it (robust to a machine whose load changes during the run);
* every GET page type of ``prodserver.PAGE_TYPES`` (target: each ≥ 30 % of the static
  file's throughput), as a first-time visitor without cookies asking for gzip, after a
  2 s warm-up (each gunicorn worker keeps its own page cache: its first request of a page
  renders it);
* a table action: POST /table/ (start a practice table) with a CSRF token and a session
  per connection (a small generated wrk Lua script; no target: it writes).

Targets whose page is not there yet are skipped with a message.  Installs Debian's wrk
with apt-get if it is missing.  Only 127.0.0.1 is ever contacted.

    .venv/bin/python scripts/loadtest.py [--duration 10] [--connections 8] [--threads 2]
                                         [--workers N] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prodserver import PAGE_TYPES, Browser, production_server

TARGET_RATIO = 0.30  # every GET page vs. the static file
WARM_UP = 2  # seconds of wrk before each GET target's measured run (not counted)


@dataclass(frozen=True)
class Target:
    name: str
    # a path, or a function finding one on the running site (None: not there yet)
    path: str | Callable[[Browser], str | None]
    post: dict[str, str] | None = None  # form fields: POST to the path (GET it first)


def static_css(browser: Browser) -> str | None:
    status, body, _ = browser.get("/")
    match = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body.decode())
    return match.group(1) if status == 200 and match else None


TARGETS: list[Target] = [
    *(Target(page.name, page.path) for page in PAGE_TYPES),
    Target("table: start (POST)", "/table/",
           post={"bots": "3", "level": "simple", "stakes": "1、3", "mango": "fixed"}),
]


@dataclass
class Result:
    name: str
    path: str
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    bad: int  # non-2xx/3xx responses + socket errors


def ensure_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    print("loadtest: wrk is missing, installing Debian's wrk with apt-get", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    if subprocess.run([*sudo, "apt-get", "install", "-y", "wrk"], check=False).returncode:
        subprocess.run([*sudo, "apt-get", "update"], check=True)
        subprocess.run([*sudo, "apt-get", "install", "-y", "wrk"], check=True)
    wrk = shutil.which("wrk")
    if not wrk:
        sys.exit("loadtest: could not install wrk")
    return wrk


def _ms(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def parse_wrk(name: str, path: str, out: str) -> Result:
    def find(pattern: str) -> re.Match[str]:
        match = re.search(pattern, out)
        if not match:
            raise RuntimeError(f"unexpected wrk output for {name}:\n{out}")
        return match

    bad = 0
    if m := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        bad += int(m.group(1))
    if m := re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out):
        bad += sum(int(g) for g in m.groups())
    return Result(
        name=name, path=path,
        rps=float(find(r"Requests/sec:\s+([\d.]+)").group(1)),
        p50_ms=_ms(find(r"\s50%\s+([\d.]+\w+)").group(1)),
        p99_ms=_ms(find(r"\s99%\s+([\d.]+\w+)").group(1)),
        requests=int(find(r"(\d+) requests in").group(1)),
        bad=bad,
    )


def lua_post(base: str, path: str, fields: dict[str, str], sessions: int, tmp: Path) -> Path:
    """A wrk script POSTing ``fields`` to ``path``, rotating over ``sessions`` sessions, each
    with its own CSRF cookie and token (fetched by GETting the form page first)."""
    requests = []
    for _ in range(sessions):
        browser = Browser(base)
        status, _, _ = browser.get(path)
        token = browser.cookie("csrftoken")
        if status != 200 or not token:
            raise RuntimeError(f"GET {path}: {status}, csrftoken cookie {token!r}")
        cookies = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
        form = urlencode({**fields, "csrfmiddlewaretoken": token})
        requests.append((cookies, token, form))
    headers = (
        "['Content-Type']='application/x-www-form-urlencoded', ['Accept-Encoding']='gzip, br'"
    )
    entries = ",\n".join(
        f"  wrk.format('POST', {_lua_str(path)}, {{['Cookie']={_lua_str(cookies)}, "
        f"['X-CSRFToken']={_lua_str(token)}, {headers}}}, {_lua_str(form)})"
        for cookies, token, form in requests
    )
    script = tmp / "post.lua"
    script.write_text(
        "local reqs = {\n" + entries + "\n}\n"
        "local i = 0\n"
        "request = function()\n  i = i % #reqs + 1\n  return reqs[i]\nend\n"
    )
    return script


def _lua_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def settle(browser: Browser, pause: float = 2.0) -> None:
    """Let the server drain what the previous run queued (wrk stops sending, the workers
    may still be busy), so one target's backlog does not slow the next one."""
    time.sleep(pause)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        start = time.monotonic()
        status, _, _ = browser.get("/healthz")
        if status == 200 and time.monotonic() - start < 0.05:
            return
        time.sleep(0.5)


def run_wrk(wrk: str, url: str, args: argparse.Namespace, script: Path | None = None,
            seconds: int | None = None) -> str:
    command = [wrk, "--latency", "-t", str(args.threads), "-c", str(args.connections),
               "-d", f"{seconds or args.duration}s", "--timeout", "10s",
               "-H", "Accept-Encoding: gzip, br", "-H", "Accept-Language: zh-hans"]
    if script:
        command += ["-s", str(script)]
    return subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per target")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: serve_prod's)")
    parser.add_argument("--only", nargs="*", help="target names (substring match)")
    parser.add_argument("--verbose", action="store_true", help="print wrk's own output")
    args = parser.parse_args()
    wrk = ensure_wrk()
    load_before = os.getloadavg()[0]

    with production_server(workers=args.workers) as base, \
            tempfile.TemporaryDirectory(prefix="chexuan-wrk-") as tmp_name:
        tmp = Path(tmp_name)
        browser = Browser(base)
        static = static_css(browser)
        if static is None:
            sys.exit("loadtest: no hashed site.css on the home page: is collectstatic working?")
        print(f"loadtest: {base}, {args.connections} connections, {args.threads} threads, "
              f"{args.duration} s per target", flush=True)

        def measure(name: str, path: str, script: Path | None = None) -> Result:
            if script is None:  # warm up: every worker renders (and caches) the page once
                run_wrk(wrk, base + path, args, seconds=WARM_UP)
            settle(browser)
            out = run_wrk(wrk, base + path, args, script)
            if args.verbose:
                print(out)
            result = parse_wrk(name, path, out)
            print(f"  {name:<22} {result.rps:>8.0f} req/s  p50 {result.p50_ms:7.1f} ms  "
                  f"p99 {result.p99_ms:7.1f} ms", flush=True)
            return result

        # The static file is measured before each page and once more at the end; a page's
        # ratio is against the mean of the static runs on either side of it, so a machine
        # that gets busier or quieter during the run skews the ratios less.
        statics: list[Result] = []
        results: list[tuple[Result, float, bool]] = []
        skipped: list[str] = []
        for target in TARGETS:
            if args.only and not any(o in target.name for o in args.only):
                continue
            path = target.path(browser) if callable(target.path) else target.path
            if path is None:
                skipped.append(f"{target.name}: not there yet (no link to one found)")
                continue
            status, path = browser.land(path)  # measure the page, not a redirect to it
            if status != 200:
                skipped.append(f"{target.name}: not there yet (GET {path} answers {status})")
                continue
            script = None
            if target.post is not None:
                script = lua_post(base, path, target.post, args.connections, tmp)
            before = statics[-1] if statics else measure("static file", static)
            if not statics:
                statics.append(before)
            result = measure(target.name, path, script)
            after = measure("static file", static)
            statics.append(after)
            results.append((result, (before.rps + after.rps) / 2, target.post is None))
        if not statics:
            statics.append(measure("static file", static))

    print()
    rates = [r.rps for r in statics]
    drift = (max(rates) - min(rates)) / max(rates)
    if drift > 0.25:
        print(f"note: the static file's throughput ranged {min(rates):.0f}-{max(rates):.0f} "
              "req/s during the run (the machine is shared): ratios use the static runs "
              "adjacent to each page.")
    print(f"{'target':<22} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs static':>10}  path")
    failed = False
    best = max(statics, key=lambda r: r.rps)
    print(f"{'static file (best)':<22} {best.rps:>8.0f} {best.p50_ms:>8.1f} {best.p99_ms:>8.1f} "
          f"{'100%':>10}  {best.path[:40]}")
    below = 0
    for r, reference, is_get in results:
        ratio = r.rps / reference
        note = ""
        if r.bad:
            note += f"  {r.bad} bad responses/errors of {r.requests}"
            failed = True
        if is_get and ratio < TARGET_RATIO:
            note += f"  BELOW TARGET ({TARGET_RATIO:.0%})"
            below += 1
            failed = True
        print(f"{r.name:<22} {r.rps:>8.0f} {r.p50_ms:>8.1f} {r.p99_ms:>8.1f} "
              f"{ratio:>9.0%}  {r.path[:40]}{note}")
    for message in skipped:
        print(f"skipped: {message}")
    gets = sum(is_get for _, _, is_get in results)
    print(f"GET pages at or above {TARGET_RATIO:.0%} of the static file: {gets - below} of "
          f"{gets}; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after "
          "(a shared machine: other work competes for the same cores)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
