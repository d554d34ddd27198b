"""English as rendered: one English word per game term, no English grammar glued to a
Chinese word, English punctuation.

Every page type of the site walk (tests/test_site_walk.py: plain pages and the pages that
need state), plus every step of every walkthrough, is rendered in English; then

* no text outside ``lang="zh"`` uses a word the glossary rules out for a term (走 is
  "stand-off", never "push" or "no result"; 皮 is "folded stakes", never "ante" …:
  ``avoid`` in tutorial/content/glossary.json);
* no English inflection or article is glued to a Chinese word (「甩 (fold)s」, 「an 皮」)
  and no count word disagrees with 1 (「1 points」);
* English text uses English punctuation: no full-width commas, stops, colons or brackets
  outside Chinese elements (the stakes' names such as 1、3 are names).
"""

from __future__ import annotations

import html as htmllib
import re
from functools import cache
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.english import _Text
from tests.test_site_walk import PAGES, SCENARIOS, STATUS, _run
from tutorial import glossary
from tutorial import walkthroughs as wt

CJK = r"[\u3400-\u9fff\uf900-\ufaff]"


# "push" is never 走, but the squeeze pushes a card open: those senses are allowed.
PHYSICAL = r"(?! (?:it|them|the|your|out|up|down|sideways|on|off|open|further|face|one)\b)"


def _avoided() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])"
                        + (PHYSICAL if word.startswith("push") else ""), re.I),
             f"{t.zh} is {t.en!r}")
            for t in glossary.terms() for word in t.avoid]


AVOIDED = _avoided()
GLUED = [
    (re.compile(rf"{CJK}\)?(?:s|ed|ing)\b"), "an English ending glued to a Chinese word"),
    (re.compile(r"\([^()]*\)s\b"), "a plural -s after a bracketed gloss"),
    (re.compile(rf"\b[Aa]n {CJK}"), "an English article before a Chinese word"),
    (re.compile(r"(?<![\d.,−-])\b1 (points|players|cards|hands|groups|chips|times|seats)\b"),
     "a plural after 1"),
    (re.compile(r"\([^()]*\("), "a bracket inside a bracket (a gloss inside a gloss)"),
]
# A short English gloss in brackets right after a term or a special group's name
# (「皮 (stake)」, 「天九王 (king)」) must be the site's one rendering, pinyin or not.
BRACKET_GLOSS = re.compile(rf"(?<!{CJK})({CJK}+) \((?:[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü ]+, )?"
                           r"([A-Za-z’'-]+(?: [A-Za-z’'-]+){0,3})\)")


@cache
def _glosses() -> dict[str, str]:
    """Every term and group name → its one English word (lower case)."""
    words = {w: t.en.lower() for t in glossary.terms() for w in (t.zh, *t.forms)}
    with translation.override("en"):  # the special groups, named by their category too
        for name in ("丁二皇", "天九王", "地九王", "天杠", "地杠"):
            words[name] = glossary.pair_gloss(name).lower()
    return words


RHYME = "天地人和梅板三，斧十猫膏下四滥"
INLINE = "span|a|b|i|strong|em|abbr|bdi|small|mark|q|cite|dfn|sub|sup"
FULL_WIDTH = re.compile(r"[，。；：！？（）《》「」【】]|(?<!\d)、|、(?!\d)")


def _all_steps() -> list[str]:
    return [f"/walkthroughs/{e['slug']}/{n}/"
            for e in wt.content()["walkthroughs"]
            for n in range(1, len(wt.get_walkthrough(e["slug"]).steps) + 1)]  # type: ignore[union-attr]


def problems(page: str) -> list[str]:
    """What is wrong with the English of one rendered page (empty when nothing is)."""
    page = re.sub(r'<span class="term-list__avoid">.*?</span>', "", page)  # /glossary/
    page = page.replace(RHYME, "天地人和梅板三")  # the 口诀 keeps its comma
    parser = _Text()
    parser.feed(page)
    english = [htmllib.unescape(t) for t in parser.found]
    main = page.split("<main", 1)[-1]
    inline = re.sub(rf"</?(?:{INLINE})\b[^>]*>", "", main)
    plain = htmllib.unescape(re.sub(r"<[^>]+>", " ", inline))
    found = []
    for text in english:
        for pattern, why in AVOIDED:
            if pattern.search(text):
                found.append(f"{why}: {text[:160]!r}")
        if FULL_WIDTH.search(text):
            found.append(f"Chinese punctuation: {text[:160]!r}")
    for m in BRACKET_GLOSS.finditer(plain):
        want = _glosses().get(m.group(1))
        if want and m.group(2).lower() != want:
            found.append(f"{m.group(1)} is {want!r}, not {m.group(2)!r}")
    for pattern, why in GLUED:
        for m in pattern.finditer(plain):
            found.append(f"{why}: {plain[max(0, m.start() - 40):m.end() + 40]!r}")
    return found


def _english(client: Client) -> None:
    client.cookies["django_language"] = "en"


@pytest.mark.django_db
@pytest.mark.parametrize("url", sorted(set(PAGES) | set(_all_steps())))
def test_english_page(client: Client, url: str) -> None:
    _english(client)
    response = client.get(url)
    assert response.status_code == STATUS.get(url, 200)
    assert problems(response.content.decode()) == []


@pytest.mark.django_db
@pytest.mark.parametrize("name", SCENARIOS)
def test_english_page_with_state(client: Client, name: str,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _english(client)
    response: Any = _run(name, client, monkeypatch)
    assert problems(response.content.decode()) == []


def test_the_checks_catch_each_kind_of_mistake() -> None:
    page = ("<main><p>a push, the ante, 丙 甩 (shuǎi, fold)s, an 皮, 1 points，ok</p>"
            "<p>cards (头 (tóu, head), the head, on top)</p>"
            '<p lang="zh">推，ante</p><p>stakes 1、3 and 5、10</p>'
            "<p>the 皮 (stake), 天九王 (king), 挡家 (dǎngjiā, first seat)</p>"
            "<p>a no-result, and a draw</p></main>")
    found = problems(page)
    assert any("走 is 'stand-off'" in f for f in found)
    assert any("皮 is 'folded stakes'" in f for f in found)
    assert any("plural -s" in f for f in found)
    assert any("article" in f for f in found)
    assert any("after 1" in f for f in found)
    assert any("inside a gloss" in f for f in found)
    assert sum("punctuation" in f for f in found) == 1
    assert "皮 is 'folded stakes', not 'stake'" in found
    assert "天九王 is 'heaven-nine king', not 'king'" in found
    assert not any(f.startswith("挡家") for f in found)
    assert sum("走 is 'stand-off'" in f for f in found) == 3  # push, no-result, a draw
