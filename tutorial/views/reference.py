"""Reference pages: the cards and the 口诀, the pair catalogue with search, one pair, the rules.

Every fact shown comes from the engine (``engine.*``) and the search index
(``tutorial.search``); the prose lives in the templates (``templates/reference/``)
and its English in ``locale/reference``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.vary import vary_on_headers

from engine.cards import DECK, KINDS, CardError, Kind, SingleClass, parse_kind
from engine.groups import Category, Group
from engine.hands import Outcome, Split, compare
from engine.mango import Mango, mango_amount
from engine.rules import PRESETS, STAKES, get_rules
from engine.settle import Seat, Settlement, settle
from tutorial import glossary
from tutorial.fragments import is_htmx
from tutorial.language import english, listing
from tutorial.pagecache import visitor_independent
from tutorial.query import BadQuery, query_choice, query_int
from tutorial.rulesets import RULES_LABELS
from tutorial.search import (
    CATALOGUES,
    FILTER_CATEGORIES,
    Catalogue,
    Entry,
    SearchResult,
    catalogue_for,
    search,
)

# ---------------------------------------------------------------- labels

CLASS_LABELS: dict[SingleClass, Promise] = {
    SingleClass.TIAN: _("天"),
    SingleClass.DI: _("地"),
    SingleClass.REN: _("人"),
    SingleClass.HE: _("和"),
    SingleClass.ZHONGSAN: _("中三"),
    SingleClass.XIAYAO: _("下腰"),
    SingleClass.ZA: _("下四滥"),
}

# The smallest class holds two classes of the 旋经: 黑9 黑8 黑7 小5 are 下四滥 and also
# 杂牌; 丁丁 and 大鬼 are 杂牌 only (Kind.class_label).  /cards/ names both.
ZA_TAGS: dict[str, Promise] = {
    "下四滥": _("下四滥，也算杂牌"),
    "杂牌": _("杂牌，不算下四滥"),
}

TIER_LABELS: dict[str, Promise] = {
    "dingerhuang": _("丁二皇"),
    "pair": _("对子"),
    "tianjiuwang": _("天九王"),
    "diwang": _("地王"),
    "gang": _("杠"),
    "points-9": _("九点"),
    "points-8": _("八点"),
    "points-7": _("七点"),
    "points-6": _("六点"),
    "points-5": _("五点"),
    "points-4": _("四点"),
    "points-3": _("三点"),
    "points-2": _("二点"),
    "points-1": _("一点"),
    "zhou": _("皱（零点）"),
}
# The name of the one unnamed group of zero points (大鬼 with a 4: a 皱 has a name): no
# page says it from here, but glossary.group_name translates a group's display name at
# run time, so the word must stay in the catalog (tests/test_table_gloss.py).
ZERO_POINTS = _("零点")

CATEGORY_LABELS: dict[Category, Promise] = {
    Category.DINGERHUANG: _("丁二皇"),
    Category.PAIR: _("对子"),
    Category.TIANJIUWANG: _("天九王"),
    Category.DIWANG: _("地王"),
    Category.TIANGANG: _("天杠"),
    Category.DIGANG: _("地杠"),
    Category.POINTS: _("点"),
    Category.ZHOU: _("皱"),
}

FILTER_LABELS: dict[str, Promise] = {
    "dingerhuang": _("丁二皇"),
    "pair": _("对子"),
    "tianjiuwang": _("天九王"),
    "diwang": _("地王（app 规则）"),
    "gang": _("杠"),
    "points": _("点（一到九点）"),
    "zhou": _("皱（零点）"),
}

SOURCE_LABELS: dict[str, Promise] = {
    "000": _("《旋经》"),
    "004": _("《旋经》旧本"),
    "002": _("扯旋 app 规则页（002）"),
    "003": _("扯旋游戏介绍页（003）"),
}


POINTS_ZERO = _("零点（皱）")

EXAMPLE_QUERIES = ("天官九", "天關九", "tianguanjiu", "tgj", "RQ B9", "9点", "大鬼", "对子")


def source_labels(sources: Sequence[str]) -> list[dict[str, str]]:
    """Readable labels for seed codes, one per label (000 and 004 are told apart too)."""
    labels: dict[str, list[str]] = {}
    for code in sources:
        labels.setdefault(str(SOURCE_LABELS[code]), []).append(code)
    return [{"label": label, "codes": "、".join(codes)} for label, codes in labels.items()]


def gloss(name: str) -> str:
    """A short English gloss of a pair name (empty in Chinese or when there is none)."""
    return glossary.pair_gloss(name) if english() else ""


# ---------------------------------------------------------------- shared helpers


def _rules_name(request: HttpRequest) -> str:
    """``?rules=``: ``xuanjing`` (also when not given) or ``app``; else :class:`BadQuery`."""
    return query_choice(request.GET, "rules", pgettext("address", "规则"), list(CATALOGUES),
                        "xuanjing")


def _entry_context(entry: Entry) -> dict[str, Any]:
    return {
        "e": entry,
        "gloss": gloss(entry.name),
        "category_label": CATEGORY_LABELS[entry.category],
        "tier_label": TIER_LABELS[entry.tier],
        "alias_names": "、".join(a.name for a in entry.aliases),
        # an unnamed group ("六点") is told from the others of its name by its two cards
        "cards_named": "" if entry.named else "、".join(k.name_zh for k in entry.kinds),
    }


def _catalogue_url(rules_name: str) -> str:
    url = reverse("pairs")
    return f"{url}?rules={rules_name}" if rules_name != "xuanjing" else url


def _pair_url(code: str, rules_name: str) -> str:
    url = reverse("pair_detail", args=[code])
    return f"{url}?rules={rules_name}" if rules_name != "xuanjing" else url


# ---------------------------------------------------------------- /cards/

# The 口诀 天地人和梅板三，斧十猫膏下四滥: each word and the kinds it names.
KOUJUE: tuple[tuple[tuple[str, tuple[Kind, ...], tuple[Kind, ...]], ...], ...] = (
    (
        ("天", (Kind.RQ,), ()),
        ("地", (Kind.R2,), ()),
        ("人", (Kind.R8,), ()),
        ("和", (Kind.R4,), ()),
        ("梅", (Kind.B10,), ()),
        ("板", (Kind.B4,), ()),
        ("三", (Kind.B6,), ()),
    ),
    (
        ("斧", (Kind.BJ,), ()),
        ("十", (Kind.R10,), ()),
        ("猫", (Kind.R6,), ()),
        ("膏", (Kind.R7,), ()),
        ("下四滥", (Kind.B9, Kind.B8, Kind.B7, Kind.B5), (Kind.R3, Kind.JK)),
    ),
)


@visitor_independent
def cards(request: HttpRequest) -> HttpResponse:
    in_english = english()
    classes = []
    for cls in sorted(SingleClass, reverse=True):
        kinds = [k for k in KINDS if k.single_class is cls]
        classes.append(
            {
                "cls": cls,
                "anchor": f"class-{cls.name.lower()}",
                "label": _("下四滥和杂牌") if cls is SingleClass.ZA else CLASS_LABELS[cls],
                "kinds": [
                    {
                        "kind": k,
                        "cards": [c for c in DECK if c.kind is k],
                        "counts_as": k.points,
                        "face": k.face,
                        "za_tag": ZA_TAGS[k.class_label] if cls is SingleClass.ZA else "",
                        "name_en": glossary.card_name(k.code) if in_english else None,
                    }
                    for k in kinds
                ],
            }
        )
    koujue = [
        [
            {
                "word": word,
                "kinds": " ".join(k.code for k in kinds),
                "also": " ".join(k.code for k in also),
                "names": "、".join(k.name_zh for k in kinds),
                "also_names": "、".join(k.name_zh for k in also),
                "anchor": f"kind-{kinds[0].code}" if len(kinds) == 1 else "class-za",
            }
            for word, kinds, also in half
        ]
        for half in KOUJUE
    ]
    return render(
        request,
        "reference/cards.html",
        {"classes": classes, "koujue": koujue, "kind_count": len(KINDS), "deck_size": len(DECK),
         "koujue_en": glossary.koujue_english() if in_english else ""},
    )


# ---------------------------------------------------------------- /pairs/


@dataclass(frozen=True)
class PairQuery:
    q: str
    cat: str
    points: int | None
    rules: str

    @classmethod
    def from_request(cls, request: HttpRequest) -> tuple[PairQuery, str]:
        """The query, and what is wrong with its ``cat``, ``points`` or ``rules`` ("" when
        nothing is: a wrong one is left out of the query — no such filter, the default
        rules — and the page says why with a 400)."""
        q = " ".join(request.GET.get("q", "").split())[:60]
        problems = []
        cat = ""
        try:  # "" is the form's "every category"
            cat = query_choice(request.GET, "cat", pgettext("address", "类别"),
                               list(FILTER_CATEGORIES), "")
        except BadQuery as e:
            problems.append(e.message)
        points: int | None = None
        if request.GET.get("points", ""):  # "" is the form's "any points"
            try:
                points = query_int(request.GET, "points", pgettext("address", "点数"), 0, 9, 0)
            except BadQuery as e:
                problems.append(e.message)
        rules = "xuanjing"
        try:
            rules = _rules_name(request)
        except BadQuery as e:
            problems.append(e.message)
        if cat == "diwang" and rules != "app":
            rules = "app"
        return cls(q, cat, points, rules), " ".join(problems)

    def url(self, **changes: Any) -> str:
        params = {"q": self.q, "cat": self.cat, "points": self.points, "rules": self.rules}
        params.update(changes)
        clean = {
            k: v
            for k, v in params.items()
            if v not in ("", None) and (k, v) != ("rules", "xuanjing")
        }
        base = reverse("pairs")
        return f"{base}?{urlencode(clean)}" if clean else base


def _describe(result: SearchResult, query: PairQuery, total: int) -> str:
    n = len(result.entries)
    if result.mode == "all" and not (query.cat or query.points is not None):
        return ngettext("共 %(n)s 组，从大到小排列。", "共 %(n)s 组，从大到小排列。", n) % {"n": n}
    found = ngettext("找到 %(n)s 组（共 %(total)s 组）。", "找到 %(n)s 组（共 %(total)s 组）。", n)
    return found % {"n": n, "total": total}


@lru_cache(maxsize=2048)
def _results_html(language: str, query: PairQuery) -> tuple[str, str, str]:
    """(results, count, count for an out-of-band swap) HTML for one query in one
    language: rendered once, then reused."""
    catalogue = catalogue_for(query.rules)
    result = search(catalogue, query.q, query.cat or None, query.points)
    tiers = []
    for tier in catalogue.tiers:
        rows = [e for e in result.entries if e.tier == tier]
        if rows:
            tiers.append(
                {
                    "key": tier,
                    "label": TIER_LABELS[tier],
                    "rows": [_row_html(language, query.rules, e.code) for e in rows],
                }
            )
    notice = ""
    if result.impossible and result.kinds:
        notice = gettext("这两张凑不成一组：%(name)s只有一张。") % {
            "name": result.kinds[0].name_zh
        }
    elif result.not_cards:
        notice = ngettext("%(cards)s 不在扯旋的 32 张牌里。", "%(cards)s 不在扯旋的 32 张牌里。",
                          len(result.not_cards)) % {"cards": listing(list(result.not_cards))}
    # a query that finds groups, all of them outside the category or points chosen
    filtered = not result.entries and bool(query.cat or query.points is not None) and bool(
        query.q and search(catalogue, query.q).entries)
    context = {
        "query": query,
        "result": result,
        "tiers": tiers,
        "count_text": _describe(result, query, len(catalogue.entries)),
        "notice": notice,
        "suggestions": [] if filtered else [
            {"name": s, "url": query.url(q=s, cat="", points=None)} for s in result.suggestions
        ],
        "four": result.four,
        "terms": [{"term": t, "url": t.url} for t in result.terms],
        "english": language.startswith("en"),
        "examples": [{"q": q, "url": query.url(q=q, cat="", points=None)} for q in EXAMPLE_QUERIES],
        "reset_url": query.url(q="", cat="", points=None),
        "filtered": filtered,
        "unfiltered_url": query.url(cat="", points=None),
    }
    results = _squeeze(render_to_string("reference/pairs.html#results", context))
    count = render_to_string("reference/pairs.html#count", context)
    count_oob = render_to_string("reference/pairs.html#count", {**context, "oob": True})
    return results, count, count_oob


@lru_cache(maxsize=1024)
def _row_html(language: str, rules_name: str, code: str) -> str:
    entry = catalogue_for(rules_name).by_code[code]
    html = render_to_string(
        "reference/pairs.html#row",
        {**_entry_context(entry), "url": _pair_url(code, rules_name)},
    )
    return _squeeze(html)


def _squeeze(html: str) -> str:
    """Collapse runs of whitespace (the rows have no <pre>): a third less to send."""
    return _SPACES.sub(" ", html).strip()


_SPACES = re.compile(r"\s+")


@vary_on_headers("HX-Request")
@visitor_independent
def pairs(request: HttpRequest) -> HttpResponse:
    query, problem = PairQuery.from_request(request)
    results, count, count_oob = _results_html(get_language() or "zh-hans", query)
    status = 400 if problem else 200
    if problem:
        results = format_html('<p class="notice" role="alert">{}</p>', problem) + results
    if is_htmx(request):
        response = HttpResponse(results + count_oob, status=status)
        response["HX-Push-Url"] = query.url()  # the short, shareable form of the address
        return response
    filters = [{"value": k, "label": v} for k, v in FILTER_LABELS.items()]
    context = {
        "query": query,
        "results_html": results,
        "count_html": count,
        "filters": filters,
        "points_options": [
            {"value": i, "label": TIER_LABELS.get(f"points-{i}", POINTS_ZERO)}
            for i in range(9, -1, -1)
        ],
        "kinds": KINDS,
        "rules_options": [{"value": k, "label": v} for k, v in RULES_LABELS.items()],
        "examples": [{"q": q, "url": query.url(q=q, cat="", points=None)} for q in EXAMPLE_QUERIES],
    }
    return render(request, "reference/pairs.html", context, status=status)


# ---------------------------------------------------------------- /pairs/<A>-<B>/


def _parse_code(code: str) -> Group:
    parts = code.split("-")
    if len(parts) != 2 or not all(parts):
        raise Http404("not a pair code")
    try:
        return Group.of(parse_kind(parts[0]), parse_kind(parts[1]))
    except CardError:
        raise Http404("no such pair") from None


def _chain(catalogue: Catalogue, entry: Entry) -> list[dict[str, Any]]:
    """The top-card classes of the groups with the same points, strongest first:
    ``天牌 > 地牌 > 人牌 > … > 梅十 = 板凳 = 长三 > …``."""
    by_class: dict[SingleClass, list[Kind]] = {}
    for other in catalogue.points_groups(entry.points):
        tops = by_class.setdefault(other.group.high.single_class, [])
        if other.group.high not in tops:
            tops.append(other.group.high)
    return [
        {
            "names": " = ".join(k.name_zh for k in sorted(kinds)),
            "label": CLASS_LABELS[cls],
            "mine": cls is entry.group.high.single_class,
        }
        for cls, kinds in sorted(by_class.items(), reverse=True)
    ]


def _explanation(catalogue: Catalogue, entry: Entry) -> list[str]:
    group, cat = entry.group, entry.category
    high, low = group.kinds
    diwang = catalogue.rules.diwang  # 地王 ranks between 天九王 and 天杠
    out: list[str] = []
    if cat is Category.DINGERHUANG:
        out.append(
            gettext(
                "丁丁配大鬼叫丁二皇，是最大的一组，连天牌一对也比它小。丁丁和大鬼整副牌各只有"
                "一张，所以一手牌里最多只有一个人能拿到丁二皇。"
            )
        )
    elif cat is Category.PAIR:
        same = [e for e in catalogue.tied_with(entry)]
        out.append(
            (gettext(
                "两张同一种牌是对子。对子只输给丁二皇，比天九王、地王、杠和所有的点都大。"
                "对子和对子比单张的等级：%(kind)s属于“%(cls)s”。"
            ) if diwang else gettext(
                "两张同一种牌是对子。对子只输给丁二皇，比天九王、杠和所有的点都大。"
                "对子和对子比单张的等级：%(kind)s属于“%(cls)s”。"
            ))
            % {"kind": high.name_zh, "cls": CLASS_LABELS[high.single_class]}
        )
        if same:
            out.append(
                gettext("同一等级的对子一样大，所以它和%(names)s打平。")
                % {"names": listing([e.name for e in same])}
            )
    elif cat is Category.TIANJIUWANG:
        out.append(
            gettext(
                "天牌配黑9叫天九王。它不按点数比：只输给丁二皇和对子，比地王、天杠、地杠和所有的点"
                "都大。"
            ) if diwang else gettext(
                "天牌配黑9叫天九王。它不按点数比：只输给丁二皇和对子，比天杠、地杠和所有的点都大。"
            )
        )
    elif cat is Category.DIWANG:
        out.append(
            gettext(
                "按 app 规则，地牌配黑9叫地王，排在天九王之下、天杠之上。"
                "按《旋经》规则它只是一点（地九王），是一点里最大的。"
            )
        )
    elif cat in (Category.TIANGANG, Category.DIGANG):
        if cat is Category.TIANGANG:
            out.append(
                gettext(
                    "天牌配人牌（天红杠）或黑8（天黑杠）是天杠，两种一样大。天杠比地杠大，"
                    "比所有的点都大，但输给地王、天九王、对子和丁二皇。"
                ) if diwang else gettext(
                    "天牌配人牌（天红杠）或黑8（天黑杠）是天杠，两种一样大。天杠比地杠大，"
                    "比所有的点都大，但输给天九王、对子和丁二皇。"
                )
            )
        else:
            out.append(
                gettext(
                    "地牌配人牌（地红杠）或黑8（地黑杠）是地杠，两种一样大。地杠只比天杠小一级，"
                    "仍然比所有的点都大。"
                )
            )
    else:
        out.append(
            gettext("点数相加取个位：%(a)s算%(pa)s点，%(b)s算%(pb)s点，合起来是%(points)s点。")
            % {
                "a": high.name_zh,
                "pa": high.points,
                "b": low.name_zh,
                "pb": low.points,
                "points": entry.points,
            }
        )
        if cat is Category.ZHOU:
            out.append(
                gettext(
                    "个位是零叫“皱”，是最小的一类。所有皱一样大，不看是什么牌："
                    "这 %(n)s 组皱互相打平。"
                )
                % {"n": entry.ties}
            )
        else:
            out.append(
                gettext(
                    "是点的组先比点数，点数多的大。同为%(pwords)s，比最大的单张：这一组最大的单张是"
                    "%(top)s（%(cls)s）。"
                )
                % {
                    "pwords": TIER_LABELS[entry.tier],
                    "top": high.name_zh,
                    "cls": CLASS_LABELS[high.single_class],
                }
            )
    return out


@visitor_independent
def pair_detail(request: HttpRequest, code: str) -> HttpResponse:
    group = _parse_code(code)
    if group.code != code:
        target = reverse("pair_detail", args=[group.code])
        if request.GET:
            target += "?" + request.GET.urlencode()
        return HttpResponsePermanentRedirect(target)
    try:
        rules_name, problem = _rules_name(request), ""
    except BadQuery as e:  # said on the page, which shows the default rules (400)
        rules_name, problem = "xuanjing", e.message
    catalogue = catalogue_for(rules_name)
    entry = catalogue.by_code[group.code]
    other_name = "app" if rules_name == "xuanjing" else "xuanjing"
    other = catalogue_for(other_name).by_code[group.code]

    def linked(entries: Sequence[Entry]) -> list[dict[str, Any]]:
        return [{**_entry_context(e), "url": _pair_url(e.code, rules_name)} for e in entries]

    aliases = [
        {
            "name": a.name,
            "pinyin": a.pinyin,
            "gloss": gloss(a.name),
            "traditional": a.traditional if a.traditional != a.name else "",
            "sources": source_labels(sorted(a.sources, key=("000", "004", "002", "003").index)),
        }
        for a in entry.aliases
    ]
    names = group.names()
    context = {
        **_entry_context(entry),
        "rules_name": rules_name,
        "rules_label": RULES_LABELS[rules_name],
        "other_rules_label": RULES_LABELS[other_name],
        "other_url": _pair_url(group.code, other_name),
        "other": other,
        "other_category_label": CATEGORY_LABELS[other.category],
        "differs": (other.position, other.category) != (entry.position, entry.category),
        "traditional": names.traditional if names.traditional != names.name else "",
        "name_sources": source_labels(entry.sources),
        "aliases": aliases,
        "total": len(catalogue.entries),
        "stronger_count": entry.position - 1,
        "tied": linked(catalogue.tied_with(entry)),
        "stronger": linked(catalogue.stronger_neighbours(entry)),
        "weaker": linked(catalogue.weaker_neighbours(entry)),
        "explanation": _explanation(catalogue, entry),
        "compare_anchor": "#" + COMPARE_ANCHORS[entry.category],
        "chain": _chain(catalogue, entry) if entry.category is Category.POINTS else [],
        "shows_points": entry.category in (Category.POINTS, Category.ZHOU),
        "catalogue_url": _catalogue_url(rules_name) + f"#tier-{entry.tier}",
        "problem": problem,
    }
    return render(request, "reference/pair_detail.html", context, status=400 if problem else 200)


# ---------------------------------------------------------------- /rules/


def _split(head: str, tail: str) -> Split:
    return Split.parse(head, tail, PRESETS["xuanjing"])


def _group_view(group: Group) -> dict[str, Any]:
    return {"kinds": group.kinds, "name": group.display_name(), "code": group.code}


def _seat_view(name: str, split: Split | None, stake: int) -> dict[str, Any]:
    return {
        "name": name,
        "stake": stake,
        "head": _group_view(split.head) if split else None,
        "tail": _group_view(split.tail) if split else None,
    }


def _settlement_view(seats: Sequence[Seat], result: Settlement) -> dict[str, Any]:
    return {
        "seats": [_seat_view(s.name, s.split, s.stake) for s in seats],
        "folded": [s.name for s in seats if s.folded],
        "order": result.order,
        "pi_to": result.pi_to,
        "transfers": [t for t in result.transfers if t.amount],
        "nets": [{"name": s.name, "net": result.nets[s.name]} for s in seats],
    }


def _outcome_view(a: Split, b: Split) -> dict[str, Any]:
    rules = PRESETS["xuanjing"]
    outcome = compare(a, b, rules)
    return {
        "a": _seat_view("", a, 0),
        "b": _seat_view("", b, 0),
        "outcome": outcome.value,
        "mirror": outcome.mirror().value,
        "head_cmp": _cmp(a.head.rank(rules), b.head.rank(rules)),
        "tail_cmp": _cmp(a.tail.rank(rules), b.tail.rank(rules)),
    }


def _cmp(a: int, b: int) -> str:
    return ">" if a > b else "<" if a < b else "="


@lru_cache(maxsize=1)
def _rules_facts() -> dict[str, Any]:
    """Everything the rules page computes with the engine (language-independent)."""
    rules = PRESETS["xuanjing"]
    # 旋经 multi-player example 3, with 钵钵 甲 100, 乙 80, 丙 50 and a folded 皮 of 60.
    jia = _split("B10 B9", "R3 B6")
    yi = _split("R2 R7", "BJ B8")
    bing = _split("RQ R8", "B5 B5")
    xj_seats = [
        Seat("甲", 100, jia),
        Seat("乙", 80, yi),
        Seat("丙", 50, bing),
        Seat("丁", 60, folded=True),
    ]
    xj = settle(xj_seats, rules)
    # 003's example: a beats b and c, b beats c; 钵钵 a 50, b 200, c 150.
    app_seats = [
        Seat("a", 50, _split("RQ RQ", "R2 R2")),
        Seat("b", 200, _split("R8 R8", "R4 R4")),
        Seat("c", 150, _split("B10 B9", "R6 R7")),
    ]
    app = settle(app_seats, rules)
    # 旋经 two-player example 2: the text gives the 皮 to 甲; the rule gives it to 乙.
    slip_a = _split("RQ B9", "R6 R7")
    slip_b = _split("R2 B4", "B6 B9")
    slip = settle([Seat("甲", 3, slip_a), Seat("乙", 3, slip_b), Seat("丙", 1, folded=True)], rules)
    # 旋经 multi-player example 2 (three 板凳 as written): 甲 and 丙 each beat 乙.
    mp2 = {
        "jia_yi": compare(_split("RQ B9", "R2 B4"), _split("B6 B9", "R6 R7"), rules).value,
        "bing_yi": compare(_split("B4 B4", "R8 B7"), _split("B6 B9", "R6 R7"), rules).value,
    }
    # Showdown examples for 吃 / 走 / 死 (旋经 two-player examples 1 and 3, and 2).
    outcomes = [
        _outcome_view(_split("RQ RQ", "R2 B4"), _split("R8 BJ", "B6 B9")),
        _outcome_view(slip_a, slip_b),
        _outcome_view(_split("R2 R8", "R3 B7"), _split("RQ B8", "R4 B5")),
    ]
    mango = []
    for stakes in STAKES.values():
        fixed = PRESETS["xuanjing"].with_options(stakes=stakes)
        escalating = fixed.with_options(mango="escalating")
        mango.append(
            {
                "stakes": stakes,
                "fixed": mango_amount(fixed, Mango.ZOU),
                "zou1": mango_amount(escalating, Mango.ZOU, 1),
                "xiu1": mango_amount(escalating, Mango.XIU, 1),
                "second": mango_amount(escalating, Mango.XIU, 2),
                "third": mango_amount(escalating, Mango.XIU, 3),
                "quan": mango_amount(escalating, Mango.QUAN),
            }
        )
    diwang = Group.parse("R2 B9")
    return {
        "xj": _settlement_view(xj_seats, xj),
        "app": _settlement_view(app_seats, app),
        "slip": {
            "jia": _seat_view("甲", slip_a, 0),
            "yi": _seat_view("乙", slip_b, 0),
            "outcome": compare(slip_a, slip_b, rules).value,
            "pi_to": slip.pi_to,
        },
        "mp2": mp2,
        "outcomes": outcomes,
        "mango": mango,
        "stakes": list(STAKES.values()),
        "diwang_xj": CATALOGUES["xuanjing"].by_code[diwang.code],
        "diwang_app": CATALOGUES["app"].by_code[diwang.code],
        "win": Outcome.WIN.value,
        "push": Outcome.PUSH.value,
        "lose": Outcome.LOSE.value,
        "default_stakes": rules.stakes,
        "app_rules": get_rules("app"),
    }


@visitor_independent
def rules_page(request: HttpRequest) -> HttpResponse:
    return render(request, "reference/rules.html", _rules_facts())


# ---------------------------------------------------------------- /rules/compare/

COMPARE_ANCHORS: dict[Category, str] = {
    Category.DINGERHUANG: "order",
    Category.PAIR: "pairs",
    Category.TIANJIUWANG: "order",
    Category.DIWANG: "diwang",
    Category.TIANGANG: "gang",
    Category.DIGANG: "gang",
    Category.POINTS: "equal",
    Category.ZHOU: "zhou",
}

# The worked comparisons of /rules/compare/, by section (the 旋经's own three examples
# are in "equal").  Each pair is compared by the engine when the page renders.
COMPARE_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "order": (("R3 JK", "RQ RQ"), ("B5 B5", "RQ B9"), ("RQ B9", "RQ R8"), ("RQ R8", "R2 R8"),
              ("R2 B8", "RQ R7")),
    "pairs": (("RQ RQ", "R2 R2"), ("B10 B10", "B4 B4"), ("BJ BJ", "B9 B9")),
    "gang": (("RQ R8", "RQ B8"), ("R2 R8", "R2 B8")),
    "points": (("BJ B8", "RQ B6"), ("R2 B5", "B8 B9")),
    "equal": (("RQ R7", "R2 R7"), ("R8 BJ", "BJ B8"), ("B10 B9", "B4 B5")),
    "zhou": (("R4 B6", "B10 R10"), ("R3 B7", "BJ B9")),
}


def _compared(a: Group, b: Group, rules_name: str) -> dict[str, Any]:
    rules, catalogue = PRESETS[rules_name], catalogue_for(rules_name)

    def side(g: Group) -> dict[str, Any]:
        return {"kinds": g.kinds, "name": g.display_name(), "gloss": gloss(g.display_name()),
                "position": catalogue.by_code[g.code].position,
                "url": _pair_url(g.code, rules_name)}

    return {"a": side(a), "b": side(b), "cmp": _cmp(a.rank(rules), b.rank(rules))}


@visitor_independent
def rules_compare_page(request: HttpRequest) -> HttpResponse:
    """How two groups compare, in full: the one place every comparison links to."""
    examples = {
        key: [_compared(Group.parse(a), Group.parse(b), "xuanjing") for a, b in pairs]
        for key, pairs in COMPARE_EXAMPLES.items()
    }
    diwang, tiangang = Group.parse("R2 B9"), Group.parse("RQ R8")
    context = {
        "examples": examples,
        "diwang": {name: _compared(diwang, tiangang, name) for name in ("xuanjing", "app")},
        "classes": [
            {"label": CLASS_LABELS[cls] if cls is not SingleClass.ZA else _("下四滥和杂牌"),
             "names": "、".join(k.name_zh for k in KINDS if k.single_class is cls)}
            for cls in sorted(SingleClass, reverse=True)
        ],
        "total": len(catalogue_for("xuanjing").entries),
    }
    return render(request, "reference/compare.html", context)


# ---------------------------------------------------------------- /rules/app/


@dataclass(frozen=True)
class AppDifference:
    """One row of the differences: a point of the rules, and what the 旋经, the app's rules
    page (002) and the game's introduction page (003) say about it."""

    anchor: str
    point: Promise
    xuanjing: Promise | str
    app: Promise | str
    intro: Promise | str


def _app_differences() -> list[AppDifference]:
    xj = PRESETS["xuanjing"]
    escalating = xj.with_options(mango="escalating")

    def factor(kind: Mango, nth: int) -> int:
        return mango_amount(escalating, kind, nth) // xj.stakes.pi

    return [
        AppDifference(
            "seats", _("人数"),
            _("两到八人"),
            _("没说"),
            _("两到六人"),
        ),
        AppDifference(
            "face-up", _("第三、四张牌"),
            _("第三张翻开发；第四张扣着发，各人自己串开（串牌）"),
            _("每位玩家最多 4 张牌，分三轮发：先两张暗牌，后两轮各一张明牌；没有串牌"),
            _("两张都翻开发（明牌），没有串牌"),
        ),
        AppDifference(
            "opening", _("开局"),
            gettext("谁也不用先押；第一轮甩牌的人输 %(pi)s 分，叫皮；挡家必须先发招 %(opening)s"
                    " 分") % {
                "pi": xj.stakes.pi, "opening": xj.stakes.opening},
            _("底皮自动投入，没有必须先下的一注"),
            _("先定簸簸数，再押底皮，没有必须先下的一注"),
        ),
        AppDifference(
            "first-speaker", _("谁先说话"),
            _("第一轮挡家发招、挡家的下家先表态；后两轮明牌单张最大的人先说话"),
            _("每一轮都从庄家开始，按逆时针轮流"),
            _("从庄家的下一家开始，按逆时针轮流"),
        ),
        AppDifference(
            "raise", _("加注下限"),
            gettext("返招至少到现在的两倍，也不低于 %(floor)s；拖是正好两倍") % {
                "floor": xj.stakes.raise_floor},
            _("没说下限：“大”是在跟平的基础上再多投一笔，数目自己选"),
            _("没说下限：“大”就是比别人放得多，不超过簸簸数"),
        ),
        AppDifference(
            "zhoumang", _("第一轮一注把人全吓跑"),
            _("揍芒：这个人吃所有的皮，下一手其余的人每人丢一份芒果"),
            _("皱芒：“大”或“敲”的人吃底皮和丢牌的人投进去的注，也算赢家，可以吃芒果池；芒果照越"
              "打越多的数交"),
            _("没说"),
        ),
        AppDifference(
            "xiumang", _("一轮里人人都休"),
            _("休过河，这一手不算输赢；下一手打休芒，每人丢一份芒果"),
            _("休芒：照越打越多的数交芒果"),
            _("这一局平局，没有输赢；没提芒果"),
        ),
        AppDifference(
            "mango-amounts", _("芒果交多少"),
            gettext("每次一样多（“%(name)s”每人 %(m)s）") % {
                "name": xj.stakes.name, "m": xj.stakes.mango},
            gettext("按底皮的倍数越打越多：第一次皱芒 %(z)s 倍、休芒 %(x)s 倍，第二次 %(s)s 倍，"
                    "第三次起 %(t)s 倍") % {
                "z": factor(Mango.ZOU, 1), "x": factor(Mango.XIU, 1),
                "s": factor(Mango.XIU, 2), "t": factor(Mango.XIU, 3)},
            _("没说"),
        ),
        AppDifference(
            "mango-end", _("散场时的芒果"),
            _("到了说好的时间，再打最后一圈（圈芒），每手每人都丢芒果"),
            _("没有下一局或中途解散房间，芒果池由在桌的人平分"),
            _("没说"),
        ),
        AppDifference(
            "mango-winner", _("芒果归谁"),
            _("打芒果那一手吃皮的人（那一手没人吃皮就留到下一手：《旋经》没说，"
              "本站照 app 规则页）"),
            _("尾牌最大的人独得芒果分；皱芒时“大”或“敲”的人算赢家，也能吃；这一局没有赢家就累积"
              "到下一局"),
            _("没说"),
        ),
        AppDifference(
            "sanhua", _("三花"),
            _("没有三花"),
            _("有三花十、三花六的人可以选“三花摊牌”，这一局不输不赢"),
            _("拿到三花十或三花六，这一局不输也不赢"),
        ),
        AppDifference(
            "diwang", _("地牌配黑9"),
            _("地九王，只算一点（一点里最大）"),
            _("地王，排在天王（天九王）之下、天杠之上"),
            _("没提"),
        ),
        AppDifference(
            "compare", _("比牌"),
            _("头比头、尾比尾；两组都大是吃，一大一小是走（打走），两组都小是死；没说一组一样大怎么"
              "算"),
            _("先比尾牌，后比头牌；全胜或一胜一平是胜利，全平或一胜一负是平局，全败或一败一平是失"
              "败。本站照这一条算一样大的组"),
            _("头和尾都大或一平一大就赢，都小就输，一大一小是平"),
        ),
        AppDifference(
            "settle-order", _("算账顺序"),
            _("以两家里钵钵少的一方为准；打走时，比小的那组，谁的大谁吃皮（《旋经》管小的那组叫"
              "头）"),
            _("尾大吃皮：按尾排队，尾最大的先结算，再轮到第二大的"),
            _("尾大吃皮，和 002 一样；但“输赢比较”一节又说先按头牌排先后（见下文）"),
        ),
        AppDifference(
            "scoring", _("记分"),
            _("按分算输赢，建议打积分制（见规则页）"),
            _("没说"),
            _("网上按银子算输赢，另记积分：按桌上各人的银子定底注，按等级定基本积分；输的积分 = "
              "输的银子 ÷ 底注 × 基本积分，赢家按各自赢的银子分这些积分，每赢一局荣誉值加 1"),
        ),
        AppDifference(
            "timeout", _("超时和逃跑"),
            _("不涉及（面对面打）"),
            _("没说"),
            _("限时内不说话就自动丢牌；逃跑的人要赔上桌上所有已下的注，其余的人拿回自己的注"),
        ),
    ]


@dataclass(frozen=True)
class AppWord:
    """One word of the app texts (002, 003) and the site's word for it."""

    anchor: str
    app: str
    sources: str
    site: str
    url: str
    note: Promise | str = ""


def _app_words() -> list[AppWord]:
    rules, pairs = reverse("rules"), reverse("pairs")
    return [
        AppWord("zhuangjia", "庄家（莊家）", "002、003", "挡家", f"{rules}#term-dangjia",
                _("app 从庄家开始发牌，002 也从庄家开始说话，所以庄家最像本站的挡家（第一个"
                  "拿牌的人）；面对面打时另有一位发人。这是我们的理解，资料没有明说。")),
        AppWord("dipi", "底皮 · 皮", "002、003", "皮", f"{rules}#table",
                _("app 里每人开局先押的一份；甩牌的人留下的注里至少有它，所以对上本站的皮。")),
        AppWord("bobo", "簸簸 · 簸簸数", "002、003", "钵钵", f"{rules}#table",
                _("一局里最多能投入、也最多会输的数，就是钵钵；app 写作“簸簸”。")),
        AppWord("da", "大", "002、003", "返 · 发招", f"{rules}#term-fan",
                _("在跟平的基础上再多下。本轮还没人下时，“大”就是本站的发招。"
                  "app 没说最少要大多少。")),
        AppWord("gen", "跟", "002、003", "瞧（买）", f"{rules}#term-qiao"),
        AppWord("qiao", "敲", "002、003", "敲", f"{rules}#term-qiao-bobo",
                _("一样：把簸簸里的全押上，以后不再下注。")),
        AppWord("xiu", "休", "002、003", "休", f"{rules}#term-xiu",
                _("一样：先不下，让下家说话；有人下了注就不能再休。")),
        AppWord("diu", "丢（丟）", "002、003", "甩", f"{rules}#term-shuai"),
        AppWord("fahua", "发话（發話）", "002、003", "表态", f"{rules}#term-biaotai",
                _("轮到谁，谁发话。")),
        AppWord("fenpai", "分牌", "002、003", "分牌", f"{rules}#split",
                _("一样：把四张牌分成头和尾两组（在扯牌，也就是比牌的时候）。")),
        AppWord("toupai", "头牌 · 尾牌", "002、003", "头 · 尾", f"{rules}#split",
                _("大的一组是头，小的一组是尾，和本站一样（《旋经》叫法相反）。")),
        AppWord("bipai", "比牌", "002", "扯", f"{rules}#term-che"),
        AppWord("shengli", "胜利 · 平局 · 失败", "002", "吃 · 走 · 死", f"{rules}#split"),
        AppWord("ping", "赢 · 平（打和） · 输", "003", "吃 · 走 · 死", f"{rules}#split"),
        AppWord("zhoumang", "皱芒", "002", "揍芒", f"{rules}#term-zoumang",
                _("同一种情况（第一轮一注把人全吓跑），叫法不同，交的数也不同。")),
        AppWord("mangguochi", "芒果分 · 芒果池", "002", "芒果", f"{rules}#mango",
                _("攒在桌子中间、还没人吃走的芒果。")),
        AppWord("tanpai", "三花摊牌", "002", "报三花", f"{rules}#split"),
        AppWord("sanpai", "散牌", "002、003", "点", reverse("rules_compare") + "#points",
                _("不是特殊牌型的一组，按点数比。")),
        AppWord("dinghuang", "丁皇", "003", "丁二皇", reverse("pair_detail", args=["R3-JK"])),
        AppWord("tianwang", "天王 · 奶狗", "002 · 003", "天九王",
                reverse("pair_detail", args=["RQ-B9"])),
        AppWord("hutou", "虎头", "002、003", "斧头", reverse("cards") + "#kind-BJ",
                _("黑J。")),
        AppWord("duizi", "天牌、地牌……（一组）", "002、003", "天牌一对 …… 小5一对",
                f"{pairs}#tier-pair", _("大小表里单张的名字指的是一对。")),
        AppWord("jinbi", "金币 · 银子 · 积分", "003", "分", "",
                _("网上游戏里的筹码和积分；面对面打就是桌上的分。")),
    ]


@visitor_independent
def rules_app_page(request: HttpRequest) -> HttpResponse:
    """How the two app texts (002, 003) differ from the 旋经, and their words."""
    context = {"app": get_rules("app"), "differences": _app_differences(), "words": _app_words()}
    return render(request, "reference/rules_app.html", context)
