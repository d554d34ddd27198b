"""``{% squeeze_stages question as stages %}``: the drawings of a squeeze quiz question
(one :class:`tutorial.squeeze.Stage` per reveal, each after the ones before it)."""

from __future__ import annotations

from django import template

from engine.quiz import SqueezeQuestion
from tutorial.squeeze import Stage

register = template.Library()


@register.simple_tag
def squeeze_stages(question: SqueezeQuestion) -> list[Stage]:
    r = question.reveals
    return [Stage(question.card, w, d, r[:i]) for i, (w, d) in enumerate(r)]
