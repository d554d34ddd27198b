"""Names of whole four-card hands (天皇, 天地公子, 朵朵, 杠对, 六天, 九月九 …).

Data: ``tutorial/content/four_cards.json`` (what the seeds call a hand, and an example);
each example is split and its groups named by the engine.  :func:`find` is the /pairs/
search's lookup (by name or alias, simplified or traditional, or pinyin).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.cards import parse_kind
from engine.groups import Group
from engine.hands import Split
from engine.rules import get_rules
from tutorial.search_text import hanzi_key, latin_key

CONTENT = Path(__file__).resolve().parent / "content" / "four_cards.json"
RULES = get_rules("xuanjing")


@dataclass(frozen=True)
class FourName:
    id: str  # the anchor on /pairs/four/
    name: str
    aliases: tuple[str, ...]
    pinyin: str
    source: str  # "000" (旋经) or "003" (an app's rule page)
    section: str  # "named" or "short"
    split: Split  # the example hand, 头 (stronger) and 尾
    meaning: str  # Chinese sentence ("" for the short names: the page explains the pattern)
    ours: bool  # the example cards are ours, not the seed's

    @property
    def url(self) -> str:
        return f"/pairs/four/#{self.id}"

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def groups(self) -> tuple[Group, Group]:
        return (self.split.head, self.split.tail)

    @property
    def declared(self) -> bool:
        """三花十 / 三花六: shown, not split."""
        return self.id.startswith("sanhua")


def _group(codes: list[str]) -> Group:
    return Group.of(parse_kind(codes[0]), parse_kind(codes[1]))


@cache
def four_names() -> tuple[FourName, ...]:
    data = json.loads(CONTENT.read_text("utf-8"))
    out = []
    for section in ("named", "short"):
        for e in data[section]:
            a, b = (_group(g) for g in e["groups"])
            out.append(FourName(
                e["id"], e["name"], tuple(e["aliases"]), e.get("pinyin", ""), e["source"],
                section, Split.of(a, b, RULES), e.get("meaning", ""),
                e.get("example") == "ours",
            ))
    return tuple(out)


def find(hanzi: str, latin: str) -> tuple[FourName, ...]:
    """Four-card names containing the query: ``hanzi`` and ``latin`` are the search's own
    keys of the query (:func:`tutorial.search_text.hanzi_key`,
    :func:`~tutorial.search_text.latin_key`)."""
    found = []
    for f in four_names():
        keys = {hanzi_key(n) for n in f.names}
        if (hanzi and any(hanzi in k for k in keys)) or (
                latin and f.pinyin and latin in latin_key(f.pinyin)):
            found.append(f)
    return tuple(found)
