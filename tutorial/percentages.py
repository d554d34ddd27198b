"""Shares (0 to 1) written as percentages that read true: the one way the pages round them."""

from __future__ import annotations

from itertools import combinations


def percentages(*shares: float, least: int = 0, most: int = 2) -> tuple[str, ...]:
    """The shares as percentages (no "%" sign) with the fewest decimals, from ``least`` up
    to ``most``, at which the texts compare as the shares do and say 0 or 100 only of a
    share of exactly 0 or 1.  When no such number of decimals exists, each share is
    written alone; one that still rounds to 0 or 100 reads "<0.01" or ">99.99" (at
    ``most`` = 2)."""
    for digits in range(least, most + 1):
        texts = tuple(f"{100 * share:.{digits}f}" for share in shares)
        if _reads_true(texts, shares):
            return texts
    if len(shares) > 1:
        return tuple(percentages(share, least=least, most=most)[0] for share in shares)
    share = shares[0]
    bound = f"{10.0 ** -most:.{most}f}"
    return (f"<{bound}",) if share < 0.5 else (f">{100 - float(bound):.{most}f}",)


def _reads_true(texts: tuple[str, ...], shares: tuple[float, ...]) -> bool:
    values = [float(text) for text in texts]
    pairs = zip(values, shares, strict=True)
    if any((v == 0) != (s == 0) or (v == 100) != (s == 1) for v, s in pairs):
        return False
    return all((values[i] > values[j]) == (shares[i] > shares[j])
               and (values[i] < values[j]) == (shares[i] < shares[j])
               for i, j in combinations(range(len(shares)), 2))


def percentage(share: float, least: int = 0, most: int = 2) -> str:
    """One share as :func:`percentages` writes it."""
    return percentages(share, least=least, most=most)[0]
