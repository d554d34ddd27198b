"""Text a visitor types that the site shows back to others (players' names, a night's
title): cleaned once, on the way in.

``clean`` applies NFKC (full-width letters and compatibility forms become their plain
ones), drops control characters (PostgreSQL refuses NUL), format characters — bidi
overrides, embeddings, isolates and marks, zero-width spaces and joiners, the BOM, soft
hyphens — and every other Default_Ignorable_Code_Point (combining grapheme joiner,
variation selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 …: characters that
render as nothing), so a name cannot reorder the text around it, hide inside another name
or be blank; U+2800 BRAILLE PATTERN BLANK, a symbol that prints no dot, counts as a space;
runs of whitespace collapse.  A name that is empty after this is refused by its form.

``key`` is what makes two names "the same": the confusable skeleton of Unicode's UTS #39
(ICU's SpoofChecker, through PyICU) of the case-folded cleaned text, so Latin A and
Cyrillic А, or 甲 and 甲 with an invisible mark, are one player.
Pages still show such text isolated (``<bdi>``, see ``tutorial/templatetags/typed.py``).
"""

from __future__ import annotations

import unicodedata

import icu

DROPPED = frozenset({"Cc", "Cf"})  # controls; format characters (bidi, zero-width)
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
_SPOOF = icu.SpoofChecker()


def _shown(c: str) -> bool:
    return unicodedata.category(c) not in DROPPED and not icu.Char.hasBinaryProperty(
        c, _IGNORABLE)


def clean(text: str) -> str:
    text = "".join(filter(_shown, unicodedata.normalize("NFKC", text)))
    text = unicodedata.normalize("NFC", text).replace("\u2800", " ")
    return " ".join(text.split())


def key(text: str) -> str:
    """Names that look alike (UTS #39 confusables, any case) are one name."""
    return str(_SPOOF.getSkeleton(0, clean(text).casefold()))
