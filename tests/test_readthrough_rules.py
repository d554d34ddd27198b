"""Read-through of /, /rules/, /rules/app/, /rules/compare/, /glossary/ and /cards/ against
the seeds and RULES.md (zh and en): each test pins one sentence that was wrong."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def text(client: Client, url: str, lang: str = "zh-hans") -> str:
    client.cookies["django_language"] = lang
    html = client.get(url).content.decode()
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


def test_no_raising_your_own_bet_is_said_to_be_our_rule(client: Client) -> None:
    """No seed says a player may not raise their own unanswered bet (RULES §4, 'Edge cases,
    decided'); the rules page stated it as a plain fact."""
    zh = text(client, "/rules/")
    assert "自己下的注之后没人再加，就不能自己再往上加：这一条资料里都没讲，是本站定的。" in zh
    en = text(client, "/rules/", "en")
    assert ("You cannot raise your own bet when nobody has raised after it. No source covers "
            "this; it is our rule.") in en


def test_app_page_english_names_the_text_it_quotes(client: Client) -> None:
    """'天牌：一对红Q' is 002's line; the Chinese says so, the English quoted it unattributed."""
    en = text(client, "/rules/app/", "en")
    assert "(002 writes “天牌: a pair of red Qs”, and its list calls the pair of 小5 黑五)" in en


@pytest.mark.parametrize(("lang", "head", "tail"), [
    ("zh-hans", "分好的两组里大的那组（《旋经》正好反过来，管大的那组叫尾）。",
     "分好的两组里小的那组（《旋经》正好反过来，管小的那组叫头）。"),
    ("en", "(the Xuanjing uses the word the other way round: its 头 is the weaker group)",
     "(the Xuanjing uses the word the other way round: its 尾 is the stronger group)"),
])
def test_glossary_head_and_tail_say_the_xuanjing_reverses_them(
        client: Client, lang: str, head: str, tail: str) -> None:
    """000 calls the stronger group 尾 ('2组牌中，大一些的那组叫尾，小一些的那组叫头'); RULES §3:
    the site must say so. The glossary gave only our meaning, the opposite of the 旋经's."""
    page = text(client, "/glossary/", lang)
    assert head in page and tail in page


def test_home_description_calls_groups_groups_in_english(client: Client) -> None:
    """组牌 (two-card groups) is 'groups' (the menu's word); 'pair' is 对子's one English word.
    The English description of the site said 'the pairs' for 组牌."""
    client.cookies["django_language"] = "en"
    html = client.get("/").content.decode()
    assert ('content="Learn Sichuan Chexuan: the cards, the groups, splitting, betting and '
            'settling up."') in html
