"""Search finds every name: each card's aliases (大鬼's 二黄, 鬼), each group's names and
aliases, two ranks as printed (Q9), rule words (they lead to where they are taught) and,
on any site, the English glosses ("heaven nine")."""

from __future__ import annotations

import pytest
from django.test import Client

from engine.cards import KINDS, Kind
from tutorial import glossary
from tutorial.search import CATALOGUES, EXTRA_ENGLISH_KIND_WORDS, EXTRA_KIND_WORDS, search

CATALOGUE = CATALOGUES["xuanjing"]


def _names(query: str) -> set[str]:
    return {e.code for e in search(CATALOGUE, query).entries}


def _holding(kind: Kind) -> set[str]:
    return {e.code for e in CATALOGUE.entries if kind in e.kinds}


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.code)
def test_every_card_name_finds_every_group_holding_it(kind: Kind) -> None:
    words = [kind.name_zh, *kind.nicknames, *(w for w, k in EXTRA_KIND_WORDS.items() if k is kind)]
    for word in words:
        assert _names(word) == _holding(kind), word


def test_gui_and_erhuang_find_the_big_jokers_groups() -> None:
    for word in ("鬼", "二黄", "二皇"):
        found = _names(word)
        assert found == _holding(Kind.JK) and "R3-JK" in found


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.code)
def test_every_english_card_name_finds_every_group_holding_it(kind: Kind) -> None:
    gloss = glossary.card_name(kind.code)[1]  # the name the English /cards/ page gives
    words = [gloss, gloss.upper(), *(w for w, k in EXTRA_ENGLISH_KIND_WORDS.items() if k is kind)]
    for word in words:
        assert _names(word) == _holding(kind), word


@pytest.mark.parametrize(("query", "kind"), [
    ("joker", Kind.JK), ("ghost", Kind.JK), ("big ghost", Kind.JK), ("The Joker", Kind.JK),
    ("lone three", Kind.R3), ("the lone three", Kind.R3), ("kitty", Kind.R6), ("axe", Kind.BJ),
])
def test_the_english_words_of_issue_23(query: str, kind: Kind) -> None:
    assert _names(query) == _holding(kind) and len(_holding(kind)) >= 16


@pytest.mark.django_db
def test_unnamed_groups_of_one_name_are_told_apart_by_their_cards(client: Client) -> None:
    html = client.get("/pairs/?q=鬼", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert '>六点<span class="pair-row__made">（梅十、大鬼）</span></a>' in html
    assert '>六点<span class="pair-row__made">（苕十、大鬼）</span></a>' in html
    assert '>丁二皇</a>' in html  # a named group is its name alone


@pytest.mark.parametrize("entry", CATALOGUE.entries, ids=lambda e: e.code)
def test_every_group_name_and_alias_finds_the_group(entry: object) -> None:
    from tutorial.search import Entry

    assert isinstance(entry, Entry)
    for name in (entry.name, *(a.name for a in entry.aliases),
                 *(a.traditional for a in entry.aliases)):
        assert entry.code in _names(name), name


@pytest.mark.parametrize(("query", "codes"), [
    ("Q9", {"RQ-B9"}), ("q 9", {"RQ-B9"}), ("9Q", {"RQ-B9"}),
    ("Q8", {"RQ-R8", "RQ-B8"}), ("J10", {"B10-BJ", "BJ-R10"}), ("99", {"B9-B9"}),
])
def test_two_ranks_find_exactly_the_groups_of_those_ranks(query: str, codes: set[str]) -> None:
    assert _names(query) == codes
    assert _names(query) == {e.code for e in search(CATALOGUES["app"], query).entries}


@pytest.mark.parametrize("term", glossary.terms(), ids=lambda t: t.id)
def test_every_rule_word_leads_to_where_it_is_taught(term: glossary.Term) -> None:
    assert term in search(CATALOGUE, term.zh).terms


@pytest.mark.django_db
def test_a_rule_word_on_the_page_links_to_its_lesson_and_entry(client: Client) -> None:
    html = client.get("/pairs/?q=芒果", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert 'href="/rules/#mango"' in html and 'href="/glossary/#mangguo"' in html
    for word, href in (("三花", "/rules/#split"), ("钵钵", "/rules/#table")):
        html = client.get(f"/pairs/?q={word}", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
        assert f'href="{href}"' in html, word


@pytest.mark.django_db
def test_english_glosses_are_searchable_on_the_english_site(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/pairs/?q=heaven+nine").content.decode()
    assert 'id="pair-RQ-B9"' in html
    assert "RQ-B9" in _names("heaven nine") and "RQ-B9" in _names("Heaven-Nine King")
    html = client.get("/pairs/?q=mango").content.decode()
    assert 'href="/glossary/#mangguo"' in html and "mango" in html
