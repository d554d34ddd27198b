"""The page's language, asked one way: Chinese unless English is active (the site's
``LANGUAGE_CODE`` is zh-hans, and no active language means it), and lists written the
way that language writes them."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language


def english() -> bool:
    """Is the page English (else Chinese)?"""
    return (get_language() or "").startswith("en")


def listing(names: Sequence[str], either: bool = False) -> str:
    """Names in a list as the page's language writes one: 甲、乙、丙 in Chinese, "Ann,
    Bob and Cat" in English ("Ann, Bob or Cat" with ``either``: one of them)."""
    if not english() or len(names) < 2:
        return "、".join(names)
    return f"{', '.join(names[:-1])} {'or' if either else 'and'} {names[-1]}"


def listing_html(parts: Sequence[SafeString]) -> SafeString:
    """:func:`listing` of HTML parts (escaped where they are not safe already)."""
    return mark_safe(listing([conditional_escape(p) for p in parts]))  # escaped parts
