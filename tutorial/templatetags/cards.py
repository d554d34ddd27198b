"""``{% card x %}``: draw one playing card (templates/partials/card.html).

Usage::

    {% load cards %}
    {% card kind %}                  {# an engine.cards.Kind, drawn with its first suit #}
    {% card card size="small" %}     {# an engine.cards.Card; sizes: small, large #}
    {% for c in kinds|as_cards %}{% card c %}{% endfor %}   {# a pair shows ♥Q and ♦Q #}
    {% for c in tail.kinds|as_cards:head.kinds %}…       {# suits the head has not used #}

The suit symbols are SVG <symbol>s from templates/partials/suit_sprite.html, which
base.html includes once per page.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from engine.cards import Card, Kind, physical
from engine.squeeze import PIPS
from tutorial.walkthroughs import who as who_html

register = template.Library()

SIZES = frozenset({"small", "large"})

# suit symbol -> (sprite id, name)
_SUITS: dict[str, tuple[str, str]] = {
    "♥": ("suit-h", "红桃"),
    "♦": ("suit-d", "方块"),
    "♠": ("suit-s", "黑桃"),
    "♣": ("suit-c", "梅花"),
}

@register.filter
def who(name: str) -> SafeString:
    """A player's name in a walkthrough (甲, or "Player 3" for the 旋经's 第三家 in English)."""
    return who_html(name)


@register.filter
def as_cards(kinds: Iterable[Kind | Card], used: Iterable[Kind | Card] | None = None) -> list[Card]:
    """``{% for c in group.kinds|as_cards %}``: see :func:`engine.cards.physical`."""
    return list(physical(kinds, used or ()))


def _suit_name(suit: str) -> str:
    return _(_SUITS[suit][1])


def card_context(x: Kind | Card, size: str = "") -> dict[str, Any]:
    """The template context for one card (also handy in tests)."""
    if isinstance(x, Card):
        kind, suit = x.kind, x.suit
    elif isinstance(x, Kind):
        kind, suit = x, x.suits[:1]
    else:
        raise template.TemplateSyntaxError(f"{{% card %}} needs a Kind or a Card, not {x!r}")
    if size and size not in SIZES:
        raise template.TemplateSyntaxError(f"{{% card %}} size must be one of {sorted(SIZES)}")
    is_joker = kind is Kind.JK
    if is_joker:
        label = _("%(name)s 大王") % {"name": kind.name_zh}
    else:
        label = _("%(name)s %(suit)s%(rank)s") % {
            "name": kind.name_zh,
            "suit": _suit_name(suit),
            "rank": kind.rank_label,
        }
    # rows below the middle (> 6) are drawn upside down
    pips = [{"col": col, "row": row, "flip": row > 6} for col, row in PIPS.get(kind.rank_label, ())]
    return {
        "kind": kind,
        "code": kind.code,
        "rank": kind.rank_label,
        "color": kind.color,
        "suit_id": _SUITS[suit][0] if suit else "",
        "is_joker": is_joker,
        "is_face": kind.rank_label in {"J", "Q"},
        "pips": pips,
        "label": label,
        "size": size,
    }


@register.inclusion_tag("partials/card.html")
def card(x: Kind | Card, size: str = "") -> dict[str, Any]:
    """Render one card; ``x`` is an ``engine.cards.Kind`` or ``engine.cards.Card``."""
    return card_context(x, size)
