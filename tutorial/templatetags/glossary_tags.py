"""``{% glossed %}…{% endglossed %}``: link the first use of each game term in the enclosed
HTML to its glossary entry (and gloss it on English pages), see :mod:`tutorial.glossary`.
``templates/base.html`` wraps every page's main content in it; a partial that htmx swaps in
alone wraps itself too (inside a page, the inner tag leaves the work to the outer one)."""

from __future__ import annotations

from django import template
from django.template.base import Parser, Token
from django.utils.safestring import SafeString, mark_safe

from tutorial.glossary import link_first_uses
from tutorial.language import english

register = template.Library()

OUTER = "glossed_outer"  # set in the context while a {% glossed %} renders


class GlossedNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        if context.get(OUTER):  # the page's {% glossed %} links the whole page once
            return self.nodelist.render(context)
        with context.push({OUTER: True}):
            html = self.nodelist.render(context)
        return mark_safe(link_first_uses(html, english()))


@register.tag
def glossed(parser: Parser, token: Token) -> GlossedNode:
    nodelist = parser.parse(("endglossed",))
    parser.delete_first_token()
    return GlossedNode(nodelist)
