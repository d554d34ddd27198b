"""``{% mini_card x %}``: a compact playing card (rank and suit) for long lists.

The full ``{% card %}`` tag draws every pip; the pair catalogue shows 302 cards, so its
rows use this lighter face with the same accessible name (templates/reference/_mini_card.html).
"""

from __future__ import annotations

from typing import Any

from django import template

from engine.cards import Card, Kind
from tutorial.templatetags.cards import card_context

register = template.Library()


@register.inclusion_tag("reference/_mini_card.html")
def mini_card(x: Kind | Card) -> dict[str, Any]:
    return card_context(x)
