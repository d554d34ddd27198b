"""扯旋 rules engine: pure Python, no Django.

The small public API::

    from engine import Kind, Group, Split, get_rules, splits, compare, settle, Seat
"""

from .cards import DECK, KINDS, Card, CardError, Kind, SingleClass, parse_kind, parse_kinds
from .groups import ALL_GROUPS, Category, Group, ranked
from .hands import Outcome, Split, compare, naive_split, parse_hand, sanhua, splits
from .mango import Mango, mango_amount, mango_payers
from .rules import PRESETS, Rules, RulesError, Stakes, get_rules, get_stakes
from .settle import Seat, SettleError, Settlement, Transfer, settle

__all__ = [
    "ALL_GROUPS", "DECK", "KINDS", "PRESETS", "Card", "CardError", "Category", "Group", "Kind",
    "Mango", "Outcome", "Rules", "RulesError", "Seat", "SettleError", "Settlement", "SingleClass",
    "Split", "Stakes", "Transfer", "compare", "get_rules", "get_stakes", "mango_amount",
    "mango_payers", "naive_split", "parse_hand", "parse_kind", "parse_kinds", "ranked", "sanhua",
    "settle", "splits",
]
