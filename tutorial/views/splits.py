"""/splits/ — 分牌的学问: the split advisor's finding, taught, and a hand tool.

Every figure comes from :mod:`engine.advisor` at render time: the share of hands and
deals where the best split is not the naive "strongest 头" split
(:func:`~engine.advisor.naive_differences`), the biggest examples, and, for a hand
typed into the GET form (``/splits/?hand=RQ+R6+R7+B9``), each split's exact EV and
吃/走/死 chances (:func:`~engine.advisor.advise`).  The prose lives in
``templates/splits/`` and its English in ``locale/splits``.

The page is the same for every visitor (a GET form, no CSRF token), so it is cached
whole (:func:`tutorial.pagecache.visitor_independent`); refused hands answer 400 and
are not cached.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import conditional_escape, escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from engine.advisor import (
    DISTINCT_HANDS,
    OPPONENT_HANDS,
    Advice,
    NaiveDifferences,
    advise,
    load_table,
    naive_differences,
    rule_quality,
)
from engine.cards import DECK, KINDS, Kind
from engine.groups import Group
from engine.hands import Split, naive_split, sanhua, thumb_split
from engine.numbers import NumberError, parse_int
from engine.quiz import shown_percents
from engine.rules import get_rules
from engine.showdown import Opponent, Pricing, Situation, price
from tutorial.fragments import is_htmx
from tutorial.language import english
from tutorial.pagecache import visitor_independent
from tutorial.percentages import percentage, percentages
from tutorial.query import BadQuery, query_choice
from tutorial.rulesets import RULES_LABELS
from tutorial.search import catalogue_for
from tutorial.templatetags.amounts import signed

RULES_NAMES = ("xuanjing", "app")
RULES_SHORT: dict[str, Promise] = {"xuanjing": _("《旋经》规则"), "app": _("app 规则")}
SPLIT_WORDS = (_("分法一"), _("分法二"), _("分法三"))
EXAMPLE_HAND = "RQ R6 R7 B9"
THUMB_HAND = "RQ R2 B10 R10"  # the rule of thumb's example: 天十二 / 地十二, not 天地公子 / 双花十
MAX_INPUT = 80  # characters of the hand field echoed back

# 汉字 names a visitor may type instead of codes: the kind names and their nicknames.
_NAMES: dict[str, Kind] = {}
for _kind in KINDS:
    for _name in (_kind.name_zh, *_kind.nicknames):
        _NAMES[_name.upper()] = _kind
_BY_CODE = {k.code: k for k in KINDS}
_SEPARATORS = re.compile(r"[\s,，、;；+/|]+")


class HandError(ValueError):
    """A hand the form refuses; ``self.html`` is the (translated) message as safe HTML."""

    def __init__(self, template: str, **values: int | str) -> None:
        super().__init__(template % values)
        self.html: SafeString = mark_safe(
            escape(template)
            % {k: v if isinstance(v, int) else conditional_escape(v) for k, v in values.items()}
        )


def _typed(text: str) -> SafeString:
    """Something the visitor typed, shown back: never translated."""
    return mark_safe(f'<span translate="no">{escape(text)}</span>')


def _zh(text: str) -> SafeString:
    return mark_safe(f'<span lang="zh-Hans">{escape(text)}</span>')


# ---------------------------------------------------------------- parsing


def _token_kinds(token: str) -> list[Kind]:
    """One separator-free piece: a code (``rq``), a name (``天牌``) or several names run
    together (``天牌猫猫``, ``红Q红6``); raise :class:`HandError`."""
    upper = token.upper()
    if upper in _BY_CODE:
        return [_BY_CODE[upper]]
    out: list[Kind] = []
    i = 0
    while i < len(upper):
        for j in range(len(upper), i, -1):  # the longest name first
            kind = _NAMES.get(upper[i:j])
            if kind is not None:
                out.append(kind)
                i = j
                break
        else:
            raise HandError(
                gettext("不认识“%(token)s”。请用牌码（比如 RQ、B9）或牌名（比如 天牌、猫猫）。"),
                token=_typed(token),
            )
    return out


def parse_hand_text(text: str) -> tuple[Kind, ...]:
    """Four kinds from what a visitor typed; raise :class:`HandError` with a message."""
    kinds: list[Kind] = []
    for token in _SEPARATORS.split(text.strip()):
        if token:
            kinds.extend(_token_kinds(token))
    if len(kinds) != 4:
        n = len(kinds)
        raise HandError(
            ngettext("一手牌是四张，你填了 %(n)s 张。", "一手牌是四张，你填了 %(n)s 张。", n),
            n=n,
        )
    for kind, n in Counter(kinds).items():
        if n > kind.copies:
            raise HandError(
                ngettext(
                    "%(name)s 整副牌只有 %(copies)s 张，你填了 %(n)s 张。",
                    "%(name)s 整副牌只有 %(copies)s 张，你填了 %(n)s 张。",
                    kind.copies,
                ),
                name=_zh(kind.name_zh),
                copies=kind.copies,
                n=n,
            )
    return tuple(kinds)


# ---------------------------------------------------------------- formatting


def shown(x: float) -> float:
    """A chip figure as the page shows it (three decimals): differences of figures are
    taken between these, so a reader who subtracts two shown figures gets the third."""
    return round(x, 3)


def percent(p: float) -> str:
    return percentage(p, least=1) + "%"


def percents(before: float, after: float) -> tuple[str, str]:
    """Two chances as percentages with as many decimals (from one up to three) as it
    takes to tell them apart (a change from 0.2% to 0.2% reads as broken)."""
    texts = percentages(before, after, least=1, most=3)
    return texts[0] + "%", texts[1] + "%"


def _pair_url(group: Group, rules_name: str) -> str:
    url = reverse("pair_detail", args=[group.code])
    return f"{url}?rules={rules_name}" if rules_name != "xuanjing" else url


def hand_url(kinds: tuple[Kind, ...], rules_name: str) -> str:
    params = {"hand": " ".join(k.code for k in kinds)}
    if rules_name != "xuanjing":
        params["rules"] = rules_name
    return f"{reverse('splits')}?{urlencode(params)}#tool"


def _group_view(group: Group, rules_name: str) -> dict[str, Any]:
    entry = catalogue_for(rules_name).by_code[group.code]
    return {
        "kinds": group.kinds,
        "name": entry.name,
        "pinyin": entry.pinyin,
        "position": entry.position,
        "url": _pair_url(group, rules_name),
    }


def _split_view(split: Split, rules_name: str) -> dict[str, Any]:
    return {
        "head": _group_view(split.head, rules_name),
        "tail": _group_view(split.tail, rules_name),
    }


# ---------------------------------------------------------------- the finding


def _figures(rules_name: str) -> dict[str, Any]:
    rules = get_rules(rules_name)
    found: NaiveDifferences = naive_differences(rules)
    table = load_table(rules)
    return {
        "name": rules_name,
        "label": RULES_LABELS[rules_name],
        "hands": found.hands,
        "hands_text": f"{found.hands:,}",
        "total_hands": found.total_hands,
        "total_text": f"{found.total_hands:,}",
        "hand_share": percent(found.hands / found.total_hands),
        "deal_share": percent(found.probability),
        "mean_gain": signed(found.mean_gain, 3),
        "mean_gain_when_differs": signed(found.mean_gain_when_differs, 3),
        "exploitability": f"{table.exploitability:.6f}",
        "rounds": table.rounds,
        "found": found,
    }


def _thumb(rules_name: str) -> dict[str, Any]:
    """The rule of thumb the page starts with (:func:`engine.hands.thumb_split`), measured
    against 头最大 (:func:`engine.advisor.rule_quality`), and both on the example hand."""
    rules = get_rules(rules_name)
    kinds = tuple(_BY_CODE[c] for c in THUMB_HAND.split())
    thumb, naive = rule_quality(rules, thumb_split), rule_quality(rules, naive_split)
    return {
        "share": percent(thumb.share),
        "naive_share": percent(naive.share),
        "loss": f"{thumb.mean_loss:.3f}",
        "naive_loss": f"{naive.mean_loss:.3f}",
        "kinds": kinds,
        "url": hand_url(kinds, rules_name),
        "thumb": _split_view(thumb_split(kinds, rules), rules_name),
        "naive": _split_view(naive_split(kinds, rules), rules_name),
        "diwang": rules.diwang,  # 地王 is a special group too (engine.hands.thumb_split)
    }


def _examples(found: NaiveDifferences, rules_name: str) -> list[dict[str, Any]]:
    return [
        {
            "kinds": ex.kinds,
            "naive": _split_view(ex.naive, rules_name),
            "best": _split_view(ex.best, rules_name),
            "ev_naive": signed(ex.ev_naive, 3),
            "ev_best": signed(ex.ev_best, 3),
            "gain": signed(shown(ex.ev_best) - shown(ex.ev_naive), 3),
            "url": hand_url(ex.kinds, rules_name),
            "code": " ".join(k.code for k in ex.kinds),
        }
        for ex in found.examples
    ]


# ---------------------------------------------------------------- one hand


def why(advice: Advice, rules_name: str) -> str:
    """One generated sentence: why the best split beats the naive one (or that it is it)."""
    best, naive = advice.splits[advice.best], advice.splits[advice.naive]
    if best.ev <= naive.ev:
        others = [s.ev for i, s in enumerate(advice.splits) if s.split != naive.split]
        margin = shown(naive.ev) - shown(max(others))
        if margin <= 0:
            return gettext("这手牌头最大的分法就是最好的分法，另有一种分法和它一样好。")
        return gettext(
            "这手牌头最大的分法就是最好的分法：换成别的分法，头不会更大，尾补回来的也不够，"
            "每次比牌平均要少赢 %(d)s 或更多。"
        ) % {"d": f"{margin:.3f}"}
    bh, bt = _group_view(best.split.head, rules_name), _group_view(best.split.tail, rules_name)
    nh, nt = _group_view(naive.split.head, rules_name), _group_view(naive.split.tail, rules_name)
    w0, w1 = percents(naive.p_win, best.p_win)
    l0, l1 = percents(naive.p_lose, best.p_lose)
    sentences = [
        gettext("最好的分法让出一点头：头从第 %(nh)s 大换成第 %(bh)s 大，尾却从第 %(nt)s 大升到"
                "第 %(bt)s 大（共 %(total)s 组）。") % {
            "nh": nh["position"], "bh": bh["position"], "nt": nt["position"],
            "bt": bt["position"], "total": len(catalogue_for(rules_name).entries)},
        # the same chance to win both ways: no change to tell
        (gettext("吃的机会从 %(w0)s 变成 %(w1)s。") if w0 != w1
         else gettext("吃的机会两种分法都是 %(w0)s。")) % {"w0": w0, "w1": w1},
        gettext("死的机会从 %(l0)s 变成 %(l1)s，每次比牌平均多赢 %(gain)s。") % {
            "l0": l0, "l1": l1, "gain": f"{shown(best.ev) - shown(naive.ev):.3f}"},
    ]
    return (" " if english() else "").join(sentences)


def _result(kinds: tuple[Kind, ...], rules_name: str) -> dict[str, Any]:
    rules = get_rules(rules_name)
    advice = advise(kinds, rules)
    top = max(s.ev for s in advice.splits)
    options = []
    for i, s in enumerate(advice.splits):
        same_as = next((j for j in range(i) if advice.splits[j].split == s.split), None)
        options.append(
            {
                "index": i,
                "word": SPLIT_WORDS[i],
                "same_as": SPLIT_WORDS[same_as] if same_as is not None else "",
                **_split_view(s.split, rules_name),
                "ev": signed(s.ev, 3),
                "ev_raw": s.ev,
                "best": s.ev == top,
                "naive": i == advice.naive,
                "odds": [
                    {"key": key, "label": label, "p": p, "text": text + "%"}
                    for key, label, p, text in zip(
                        ("win", "push", "lose"),
                        (pgettext("splits", "吃"), pgettext("splits", "走"),
                         pgettext("splits", "死")),
                        (s.p_win, s.p_push, s.p_lose),
                        shown_percents(s.p_win, s.p_push, s.p_lose, decimals=1),
                        strict=True)
                ],
            }
        )
    return {
        "kinds": advice.kinds,
        "options": options,
        "why": why(advice, rules_name),
        "gain": signed(shown(advice.splits[advice.best].ev)
                       - shown(advice.splits[advice.naive].ev), 3),
        "naive_is_best": advice.splits[advice.naive].ev == top,
        "sanhua": sanhua(advice.kinds, rules),
    }


# ---------------------------------------------------------------- the view


@visitor_independent
def splits_page(request: HttpRequest) -> HttpResponse:
    rules_name, rules_problem = _rules_name(request.GET)
    raw = "".join(
        c for c in request.GET.get("hand", "") if not unicodedata.category(c).startswith("C")
    )
    hand_text = " ".join(raw.split())[:MAX_INPUT]
    error: SafeString | str = ""
    result = None
    if hand_text:
        try:
            result = _result(parse_hand_text(hand_text), rules_name)
        except HandError as exc:
            error = exc.html
    figures = {name: _figures(name) for name in RULES_NAMES}
    current = figures[rules_name]
    other_name = "app" if rules_name == "xuanjing" else "xuanjing"
    switch_params = {"hand": hand_text} if hand_text else {}
    if other_name != "xuanjing":
        switch_params["rules"] = other_name
    switch_url = reverse("splits") + ("?" + urlencode(switch_params) if switch_params else "")
    context = {
        "rules_name": rules_name,
        "rules_label": RULES_LABELS[rules_name],
        "rules_short": RULES_SHORT[rules_name],
        "other_rules_label": RULES_LABELS[other_name],
        "switch_url": switch_url,
        "figures": [figures[name] for name in RULES_NAMES],
        "f": current,
        "thumb": _thumb(rules_name),
        "examples": _examples(current["found"], rules_name),
        "distinct_hands": f"{DISTINCT_HANDS:,}",
        "opponent_hands": f"{OPPONENT_HANDS:,}",
        "unseen": len(DECK) - 4,
        "deck_size": len(DECK),
        "hand_text": hand_text,
        "example_url": hand_url(tuple(_BY_CODE[c] for c in EXAMPLE_HAND.split()), rules_name),
        "example_hand": EXAMPLE_HAND,
        "hand_error": error,
        "result": result,
        "show_pinyin": english(),
        "codes": [{"code": k.code, "name": k.name_zh} for k in KINDS],
        "t": table_form(),
    }
    context["rules_problem"] = rules_problem
    status = 400 if error or rules_problem else 200
    return render(request, "splits/splits.html", context, status=status)


def _rules_name(data: Any) -> tuple[str, str]:
    """``?rules=`` (``xuanjing`` when not given), or ``xuanjing`` and what is wrong with
    it: the page says so with a 400 rather than quietly showing the default rules."""
    try:
        return query_choice(data, "rules", pgettext("address", "规则"), RULES_NAMES,
                            "xuanjing"), ""
    except BadQuery as e:
        return "xuanjing", e.message


# ---------------------------------------------------------------- at the table

TABLE_ROWS = 5  # opponent rows the form offers
MAX_STAKE = 100_000


class TableError(HandError):
    """A refused "at the table" form; ``field`` names the input to mark."""

    def __init__(self, field: str, template: str, **values: int | str) -> None:
        super().__init__(template, **values)
        self.field = field


def _cards(text: str, n: int, field: str) -> tuple[Kind, ...]:
    try:
        kinds: list[Kind] = []
        for token in _SEPARATORS.split(text.strip()):
            if token:
                kinds.extend(_token_kinds(token))
    except HandError as exc:
        raise TableError(field, "%(message)s", message=exc.html) from None
    if len(kinds) != n:
        template = (ngettext("你的牌是四张，你填了 %(n)s 张。", "你的牌是四张，你填了 %(n)s 张。",
                             len(kinds)) if n == 4 else
                    ngettext("对手 %(row)s 的明牌是两张，你填了 %(n)s 张。",
                             "对手 %(row)s 的明牌是两张，你填了 %(n)s 张。", len(kinds)))
        raise TableError(field, template, n=len(kinds), row=field[1:])
    return tuple(kinds)


def _stake(text: str, field: str, what: str, least: int = 1) -> int:
    try:
        return parse_int(text, least, MAX_STAKE)
    except NumberError:
        raise TableError(field, gettext("%(what)s要填 %(lo)s 到 %(hi)s 的整数。"),
                         what=what, lo=least, hi=f"{MAX_STAKE:,}") from None


def _clean(value: str) -> str:
    text = "".join(c for c in value if not unicodedata.category(c).startswith("C"))
    return " ".join(text.split())[:MAX_INPUT]


def table_form(data: Any = None) -> dict[str, Any]:
    """The form's values as typed (empty for the blank form on /splits/)."""
    data = data or QueryDict()
    rules_name, rules_problem = _rules_name(data)
    return {
        "cards": _clean(data.get("cards", "")),
        "stake": _clean(data.get("stake", "")),
        "rows": [{"n": i, "vfield": f"v{i}", "sfield": f"s{i}",
                  "visible": _clean(data.get(f"v{i}", "")),
                  "stake": _clean(data.get(f"s{i}", ""))} for i in range(1, TABLE_ROWS + 1)],
        "pi": _clean(data.get("pi", "")),
        "rules": rules_name,
        "rules_problem": rules_problem,
        "rules_choices": [(name, RULES_LABELS[name]) for name in RULES_NAMES],
        "submitted": "cards" in data,
    }


def _situation(form: dict[str, Any]) -> Situation:
    rules = get_rules(form["rules"])
    mine = _cards(form["cards"], 4, "cards")
    stake = _stake(form["stake"], "stake", gettext("你的下注"))
    opponents = []
    for row in form["rows"]:
        if not row["visible"] and not row["stake"]:
            continue
        visible = _cards(row["visible"], 2, f"v{row['n']}")
        what = gettext("对手 %(n)s 的下注") % {"n": row["n"]}
        opponents.append(Opponent((visible[0], visible[1]),
                                  _stake(row["stake"], f"s{row['n']}", what)))
    if not opponents:
        raise TableError("v1", gettext("至少填一个还没甩牌的对手：他的两张明牌和下注。"))
    folded = tuple(_stake(x, "pi", gettext("每家甩牌的皮"), 0)
                   for x in _SEPARATORS.split(form["pi"]) if x)
    if 1 + len(opponents) + len(folded) > rules.max_seats:
        raise TableError("pi", gettext("一桌最多坐 %(n)s 人。"), n=rules.max_seats)
    seen = Counter(mine + tuple(k for o in opponents for k in o.visible))
    for kind, n in seen.items():
        if n > kind.copies:
            raise TableError("cards", ngettext(
                "%(name)s 整副牌只有 %(copies)s 张，桌上填了 %(n)s 张。",
                "%(name)s 整副牌只有 %(copies)s 张，桌上填了 %(n)s 张。", kind.copies),
                name=_zh(kind.name_zh), copies=kind.copies, n=n)
    return Situation(rules, (mine[0], mine[1], mine[2], mine[3]), stake, tuple(opponents),
                     folded)


def _option_name(priced: Pricing, i: int) -> str:
    option = priced.options[i]
    return option.sanhua or str(SPLIT_WORDS[i])


def table_answer(s: Situation, rules_name: str) -> dict[str, Any]:
    """Every option priced with the folded seats' 皮 and without it."""
    with_pi = price(s)
    without = price(replace(s, folded=()))
    rows = []
    for i, (a, b) in enumerate(zip(with_pi.options, without.options, strict=True)):
        rows.append({
            "word": _option_name(with_pi, i),
            "split": _split_view(a.split, rules_name) if a.split is not None else None,
            "ev": signed(a.ev, 1), "stderr": f"{a.stderr:.1f}" if a.stderr else "",
            "ev_raw": a.ev, "ev_nopi": signed(b.ev, 1),
            "stderr_nopi": f"{b.stderr:.1f}" if b.stderr else "",
            "best": i == with_pi.best, "best_nopi": i == without.best,
        })
    pi = sum(s.folded)
    best, before = with_pi.options[with_pi.best], without.options[with_pi.best]
    if not pi:
        effect = gettext("桌上没有皮：最好的分法是%(x)s，期望 %(ev)s 筹码。") % {
            "x": _option_name(with_pi, with_pi.best), "ev": signed(best.ev, 1)}
    elif with_pi.best == without.best:
        effect = gettext("皮没有改变最好的分法：还是%(x)s。算上 %(pi)s 的皮，它的期望从 %(a)s "
                         "变成 %(b)s 筹码。") % {
            "x": _option_name(with_pi, with_pi.best), "pi": pi, "a": signed(before.ev, 1),
            "b": signed(best.ev, 1)}
    else:
        effect = gettext("皮改变了最好的分法：不算皮，最好是%(x)s（期望 %(a)s）；算上 %(pi)s "
                         "的皮，最好的是%(y)s（期望 %(b)s）。尾大吃皮，尾强的分法多拿皮。") % {
            "x": _option_name(without, without.best),
            "a": signed(without.options[without.best].ev, 1), "pi": pi,
            "y": _option_name(with_pi, with_pi.best), "b": signed(best.ev, 1)}
    if not with_pi.exact and any(
            best.ev - o.ev < 2 * with_pi.diff_error(with_pi.best, i)
            for i, o in enumerate(with_pi.options) if i != with_pi.best):
        effect += " " + gettext("最好的那种和另一种相差不到两个标准误差，可以当作差不多好。")
    return {"rows": rows, "effect": effect, "pi": pi, "exact": with_pi.exact,
            "deals": f"{with_pi.deals:,}", "opponents": len(s.opponents),
            "kinds": s.mine}


@visitor_independent
def at_table(request: HttpRequest) -> HttpResponse:
    """/splits/table/: the split at a real showdown, priced (GET form; htmx swaps the
    tool only)."""
    form = table_form(request.GET)
    context: dict[str, Any] = {"t": form, "answer": None, "error": "", "error_field": "",
                               "show_pinyin": english()}
    if form["rules_problem"]:  # said on the page: nothing is priced with rules not asked for
        context["error"], context["error_field"] = form["rules_problem"], "rules"
    elif form["submitted"]:
        try:
            context["answer"] = table_answer(_situation(form), form["rules"])
        except TableError as exc:
            context["error"], context["error_field"] = exc.html, exc.field
    htmx = is_htmx(request)
    template = "splits/table.html#table-tool" if htmx else "splits/table.html"
    status = 400 if context["error"] and not htmx else 200
    response = render(request, template, context, status=status)
    if htmx and context["answer"] is not None:
        response["HX-Push-Url"] = f"{reverse('splits-table')}?{_query(form)}"
    return response


def _query(form: dict[str, Any]) -> str:
    """The short address of a filled form: empty fields left out."""
    params = [("cards", form["cards"]), ("stake", form["stake"])]
    for row in form["rows"]:
        if row["visible"] or row["stake"]:
            params += [(row["vfield"], row["visible"]), (row["sfield"], row["stake"])]
    if form["pi"]:
        params.append(("pi", form["pi"]))
    if form["rules"] != "xuanjing":
        params.append(("rules", form["rules"]))
    return urlencode(params)
