"""The practice table's hand log in words: what happened, round by round.

Built from a hand's own record (``Hand.actions`` carries each action's round, whether a
bet was the round's 发招 and the commitment after it; ``Hand.events`` the 芒果 paid at the
deal).  A sentence has two English wordings: the learner's (context ``log-you``, "You
call") and everyone else's (``log``, "电脑甲 calls"); Chinese uses the msgid for both.
Another player's split shows its cards only once the hand is settled (``revealed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext

from engine.game import Game, Hand, card_by_label, cards_dealt
from engine.groups import Group
from engine.hands import Split
from engine.rules import Rules
from tutorial.glossary import group_html

HUMAN = 0

ROUND_TITLES = {
    1: N_("第一轮：每人两张暗牌"),
    2: N_("第二轮：每人一张明牌"),
    3: N_("第三轮：第四张，串开再翻"),
    4: N_("比牌：各自扯牌"),
}

#: Each act's sentence (msgids translated under the contexts ``log`` and ``log-you``);
#: ``lead`` variants are the round's first bet (发招).
SENTENCES = {
    "call": "%(who)s 瞧，跟到 %(to)s",
    "check": "%(who)s 休",
    "fold": "%(who)s 甩牌，输掉已下的 %(to)s",
    "raise": "%(who)s 返到 %(to)s",
    "tuo": "%(who)s 拖，翻倍到 %(to)s",
    "qiao": "%(who)s 敲，全下到 %(to)s",
    "lead-raise": "%(who)s 发招，下到 %(to)s",
    "lead-tuo": "%(who)s 发招，拖到 %(to)s",
    "lead-qiao": "%(who)s 发招就敲，全下到 %(to)s",
    "split": "%(who)s 扯牌：头 %(head)s（%(head_name)s）｜尾 %(tail)s（%(tail_name)s）",
    "split-hidden": "%(who)s 扯好了牌（盖着）",
    "sanhua": "%(who)s 报三花：%(what)s",
    "dangjia": "%(who)s 是挡家，发招 %(amount)s",
}


def say(key: str, seat: int, name: str, **params: Any) -> SafeString:
    """The sentence ``key`` about ``seat`` (shown as ``name``) in the page's language, as
    HTML: the parameters are escaped (pass :func:`chinese` or ``group_html`` for a name kept
in Chinese)."""
    msgid = SENTENCES[key]
    text = pgettext("log-you", msgid) if seat == HUMAN else pgettext("log", msgid)
    values = {k: conditional_escape(v) for k, v in {"who": name, **params}.items()}
    return mark_safe(escape(text) % values)  # our own text; the values are escaped


def chinese(name: str) -> SafeString:
    """A 三花 name, which stays Chinese on English pages."""
    return format_html('<span lang="zh-Hans">{}</span>', name)


@dataclass(frozen=True)
class SplitView:
    """A split as 头 and 尾, each as its card labels and its group."""

    head: tuple[str, str]
    tail: tuple[str, str]
    head_group: Group
    tail_group: Group


def split_view(cards: Sequence[str], rules: Rules) -> SplitView:
    """Four card labels, the first two one group, as 头 and 尾."""
    kinds = [card_by_label(c).kind for c in cards]
    first, second = Group.of(kinds[0], kinds[1]), Group.of(kinds[2], kinds[3])
    split = Split.of(first, second, rules)
    a, b = (cards[0], cards[1]), (cards[2], cards[3])
    head, tail = (a, b) if first == split.head else (b, a)
    return SplitView(head, tail, split.head, split.tail)


@dataclass
class LogRound:
    number: int
    title: str
    lines: list[str] = field(default_factory=list)  # HTML (SafeString)


def _deal_lines(game: Game, hand: Hand, name: Callable[[int], str]) -> list[str]:
    stakes = game.rules.stakes
    lines = []
    for event in hand.events:
        kind, sep, total = event.partition(": ")
        if sep and not kind.startswith("r"):
            lines.append(_("%(kind)s：交进芒果池 %(total)s，池里共 %(pot)s") % {
                "kind": kind, "total": total, "pot": hand.pot_start})
    lines.append(_("每人下皮 %(pi)s") % {"pi": stakes.pi})
    lines.append(say("dangjia", hand.dangjia, name(hand.dangjia), amount=stakes.opening))
    return lines


def _line(game: Game, hand: Hand, a: dict[str, Any], name: Callable[[int], str],
          revealed: bool) -> str:
    kind, seat = a["kind"], a["seat"]
    who = name(seat)
    if kind == "split":
        if not revealed and seat != HUMAN:
            return say("split-hidden", seat, who)
        view = split_view(a["cards"], game.rules)
        return say("split", seat, who, head=" ".join(view.head), tail=" ".join(view.tail),
                   head_name=group_html(view.head_group),
                   tail_name=group_html(view.tail_group))
    if kind == "sanhua":
        return say("sanhua", seat, who, what=chinese(hand.sanhua.get(str(seat), "")))
    key = f"lead-{kind}" if a.get("lead") and f"lead-{kind}" in SENTENCES else kind
    line = say(key, seat, who, to=a.get("to", a.get("amount", "")))
    if a.get("allin"):  # a 瞧, 返 or 拖 of the whole 钵钵 (a 敲 says so already)
        return format_html("{}{}", line, pgettext("log", "（全下了）"))
    return line


def _card_dealt_line(hand: Hand, number: int, name: Callable[[int], str],
                     squeezing: bool) -> str:
    """Round ``number``'s card (2: the face-up third, 3: the fourth) for every seat that got
    one; the learner's fourth while it is being squeezed is still face down."""
    shown = []
    for seat in hand.order:
        if cards_dealt(hand, seat) <= number:
            continue  # folded before this round's deal
        label = hand.cards[seat][number]
        if squeezing and seat == HUMAN and number == 3:  # "你 还盖着", "yours still face down"
            shown.append(format_html("{}", pgettext("log", "%(you)s 还盖着") % {"you": name(seat)}))
            continue
        card = format_html("{}{}{}{}", label, _("（"), chinese(card_by_label(label).kind.name_zh),
                           _("）"))
        shown.append(format_html("{} {}", name(seat), card))
    title = (_("发第三张（明牌）：%(cards)s") if number == 2 else
             _("发第四张（串开后亮出）：%(cards)s"))
    return mark_safe(escape(title) % {"cards": escape(_("，")).join(shown)})  # escaped parts


def hand_log(game: Game, hand: Hand, name: Callable[[int], str],
             revealed: bool, squeezing: bool = False) -> list[LogRound]:
    """``hand``'s log as rounds of sentences; ``name(seat)`` is the name shown.  Rounds 2
    and 3 begin with the card each seat was dealt (``squeezing``: the learner's fourth is
    still being squeezed and is not named)."""
    rounds = [LogRound(1, _(ROUND_TITLES[1]), _deal_lines(game, hand, name))]

    def reach(number: int) -> None:
        while rounds[-1].number < number:
            n = rounds[-1].number + 1 if rounds[-1].number < 3 else number
            rounds.append(LogRound(n, _(ROUND_TITLES.get(n, ROUND_TITLES[4]))))
            if n in (2, 3):
                rounds[-1].lines.append(_card_dealt_line(hand, n, name, squeezing))

    for a in hand.actions:
        if a["kind"] == "deal":
            continue
        reach(a.get("round", rounds[-1].number))  # hands saved before rounds were kept
        rounds[-1].lines.append(_line(game, hand, a, name, revealed))
    reach(min(hand.round, 3))
    return rounds
