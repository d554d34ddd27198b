"""One checker for English pages: is any interface text left in Chinese?

Outside elements marked ``lang="zh*"``, ``translate="no"`` (e.g. a visitor's own words)
or ``aria-hidden="true"``, the visible text and the accessible names (aria-label, title,
alt, placeholder, button values) may contain Chinese only for game vocabulary: the
betting words, card names and — unless a page must mark them — pair names.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import ClassVar

from django.utils import translation

from engine import ALL_GROUPS, KINDS, Category, Group
from engine.cards import SingleClass
from engine.mango import Mango
from engine.rules import STAKES
from tutorial.glossary import group_name

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
GLOSSARY = """
扯旋 打旋 扯旋儿 旋经 牌九 钵钵 皮 芒果 揍芒 休芒 圈芒 皱芒 头 尾 吃 捻 走 打走 死 掉 扯 扯牌
分牌 发招 瞧 买 返 拖 敲 休 甩 休过河 串牌 三花 三花十 三花六 对子 点 皱 杠 王 挡家 发人 打鸡 躺
口诀 天地人和梅板三 斧十猫膏下四滥 天 地 人 和 梅 板 三 斧 十 猫 膏 下四滥 上四 上四牌 中三牌
下腰牌 杂牌 尾大吃皮 积分制 起头 扫尾 甲 乙 丙 丁 一对 点数
串头子 串花子 串路子 串边子 组合串 上家 下家 唤醒 睡觉 睡着了 躺死了 打鸡打起走了 打鸡遭逮到了
发了一圈牌 暗牌 明牌 保底 上四对 中三牌 下腰牌 比赛 走路 死了 掉了 唤醒了
挖心 吃整龙心肺 定了 丢芒果 点子
庄家 莊家 底皮 簸簸 簸簸数 大 跟 丢 丟 发话 發話 三花摊牌 皱芒 芒果池 芒果分 散牌 丁皇 天王 奶狗
虎头 头牌 尾牌 比牌 地王 地九王 天官九 黑五 对子
打旋儿 扯旋儿 旋儿 崇庆县 崇州 骨牌 金钵 银钵 聚宝盆 小来来
每位玩家最多 尾牌最大 底注 基本积分 荣誉值 银子
""".split()


def game_terms(*, pair_names: bool = True) -> list[str]:
    """The Chinese words an English page may show, longest first."""
    terms = set(GLOSSARY) | set(STAKES)
    if pair_names:
        for group in ALL_GROUPS:
            names = group.names()
            terms.update(a.name for a in names.aliases)
            if names.name:
                terms.add(names.name)
            terms.add(group.display_name())
    for kind in KINDS:
        terms.add(kind.name_zh)
        terms.update(kind.nicknames)
    terms.update(c.label for c in SingleClass)
    if pair_names:
        terms.update(c.label for c in Category)  # 天九王, 天杠 … name groups too
    terms.update(m.value for m in Mango)
    return sorted(terms, key=len, reverse=True)


class _Text(HTMLParser):
    """Collects visible text and accessible names outside Chinese or hidden elements."""

    VOID: ClassVar[set[str]] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                                "link", "meta", "source", "track", "wbr"}
    SKIPPED: ClassVar[set[str]] = {"script", "style"}
    ATTRS = ("aria-label", "title", "alt", "placeholder")

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def _chinese(self) -> bool:
        return any(zh for _, zh in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = (values.get("lang") or "").lower()
        zh = (
            lang.startswith("zh")
            or (self._chinese() and not lang)
            or values.get("translate") == "no"
            or values.get("aria-hidden") == "true"
        )
        if not zh and tag not in self.SKIPPED:
            self.found += [values[a] or "" for a in self.ATTRS if values.get(a)]
            if tag == "input" and values.get("type") in ("submit", "button"):
                self.found.append(values.get("value") or "")
        if tag not in self.VOID:
            self.stack.append((tag, zh or tag in self.SKIPPED))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self._chinese() and data.strip():
            self.found.append(data.strip())


def untranslated(html: str, terms: list[str]) -> list[str]:
    """The texts of ``html`` with Chinese left after removing the allowed ``terms``."""
    parser = _Text()
    parser.feed(html)
    leftovers = []
    for text in parser.found:
        stripped = text
        for term in terms:
            stripped = stripped.replace(term, " ")
        if CJK.search(stripped):
            leftovers.append(text)
    return leftovers


_TERM_LINK = re.compile(r'<a class="term" href="/glossary/#[a-z-]+" lang="zh-Hans">(.*?)</a>')


def unlinked(html: str) -> str:
    """``html`` without the glossary's first-use links (tutorial/glossary.py), for tests
    that look for a sentence of a page: the words stay, the ``<a class="term">`` goes."""
    return _TERM_LINK.sub(r"\1", html)


def main_text(html: str) -> str:
    """The words of a page's ``<main>`` (or of a fragment), tags dropped, spaces folded."""
    main = html.split('<main', 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", main))


def glossed_once(html: str, groups: set[Group]) -> None:
    """On an English page, each group's name at its first use is followed by "(pinyin,
    gloss)" (or, when the name stands in brackets, "pinyin, gloss)"); the gloss is given
    once."""
    words = main_text(html)
    assert groups
    for group in groups:
        name = group.display_name()
        with translation.override("en"):
            pinyin, gloss = group_name(group)
        assert pinyin and gloss, name
        first = re.search(rf"(?<![\u3400-\u9fff]){name}(?![\u3400-\u9fff])", words)
        assert first is not None, name
        after = words[first.end():]
        assert after.startswith((f" ({pinyin}, {gloss})", f" {pinyin}, {gloss})")), \
            (name, after[:60])
        assert words.count(f"{pinyin}, {gloss}") == 1, name
