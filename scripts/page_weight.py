#!/usr/bin/env python3
"""Page weight: the first-load bytes of each page type, as sent over the wire.

Starts the production stack on 127.0.0.1 (scripts/serve_prod.sh via scripts/prodserver.py:
DEBUG=0, collectstatic, WhiteNoise) unless ``--base-url`` points at a running server, then
for each page type in ``prodserver.PAGE_TYPES`` that exists:

* fetches the HTML and every CSS, JS, image, icon and font it references (CSS ``url()`` and
  ``@import`` followed), asking for ``Accept-Encoding: br, gzip`` and counting the bytes as
  sent: WhiteNoise serves its precompressed ``.br``/``.gz`` files, Django's GZipMiddleware
  compresses the HTML (a page sent uncompressed counts with its full size);
* prints the figure per page and flags any page over the budget (100 KB);
* flags any reference to another host (src/href/action/srcset/url(): the site must be
  self-contained) and hashed static files without a far-future ``immutable`` Cache-Control.

Exit status 1 when anything is flagged.  Pages not there yet are skipped with a message.

    .venv/bin/python scripts/page_weight.py [--base-url http://127.0.0.1:8000] [--lang en]
"""

from __future__ import annotations

import argparse
import gzip
import html.parser
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prodserver import PAGE_TYPES, Browser, production_server

BUDGET = 100 * 1024
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
FAR_FUTURE = "max-age=315360000"
ACCEPT = {"Accept-Encoding": "br, gzip"}


class _Refs(html.parser.HTMLParser):
    """Collects what a browser loads (``loads``) and every other URL (``links``)."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[tuple[str, str]] = []  # (kind, url)
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        rel = a.get("rel", "").lower().split()
        if tag == "link" and a.get("href"):
            if "stylesheet" in rel:
                self.loads.append(("css", a["href"]))
            elif {"icon", "preload", "modulepreload", "apple-touch-icon", "manifest"} & set(rel):
                self.loads.append(("img" if "icon" in " ".join(rel) else "other", a["href"]))
            else:
                self.links.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.loads.append(("js", a["src"]))
        elif tag in {"img", "source", "input", "video", "audio", "iframe", "embed", "track"}:
            for attr in ("src", "poster"):
                if a.get(attr):
                    self.loads.append(("img", a[attr]))
            for part in a.get("srcset", "").split(","):
                if part.strip():
                    self.loads.append(("img", part.split()[0]))
        elif tag == "object" and a.get("data"):
            self.loads.append(("other", a["data"]))
        for attr in ("href", "action", "formaction", "hx-get", "hx-post", "xlink:href"):
            if a.get(attr) and not (tag == "link" and attr == "href"):
                self.links.append(a[attr])


CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")


@dataclass
class Weight:
    name: str
    path: str
    by_kind: dict[str, int] = field(default_factory=lambda: {
        "html": 0, "css": 0, "js": 0, "img": 0, "other": 0})
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())


def is_external(url: str, base: str) -> bool:
    if url.startswith(("data:", "#", "mailto:", "tel:", "javascript:")):
        return False
    host = urlsplit(urljoin(base, url)).hostname
    return host is not None and host not in LOCAL_HOSTS


def weigh(browser: Browser, name: str, path: str) -> Weight:
    weight = Weight(name, path)
    page_url = browser.base + path
    status, body, headers = browser.get(path, ACCEPT)
    weight.by_kind["html"] = len(body)
    text = gzip.decompress(body) if headers.get("Content-Encoding") == "gzip" else body
    refs = _Refs()
    refs.feed(text.decode("utf-8", "replace"))
    for url in refs.links:
        if is_external(url, page_url):
            weight.notes.append(f"links to another host: {url}")
    seen: set[str] = set()
    queue = [(kind, urljoin(page_url, url)) for kind, url in refs.loads]
    while queue:
        kind, url = queue.pop(0)
        if url.startswith("data:") or url.split("#")[0] in seen:
            continue
        url = url.split("#")[0]
        seen.add(url)
        if is_external(url, page_url):
            weight.problems.append(f"loads from another host: {url}")
            continue
        status, asset, headers = browser.get(url, ACCEPT)
        if status != 200:
            weight.problems.append(f"{status} for {url}")
            continue
        if kind == "other" and url.endswith((".woff2", ".woff", ".ttf")):
            kind = "other"
        weight.by_kind[kind] += len(asset)
        asset_path = urlsplit(url).path
        if HASHED.search(asset_path) and not (
            FAR_FUTURE in headers.get("Cache-Control", "")
            and "immutable" in headers.get("Cache-Control", "")
        ):
            weight.problems.append(
                f"hashed file without far-future caching: {asset_path} "
                f"(Cache-Control: {headers.get('Cache-Control')})"
            )
        if asset_path.startswith("/static/") and not HASHED.search(asset_path):
            weight.problems.append(f"static file without a hashed name: {asset_path}")
        if kind == "css":
            _, plain, _ = browser.get(url)
            for match in CSS_URL.finditer(plain.decode("utf-8", "replace")):
                ref = match.group(1) or match.group(2)
                ref_kind = "css" if match.group(2) else (
                    "other" if re.search(r"\.(woff2?|ttf|otf)(\?|$)", ref) else "img")
                queue.append((ref_kind, urljoin(url, ref)))
    return weight


def report(weights: list[Weight], skipped: list[str]) -> int:
    print(f"{'page':<16} {'path':<34} {'html':>7} {'css':>7} {'js':>7} {'img':>7} "
          f"{'other':>6} {'total':>8}")
    failed = False
    for w in weights:
        k = w.by_kind
        over = w.total > BUDGET
        flag = "  OVER 100 KB" if over else ""
        print(f"{w.name:<16} {w.path[:34]:<34} {k['html']:>7} {k['css']:>7} {k['js']:>7} "
              f"{k['img']:>7} {k['other']:>6} {w.total / 1024:>6.1f}KB{flag}")
        for problem in w.problems:
            print(f"    FLAG: {problem}")
        for note in sorted(set(w.notes)):
            print(f"    note: {note}")
        failed = failed or over or bool(w.problems)
    for message in skipped:
        print(f"skipped: {message}")
    print("bytes as sent (Accept-Encoding: br, gzip): static files as WhiteNoise serves them, "
          "HTML as Django sends it.")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", help="measure a running server instead of starting one")
    parser.add_argument("--lang", default="zh-hans", help="Accept-Language (zh-hans or en)")
    args = parser.parse_args()

    def run(base: str) -> int:
        browser = Browser(base, args.lang)
        weights: list[Weight] = []
        skipped: list[str] = []
        for page_type in PAGE_TYPES:
            path, why = page_type.resolve(browser)
            if path is None:
                skipped.append(why)
                continue
            weights.append(weigh(browser, page_type.name, path))
        return report(weights, skipped)

    if args.base_url:
        return run(args.base_url.rstrip("/"))
    with production_server() as base:
        return run(base)


if __name__ == "__main__":
    sys.exit(main())
