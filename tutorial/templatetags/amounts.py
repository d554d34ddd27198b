"""How the pages write amounts: ``{{ n|grouped }}``, a whole number with thousands
separators ("10,000,000"), as the pages write a large limit or count (Python-side
messages use ``f"{n:,}"``, the same); ``{{ x|signed }}`` / ``{{ x|signed:1 }}``, a gain or
a loss (:func:`signed`), which views and content modules call as a function."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    return f"{value:,}"


@register.filter
def signed(value: float, places: int = 0) -> str:
    """A gain or a loss with ``places`` decimals: "+5", "-5", "+0.199", "-0.026" (the
    ASCII minus people type into the site's number fields), and no sign on a figure that
    reads zero ("0", "0.0", "0.000")."""
    text = f"{abs(value):.{places}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "-") + text
