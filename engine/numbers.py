"""The one parser for whole numbers typed by a person or read from a request.

``int()`` accepts odd input ("٣", "1_000"), and raises ``ValueError`` on "²" (which
``isdigit()`` lets through) and past 4,300 digits; every number read from a request goes
through :func:`parse_int` instead: an optional sign and ASCII digits, at most
:data:`MAX_DIGITS` of them, within a range.
"""

from __future__ import annotations

import re

MAX_DIGITS = 18  # beyond any amount, seed or position the site handles
MAX_AMOUNT = 10_000_000  # the most chips a stake, a 钵钵 or a raise typed into the site may be
_WHOLE = re.compile(r"[+-]?[0-9]+")


class NumberError(ValueError):
    """The text is not a whole number between ``lo`` and ``hi``.

    ``out_of_range`` is true when it is a whole number but too small or too large
    (including longer than :data:`MAX_DIGITS` digits), false when it is not a number;
    ``too_small`` is true when it is a whole number below ``lo``."""

    def __init__(self, text: str | None, out_of_range: bool, too_small: bool = False) -> None:
        shown = text if text is None or len(text) <= 20 else text[:20] + "…"
        super().__init__(f"not a whole number in range: {shown!r}")
        self.out_of_range = out_of_range
        self.too_small = too_small


def parse_int(text: str | None, lo: int, hi: int) -> int:
    """``text`` (surrounding spaces allowed) as an int in ``lo … hi``, else NumberError."""
    stripped = (text or "").strip()
    if not _WHOLE.fullmatch(stripped):
        raise NumberError(text, out_of_range=False)
    if len(stripped.lstrip("+-")) > MAX_DIGITS:
        raise NumberError(text, out_of_range=True, too_small=stripped.startswith("-"))
    number = int(stripped)
    if not lo <= number <= hi:
        raise NumberError(text, out_of_range=True, too_small=number < lo)
    return number
