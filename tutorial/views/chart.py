"""/rules/chart/: a one-page ranking chart to print and take to the table.

Every card, class, group and rank on it comes from the engine (``engine.cards``,
``engine.groups`` through the catalogues of ``tutorial.search``); the words live in
``templates/chart/chart.html`` and their English in ``locale/chart``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from engine.cards import KINDS, Kind, SingleClass
from engine.groups import Category
from tutorial import glossary
from tutorial.language import english
from tutorial.pagecache import visitor_independent
from tutorial.search import CATALOGUES, Entry
from tutorial.views.reference import (
    CATEGORY_LABELS,
    KOUJUE,
    POINTS_ZERO,
    TIER_LABELS,
    gloss,
)

# The 旋经's families of single cards: the four top classes together are 上四牌; the
# smallest class splits by Kind.class_label into 下四滥 and 杂牌.
FAMILY_GLOSSES: dict[str, Promise] = {
    "上四牌": pgettext_lazy("chart family gloss", "上四牌"),
    "中三牌": pgettext_lazy("chart family gloss", "中三牌"),
    "下腰牌": pgettext_lazy("chart family gloss", "下腰牌"),
    "下四滥": pgettext_lazy("chart family gloss", "下四滥"),
    "杂牌": pgettext_lazy("chart family gloss", "杂牌"),
}


def family(kind: Kind) -> str:
    if kind.single_class >= SingleClass.HE:
        return "上四牌"
    if kind.single_class is SingleClass.ZHONGSAN:
        return "中三牌"
    if kind.single_class is SingleClass.XIAYAO:
        return "下腰牌"
    return kind.class_label


def _kind(kind: Kind, english: bool) -> dict[str, Any]:
    pinyin, meaning = glossary.card_name(kind.code) if english else ("", "")
    return {"kind": kind, "pinyin": pinyin, "gloss": meaning}


def _group(entry: Entry, english: bool) -> dict[str, Any]:
    """A group as the chart names it; one no source names (RULES §2) is its points, its
    two cards and a mark saying it has no traditional name, as on /pairs/."""
    return {"e": entry, "gloss": gloss(entry.name) if english and entry.named else "",
            "cards": "" if entry.named else "、".join(k.name_zh for k in entry.kinds)}


def _named_once(entries: Iterable[Entry], english: bool) -> list[dict[str, Any]]:
    """One name once: groups of equal rank that share a name (天官九 is 天牌 with
    膏药 or with 黑7) are one word at the table; a group without a name is each itself."""
    return [_group(e, english)
            for e in {e.name if e.named else e.code: e for e in entries}.values()]


def chart_context(english: bool) -> dict[str, Any]:
    koujue = [
        [{"word": word,
          "kinds": [{**_kind(k, english), "zapai": k is also[0] if also else False}
                    for k in kinds + also]}
         for word, kinds, also in half]
        for half in KOUJUE
    ]
    families = [
        {
            "name": name,
            "gloss": FAMILY_GLOSSES[name] if english else "",
            "kinds": [_kind(k, english) for k in kinds],
            "ordered": len({k.single_class for k in kinds}) > 1,
        }
        for name, kinds in ((name, list(ks)) for name, ks in groupby(KINDS, key=family))
    ]
    # 地王 only exists under the app rules: the special groups come from that
    # catalogue, and the 地王 row says it is an option.
    special = [e for e in CATALOGUES["app"].entries
               if e.category not in (Category.POINTS, Category.ZHOU)]
    specials = [
        {
            "label": CATEGORY_LABELS[rows[0].category],
            "optional": rows[0].category is Category.DIWANG,
            "groups": [_group(e, english) for e in rows],
        }
        for rows in (list(rs) for _rank, rs in groupby(special, key=lambda e: e.rank))
    ]
    catalogue = CATALOGUES["xuanjing"]
    points = []
    for p in range(9, -1, -1):
        entries = [e for e in catalogue.entries
                   if e.category in (Category.POINTS, Category.ZHOU) and e.points == p]
        steps = [
            {"label": cls.label, "groups": _named_once(es, english)}
            for cls, es in groupby(entries, key=lambda e: e.group.top_class)
        ]
        if p == 0:  # 皱: all tie, whatever the top card
            steps = [{"label": Category.ZHOU.label,
                      "groups": _named_once(entries, english)}]
        label = TIER_LABELS.get(f"points-{p}", POINTS_ZERO)
        points.append({"points": p, "label": label, "steps": steps})
    line = "，".join("".join(word for word, _kinds, _also in half) for half in KOUJUE)
    return {"koujue": koujue, "koujue_line": line, "families": families, "specials": specials,
            "points": points, "english": english,
            "koujue_en": glossary.koujue_english() if english else ""}


@visitor_independent
def chart(request: HttpRequest) -> HttpResponse:
    return render(request, "chart/chart.html", chart_context(english()))
