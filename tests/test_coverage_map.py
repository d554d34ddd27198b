"""The coverage map of the source texts (tutorial/content/coverage.json, issue 13).

Every rule, term, nickname, variant and worked example of each seed is an entry with the
page and anchor that teaches it.  The test renders each page once with Django's test
client and checks that the element with that id (for a heading: the section around it)
contains the entry's term.  Entries whose page has not landed yet sit in the file's
``pending`` list: they are reported as a warning on every run, never silently skipped.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "tutorial" / "content" / "coverage.json"
SEEDS = ("000", "001", "002", "003", "004")
KINDS = {"term", "nickname", "rule", "variant", "example", "card", "group"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _Tree(HTMLParser):
    """The text inside each element that has an id (a heading's: its parent's)."""

    VOID: ClassVar[set[str]] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                                "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, list[str]]] = []
        self.text: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        self.stack.append((tag, dict(attrs).get("id"), []))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                while len(self.stack) > i:
                    name, ident, parts = self.stack.pop()
                    inner = "".join(parts)
                    if self.stack:
                        self.stack[-1][2].append(inner)
                    if ident:
                        self.text[ident] = inner
                    if name in HEADINGS and self.stack and ident:
                        self.stack[-1][2].append(f"\0{ident}\0")  # resolved at the parent
                break

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1][2].append(data)


def texts_by_id(html: str) -> dict[str, str]:
    """id → the text of that element; for a heading, the text of the element around it."""
    tree = _Tree()
    tree.feed(html)
    tree.close()
    out: dict[str, str] = {}
    marker = re.compile(r"\0([^\0]+)\0")
    for ident, text in tree.text.items():
        for heading in marker.findall(text):
            out[heading] = marker.sub("", text)
        out.setdefault(ident, marker.sub("", text))
    return {k: "".join(v.split()) for k, v in out.items()}


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MAP.read_text("utf-8"))
    return data


def test_every_entry_is_well_formed_and_every_seed_is_mapped() -> None:
    data = load()
    for entry in data["entries"]:
        assert entry["seed"] in SEEDS and entry["kind"] in KINDS and entry["term"], entry
        assert re.fullmatch(r"/[^#\s]*#\S+", entry["page"]), f"no page and anchor: {entry}"
    for entry in data["pending"]:
        assert entry["seed"] in SEEDS and entry["kind"] in KINDS and entry["term"], entry
        assert entry.get("note"), f"a pending entry says what is missing: {entry}"
    assert {e["seed"] for e in data["entries"]} == set(SEEDS)


@pytest.mark.django_db
def test_every_entry_is_taught_at_its_anchor(client: Client) -> None:
    by_page: dict[str, list[dict[str, str]]] = defaultdict(list)
    for entry in load()["entries"]:
        by_page[entry["page"].partition("#")[0]].append(entry)
    problems = []
    for path, entries in sorted(by_page.items()):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-CN")
        if response.status_code != 200:
            problems += [f"{e['page']}: status {response.status_code} ({e['term']})"
                         for e in entries]
            continue
        texts = texts_by_id(response.content.decode())
        for e in entries:
            anchor = e["page"].partition("#")[2]
            if anchor not in texts:
                problems.append(f"{e['page']}: no element with this id ({e['seed']} {e['term']})")
            elif "".join(e["term"].split()) not in texts[anchor]:
                problems.append(f"{e['page']}: {e['term']!r} not there ({e['seed']})")
    assert problems == []


def test_pending_entries_are_reported() -> None:
    pending = load()["pending"]
    if pending:
        lines = [f"{e['seed']} {e['kind']} {e['term']}: {e['note']}" for e in pending]
        warnings.warn(f"{len(pending)} coverage entries have no page yet:\n" + "\n".join(lines),
                      stacklevel=1)


def test_the_anchor_reader() -> None:
    html = ('<section id="s"><h2 id="t">Title</h2><p>天官九 <b>x</b></p></section>'
            '<dl><div id="d"><dt>圆头</dt><dd>Q 9</dd></div></dl><p id="p">one<br>two</p>')
    texts = texts_by_id(html)
    assert texts["t"] == texts["s"] == "Title天官九x"
    assert texts["d"] == "圆头Q9" and texts["p"] == "onetwo"
