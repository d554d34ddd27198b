"""``{{ n|grouped }}``: a whole number with thousands separators ("10,000,000"), as the
pages write a large limit or count (Python-side messages use ``f"{n:,}"``, the same)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    return f"{value:,}"
