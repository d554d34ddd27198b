"""Text a visitor types that the site shows back to others (players' names, a night's
title): cleaned once, on the way in.

``clean`` applies NFKC (full-width letters and compatibility forms become their plain
ones), drops control characters (PostgreSQL refuses NUL) and format characters — bidi
overrides, embeddings, isolates and marks, zero-width spaces and joiners, the BOM, soft
hyphens — so a name cannot reorder the text around it or hide inside another name, and
collapses runs of whitespace.  ``key`` is what makes two names "the same" (case-folded).
Pages still show such text isolated (``<bdi>``, see ``tutorial/templatetags/typed.py``).
"""

from __future__ import annotations

import unicodedata

DROPPED = frozenset({"Cc", "Cf"})  # controls; format characters (bidi, zero-width)


def clean(text: str) -> str:
    text = "".join(c for c in text if unicodedata.category(c) not in DROPPED)
    return " ".join(unicodedata.normalize("NFKC", text).split())


def key(text: str) -> str:
    """Names that differ only in case (or in what ``clean`` drops) are one name."""
    return clean(text).casefold()
