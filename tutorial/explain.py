"""Plain-language explanations of a settlement (RULES.md §5), one sentence per fact.

Used by the settlement calculator (``/calc/``) and reusable by any page that shows
a settled hand (walkthroughs, the table).  Every function takes the engine's
``Settlement`` plus the ``Seat`` list it was computed from, and returns
``SafeString`` lines (HTML-escaped, group names wrapped in ``<span lang="zh-Hans">``
(``tutorial.glossary.group_html``) so English pages keep the Chinese names readable by
screen readers and gloss their first use)::

    from engine import Seat, settle
    from tutorial.explain import explain

    result = settle(seats, rules)
    text = explain(result, seats, rules)
    text.hands       # one line per seat: 头/尾, folded (皮), or 三花
    text.outcomes    # one line per pair of showdown players: 吃 / 走 and why
    text.pi          # who eats the 皮, or None when nobody folded
    text.transfers   # every transfer with the cap that limited it
    text.returned    # 皮 that nobody was entitled to goes back
    text.nets        # each player's result
    text.all()       # every line above, in that order

The single functions (``hand_line``, ``outcome_lines``, ``pi_line``,
``transfer_lines``, ``returned_lines``, ``net_lines``) can be used on their own.
Sentences are translated with the active Django language (catalog
``locale/companion``).  ``plain(line)`` strips the markup for text output.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.groups import Group
from engine.hands import Outcome
from engine.rules import Rules
from engine.settle import Seat, Settlement, Transfer, lone_player
from tutorial.glossary import group_html
from tutorial.language import english, listing_html

__all__ = [
    "Explanation",
    "explain",
    "group_html",
    "hand_line",
    "net_lines",
    "outcome_lines",
    "pi_line",
    "plain",
    "returned_lines",
    "transfer_lines",
]


@dataclass(frozen=True)
class Explanation:
    hands: list[SafeString]
    outcomes: list[SafeString]
    pi: SafeString | None
    transfers: list[SafeString]
    returned: list[SafeString]
    nets: list[SafeString]

    def all(self) -> list[SafeString]:
        pi = [self.pi] if self.pi else []
        return [*self.hands, *self.outcomes, *pi, *self.transfers, *self.returned, *self.nets]


def plain(line: str) -> str:
    """A line without its markup (for CSV, the CLI, tests)."""
    return strip_tags(line)


def _name(name: str) -> SafeString:
    return format_html('<b class="who">{}</b>', name)


def _fmt(template: str, **values: object) -> SafeString:
    """``template`` is a translated sentence with ``{name}`` fields; values are escaped.
    On non-Chinese pages, Chinese words left in the sentence (game terms, names) are
    wrapped in ``lang="zh-Hans"`` so screen readers switch voice."""
    html = format_html(template, **values)
    if not english():
        return tighten(html)
    return mark_safe(_tag_chinese(html))  # built from escaped parts above


_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
_ZH_CHAR = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
_ZH_GAP = re.compile(rf"(?<={_ZH_CHAR})((?:<[^>]+>)*) ((?:<[^>]+>)*)(?={_ZH_CHAR})")


def tighten(html: SafeString) -> SafeString:
    """Chinese runs on without spaces: the space a sentence template keeps around a
    field (a name, a group) goes where Chinese meets Chinese, tags in between or not
    (甲 吃 乙 → 甲吃乙); next to a number or a Latin letter it stays (甲 10, a 吃 b)."""
    return mark_safe(_ZH_GAP.sub(r"\1\2", html))  # only spaces removed from safe HTML


_TAGS = re.compile(r'(<span lang="zh-Hans"[^>]*>.*?</span>|<[^>]+>)')


def _tag_chinese(html: str) -> str:
    parts = _TAGS.split(html)
    for i, part in enumerate(parts):
        if i % 2 == 0:  # text between tags (tags and lang spans are left alone)
            parts[i] = _CJK.sub(lambda m: f'<span lang="zh-Hans">{m.group(0)}</span>', part)
    return "".join(parts)


def hand_line(seat: Seat, rules: Rules) -> SafeString:
    """What one seat did: its 头 and 尾, its folded 皮, or its 三花 declaration."""
    if seat.folded:
        return _fmt(_("{who} 甩了牌：下的 {stake} 是皮。"), who=_name(seat.name), stake=seat.stake)
    if seat.sanhua:
        return _fmt(_("{who} 报 {sanhua}：这一手不输不赢，下的 {stake} 拿回去。"),
                    who=_name(seat.name), sanhua=format_html('<span lang="zh-Hans">{}</span>',
                                                             seat.sanhua),
                    stake=seat.stake)
    if seat.split is None:  # the one left when everyone else folded: nothing to compare
        return _fmt(_("{who} 下了 {stake}：别的人都甩了，{who} 不用亮牌比大小。"),
                    who=_name(seat.name), stake=seat.stake)
    return _fmt(_("{who} 下了 {stake}：头是 {head}，尾是 {tail}。"), who=_name(seat.name),
                stake=seat.stake, head=group_html(seat.split.head),
                tail=group_html(seat.split.tail))


def _part(word: str, mine: Group, theirs: Group, rules: Rules) -> SafeString:
    diff = mine.rank(rules) - theirs.rank(rules)
    if diff > 0:
        text = _("{part} {a} 大过 {b}")
    elif diff < 0:
        text = _("{part} {a} 小于 {b}")
    else:
        text = _("{part} {a} 和 {b} 一样大")
    return _fmt(text, part=word, a=group_html(mine), b=group_html(theirs))


def outcome_lines(settlement: Settlement, seats: Sequence[Seat], rules: Rules) -> list[SafeString]:
    """One line per pair of showdown players, strongest first: who 吃 whom, or 走."""
    by_name = {s.name: s for s in seats}
    order = settlement.order
    lines = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            outcome = settlement.outcomes[(a, b)]
            winner, loser = (b, a) if outcome is Outcome.LOSE else (a, b)
            ws, ls = by_name[winner].split, by_name[loser].split
            assert ws is not None and ls is not None
            why = format_html(
                _("{head}，{tail}"),
                head=_part(pgettext("companion", "头"), ws.head, ls.head, rules),
                tail=_part(pgettext("companion", "尾"), ws.tail, ls.tail, rules))
            if outcome is Outcome.PUSH:
                text = _("{a} 和 {b} 走（不输不赢）：{why}。")
            else:
                text = _("{a} 吃 {b}：{why}。")
            lines.append(_fmt(text, a=_name(winner), b=_name(loser), why=why))
    return lines


def pi_line(settlement: Settlement, seats: Sequence[Seat]) -> SafeString | None:
    """Who eats the 皮 (the best 尾; players whose 尾 and 头 are exactly that good share
    it), or None when nobody folded."""
    folded = [s for s in seats if s.folded]
    if not folded or settlement.pi_to is None:
        return None
    total = sum(s.stake for s in folded)
    best = settlement.pi_takers
    if lone_player(seats) is not None:  # everyone else folded: nobody's 尾 was compared
        return _fmt(_("别的人都甩了，只剩 {who}，皮归 {who}（甩牌的人一共留下 {total}）；"
                      "每家的皮最多拿自己下的数。"), who=_name(settlement.pi_to), total=total)
    if len(best) > 1:
        return _fmt(_("{who} 的头尾一样大，尾又最大，先一起吃皮（甩牌的人一共留下 {total}），"
                      "尽量平分；每家的皮最多拿自己下的数，多出来的按尾的大小往下传。"),
                    who=listing_html([_name(n) for n in best]), total=total)
    return _fmt(_("{who} 的尾最大，先吃皮（甩牌的人一共留下 {total}）；每家的皮最多拿自己下的数，"
                  "多出来的按尾的大小往下传。"),
                who=_name(settlement.pi_to), total=total)


def _takers(before: Sequence[Transfer]) -> SafeString:
    names: list[str] = []
    for t in before:
        if t.amount and t.to not in names:
            names.append(t.to)
    return listing_html([_name(n) for n in names])


def _shared_line(group: Sequence[Transfer], stakes: dict[str, int]) -> SafeString:
    first = group[0]
    names = listing_html([_name(t.to) for t in group])
    total = sum(t.amount for t in group)
    each = {t.amount for t in group}
    if first.reason == "pi":
        head = _("{names} 头尾完全一样大，一起分 {source} 的皮：能拿的 {total}")
    else:
        head = _("{names} 头尾完全一样大，一起吃 {source}：能拿的 {total}")
    start = _fmt(head, names=names, source=_name(first.source), total=total)
    if len(each) == 1:
        rest = _fmt(_(" 平分，每人 {amount}。"), amount=first.amount)
    else:
        comma = ", " if english() else "，"
        parts = format_html(comma.join(["{} {}"] * len(group)),
                            *(x for t in group for x in (_name(t.to), t.amount)))
        rest = _fmt(_(" 尽量平分：{parts}（每人最多拿自己下的数；"
                      "零头给座位在前的人，这一条是本站定的）。"), parts=parts)
    return format_html("{}{}", start, rest)


def _single_line(t: Transfer, before: Sequence[Transfer], stakes: dict[str, int],
                 pi_to: str | None, alone: bool = False) -> SafeString:
    """One transfer; ``alone``: the taker is the only one left (everyone else folded)."""
    src_stake = stakes[t.source]
    taken = src_stake - t.available
    who, src = _name(t.to), _name(t.source)
    values = {"who": who, "src": src, "amount": t.amount, "entitled": t.entitled,
              "available": t.available, "stake": src_stake, "taken": taken,
              "takers": _takers(before)}
    if t.reason == "beat":
        if t.amount == 0:
            return _fmt(_("{who} 也吃 {src}，但 {src} 下的 {stake} 已经被 {takers} 拿完了，"
                          "{who} 拿不到。"), **values)
        if t.entitled < t.available:
            return _fmt(_("{who} 吃 {src} {amount}：{who} 自己只下了 {entitled}，最多从每家赢 "
                          "{entitled}。"), **values)
        if taken == 0:
            return _fmt(_("{who} 吃 {src} {amount}：{src} 一共只下了 {stake}，输完为止。"),
                        **values)
        return _fmt(_("{who} 吃 {src} {amount}：{src} 下了 {stake}，{takers} 拿走 {taken} 后"
                      "只剩 {available}。"), **values)
    # A folded player's 皮.
    if t.amount == 0:
        return _fmt(_("{who} 也能分 {src} 的皮，但已经被 {takers} 拿完了。"), **values)
    if taken == 0:
        if t.entitled < t.available and alone:  # nobody down the order: the rest goes back
            return _fmt(_("{who} 吃 {src} 的皮 {amount}：{who} 自己只下了 {entitled}，每家的皮"
                          "最多拿 {entitled}。"), **values)
        if t.entitled < t.available:
            return _fmt(_("{who} 吃 {src} 的皮 {amount}：{who} 自己只下了 {entitled}，每家的皮"
                          "最多拿 {entitled}，剩下 {rest} 往下传。"),
                        rest=t.available - t.amount, **values)
        return _fmt(_("{who} 吃 {src} 的皮 {amount}：{src} 甩牌留下的全归 {who}。"), **values)
    if t.entitled < t.available:
        return _fmt(_("{who} 从 {src} 的皮里再拿 {amount}：{takers} 拿走 {taken} 后还剩 "
                      "{available}，{who} 自己只下了 {entitled}，最多拿 {entitled}。"), **values)
    return _fmt(_("{who} 从 {src} 的皮里再拿 {amount}：{takers} 拿走 {taken} 后只剩 "
                  "{available}。"), **values)


def transfer_lines(settlement: Settlement, seats: Sequence[Seat]) -> list[SafeString]:
    """Every transfer in settlement order, each with the cap that limited it.

    Transfers of equal hands (``shared_with``) are told in one line per source."""
    stakes = {s.name: s.stake for s in seats}
    lines: list[SafeString] = []
    transfers = list(settlement.transfers)
    i = 0
    while i < len(transfers):
        t = transfers[i]
        before = [x for x in transfers[:i] if x.source == t.source]
        if t.shared_with:
            group = [t]
            while (i + len(group) < len(transfers)
                   and transfers[i + len(group)].source == t.source
                   and transfers[i + len(group)].shared_with == t.shared_with):
                group.append(transfers[i + len(group)])
            lines.append(_shared_line(group, stakes))
            i += len(group)
            continue
        lines.append(_single_line(t, before, stakes, settlement.pi_to,
                                  alone=len(settlement.order) == 1))
        i += 1
    return lines


def returned_lines(settlement: Settlement) -> list[SafeString]:
    """皮 nobody was entitled to (everybody in the showdown staked less) goes back."""
    return [
        _fmt(_("{who} 的皮还剩 {amount}：没有人够资格再拿（每人最多拿自己下的数），退回给 {who}。"),
             who=_name(name), amount=amount)
        for name, amount in settlement.returned.items()
    ]


def net_lines(settlement: Settlement) -> list[SafeString]:
    """Each player's result of the hand: 赢 / 输 / 不输不赢."""
    lines = []
    for name, net in settlement.nets.items():
        if net > 0:
            lines.append(_fmt(_("{who} 赢 {amount}。"), who=_name(name), amount=net))
        elif net < 0:
            lines.append(_fmt(_("{who} 输 {amount}。"), who=_name(name), amount=-net))
        else:
            lines.append(_fmt(_("{who} 不输不赢。"), who=_name(name)))
    return lines


def explain(settlement: Settlement, seats: Sequence[Seat], rules: Rules) -> Explanation:
    """All the sentences for one settled hand."""
    return Explanation(
        hands=[hand_line(s, rules) for s in seats],
        outcomes=outcome_lines(settlement, seats, rules),
        pi=pi_line(settlement, seats),
        transfers=transfer_lines(settlement, seats),
        returned=returned_lines(settlement),
        nets=net_lines(settlement),
    )
