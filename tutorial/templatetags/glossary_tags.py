"""``{% glossed %}…{% endglossed %}``: link the first use of each game term in the enclosed
HTML to its glossary entry (and gloss it on English pages), see :mod:`tutorial.glossary`.
``templates/base.html`` wraps every page's main content in it."""

from __future__ import annotations

from django import template
from django.template.base import Parser, Token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from tutorial.glossary import link_first_uses

register = template.Library()


class GlossedNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        english = (get_language() or "").startswith("en")
        return mark_safe(link_first_uses(self.nodelist.render(context), english))


@register.tag
def glossed(parser: Parser, token: Token) -> GlossedNode:
    nodelist = parser.parse(("endglossed",))
    parser.delete_first_token()
    return GlossedNode(nodelist)
