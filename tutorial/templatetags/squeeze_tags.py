"""``{% squeeze_stages question as stages %}``: the drawings of a squeeze quiz question
(one :class:`tutorial.squeeze.Stage` per reveal, each after the ones before it);
``{{ kind|card_named }}``: the card a kind's name stands for, on English pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from engine.cards import Kind
from engine.quiz import SqueezeQuestion
from tutorial.glossary import card_words
from tutorial.language import english
from tutorial.squeeze import Stage

register = template.Library()


@register.simple_tag
def squeeze_stages(question: SqueezeQuestion) -> list[Stage]:
    r = question.reveals
    return [Stage(question.card, w, d, r[:i]) for i, (w, d) in enumerate(r)]


@register.filter
def card_named(kind: Kind) -> SafeString:
    """On an English page, the card a kind's Chinese name stands for, to follow the name
    (" (red Q)"): a squeeze option or answer names the card in both languages."""
    if not english():
        return SafeString("")
    return format_html(' <span class="sq-kind__card" lang="en">({})</span>', card_words(kind))
