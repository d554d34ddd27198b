"""The glossary of game terms (``tutorial/content/glossary.json``) and the first-use links.

Every page's main content passes through :func:`link_first_uses` (the ``{% glossed %}``
tag in ``templates/base.html``): the first time a page uses a game term, the word links
to its glossary entry; on English pages it also gets its pinyin and its one English
rendering, e.g. ``挡家 (dǎngjiā, first seat)``.  A gloss the sentence already gives in
brackets right after the word is replaced by the glossary's, so every first use reads the
same site-wide.

Where a term is looked for:

* Chinese pages: terms of two characters or more anywhere in the text; a one-character
  term (吃, 皮, 休 …) only when it stands alone in an element (``<strong>吃</strong>``),
  in quotes (“走”) or right before a bracket that explains it (瞧（跟注）), since 走 or
  头 are also everyday words.
* English pages: runs of Chinese characters that are exactly a term, in English text or
  alone in a ``lang="zh"`` element.

Group names (天九王, 丁猫九, or 七点 for an unnamed group) are marked by the code that shows
them: ``<span lang="zh-Hans" data-group="RQ-B9">天九王</span>`` (:func:`group_html`). On
English pages the first use of each group gets its pinyin and English gloss after it
(inside the brackets when the sentence puts the name in brackets).

Skipped: ``<head>``-like and interactive elements (links, buttons, labels, headings,
form controls, scripts, SVG), elements marked ``translate="no"`` (a visitor's own words),
``aria-hidden="true"`` or ``data-gloss="off"``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from engine.cards import CardError, Kind
from engine.groups import Group

GLOSSARY_URL = "/glossary/"


@dataclass(frozen=True)
class Term:
    id: str
    section: str
    zh: str
    pinyin: str
    en: str
    avoid: tuple[str, ...]
    meaning_zh: str
    meaning_en: str
    href: str
    forms: tuple[str, ...]  # other written forms that mean this term (三花十 → 三花)
    link: str  # where a first use is linked: "text" (see the module), "alone", "never"

    @property
    def url(self) -> str:
        return f"{GLOSSARY_URL}#{self.id}"

    def meaning(self, english: bool) -> str:
        return self.meaning_en if english else self.meaning_zh


@dataclass(frozen=True)
class Section:
    id: str
    zh: str
    en: str

    def title(self, english: bool) -> str:
        return self.en if english else self.zh


@cache
def _data() -> dict[str, object]:
    raw = resources.files("tutorial").joinpath("content/glossary.json").read_text("utf-8")
    data: dict[str, object] = json.loads(raw)
    return data


@cache
def sections() -> tuple[Section, ...]:
    raw = _data()["sections"]
    assert isinstance(raw, list)
    return tuple(Section(s["id"], s["zh"], s["en"]) for s in raw)


@cache
def terms() -> tuple[Term, ...]:
    raw = _data()["terms"]
    assert isinstance(raw, list)
    return tuple(
        Term(
            id=t["id"], section=t["section"], zh=t["zh"], pinyin=t["pinyin"], en=t["en"],
            avoid=tuple(t.get("avoid", ())), meaning_zh=t["meaning_zh"],
            meaning_en=t["meaning_en"], href=t["href"], forms=tuple(t.get("forms", ())),
            link=t.get("link", "text"),
        )
        for t in raw
    )


def card_words(kind: Kind) -> str:
    """A card kind named by its card, as English pages say it after the Chinese name:
    "red Q", "black 10", "big joker" (the gloss of the name itself is :func:`card_name`)."""
    if kind is Kind.JK:
        return gettext("大鬼（大王）")
    colour = gettext("红") if kind.color == "red" else gettext("黑")
    return f"{colour} {kind.rank_label}"


def card_name(code: str) -> tuple[str, str]:
    """(pinyin, English gloss) of a card kind's name, e.g. ``("tiānpái", "heaven")``."""
    cards = _data()["cards"]
    assert isinstance(cards, dict)
    pinyin, gloss = cards[code]
    return pinyin, gloss


#: The pinyin of 零 … 九, for the names of unnamed groups (七点 qī diǎn).
POINT_PINYIN = ("líng", "yī", "èr", "sān", "sì", "wǔ", "liù", "qī", "bā", "jiǔ")


def pair_gloss(name: str) -> str:
    """A pair name's short English gloss (context "pair name gloss"), "" when it has none."""
    text = pgettext("pair name gloss", name)
    return "" if text == name else text


def group_name(group: Group) -> tuple[str, str]:
    """(pinyin, English gloss) of the name a group is shown by, e.g. ``("tiān jiǔ wáng",
    "Heaven-nine king")``, or ``("qī diǎn", "Seven points")`` for an unnamed group."""
    names = group.names()
    if names.name and names.pinyin:
        return names.pinyin, pair_gloss(names.name)
    name = group.display_name()
    english = gettext(name)
    return f"{POINT_PINYIN[group.points]} diǎn", "" if english == name else english


def group_html(group: Group) -> SafeString:
    """A group's Chinese name (or "七点" when it has none) in a ``lang`` span, marked so
    that its first use on an English page gets its pinyin and gloss."""
    return format_html('<span lang="zh-Hans" data-group="{}">{}</span>', group.code,
                       group.display_name())


def koujue_english() -> str:
    """The 口诀 in English words."""
    return str(_data()["koujue_en"])


@cache
def by_word() -> dict[str, Term]:
    """Every written form (the term and its ``forms``) → its entry."""
    words: dict[str, Term] = {}
    for term in terms():
        if term.link == "never":
            continue
        for word in (term.zh, *term.forms):
            words.setdefault(word, term)
    return words


# Words that end with a one-character term without being it.
NOT_TERMS = ("扫尾", "起头", "斧头", "虎头")


@cache
def _zh_pattern() -> re.Pattern[str]:
    """Terms of two characters or more, longest first (尾大吃皮 before 吃皮); a
    one-character term only in quotes (“走”) or right before a bracket (瞧（跟注）).
    The one character must not end a longer word that is not the term: the 尾 of 扫尾
    (the 圈芒's closing hand) is no tail, the 头 of 斧头 no head."""
    inline = {w: t for w, t in by_word().items() if t.link == "text"}
    words = sorted((w for w in inline if len(w) > 1), key=len, reverse=True)
    ones = [w for w in inline if len(w) == 1]
    singles = "|".join(map(re.escape, ones))
    alone = "|".join("".join(f"(?<!{re.escape(n[:-1])})" for n in NOT_TERMS if n[-1] == w)
                     + re.escape(w) for w in ones)
    return re.compile("|".join(map(re.escape, words))
                      + f"|(?<=“)(?:{singles})(?=”)|(?:{alone})(?=（)")


# A run of Chinese in an English sentence: characters, with the digits and Chinese
# punctuation inside a quoted sentence (“…皮超过50分，丙方…”) kept in the same run.
CHINESE_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]"
                         r"(?:[\u3400-\u9fff\uf900-\ufaff\d，。、：；！？]*[\u3400-\u9fff\uf900-\ufaff])?")


def mark_chinese(escaped: str) -> SafeString:
    """Escaped English text with each run of Chinese marked ``lang="zh-Hans"``."""
    return mark_safe(CHINESE_RUN.sub(r'<span lang="zh-Hans">\g<0></span>', escaped))


# --------------------------------------------------------------------------- linking
_TOKENS = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>", re.S)
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_BRACKET = re.compile(r"^(\s*)\(([^()]*)\)")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
         "source", "track", "wbr"}
_INLINE = {"a", "span", "b", "strong", "i", "em", "abbr", "small", "mark", "q", "cite", "dfn"}
_SKIPPED_TAGS = {"a", "button", "label", "select", "option", "textarea", "script", "style",
                 "title", "svg", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "summary",
                 "code", "pre", "legend", "output"}
_SKIPPING_ATTRS = re.compile(
    r"""\b(?:translate\s*=\s*["']?no|aria-hidden\s*=\s*["']?true|data-gloss\s*=\s*["']?off)""")
_ZH_LANG = re.compile(r"""\blang\s*=\s*["']?zh""", re.I)
_EN_LANG = re.compile(r"""\blang\s*=\s*["']?en""", re.I)
_DATA_GROUP = re.compile(r"""\bdata-group\s*=\s*["']?([A-Za-z0-9 -]+)""")


def _link(term: Term, word: str) -> str:
    return (f'<a class="term" href="{term.url}" lang="zh-Hans">{escape(word)}</a>')


def _gloss(pinyin: str, english: str) -> str:
    return escape(", ".join(part for part in (pinyin, english) if part))


def _pinyin(term: Term, word: str) -> str:
    """The term's pinyin, or none for another written form (三花十 is not sānhuā)."""
    return term.pinyin if word == term.zh else ""


def _with_gloss(gloss: str, after: str) -> tuple[str, str]:
    """The gloss (escaped) of an English first use and the text after it: the gloss
    replaces a short English one the sentence already gives in brackets."""
    gloss = f" ({gloss})"
    match = _BRACKET.match(after)
    if match and not _CJK_RUN.search(match.group(2)) and len(match.group(2)) <= 40:
        return gloss, after[match.end():]
    return gloss, after


class _Linker:
    def __init__(self, english: bool) -> None:
        self.english = english
        self.seen: set[str] = set()

    def new(self, word: str) -> Term | None:
        term = by_word().get(word)
        if term is None or term.id in self.seen:
            return None
        self.seen.add(term.id)
        return term

    def chinese_text(self, text: str) -> str:
        stripped = text.strip()
        if len(stripped) == 1:
            term = self.new(stripped)
            return text.replace(stripped, _link(term, stripped)) if term else text

        def replace(match: re.Match[str]) -> str:
            term = self.new(match.group(0))
            return _link(term, match.group(0)) if term else match.group(0)

        return _zh_pattern().sub(replace, text)

    def english_text(self, text: str) -> str:
        out: list[str] = []
        words = by_word()
        while True:
            match = next((m for m in _CJK_RUN.finditer(text)
                          if m.group(0) in words and words[m.group(0)].id not in self.seen),
                         None)
            if match is None:
                out.append(text)
                return "".join(out)
            word = match.group(0)
            term = self.new(word)
            assert term is not None
            before, rest = text[:match.start()], text[match.end():]
            out.append(before + _link(term, word))
            if before.endswith("(") and rest.startswith(")"):  # "Win (吃)": glossed already
                out.append(f" {escape(_pinyin(term, word))}".rstrip())
            else:
                gloss, rest = _with_gloss(_gloss(_pinyin(term, word), term.en), rest)
                out.append(gloss)
            text = rest


def _group_gloss(attrs: str) -> str | None:
    """The escaped gloss of the group of an element marked ``data-group="…"``."""
    match = _DATA_GROUP.search(attrs)
    if match is None:
        return None
    try:
        group = Group.parse(match.group(1))
    except CardError:
        return None
    return _gloss(*group_name(group))


def link_first_uses(html: str, english: bool) -> str:
    """``html`` with the first use of each glossary term linked (and glossed in English),
    and on English pages the first use of each group name glossed."""
    linker = _Linker(english)
    glossed_names: set[str] = set()  # by gloss: R8-R7 and R8-B7 are both 人十五, glossed once
    tokens = _TOKENS.split(html)
    # stack entries: (tag, skipped, chinese): chinese = inside a lang="zh" element
    stack: list[tuple[str, bool, bool]] = []
    # English: an element that is one term or one group name, waiting for its end tag:
    # (depth, escaped gloss, escaped gloss inside brackets, index of its start tag)
    pending: list[tuple[int, str, str, int]] = []
    for i, token in enumerate(tokens):
        if i % 2:  # a tag or a comment
            tag = _TAG.match(token)
            if tag is None:
                continue
            closing, name, attrs = tag.group(1), tag.group(2).lower(), tag.group(3)
            if closing:
                for j in range(len(stack) - 1, -1, -1):
                    if stack[j][0] == name:
                        del stack[j:]
                        break
                if pending and pending[-1][0] > len(stack):
                    _, glossed, bracketed, start = pending.pop()
                    if name not in _INLINE:  # <dt>发招</dt>: the gloss goes inside
                        tokens[i] = _with_gloss(glossed, "")[0] + tokens[i]
                    elif i + 1 < len(tokens):
                        if tokens[start - 1].endswith("(") and tokens[i + 1].startswith(")"):
                            # "(丁猫九 dīng māo jiǔ, …)"; "call (瞧 qiáo)": glossed already
                            tokens[i] += f" {bracketed}".rstrip()
                        else:
                            gloss, tokens[i + 1] = _with_gloss(glossed, tokens[i + 1])
                            tokens[i] += gloss
                continue
            if name in _VOID or attrs.rstrip().endswith("/"):
                continue
            skipped = bool(stack and stack[-1][1]) or name in _SKIPPED_TAGS \
                or bool(_SKIPPING_ATTRS.search(attrs))
            chinese = (bool(stack and stack[-1][2]) or bool(_ZH_LANG.search(attrs))) \
                and not _EN_LANG.search(attrs)
            group = _group_gloss(attrs) if english else None
            if group is not None and not (stack and stack[-1][1]) \
                    and not _SKIPPING_ATTRS.search(attrs):
                skipped = True  # its name is glossed as a group, not as a term
                if group not in glossed_names:
                    glossed_names.add(group)
                    pending.append((len(stack) + 1, group, group, i))
            stack.append((name, skipped, chinese))
            continue
        if not token.strip() or (stack and stack[-1][1]):
            continue
        in_chinese = bool(stack and stack[-1][2])
        if not english:
            tokens[i] = linker.chinese_text(token)
        elif in_chinese:
            word = token.strip()
            found = linker.new(word)
            if found is not None:
                tokens[i] = token.replace(word, _link(found, word))
                pinyin = _pinyin(found, word)
                pending.append((len(stack), _gloss(pinyin, found.en), escape(pinyin), i - 1))
        else:
            tokens[i] = linker.english_text(token)
    return "".join(tokens)
