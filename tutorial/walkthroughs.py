"""Guided walkthroughs of the seeds' worked examples (issue 6): building the steps.

Definitions are data: ``tutorial/content/walkthroughs.json`` lists the walkthroughs
(which example of ``engine/data/examples.json`` each one walks through, the stakes we
assume where the seed gives none, the script of the full hand) and holds every
sentence template.  This module turns a definition into a list of :class:`Step`
objects whose every outcome, comparison, transfer and net is computed by the engine
at render time; nothing that a step *shows* as a result is typed into the data.
What the seeds *say* is read from ``examples.json`` and shown beside the engine's
result, so that a slip in a seed is pointed out rather than copied.

Sentences: a template key → a Chinese sentence with ``{fields}`` (the msgid), translated
with the active language (catalog ``locale/walkthroughs``), fields filled with escaped
HTML.  Settlement sentences (transfers and their caps, the 皮, nets) come from
:mod:`tutorial.explain`.
"""

from __future__ import annotations

import html as htmllib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

from django.utils.html import conditional_escape, format_html, strip_tags
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import pgettext

from engine.cards import Card, CardError, Kind, check_available, parse_kind, physical
from engine.groups import ALL_GROUPS, Category, Group
from engine.hands import Outcome, Split, compare
from engine.quiz import shown_percents
from engine.rules import Rules, get_rules
from engine.settle import Seat, Settlement, settle
from tutorial import explain
from tutorial import squeeze as squeeze_stage
from tutorial.glossary import card_words, mark_chinese
from tutorial.language import english, listing_html
from tutorial.templatetags.amounts import signed

EMPTY = SafeString("")
CONTENT = Path(__file__).resolve().parent / "content" / "walkthroughs.json"

__all__ = [
    "AdviceRow", "GroupView", "HandView", "Slip", "Step", "TableView", "Walkthrough",
    "all_walkthroughs", "content", "examples", "get_walkthrough", "say",
]


# --------------------------------------------------------------------------- data


@cache
def content() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CONTENT.read_text("utf-8"))
    return data


@cache
def examples() -> dict[str, dict[str, Any]]:
    raw = json.loads(resources.files("engine.data").joinpath("examples.json").read_text("utf-8"))
    return {e["id"]: e for e in raw["examples"]}


def rules_for(source: str) -> Rules:
    """000 (旋经) examples use the default rules; 003 (an app's page) the app preset."""
    return get_rules(content()["rules_by_source"][source])


# --------------------------------------------------------------------------- sentences






def text(message: str) -> SafeString:
    """A translated message, escaped; on English pages every run of Chinese characters
    in it (a card or player name) is wrapped in ``<span lang="zh-Hans">``."""
    escaped = conditional_escape(pgettext("wt", message))
    if english():
        return mark_chinese(escaped)
    return escaped


def say(key: str, **values: object) -> SafeString:
    """The sentence ``key`` of the content file, translated, fields filled (escaped)."""
    template = text(content()["texts"][key])
    filled = format_html(template, **values) if values else template
    return filled if english() else explain.tighten(filled)


def zh(text: str, gloss: str = "") -> SafeString:
    """Chinese words kept in Chinese on English pages, with an optional gloss after them."""
    if english() and gloss:
        return format_html('<span lang="zh-Hans">{}</span> ({})', text, gloss)
    return format_html('<span lang="zh-Hans">{}</span>', text)


def term(word: str) -> SafeString:
    """A game term (吃, 皮, 头 …): Chinese, glossed in English (context "wt-term")."""
    gloss = pgettext("wt-term", word) if english() else ""
    return zh(word, gloss if gloss != word else "")


def ex(line: SafeString) -> SafeString:
    """A sentence from :mod:`tutorial.explain` (its own catalog, ``locale/companion``); on
    English pages the Chinese words left in it (皮, names) get ``lang="zh-Hans"`` too."""
    if english():
        line = mark_chinese(line)
    return format_html('<span class="wt-explain">{}</span>', line)


_ZH_COUNTS = "零一两三四五六七八九十"


def count(n: int) -> str | int:
    """A small head count as Chinese writes it (两家, 四个人); figures on English pages."""
    return _ZH_COUNTS[n] if not english() and 0 <= n <= 10 else n


#: The 旋经's seats by dealing order (its lead examples); English pages say "Player 3".
SEAT_NAMES = ("第一家", "第二家", "第三家", "第四家")


def who(name: str) -> SafeString:
    if english() and name in SEAT_NAMES:
        return format_html('<b class="who">{}</b>', pgettext("wt-seat", name))
    return format_html('<b class="who" lang="zh-Hans">{}</b>', name)


def as_written(written: str, split: Split) -> SafeString:
    """A group of ``split`` by the name a source wrote; where that is one of its other
    names, the site's name comes first and the source's after it."""
    for group in (split.head, split.tail):
        if written != group.display_name() and written in {
                a.name for a in group.names().aliases}:
            return say("as_written", ours=grp(group), written=zh(written))
    return zh(written)


def grp(group: Group) -> SafeString:
    """A group by name (pinyin after it on English pages)."""
    names = group.names()
    if english() and names.pinyin:
        return format_html('<span lang="zh-Hans">{}</span> <i>{}</i>', group.display_name(),
                           names.pinyin)
    return explain.group_html(group)


def kind_html(kind: Kind) -> SafeString:
    if english():
        return format_html('<span lang="zh-Hans">{}</span> ({})', kind.name_zh,
                           card_words(kind))
    return zh(kind.name_zh)


def category_html(group: Group, rules: Rules) -> SafeString:
    """"对子", "天杠", "九点" …: what kind of group it is."""
    cat = group.category(rules)
    if cat is Category.POINTS:
        return say("points_n", n=group.points)
    return term(cat.label)


# --------------------------------------------------------------------------- views


@dataclass
class GroupView:
    kinds: tuple[Kind, Kind]
    label: SafeString
    role: str  # "head" | "tail" | "" (not split yet)
    role_html: SafeString
    detail: SafeString
    highlight: bool = False
    mark: str = ""  # "bigger" | "smaller" | "equal"
    cards: tuple[Card, ...] = ()  # the physical cards drawn (a pair shows both suits)


@dataclass
class HandView:
    name: str
    cards: tuple[Kind | Card, ...] = ()  # kinds, or cards when suits matter beside another hand
    groups: list[GroupView] = field(default_factory=list)
    caption: SafeString = EMPTY
    highlight: bool = False
    status: SafeString = EMPTY


@dataclass
class Cell:
    html: SafeString
    fact: str = ""  # data-fact key for tests ("outcome:甲:乙")
    value: str = ""  # the engine's value for that fact


@dataclass
class TableView:
    caption: SafeString
    head: list[SafeString]
    rows: list[list[Cell]]

    @property
    def labelled(self) -> list[list[tuple[str, Cell]]]:
        """Each row's cells with their column's heading as text (a phone's stacked rows)."""
        labels = [htmllib.unescape(strip_tags(h)) for h in self.head]
        return [list(zip(labels, row, strict=False)) for row in self.rows]


@dataclass
class Slip:
    says: SafeString
    rules: SafeString
    why: SafeString


@dataclass
class AdviceRow:
    head: Group
    tail: Group
    head_html: SafeString
    tail_html: SafeString
    ev: float
    p_win: float
    p_push: float
    p_lose: float
    chosen: bool
    best: bool

    @property
    def ev_text(self) -> str:
        return signed(self.ev, 3)

    @property
    def percents(self) -> tuple[str, ...]:
        """吃 / 走 / 死 as every split row prints them (:func:`engine.quiz.shown_percents`):
        whole percents summing to 100, a tiny chance "<1" rather than "0"."""
        return shown_percents(self.p_win, self.p_push, self.p_lose)


@dataclass
class AdviceView:
    name: str
    rows: list[AdviceRow]
    summary: SafeString


@dataclass
class SeatView:
    """One seat of the full-hand walkthrough."""

    name: str
    bobo: int
    committed: int
    cards: list[tuple[Card | None, bool]]  # (card or None for a card still hidden, face up?)
    status: SafeString
    acting: bool = False
    dealer: bool = False
    dangjia: bool = False


@dataclass
class Squeeze:
    """The 串牌 of one fourth card: stages corner / pips / whole card."""

    name: str
    kind: Kind
    up: Kind  # the face-up card it is squeezed against
    stages: list[tuple[str, SafeString, SafeString]]  # (stage id, label, what it tells)


@dataclass
class Step:
    kind: str
    title: SafeString
    paras: list[SafeString] = field(default_factory=list)
    hands: list[HandView] = field(default_factory=list)
    tables: list[TableView] = field(default_factory=list)
    slip: Slip | None = None
    lines: list[SafeString] = field(default_factory=list)  # a list of settlement sentences
    advice: list[AdviceView] = field(default_factory=list)
    seats: list[SeatView] = field(default_factory=list)
    squeeze: Squeeze | None = None
    facts: dict[str, str] = field(default_factory=dict)
    reveal: squeeze_stage.Stage | None = None  # one drawing of a squeeze walkthrough
    rule: SafeString | None = None  # the general rule the step applies (opens on demand)


@dataclass
class Walkthrough:
    slug: str
    title: SafeString
    summary: SafeString
    source: SafeString
    steps: list[Step]


# --------------------------------------------------------------------------- registry


def definitions() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = content()["walkthroughs"]
    return items


def definition(slug: str) -> dict[str, Any] | None:
    for d in definitions():
        if d["slug"] == slug:
            return d
    return None


def all_walkthroughs() -> list[dict[str, Any]]:
    """Index entries: slug, title, summary, section (no steps built)."""
    return [
        {"slug": d["slug"], "title": text(d["title"]), "summary": text(d["summary"]),
         "section": d["section"]}
        for d in definitions()
    ]


def get_walkthrough(slug: str) -> Walkthrough | None:
    d = definition(slug)
    if d is None:
        return None
    builder = _BUILDERS[d["kind"]]
    steps = builder(d)
    _deal(steps)
    source = say("source_" + d.get("source", "000"))
    return Walkthrough(slug, text(d["title"]), text(d["summary"]), source, steps)


def _deal(steps: Sequence[Step]) -> None:
    """Give each named player the same physical cards in every step and no card another
    player holds: a kind two players hold shows the deck's two cards (♥6 and ♦6), as one
    deal would (where an example holds more copies than the deck has, the first suit
    again).  Each player's cards are those of the fullest hand they show."""
    full: dict[str, tuple[Kind, ...]] = {}
    for step in steps:
        for h in step.hands:
            kinds = tuple(c if isinstance(c, Kind) else c.kind for c in h.cards)
            if h.name and len(kinds) > len(full.get(h.name, ())):
                full[h.name] = kinds
    taken: list[Card] = []
    dealt: dict[str, tuple[Card, ...]] = {}
    for name, kinds in full.items():
        dealt[name] = physical(kinds, taken)
        taken.extend(dealt[name])
    for step in steps:
        for h in step.hands:
            if h.name not in dealt:
                continue
            pool = list(dealt[h.name])
            if h.groups:
                for g in h.groups:
                    g.cards = tuple(_take(pool, k) for k in g.kinds)
            else:
                h.cards = tuple(_take(pool, c if isinstance(c, Kind) else c.kind)
                                for c in h.cards)


def _take(pool: list[Card], kind: Kind) -> Card:
    """A card of ``kind`` out of a player's ``pool`` (:func:`_deal`); one drawn alone if
    the pool has none (a card the walkthrough put in for one the text had wrong)."""
    card = next((c for c in pool if c.kind is kind), None)
    if card is None:
        return physical((kind,))[0]
    pool.remove(card)
    return card


# --------------------------------------------------------------------------- helpers


def split_of(groups: Sequence[Sequence[str]], rules: Rules) -> Split:
    g1, g2 = (Group.of(parse_kind(a), parse_kind(b)) for a, b in groups)
    return Split.of(g1, g2, rules)


def group_view(group: Group, role: str, rules: Rules, *, highlight: bool = False,
               mark: str = "", beside: tuple[Kind, ...] = ()) -> GroupView:
    role_html = term("头") if role == "head" else term("尾") if role == "tail" else SafeString("")
    same = group.category(rules).label == group.display_name()  # 天九王 is its own category
    detail = EMPTY if same else category_html(group, rules)
    return GroupView(group.kinds, grp(group), role, role_html, detail, highlight, mark,
                     physical(group.kinds, beside))


def hand_view(name: str, split: Split, rules: Rules, *, part: str = "", marks: dict[str, str]
              | None = None, caption: SafeString = EMPTY,
              highlight: bool = False) -> HandView:
    marks = marks or {}
    groups = [
        group_view(split.head, "head", rules, highlight=part in ("head", "both"),
                   mark=marks.get("head", "")),
        group_view(split.tail, "tail", rules, highlight=part in ("tail", "both"),
                   mark=marks.get("tail", ""), beside=split.head.kinds),
    ]
    return HandView(name, split.kinds, groups, caption, highlight)


def why_compare(a: Group, b: Group, rules: Rules) -> SafeString:
    """Why group ``a`` is bigger than, smaller than or equal to ``b``, in one clause."""
    ra, rb = a.rank(rules), b.rank(rules)
    ca = a.category(rules)
    order = list(Category)
    if ra == rb:
        if ca is Category.ZHOU:
            return say("why_eq_zhou")
        if ca is Category.PAIR:
            return say("why_eq_pair", cls=term(a.top_class.label))
        if ca is Category.POINTS:
            return say("why_eq_points", n=a.points, cls=term(a.top_class.label))
        return say("why_eq_same", cat=term(ca.label))
    big, small = (a, b) if ra > rb else (b, a)
    cbig, csmall = big.category(rules), small.category(rules)
    if cbig is not csmall:
        if order.index(cbig) < order.index(csmall) and cbig.label == big.display_name():
            return say("why_cat_self", big=grp(big), cat_small=category_html(small, rules))
        if order.index(cbig) < order.index(csmall):
            return say("why_cat", big=grp(big), cat_big=category_html(big, rules),
                       cat_small=category_html(small, rules))
    if cbig is Category.PAIR:
        return say("why_pair_class", big=grp(big), cls_big=term(big.top_class.label),
                   cls_small=term(small.top_class.label))
    if cbig is Category.POINTS and big.points != small.points:
        return say("why_points", nb=big.points, ns=small.points)
    if cbig is Category.POINTS:
        return say("why_points_class", n=big.points, card_big=kind_html(big.high),
                   cls_big=term(big.top_class.label), cls_small=term(small.top_class.label))
    return say("why_generic", big=grp(big), small=grp(small))


def mark_of(a: Group, b: Group, rules: Rules) -> str:
    d = a.rank(rules) - b.rank(rules)
    return "bigger" if d > 0 else "smaller" if d < 0 else "equal"


def outcome_word(o: Outcome) -> SafeString:
    return term(o.value)


def text_word(word: str) -> SafeString:
    """A verdict word as the seed writes it (吃, 掉, 打和, 赢 …)."""
    return term(word)


def _verdict_sign(word: str) -> int:
    return {"吃": 1, "赢": 1, "捻": 1, "死": -1, "掉": -1, "输": -1}.get(word, 0)


def compare_table(names: Sequence[str], sp: dict[str, Split], part: str,
                  rules: Rules) -> TableView:
    rows = []
    for a, b in combinations(names, 2):
        ga = sp[a].head if part == "head" else sp[a].tail
        gb = sp[b].head if part == "head" else sp[b].tail
        m = mark_of(ga, gb, rules)
        res = {"bigger": say("cmp_bigger", a=who(a)), "smaller": say("cmp_bigger", a=who(b)),
               "equal": say("cmp_equal")}[m]
        rows.append([Cell(format_html("{} – {}", who(a), who(b))), Cell(grp(ga)), Cell(grp(gb)),
                     Cell(res, f"{part}:{a}:{b}", m), Cell(why_compare(ga, gb, rules))])
    head = [say("th_pair"), say("th_group_of", name=term("头" if part == "head" else "尾")),
            say("th_group_of2", name=term("头" if part == "head" else "尾")), say("th_bigger"),
            say("th_why")]
    return TableView(say("cap_compare_" + part), head, rows)


def outcome_table(names: Sequence[str], sp: dict[str, Split], rules: Rules,
                  text: dict[str, str] | None = None) -> TableView:
    rows = []
    for a, b in combinations(names, 2):
        o = compare(sp[a], sp[b], rules)
        if o is Outcome.WIN:
            res = say("res_win", a=who(a), b=who(b), word=outcome_word(o))
        elif o is Outcome.LOSE:
            res = say("res_win", a=who(b), b=who(a), word=outcome_word(Outcome.WIN))
        else:
            res = say("res_push", a=who(a), b=who(b), word=outcome_word(o))
        row = [Cell(format_html("{} – {}", who(a), who(b))),
               Cell(res, f"outcome:{a}:{b}", o.value)]
        if text is not None:
            row.append(Cell(text_word(text[f"{a}-{b}"]) if f"{a}-{b}" in text
                            else say("not_said")))
        rows.append(row)
    head = [say("th_pair"), say("th_engine")]
    if text is not None:
        head.append(say("th_text"))
    return TableView(say("cap_outcomes"), head, rows)


def settle_table(result: Settlement, seats: Sequence[Seat],
                 text_net: dict[str, int] | None = None) -> TableView:
    rows = []
    for s in seats:
        net = result.nets[s.name]
        row = [Cell(who(s.name)), Cell(conditional_escape(str(s.stake))),
               Cell(format_html("{}", signed(net)), f"net:{s.name}", str(net))]
        if text_net is not None:
            tn = text_net.get(s.name)
            row.append(Cell(conditional_escape("" if tn is None else signed(tn))))
        rows.append(row)
    head = [say("th_player"), say("th_stake"), say("th_net")]
    if text_net is not None:
        head.append(say("th_text_net"))
    return TableView(say("cap_nets"), head, rows)


def transfer_facts(result: Settlement) -> dict[str, str]:
    facts: dict[str, str] = {}
    for t in result.transfers:
        key = f"transfer:{t.source}:{t.to}"
        facts[key] = str(int(facts.get(key, "0")) + t.amount)
    for name, net in result.nets.items():
        facts[f"net:{name}"] = str(net)
    if result.pi_to is not None:
        facts["pi_to"] = result.pi_to
    return facts


def settlement_steps(result: Settlement, seats: Sequence[Seat], rules: Rules, *,
                     text_net: dict[str, int] | None = None,
                     intro: SafeString | None = None) -> list[Step]:
    """Order by 尾, one step per winner's takings, then the nets."""
    steps: list[Step] = []
    in_show = [s for s in seats if s.in_showdown]
    order_rows = []
    for i, name in enumerate(result.order, 1):
        s = next(x for x in in_show if x.name == name)
        assert s.split is not None
        order_rows.append([Cell(conditional_escape(str(i))), Cell(who(name)),
                           Cell(grp(s.split.tail)), Cell(grp(s.split.head)),
                           Cell(conditional_escape(str(s.stake)), f"stake:{name}", str(s.stake))])
    paras = [intro] if intro else []
    pi = explain.pi_line(result, seats)
    if pi:
        paras.append(ex(pi))
    facts = {"order": ",".join(result.order)}
    if result.pi_to:
        facts["pi_to"] = result.pi_to
    steps.append(Step("order", say("t_order"), paras,
                      hands=[hand_view(s.name, s.split, rules, part="tail")
                             for s in sorted(in_show, key=lambda s: result.order.index(s.name))
                             if s.split is not None],
                      tables=[TableView(say("cap_order"), [say("th_place"), say("th_player"),
                                        say("th_tail"), say("th_head"), say("th_stake")],
                                        order_rows)], facts=facts,
                      rule=say("order_rule", wei=term("尾"), tou=term("头"))))
    lines = [ex(line) for line in explain.transfer_lines(result, seats)]
    by_winner: dict[str, list[int]] = {}
    transfers = list(result.transfers)
    for i, t in enumerate(transfers):
        by_winner.setdefault(t.to, []).append(i)
    # explain.transfer_lines gives one line per transfer, one per source for a shared
    # group (equal hands): walk the transfers the same way to map them to lines.
    line_of: dict[int, int] = {}
    i = 0
    while i < len(transfers):
        t = transfers[i]
        n = 1
        if t.shared_with:
            while (i + n < len(transfers) and transfers[i + n].source == t.source
                   and transfers[i + n].shared_with == t.shared_with):
                n += 1
        line = len(set(line_of.values()))
        for j in range(i, i + n):
            line_of[j] = line
        i += n
    # winners in settlement order, beats before 皮 (as the engine does them)
    done_lines: set[int] = set()
    for reason in ("beat", "pi"):
        for name in result.order:
            idx = [j for j in by_winner.get(name, []) if transfers[j].reason == reason]
            if not idx:
                continue
            mine = [lines[line_of[j]] for j in idx if line_of[j] not in done_lines]
            done_lines.update(line_of[j] for j in idx)
            if not mine:
                continue
            total = sum(transfers[j].amount for j in idx)
            title = say("t_takes_beat" if reason == "beat" else "t_takes_pi", name=who(name))
            paras = [say("takes_rule_beat" if reason == "beat" else "takes_rule_pi",
                         name=who(name), stake=next(s.stake for s in seats if s.name == name),
                         total=total)]
            facts = {f"transfer:{transfers[j].source}:{transfers[j].to}": str(transfers[j].amount)
                     for j in idx}
            steps.append(Step("transfer", title, paras, lines=mine, facts=facts))
    nets = Step("nets", say("t_nets"), [say("nets_rule")],
                lines=[ex(x) for x in explain.returned_lines(result) + explain.net_lines(result)],
                tables=[settle_table(result, seats, text_net)], facts=transfer_facts(result))
    steps.append(nets)
    return steps


def advice_step(players: Sequence[tuple[str, Split]], rules: Rules) -> Step | None:
    """The advisor's EV for each player's chosen split and the other two (if available)."""
    try:
        from engine.advisor import AdvisorError, advise
    except ImportError:  # the advisor has not landed
        return None
    views = []
    facts: dict[str, str] = {}
    for name, chosen in players:
        try:
            adv = advise(chosen.kinds, rules)
        except (AdvisorError, CardError, OSError):
            return None
        rows = []
        seen: set[tuple[Group, Group]] = set()
        best_ev = max(a.ev for a in adv.splits)
        for a in adv.splits:
            key = (a.split.head, a.split.tail)
            if key in seen:
                continue
            seen.add(key)
            rows.append(AdviceRow(a.split.head, a.split.tail, grp(a.split.head),
                                  grp(a.split.tail), a.ev, a.p_win, a.p_push, a.p_lose,
                                  a.split == chosen, a.ev == best_ev))
            facts[f"ev:{name}:{a.split.head.code}/{a.split.tail.code}"] = signed(a.ev, 3)
        mine = next(r for r in rows if r.chosen)
        if mine.best:
            summary = say("adv_chose_best", name=who(name))
        else:
            best = next(r for r in rows if r.best)
            summary = say("adv_chose_other", name=who(name), head=best.head_html,
                          tail=best.tail_html, gain=f"{best.ev - mine.ev:.3f}")
        views.append(AdviceView(name, rows, summary))
    return Step("advice", say("t_advice"), [say("adv_intro"), say("adv_model")], advice=views,
                facts=facts)


# --------------------------------------------------------------------------- showdowns


def _players(ex: dict[str, Any]) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = ex["players"]
    return players


def words_para(ex: dict[str, Any]) -> SafeString:
    if ex["source"] == "000":
        return say("words_000", tou=term("头"), wei=term("尾"))
    return say("words_003", tou=term("头"), wei=term("尾"))


def build_showdown(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    rules = rules_for(exm["source"])
    players = _players(exm)
    names = [p["name"] for p in players]
    steps: list[Step] = []

    intro_paras = [say("sd_intro", n=count(len(players)),
                       names=listing_html([who(n) for n in names])),
                   words_para(exm)]
    steps.append(Step("intro", say("t_intro"), intro_paras,
                      hands=[HandView(p["name"], tuple(parse_kind(c) for c in p["cards"]))
                             for p in players]))

    all_kinds = [parse_kind(c) for p in players for c in p["cards"]]
    impossible = None
    try:
        check_available(all_kinds)
    except CardError as e:
        impossible = e
    if impossible is not None:
        counts = {k: all_kinds.count(k) for k in set(all_kinds) if all_kinds.count(k) > k.copies}
        k, n = next(iter(counts.items()))
        steps.append(Step(
            "impossible", say("t_impossible"),
            [say("imp_count", card=kind_html(k), n=n, copies=k.copies)],
            slip=Slip(say("imp_says"), say("imp_rules", card=kind_html(k), copies=k.copies),
                      say("imp_why")),
            hands=[HandView(p["name"], tuple(parse_kind(c) for c in p["cards"]),
                            highlight=k.code in p["cards"]) for p in players],
            facts={"impossible": k.code}))

    sp = {p["name"]: split_of(p["groups_as_written"], rules) for p in players}
    for p in players:
        s = sp[p["name"]]
        equal = s.head.strength(rules) == s.tail.strength(rules)
        paras = [say("form_equal" if equal else "form", name=who(p["name"]), g1=grp(s.head),
                     g2=grp(s.tail),
                     head=grp(s.head), tail=grp(s.tail), tou=term("头"), wei=term("尾"))]
        paras.append(why_compare(s.head, s.tail, rules))
        called = p.get("text_called")
        if called and exm["source"] == "000":
            paras.append(say("form_000", wei_name=as_written(called["尾"], s),
                             tou_name=as_written(called["头"], s), wei=term("尾"), tou=term("头")))
        steps.append(Step("form", say("t_form", name=who(p["name"])), paras,
                          hands=[hand_view(p["name"], s, rules, part="both")],
                          facts={f"head:{p['name']}": s.head.code,
                                 f"tail:{p['name']}": s.tail.code}))

    for part in ("head", "tail"):
        rows = compare_table(names, sp, part, rules)
        marks: dict[str, dict[str, str]] = {}
        if len(names) == 2:
            a, b = names
            ga = sp[a].head if part == "head" else sp[a].tail
            gb = sp[b].head if part == "head" else sp[b].tail
            marks = {a: {part: mark_of(ga, gb, rules)}, b: {part: mark_of(gb, ga, rules)}}
        steps.append(Step(
            "compare", say("t_compare_" + part),
            [say("compare_" + part, tou=term("头"), wei=term("尾"))],
            hands=[hand_view(n, sp[n], rules, part=part, marks=marks.get(n)) for n in names],
            tables=[rows],
            facts={c.fact: c.value for row in rows.rows for c in row if c.fact}))

    text_pair: dict[str, str] = dict(exm.get("text_pairwise", {}))
    if len(names) == 2 and not text_pair:
        a, b = names
        text_pair[f"{a}-{b}"] = exm["text_result"][a]
    table = outcome_table(names, sp, rules, text_pair)
    paras = [say("verdict_rule", win=term("吃"), push=term("走"), lose=term("死"))]
    verdict = Step("verdict", say("t_verdict"), paras,
                   hands=[hand_view(n, sp[n], rules, part="both") for n in names],
                   tables=[table], facts={c.fact: c.value for r in table.rows for c in r if c.fact})
    # the seed's verdict per player vs the engine's
    slip_rows = []
    for n in names:
        said = exm["text_result"].get(n)
        loses_to = [m for m in names if m != n and compare(sp[n], sp[m], rules) is Outcome.LOSE]
        if said is not None and _verdict_sign(said) >= 0 and loses_to:
            slip_rows.append((n, said, loses_to))
    if slip_rows:
        n, said, beaten_by = slip_rows[0]
        verdict.slip = Slip(say("slip_said_nothing", name=who(n), word=text_word(said)),
                            say("slip_rules_beaten", name=who(n),
                                by=listing_html([who(m) for m in beaten_by]), word=term("吃")),
                            say("slip_why_beaten", name=who(n)))
        verdict.facts["slip"] = "verdict"
    steps.append(verdict)

    # 皮 and settlement with stakes we assume (the seed gives none)
    ill = d["illustration"]
    sub = d.get("substitute")
    sp_settle = dict(sp)
    sub_paras: list[SafeString] = []
    if sub:
        p = next(x for x in players if x["name"] == sub["player"])
        groups = [[sub["to"] if c == sub["from"] else c for c in g]
                  for g in p["groups_as_written"]]
        new = split_of(groups, rules)
        sp_settle[p["name"]] = new
        old_g = next(Group.of(*(parse_kind(c) for c in g)) for g in p["groups_as_written"]
                     if sub["from"] in g)
        new_g = next(Group.of(*(parse_kind(c) for c in g)) for g in groups if sub["to"] in g)
        same_name = old_g.display_name() == new_g.display_name()  # 地官六 stays 地官六
        sub_paras.append(say("sub_same_name" if same_name else "sub", name=who(p["name"]),
                             old=kind_html(parse_kind(sub["from"])),
                             new=kind_html(parse_kind(sub["to"])), g_old=grp(old_g),
                             g_new=grp(new_g), same=say(
                                 "sub_same" if new.key(rules) == sp[p["name"]].key(rules)
                                 else "sub_differs")))
    seats = [Seat(n, ill["stakes"][n], sp_settle[n]) for n in names]
    seats += [Seat(n, v, folded=True) for n, v in ill["folded"].items()]
    result = settle(seats, rules)
    assumption = say("assume", stakes=listing_html([format_html("{} {}", who(n), ill["stakes"][n])
                                            for n in names]),
                     folded=listing_html([format_html("{} {}", who(n), v)
                                  for n, v in ill["folded"].items()]), pi=term("皮"))
    settle_steps = settlement_steps(result, seats, rules, intro=None)
    settle_steps[0].paras[:0] = [*sub_paras, assumption]
    order_step = settle_steps[0]
    said_pi = exm.get("text_pi_to")
    if said_pi and result.pi_to and said_pi != result.pi_to:
        s_said = sp[said_pi]
        s_rule = sp[result.pi_to]
        order_step.slip = Slip(
            say("slip_pi_said", name=who(said_pi), pi=term("皮")),
            say("slip_pi_rules", name=who(result.pi_to), pi=term("皮"), wei=term("尾"),
                g_rule=grp(s_rule.tail), g_said=grp(s_said.tail)),
            say("slip_pi_why", tou=term("头"), wei=term("尾"), pi=term("皮")))
        order_step.facts["slip"] = "pi"
    elif said_pi:
        order_step.paras.append(say("pi_agrees", name=who(said_pi), pi=term("皮")))
    steps.extend(settle_steps)
    adv = advice_step([(n, sp[n]) for n in names if not impossible], rules)
    if adv is not None and not impossible:
        steps.append(adv)
    return steps


# --------------------------------------------------------------------------- 钵钵 (000)


def build_bobo(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    base = examples()[exm["based_on"]]
    rules = rules_for(exm["source"])
    players = _players(base)
    names = [p["name"] for p in players]
    sp = {p["name"]: split_of(p["groups_as_written"], rules) for p in players}
    bobo: dict[str, int] = exm["bobo"]
    steps = [Step("intro", say("t_intro"),
                  [say("bobo_intro", stakes=listing_html([format_html("{} {}", who(n), bobo[n])
                                                  for n in names]), bobo=term("钵钵")),
                   say("bobo_rule", bobo=term("钵钵"))],
                  hands=[hand_view(n, sp[n], rules) for n in names])]
    table = outcome_table(names, sp, rules, dict(base.get("text_pairwise", {})))
    steps.append(Step("verdict", say("t_verdict"), [say("bobo_outcomes")], tables=[table],
                      hands=[hand_view(n, sp[n], rules, part="both") for n in names],
                      facts={c.fact: c.value for r in table.rows for c in r if c.fact}))
    seats = [Seat(n, bobo[n], sp[n]) for n in names]
    result = settle(seats, rules)
    text_net: dict[str, int] = {}
    for t in exm["text_transfers"]:
        text_net[t["to"]] = text_net.get(t["to"], 0) + t["amount"]
        text_net[t["from"]] = text_net.get(t["from"], 0) - t["amount"]
    steps.extend(settlement_steps(result, seats, rules, text_net=text_net))
    # the variant: a folded player's 皮 of 60
    var = exm["variant_folded_pi"]
    folded_name = d["variant_folded_name"]
    seats2 = [*seats, Seat(folded_name, var["pi"], folded=True)]
    result2 = settle(seats2, rules)
    got = {t.to: t.amount for t in result2.transfers if t.reason == "pi" and t.amount}
    paras = [say("bobo_variant", name=who(folded_name), pi=term("皮"), amount=var["pi"]),
             say("bobo_variant_said",
                 got=listing_html([format_html("{} {}", who(n), v) for n, v in got.items()]))]
    facts = {f"pi:{k}": str(v) for k, v in got.items()}
    steps.append(Step("variant", say("t_variant_pi"), paras,
                      lines=[ex(line) for line in explain.transfer_lines(result2, seats2)
                             if folded_name in str(line)],
                      tables=[settle_table(result2, seats2)],
                      facts=facts | transfer_facts(result2)))
    return steps


# --------------------------------------------------------------------------- 003 a / b / c


def build_app_settle(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    rules = rules_for(exm["source"])
    variant = None
    if d.get("variant"):
        variant = next(v for v in exm["variants"] if v["id"] == d["variant"])
    hands: dict[str, list[list[str]]] = d["hands"]
    names = list(hands)
    sp = {n: split_of(hands[n], rules) for n in names}
    stakes = {p["name"]: p["bobo"] for p in exm["players"]}
    if variant and isinstance(variant.get("change"), dict):
        for n, ch in variant["change"].items():
            stakes[n] = ch["bobo"]
    stakes.update(d.get("stakes", {}))
    steps: list[Step] = []
    wei_points = {p["name"]: p.get("wei_points") for p in exm["players"]}
    paras = [say("app_intro", stakes=listing_html([format_html("{} {}", who(n), stakes[n])
                                           for n in names])), words_para(exm)]
    if any(v is not None for v in wei_points.values()) and not d.get("own_hands_only"):
        paras.append(say("app_hands_points", wei=term("尾")))
    else:
        paras.append(say("app_hands_ranking"))
    if variant is not None and "text_rule" in variant:
        paras.append(say("app_equal_rule", tou=term("头"), wei=term("尾")))
    facts = {}
    for n in names:
        facts[f"tail_points:{n}"] = str(sp[n].tail.points)
    hviews = []
    for n in names:
        caption = EMPTY
        if wei_points.get(n) is not None and not d.get("own_hands_only"):
            caption = say("app_tail_points", wei=term("尾"), said=wei_points[n],
                          got=sp[n].tail.points)
        hviews.append(hand_view(n, sp[n], rules, part="both", caption=caption))
    steps.append(Step("intro", say("t_intro"), paras, hands=hviews, facts=facts))
    table = outcome_table(names, sp, rules, dict(exm.get("text_pairwise", {})))
    steps.append(Step("verdict", say("t_verdict"),
                      [say("verdict_rule", win=term("吃"), push=term("走"), lose=term("死"))],
                      hands=[hand_view(n, sp[n], rules, part="both") for n in names],
                      tables=[table],
                      facts={c.fact: c.value for r in table.rows for c in r if c.fact}))
    seats = [Seat(n, stakes[n], sp[n]) for n in names]
    result = settle(seats, rules)
    text_net = None
    if variant is not None and "text_net" in variant:
        text_net = variant["text_net"]
    elif variant is None:
        text_net = exm.get("text_net")
    st = settlement_steps(result, seats, rules, text_net=text_net)
    said_order = exm.get("text_order")
    if said_order and not d.get("own_hands_only"):
        agree = list(said_order) == list(result.order)
        st[0].paras.append(say("order_agrees" if agree else "order_differs",
                               said=listing_html([who(n) for n in said_order])))
    if variant is not None and "text_rule" in variant:
        st[-1].paras.append(say("app_equal_result"))
    steps.extend(st)
    return steps


# --------------------------------------------------------------------------- splits (003)


def build_split(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    rules = rules_for(exm["source"])
    players = _players(exm)
    names = [p["name"] for p in players]
    options: dict[str, list[Split]] = {}
    for p in players:
        if "splits_as_written" in p:
            options[p["name"]] = [split_of(s["groups"], rules) for s in p["splits_as_written"]]
        else:
            options[p["name"]] = [split_of(p["groups_as_written"], rules)]
    steps = [Step("intro", say("t_intro"), [say("split_intro"), words_para(exm)],
                  hands=[HandView(p["name"], tuple(parse_kind(c) for c in p["cards"]))
                         for p in players])]
    for p in players:
        n = p["name"]
        hv = []
        paras = []
        for i, s in enumerate(options[n]):
            hv.append(hand_view(n, s, rules, part="both",
                                caption=say("split_option", i=i + 1) if len(options[n]) > 1
                                else SafeString("")))
            paras.append(say("split_form", name=who(n), head=grp(s.head), tail=grp(s.tail),
                             tou=term("头"), wei=term("尾")))
        steps.append(Step("form", say("t_form", name=who(n)), paras, hands=hv,
                          facts={f"split:{n}:{i}": f"{s.head.code}/{s.tail.code}"
                                 for i, s in enumerate(options[n])}))
    a, b = names
    matchups: list[tuple[int, int, dict[str, str] | None]] = []
    if "text_matchups" in exm:
        stated = {(m["a_split"], m["b_split"]): m["text_result"] for m in exm["text_matchups"]}
        for i in range(len(options[a])):
            for j in range(len(options[b])):
                matchups.append((i, j, stated.get((i, j))))
    else:
        matchups.append((0, 0, exm.get("text_result")))
    for i, j, said in matchups:
        sa, sb = options[a][i], options[b][j]
        o = compare(sa, sb, rules)
        pair = {a: sa, b: sb}
        hv = [hand_view(a, sa, rules, part="both",
                        marks={"head": mark_of(sa.head, sb.head, rules),
                               "tail": mark_of(sa.tail, sb.tail, rules)}),
              hand_view(b, sb, rules, part="both",
                        marks={"head": mark_of(sb.head, sa.head, rules),
                               "tail": mark_of(sb.tail, sa.tail, rules)})]
        tables = [compare_table(names, pair, "head", rules),
                  compare_table(names, pair, "tail", rules)]
        res = (say("res_win", a=who(a), b=who(b), word=outcome_word(o)) if o is Outcome.WIN
               else say("res_win", a=who(b), b=who(a), word=outcome_word(Outcome.WIN))
               if o is Outcome.LOSE else say("res_push", a=who(a), b=who(b),
                                             word=outcome_word(o)))
        paras = [say("matchup", a=who(a), b=who(b), ha=grp(sa.head), ta=grp(sa.tail),
                     hb=grp(sb.head), tb=grp(sb.tail)), res]
        if said is not None:  # the player whose result the text words (003: "b就輸了")
            speaker = a if a in said else b
            agree = _verdict_sign(said[speaker]) == (o.sign if speaker == a else -o.sign)
            paras.append(say("text_agrees" if agree else "text_differs",
                             word=text_word(said[speaker]), name=who(speaker)))
        else:
            paras.append(say("text_silent"))
        facts = {f"head:{a}:{b}": mark_of(sa.head, sb.head, rules),
                 f"tail:{a}:{b}": mark_of(sa.tail, sb.tail, rules),
                 f"outcome:{a}:{b}": o.value}
        title = (say("t_matchup", a=who(a), b=who(b)) if len(matchups) == 1
                 else say("t_matchup_n", a=who(a), i=i + 1, b=who(b), j=j + 1))
        steps.append(Step("matchup", title, paras, hands=hv, tables=tables, facts=facts))
    adv = advice_step([(n, options[n][0]) for n in names], rules)
    if adv is not None:
        steps.append(adv)
    return steps


# --------------------------------------------------------------------------- short ones


def build_lead(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    seats = list(exm["face_up"])
    up = {s: parse_kind(c) for s, c in exm["face_up"].items()}
    hv = [HandView(s, (up[s],)) for s in seats]
    steps = [Step("intro", say("t_intro"), [say("lead_intro")], hands=hv)]
    best = seats[0]
    for s in seats:  # ties: the first in dealing order (nearest the dealer)
        if up[s].single_class > up[best].single_class:
            best = s
    nxt = seats[(seats.index(best) + 1) % len(seats)]
    rows = [[Cell(who(s)), Cell(kind_html(up[s])), Cell(term(up[s].class_label),
                                                        f"class:{s}", up[s].class_label)]
            for s in seats]
    paras = [say("lead_rule"), say("lead_result", name=who(best), card=kind_html(up[best]))]
    said = exm["text_leader"]
    paras.append(say("text_agrees_lead" if said == best else "text_differs_lead",
                     name=who(said)))
    steps.append(Step("lead", say("t_lead"), paras,
                      hands=[HandView(s, (up[s],), highlight=s == best) for s in seats],
                      tables=[TableView(say("cap_single"), [say("th_seat"), say("th_card"),
                                                          say("th_class")], rows)],
                      facts={"leader": best}))
    paras = [say("lead_next", name=who(nxt), leader=who(best))]
    if "text_if_leader_checks" in exm:
        paras.append(say("lead_if_checks", leader=who(best), name=who(nxt), xiu=term("休")))
    steps.append(Step("next", say("t_lead_next"), paras,
                      hands=[HandView(s, (up[s],), highlight=s == nxt) for s in seats],
                      facts={"next": nxt}))
    return steps


def build_points(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    rules = rules_for(exm["source"])
    steps = [Step("intro", say("t_intro"), [say("points_intro")])]
    for item in exm["items"]:
        g = Group.of(*(parse_kind(c) for c in item["cards"]))
        hi, lo = g.high, g.low
        paras = [say("points_sum", a=kind_html(hi), fa=hi.face, pa=hi.points, b=kind_html(lo),
                     fb=lo.face, pb=lo.points, sum=hi.points + lo.points, n=g.points),
                 say("points_name", g=grp(g), cat=category_html(g, rules))]
        paras.append(say("text_agrees_points" if item["points"] == g.points
                         else "text_differs_points", n=item["points"]))
        steps.append(Step("points", say("t_points", g=grp(g)), paras,
                          hands=[HandView("", g.kinds)], facts={f"points:{g.code}": str(g.points)}))
    return steps


def group_by_name(name: str) -> Group:
    for g in ALL_GROUPS:
        if g.display_name() == name:
            return g
    for g in ALL_GROUPS:
        if any(a.name == name for a in g.names().aliases):
            return g
    raise KeyError(name)


def build_compare(d: dict[str, Any]) -> list[Step]:
    exm = examples()[d["example"]]
    rules = rules_for(exm["source"])
    steps = [Step("intro", say("t_intro"), [say("cmp_intro")])]
    for item in exm["items"]:
        a, b = group_by_name(item["a"]), group_by_name(item["b"])
        m = mark_of(a, b, rules)
        said = {">": "bigger", "=": "equal", "<": "smaller"}[item["text_result"]]
        res = {"bigger": say("cmp_a_bigger", a=grp(a), b=grp(b)),
               "smaller": say("cmp_a_bigger", a=grp(b), b=grp(a)),
               "equal": say("cmp_a_equal", a=grp(a), b=grp(b))}[m]
        paras = [res, why_compare(a, b, rules),
                 say("text_agrees_cmp" if said == m else "text_differs_cmp")]
        steps.append(Step("compare", say("t_cmp", a=grp(a), b=grp(b)), paras,
                          hands=[HandView("", a.kinds, highlight=m != "smaller"),
                                 HandView("", physical(b.kinds, a.kinds),
                                          highlight=m != "bigger")],
                          facts={f"cmp:{a.code}:{b.code}": m}))
    return steps


# --------------------------------------------------------------------------- a whole hand


def _game_module() -> Any:
    try:
        from engine import game
    except ImportError:  # engine.game has not landed
        return None
    return game


def _seat_views(g: Any, names: list[str], *, acting: int | None = None,
                hide_fourth: bool = False, as_of_round: int | None = None) -> list[SeatView]:
    """The seats now; ``as_of_round``: with the cards of that round only (the step of the
    action that ended it shows the table before the next round's card is dealt)."""
    h = g.hand
    views = []
    last: int = as_of_round or (min(h.round, 3) if h is not None else 0)
    for i, name in enumerate(names):
        seat = g.seats[i]
        cards: list[tuple[Card | None, bool]] = []
        committed = 0
        status = EMPTY
        if h is not None and h.cards[i]:
            finished = h.result is not None
            shown = min(_game_module().cards_dealt(h, i), last + 1)
            if finished and str(i) in h.splits:
                shown = 4
            for j, label in enumerate(h.cards[i][:shown]):
                up = (j >= 2 and j < 1 + last) or (finished and str(i) in h.splits)
                if hide_fourth and j == 3:
                    cards.append((None, False))
                else:
                    cards.append((_game_module().card_by_label(label), bool(up)))
            committed = 0 if finished else h.committed[i]
            if h.folded[i]:
                status = say("st_folded")
            elif not finished and g.is_allin(i):
                status = say("st_allin")
        bobo = seat.bobo - committed
        views.append(SeatView(name, bobo, committed, cards, status, acting == i,
                              h is not None and h.dealer == i,
                              h is not None and h.dangjia == i))
    return views


def _card_kind(g: Any, label: str) -> Kind:
    card: Any = _game_module().card_by_label(label)
    kind: Kind = card.kind
    return kind


def _action_text(g: Any, a: dict[str, Any], legal: Any, names: list[str],
                 rules: Rules) -> list[SafeString]:
    h = g.hand
    name = who(names[a["seat"]])
    kind = a["kind"]
    level = h.level
    out: list[SafeString] = []
    if kind == "call":
        out.append(say("act_call", name=name, to=legal.call_to, cost=legal.call_cost,
                       qiao=term("瞧")))
        if legal.call_to < level:
            out.append(say("act_call_short", name=name, to=legal.call_to))
    elif kind == "raise" and legal.opening:
        out.append(say("act_open", name=name, amount=a["amount"], fa=term("发招"),
                       low=legal.min_raise, high=legal.max_raise))
    elif kind == "raise":
        out.append(say("act_raise", name=name, amount=a["amount"], fan=term("返"),
                       level=level, floor=rules.stakes.raise_floor, low=legal.min_raise,
                       high=legal.max_raise))
    elif kind == "tuo":
        out.append(say("act_tuo", name=name, level=level, amount=legal.tuo, tuo=term("拖")))
    elif kind == "qiao":
        out.append(say("act_qiao", name=name, amount=legal.qiao, qiao=term("敲")))
    elif kind == "check":
        out.append(say("act_check", name=name, xiu=term("休")))
    elif kind == "fold":
        out.append(say("act_fold", name=name, amount=h.committed[a["seat"]], shuai=term("甩"),
                       pi=term("皮")))
    if a.get("note"):
        out.append(say("note_" + a["note"]))
    return out


def _squeeze(g: Any, seat: int, names: list[str]) -> Squeeze:
    """串头子 of the fourth card, stage by stage (:mod:`engine.squeeze`); the cards still
    possible leave out those already in view (the seat's own, the face-up cards)."""
    from engine import squeeze as sq

    h = g.hand
    labels = h.cards[seat]
    physical: Any = _game_module().card_by_label(labels[3])
    kinds = [_card_kind(g, c) for c in labels]
    card, up = kinds[3], kinds[2]
    seen = kinds[:3] + [_card_kind(g, h.cards[s][2]) for s in h.order
                        if s != seat and _game_module().cards_dealt(h, s) > 2]

    def unseen(k: Kind) -> int:
        return k.copies - seen.count(k)

    def cands(depth: int) -> SafeString:
        left = sq.possible(physical, [(sq.Way.HEAD, depth)], seen=seen)
        return listing_html([format_html("{} ×{}", kind_html(k), unseen(k)) for k in left])

    def clue(depth: int) -> str:
        return pgettext("squeeze", sq.sight(physical, sq.Way.HEAD, depth).clue)

    made = Group.of(card, up)
    colour = say("colour_red") if card.color == "red" else say("colour_black")
    stages = [
        ("corner", say("sq_corner"), say("sq_corner_text", colour=colour, shape=clue(1),
                                          cands=cands(1))),
        ("pips", say("sq_pips"), say("sq_pips_text", shape=clue(2), cands=cands(2))),
        ("whole", say("sq_whole"), say("sq_whole_text", card=kind_html(card), up=kind_html(up),
                                        g=grp(made))),
    ]
    return Squeeze(names[seat], card, up, stages)


def build_hand(d: dict[str, Any]) -> list[Step]:
    game = _game_module()
    script = d["script"]
    rules = get_rules(script["rules"])
    names: list[str] = script["players"]
    if game is None:
        return [Step("pending", say("t_pending"), [say("pending")])]
    g = game.Game.new([(n, None) for n in names], rules, seed=script["seed"],
                      bobo=script["bobo"], dealer=script["dealer"])
    st = rules.stakes
    steps: list[Step] = []
    first = g.upcoming_order()[0]
    steps.append(Step("seats", say("t_seats"), [
        say("seats_intro", n=count(len(names)), names=listing_html([who(n) for n in names])),
        say("seats_stakes", preset=st.name, pi=st.pi, opening=st.opening, floor=st.raise_floor,
            mango=st.mango, pi_t=term("皮"), fa=term("发招"), mango_t=term("芒果")),
        say("seats_dealer", dealer=who(names[script["dealer"]]), dangjia=who(names[first]),
            fa=term("发招")),
    ], seats=_seat_views(g, names), facts={"dealer": names[script["dealer"]],
                                            "dangjia": names[first]}))
    for hand_no, hd in enumerate(script["hands"], 1):
        cards = {int(k): v for k, v in hd["cards"].items()}
        deck = g.stacked_deck(cards, seed=hd["shuffle"])
        pot_before = g.state.pot
        g.apply(game.Action(game.Act.DEAL, cards=tuple(deck)))
        h = g.hand
        paras = []
        if any(h.mango_paid):
            payers = [who(names[i]) for i, m in enumerate(h.mango_paid) if m]
            paras.append(say("mango_paid" if pot_before else "mango_paid_empty",
                             names=listing_html(payers), amount=max(h.mango_paid),
                             pot=g.state.pot, before=pot_before, mango=term("芒果")))
        paras.append(say("deal", n=hand_no, dealer=who(names[h.dealer]),
                         dangjia=who(names[h.dangjia]), an=term("暗牌")))
        paras.append(say("deal_forced", dangjia=who(names[h.dangjia]), opening=h.level,
                         pi=st.pi, fa=term("发招"), pi_t=term("皮")))
        steps.append(Step("deal", say("t_deal", n=hand_no), paras,
                          seats=_seat_views(g, names, acting=h.dangjia),
                          facts={"pot": str(g.state.pot), "level": str(h.level)}))
        squeeze_seat = hd.get("squeeze")
        for a in hd["actions"]:
            round_before = h.round
            legal = g.legal_actions()
            if a["seat"] != legal.seat:
                raise ValueError(f"script: seat {a['seat']} acts, the engine expects "
                                 f"{legal.seat}")
            paras = _action_text(g, a, legal, names, rules)
            act_word = ("发招" if a["kind"] == "raise" and legal.opening
                        else game.Act(a["kind"]).label)
            g.do(a["kind"], a["seat"], a.get("amount"))
            done = g.state.log[-1]
            steps.append(Step("action", say("t_action", name=who(names[a["seat"]]),
                                            act=term(act_word)), paras,
                              seats=_seat_views(g, names, acting=a["seat"],
                                                as_of_round=min(round_before, 3)),
                              facts={"act": f"{names[a['seat']]}:{done['kind']}:"
                                             f"{done.get('amount', '')}",
                                     "level": str(h.level)}))
            if h.result is not None:
                break
            if h.round != round_before and h.round <= 3:
                if h.round == 3 and squeeze_seat is not None:
                    sq = _squeeze(g, squeeze_seat, names)
                    steps.append(Step("squeeze", say("t_squeeze", name=who(names[squeeze_seat])),
                                      [say("squeeze_intro", name=who(names[squeeze_seat]),
                                           chuan=term("串牌"))],
                                      seats=_seat_views(g, names, hide_fourth=True), squeeze=sq,
                                      facts={"squeeze": sq.kind.code}))
                leader = h.leader
                up = _card_kind(g, h.cards[leader][h.round])
                steps.append(Step("round", say("t_round", n=h.round), [
                    say("round_" + str(h.round), ming=term("明牌")),
                    say("round_leader", name=who(names[leader]), card=kind_html(up),
                        cls=term(up.class_label)),
                    say("round_open", xiu=term("休"), fa=term("发招")),
                ], seats=_seat_views(g, names, acting=leader), facts={"leader": names[leader]}))
        if h.result is None:  # the showdown
            steps.append(Step("showdown", say("t_showdown"), [say("showdown_intro",
                                                                   che=term("扯"))],
                              seats=_seat_views(g, names)))
            while g.hand.result is None:
                seat = g.to_act
                want = hd["splits"][str(seat)]
                labels = list(g.hand.cards[seat])
                chosen: list[str] = []
                for code in (c for grp_ in want for c in grp_):
                    lab = next(x for x in labels if _card_kind(g, x).code == code
                               and x not in chosen)
                    chosen.append(lab)
                g.do("split", seat, cards=chosen)
                s = g.split_of(seat)
                steps.append(Step("form", say("t_form", name=who(names[seat])), [
                    say("form", name=who(names[seat]), g1=grp(s.head), g2=grp(s.tail),
                        head=grp(s.head), tail=grp(s.tail), tou=term("头"), wei=term("尾")),
                    why_compare(s.head, s.tail, rules)],
                    hands=[hand_view(names[seat], s, rules, part="both")],
                    facts={f"head:{names[seat]}": s.head.code,
                           f"tail:{names[seat]}": s.tail.code}))
            res: Any = h.result
            seats = []
            for i in h.order:
                if h.folded[i]:
                    seats.append(Seat(names[i], h.committed[i], folded=True))
                else:
                    sp_ = g.split_of(i)
                    seats.append(Seat(names[i], h.committed[i], sp_))
            result = settle(seats, rules)
            showdown_names = [names[i] for i in h.order if not h.folded[i]]
            sps = {names[i]: g.split_of(i) for i in h.order if not h.folded[i]}
            table = outcome_table(showdown_names, sps, rules)
            steps.append(Step("verdict", say("t_verdict"),
                              [say("verdict_rule", win=term("吃"), push=term("走"),
                                   lose=term("死"))],
                              hands=[hand_view(n, sps[n], rules, part="both")
                                     for n in showdown_names], tables=[table],
                              facts={c.fact: c.value for r in table.rows for c in r if c.fact}))
            st_steps = settlement_steps(result, seats, rules)
            if res.pot_won:
                st_steps[-1].paras.append(say("pot_won", name=who(names[res.winner]),
                                              pot=res.pot_won, mango=term("芒果")))
            for name, net in result.nets.items():
                i = names.index(name)
                if res.nets[i] != net + res.pot_share(i):
                    raise ValueError("the game and the settlement disagree")
            st_steps[-1].facts["pot_won"] = str(res.pot_won)
            st_steps[-1].seats = _seat_views(g, names)
            steps.extend(st_steps)
        else:
            res = h.result
            paras = [say("foldwin", name=who(names[res.winner]),
                         amount=res.nets[res.winner], pi=term("皮"))]
            steps.append(Step("foldwin", say("t_foldwin"), paras, seats=_seat_views(g, names),
                              facts={"winner": names[res.winner],
                                     "won": str(res.nets[res.winner])}))
        # what this means for the next hand
        nxt = g.upcoming_order()
        paras = []
        if h.result.mango_next:
            from engine.mango import Mango, mango_amount

            kind = Mango(h.result.mango_next)
            paras.append(say("next_mango_" + kind.name.lower(), mango=term("芒果"),
                             amount=mango_amount(rules, kind, g.state.mango_count + 1),
                             name=who(names[h.result.winner]) if h.result.winner is not None
                             else ""))
        else:
            paras.append(say("next_no_mango", mango=term("芒果")))
        paras.append(say("next_deal", dealer=who(names[g.state.dealer]),
                         dangjia=who(names[nxt[0]])))
        steps.append(Step("next", say("t_next"), paras, seats=_seat_views(g, names),
                          facts={"mango_next": h.result.mango_next or "",
                                 "next_dealer": names[g.state.dealer]}))
    return steps


def build_squeeze(d: dict[str, Any]) -> list[Step]:
    """A worked squeeze of the 旋经: one step per reveal, what it shows and what is left
    (computed by :mod:`engine.squeeze`); with a face-up card, what each candidate makes."""
    from engine import squeeze as sq

    card = squeeze_stage.parse_card(d["card"])
    up = parse_kind(d["up"]) if d.get("up") else None
    reveals = [sq.parse_reveal(r) for r in d["reveals"]]

    def cands(kinds: Sequence[Kind]) -> SafeString:
        if up is None:
            return listing_html([kind_html(k) for k in kinds])
        return listing_html([format_html("{} → {}", kind_html(k), grp(Group.of(up, k)))
                             for k in kinds])

    steps = [Step("intro", say("t_intro"), [say(d["intro"])])]
    stage = None
    for i, (way, depth) in enumerate(reveals):
        stage = squeeze_stage.Stage(card, way, depth, tuple(reveals[:i]))
        left = stage.possible
        paras = [say("sqw_sees", way=zh(way.label), sight=stage.label),
                 format_html("{}", stage.clue_meaning),
                 say("sqw_one" if len(left) == 1 else "sqw_left", cands=cands(left))]
        way_name, label = way.label, stage.stage_label
        if english():  # "Squeezing the corner: the top of the index"
            way_name = capfirst(pgettext("squeeze-gloss", way.label))
            label = label[:1].lower() + label[1:]
        steps.append(Step("squeeze-stage", say("t_sqw_stage", way=way_name, stage=label),
                          paras, reveal=stage, facts={"possible": " ".join(k.code for k in left)}))
    last = [say("sqw_card", card=kind_html(card.kind))]
    if up is not None:
        last.append(say("sqw_made", up=kind_html(up), g=grp(Group.of(up, card.kind))))
    steps.append(Step("squeeze-done", say("t_sqw_done"), last, reveal=stage,
                      facts={"card": card.kind.code}))
    return steps


_BUILDERS = {
    "showdown": build_showdown,
    "bobo": build_bobo,
    "app_settle": build_app_settle,
    "split": build_split,
    "lead": build_lead,
    "points": build_points,
    "compare": build_compare,
    "hand": build_hand,
    "squeeze": build_squeeze,
}

