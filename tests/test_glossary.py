"""The glossary (tutorial/content/glossary.json, /glossary/) and the first-use links."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorial import glossary
from tutorial.glossary import link_first_uses

TERMS = glossary.terms()


def test_every_entry_is_complete_and_unique() -> None:
    sections = {s.id for s in glossary.sections()}
    assert len({t.id for t in TERMS}) == len(TERMS)
    assert len({t.zh for t in TERMS}) == len(TERMS)
    for t in TERMS:
        assert t.section in sections, t.id
        assert all([t.zh, t.pinyin, t.en, t.meaning_zh, t.meaning_en, t.href]), t.id
        assert re.fullmatch(r"[a-z-]+", t.id), t.id
        assert t.en.lower() not in {a.lower() for a in t.avoid}, t.id


@pytest.mark.django_db
@pytest.mark.parametrize("term", TERMS, ids=lambda t: t.id)
def test_each_term_links_to_where_it_is_taught(client: Client, term: glossary.Term) -> None:
    path, _, anchor = term.href.partition("#")
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert response.status_code == 200
    html = response.content.decode()
    if anchor:
        assert f'id="{anchor}"' in html
    assert term.zh in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-CN", "en"])
def test_the_glossary_page_lists_every_term(client: Client, language: str) -> None:
    client.cookies["django_language"] = "en" if language == "en" else "zh-hans"
    html = client.get("/glossary/").content.decode()
    for t in TERMS:
        assert f'<div id="{t.id}">' in html
        assert t.pinyin in html and t.zh in html
        assert (t.meaning_en if language == "en" else t.meaning_zh).replace("'", "&#x27;") in html
        assert f'href="{t.href}"' in html
    # the page itself links no term to itself
    assert 'class="term"' not in html.split("<main", 1)[1]


def _links(html: str) -> list[str]:
    return re.findall(r'<a class="term" href="/glossary/#([a-z-]+)"', html)


@pytest.mark.django_db
def test_home_links_each_term_once_in_chinese(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    links = _links(html)
    for word in ("挡家", "发招", "休", "吃皮", "瞧", "吃", "走"):
        assert glossary.by_word()[word].id in links, word
    assert len(links) == len(set(links))


@pytest.mark.django_db
def test_home_glosses_first_uses_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    text = re.sub(r"<[^>]+>", "", client.get("/").content.decode())
    assert "挡家 (dǎngjiā, first seat)" in text
    assert "lead (发招 fāzhāo)" in text
    assert "check (休 xiū)" in text
    assert "the folded stakes (吃皮 chī pí)" in text


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/rules/", "/table/", "/walkthroughs/full-hand/3/",
                                 "/cards/"])
def test_teaching_pages_link_terms(client: Client, url: str) -> None:
    for language in ("zh-hans", "en"):
        client.cookies["django_language"] = language
        links = _links(client.get(url).content.decode())
        assert links and len(links) == len(set(links)), (url, language)


def test_chinese_first_use_only_and_where_allowed() -> None:
    html = ("<h2>钵钵</h2><p>每人的钵钵，钵钵。</p><a href='/x'>芒果</a><p>芒果走了，“走”</p>"
            "<p><strong>吃</strong>一口饭</p><p translate='no'>挡家</p><p>尾大吃皮，吃皮</p>")
    out = link_first_uses(html, english=False)
    assert _links(out) == ["bobo", "mangguo", "zou", "chi", "weidachipi", "chipi"]
    assert "<h2>钵钵</h2>" in out and "<a href='/x'>芒果</a>" in out
    assert "<p translate='no'>挡家</p>" in out


def test_english_gloss_replaces_a_bracketed_one_and_follows_zh_elements() -> None:
    html = ('<p>the 皮 (ante) and the 皮 again; a win (吃); the '
            '<span lang="zh-Hans">钵钵</span> (chips) then <b lang="zh">挡家</b> opens</p>')
    text = re.sub(r"<[^>]+>", "", link_first_uses(html, english=True))
    assert text == ("the 皮 (pí, folded stakes) and the 皮 again; a win (吃 chī); the "
                    "钵钵 (bōbo, stack) then 挡家 (dǎngjiā, first seat) opens")


def test_english_gloss_of_a_block_element_stays_inside_it() -> None:
    out = link_first_uses('<dl><div><dt lang="zh-Hans">发招</dt><dd>x</dd></div></dl>',
                          english=True)
    assert out == ('<dl><div><dt lang="zh-Hans"><a class="term" href="/glossary/#fazhao" '
                   'lang="zh-Hans">发招</a> (fāzhāo, lead)</dt><dd>x</dd></div></dl>')


@pytest.mark.django_db
def test_english_cards_page_gives_each_name_its_pinyin_and_gloss(client: Client) -> None:
    from engine.cards import KINDS

    client.cookies["django_language"] = "en"
    html = client.get("/cards/").content.decode()
    assert glossary.koujue_english() in html
    for kind in KINDS:
        pinyin, gloss = glossary.card_name(kind.code)
        assert f"<i>{pinyin}</i>, “{gloss}”" in html, kind
    client.cookies["django_language"] = "zh-hans"
    html = client.get("/cards/").content.decode()
    assert glossary.koujue_english() not in html and 'class="kind__en"' not in html


@pytest.mark.parametrize("english", [False, True])
def test_text_inside_attributes_is_never_rewritten(english: bool) -> None:
    tag = '<p title="钵钵 和 芒果" aria-label="芒果 (mango)" data-x=\'钵钵\'>'
    out = link_first_uses(f"{tag}钵钵</p><img alt=\"芒果\">", english=english)
    assert out.startswith(tag) and out.endswith('<img alt="芒果">')
    assert 'class="term"' in out  # the text between the tags is linked


@pytest.mark.parametrize("html", ['<p>call (<span lang="zh-Hans">瞧</span>) now</p>',
                                  "<p>call (瞧) now</p>"])
def test_a_term_after_its_english_word_gets_only_its_pinyin(html: str) -> None:
    """"call (瞧)" read "call (瞧 qiáo, call)" when the term was its own element."""
    text = re.sub(r"<[^>]+>", "", link_first_uses(html, english=True))
    assert text == "call (瞧 qiáo) now"


def test_a_word_ending_in_a_one_character_term_is_not_linked() -> None:
    """扫尾 (the 圈芒's closing hand) and 斧头 (the black J) end in 尾 and 头 before a
    bracket, where a one-character term is linked: the night page linked 扫尾's 尾 as
    the tail."""
    html = glossary.link_first_uses("<p>该 甲 扫尾（发最后一手）了，斧头（黑J）大。</p>", False)
    assert 'class="term"' not in html
    html = glossary.link_first_uses("<p>甲扫尾。尾（弱的一组）</p>", False)
    assert '<a class="term" href="/glossary/#wei" lang="zh-Hans">尾</a>（' in html
