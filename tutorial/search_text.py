"""How the search reads text (:mod:`tutorial.search`, :mod:`tutorial.four`): full-width
and traditional characters folded to simplified, digits to numerals, pinyin to bare
letters.  Below both modules, so neither imports the other for it."""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from functools import lru_cache
from importlib import resources

import icu

from engine.groups import POINT_WORDS

__all__ = ["TRAD_TO_SIMP", "hanzi_key", "initials_key", "latin_key", "simplify"]

_DIGITS = str.maketrans({str(i): word for i, word in enumerate(POINT_WORDS)})


def _traditional_map() -> dict[str, str]:
    """Traditional → simplified characters, learnt from names.json's own fields."""
    raw = json.loads(resources.files("engine.data").joinpath("names.json").read_text("utf-8"))
    mapping: dict[str, str] = {}
    for entry in raw.values():
        pairs = [(entry["traditional"], entry["name"])] if entry["name"] else []
        pairs += [(a["traditional"], a["name"]) for a in entry["aliases"]]
        for trad, simp in pairs:
            if len(trad) == len(simp):
                mapping.update({t: s for t, s in zip(trad, simp, strict=True) if t != s})
    return mapping


TRAD_TO_SIMP: dict[str, str] = _traditional_map()
_ICU_TRADITIONAL = icu.Transliterator.createInstance("Traditional-Simplified")
_ICU_LOCK = threading.Lock()  # one transliterator, shared by the server's threads
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Variation selectors (♥️ from a phone's emoji keyboard is ♥ + U+FE0F) and the outline
# suits read as the card suits.
_FORMS = str.maketrans({**{chr(c): None for c in range(0xFE00, 0xFE10)},
                        "♡": "♥", "♢": "♦", "♤": "♠", "♧": "♣"})


@lru_cache(maxsize=8192)
def _simplified(char: str) -> str:
    """One character, simplified: names.json's own pairs first (the seeds' spellings),
    then ICU's Traditional-Simplified for every other Chinese character (鴨 → 鸭, 缽 → 钵)."""
    if char in TRAD_TO_SIMP or not _HAN.match(char):
        return TRAD_TO_SIMP.get(char, char)
    with _ICU_LOCK:
        return str(_ICU_TRADITIONAL.transliterate(char))


def simplify(text: str) -> str:
    """Full-width → ASCII (NFKC), variation selectors dropped, traditional → simplified,
    lower case, single spaces."""
    text = unicodedata.normalize("NFKC", text).translate(_FORMS)
    return " ".join("".join(map(_simplified, text)).lower().split())


def hanzi_key(text: str) -> str:
    """A Chinese search key: simplified, digits as numerals (黑9 = 黑九, 红10 = 红十), no
    spaces."""
    return simplify(text).replace("10", "十").translate(_DIGITS).replace(" ", "")


def latin_key(text: str) -> str:
    """Pinyin without tones, tone numbers, spaces or apostrophes: ``tianguanjiu``."""
    decomposed = unicodedata.normalize("NFD", simplify(text).replace("ü", "v"))
    return "".join(c for c in decomposed if "a" <= c <= "z")


def initials_key(pinyin: str) -> str:
    """``tiān guān jiǔ`` → ``tgj`` (first letter of each syllable)."""
    return "".join(latin_key(syllable)[:1] for syllable in pinyin.split())
