"""Walkthroughs (/walkthroughs/): every step of every walkthrough, full page and htmx
fragment, plain links, 404s, no inline script/style, English without untranslated text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.test import Client

from tests.english import game_terms, untranslated
from tutorial import walkthroughs as wt

pytestmark = pytest.mark.django_db

SLUGS = [d["slug"] for d in wt.definitions()]
PO = Path(__file__).resolve().parent.parent / "locale/walkthroughs/en/LC_MESSAGES/django.po"

TERMS = game_terms()


def step_count(client: Client, slug: str) -> int:
    html = client.get(f"/walkthroughs/{slug}/1/").content.decode()
    match = re.search(r'data-total="(\d+)"', html)
    assert match
    return int(match.group(1))


def test_index_lists_every_walkthrough(client: Client) -> None:
    html = client.get("/walkthroughs/").content.decode()
    for slug in SLUGS:
        assert f'href="/walkthroughs/{slug}/1/"' in html


def test_every_worked_example_has_a_walkthrough() -> None:
    used = {d.get("example") for d in wt.definitions()}
    variants = {d.get("variant") for d in wt.definitions()}
    for ex in wt.examples().values():
        assert ex["id"] in used, ex["id"]
        for v in ex.get("variants", []):
            assert v["id"] in variants, v["id"]
    # the 钵钵 example's base showdown and the full hand are there too
    assert "xj-mp-3" in used and "full-hand" in SLUGS


def test_start_redirects_to_step_one(client: Client) -> None:
    response = client.get("/walkthroughs/xj-2p-1/")
    assert response.status_code == 302
    assert response["Location"] == "/walkthroughs/xj-2p-1/1/"


@pytest.mark.parametrize("url", ["/walkthroughs/nope/", "/walkthroughs/nope/1/",
                                 "/walkthroughs/xj-2p-1/0/", "/walkthroughs/xj-2p-1/999/",
                                 "/walkthroughs/xj-2p-1/abc/"])
def test_bad_urls_are_404(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert b"Traceback" not in response.content


@pytest.mark.parametrize("slug", SLUGS)
def test_walk_every_step(client: Client, slug: str) -> None:
    total = step_count(client, slug)
    assert total >= 3
    for n in range(1, total + 1):
        url = f"/walkthroughs/{slug}/{n}/"
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<html" in html and 'id="wt-step-title"' in html
        assert " style=" not in html and "<style" not in html
        for tag in re.findall(r"<script[^>]*>", html):
            assert "src=" in tag
        # plain links that htmx enhances
        if n < total:
            nxt = f"/walkthroughs/{slug}/{n + 1}/"
            assert f'href="{nxt}" hx-get="{nxt}" hx-target="#wt-step" hx-push-url="true"' in html
        if n > 1:
            prv = f"/walkthroughs/{slug}/{n - 1}/"
            assert f'href="{prv}" hx-get="{prv}"' in html
        # the htmx request gets only the step
        frag = client.get(url, HTTP_HX_REQUEST="true")
        assert frag.status_code == 200
        body = frag.content.decode()
        assert "<html" not in body and 'id="wt-step-title"' in body and "<title>" in body
        assert "HX-Request" in frag["Vary"]
        # a history restore needs the whole page
        restore = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
        assert "<html" in restore.content.decode()




@pytest.mark.parametrize("slug", SLUGS)
def test_english_pages_have_no_untranslated_text(client: Client, slug: str) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/walkthroughs/").content.decode()
    assert '<html lang="en">' in html
    total = step_count(client, slug)
    for n in range(1, total + 1):
        html = client.get(f"/walkthroughs/{slug}/{n}/").content.decode()
        main = html[html.index('<main'):html.index("</main>")]
        leftover = untranslated(main, TERMS)
        assert not leftover, (slug, n, leftover[:5])


def test_catalog_covers_every_sentence_with_the_same_fields() -> None:
    catalog = {e.msgid: e for e in polib.pofile(str(PO)) if e.msgctxt == "wt"}
    for key, zh in wt.content()["texts"].items():
        assert zh in catalog and catalog[zh].msgstr, key
        assert set(re.findall(r"\{(\w+)\}", catalog[zh].msgstr)) <= set(
            re.findall(r"\{(\w+)\}", zh)), key
    for d in wt.definitions():
        assert catalog[d["title"]].msgstr and catalog[d["summary"]].msgstr
    for s in wt.content()["sections"]:
        assert catalog[s["title"]].msgstr


def test_content_file_is_valid_json_with_known_step_kinds() -> None:
    data = json.loads(wt.CONTENT.read_text("utf-8"))
    kinds = {d["kind"] for d in data["walkthroughs"]}
    assert kinds <= {"showdown", "bobo", "app_settle", "split", "lead", "points", "compare",
                     "hand", "squeeze"}
    assert len({d["slug"] for d in data["walkthroughs"]}) == len(data["walkthroughs"])


@pytest.mark.django_db
def test_a_substitution_that_keeps_the_name_says_so(client: Client) -> None:
    """A swapped card that leaves the group's name unchanged is not told as a change
    ("from 地官六 to 地官六")."""
    for entry in wt.content()["walkthroughs"]:
        walkthrough = wt.get_walkthrough(entry["slug"])
        assert walkthrough is not None
        for n in range(1, len(walkthrough.steps) + 1):
            html = client.get(f"/walkthroughs/{entry['slug']}/{n}/",
                              HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
            text = re.sub(r"<[^>]+>", "", html)
            for old, new in re.findall(r"从 (\S+) 变成 (\S+)，", text):
                assert old != new, (entry["slug"], n, old)


def test_advice_table_prints_chances_as_the_split_rows_do(client: Client) -> None:
    """The advice table's 吃/走/死 are engine.quiz.shown_percents: whole percents that sum
    to 100, a chance that is not 0 reads "<1%". Rounded each on its own, 乙's 人高九 / 斧九
    row of xj-2p-1 read 0% · 8% · 92% (吃 is 0.06%) and 甲's 天牌一对 row summed to 101."""
    html = client.get("/walkthroughs/xj-2p-1/11/").content.decode()
    cells = re.findall(r'data-label="(?:吃|走|死)">([^<]*)</td>', html)
    assert len(cells) % 3 == 0 and cells
    rows = list(zip(cells[0::3], cells[1::3], cells[2::3], strict=True))
    assert ("&lt;1%", "8%", "92%") in rows
    for row in rows:
        whole = [int(c.rstrip("%")) for c in row if c[0].isdigit()]
        assert len(whole) < 3 or sum(whole) == 100, row
    assert "0%" not in cells
