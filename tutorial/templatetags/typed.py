"""``{{ value|typed }}``: text a visitor typed (a player's name, a night's title), shown
back inside ``<bdi translate="no">``: isolated, so right-to-left text in a name cannot
reorder the sentence around it, and marked so that page translators leave it alone and
the English-completeness check (tests/test_site_walk.py) knows it is not interface text.

It also works inside ``{% blocktranslate with name=p.name|typed %}``: the filter's output
is safe HTML with the value escaped, so the sentence's msgid does not change.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def typed(value: object) -> SafeString:
    return format_html('<bdi translate="no">{}</bdi>', value)
