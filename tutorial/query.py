"""A whole number read from a page's address (``?page=2``, ``?step=5``): through
:func:`engine.numbers.parse_int`, like every number read from a request, and one that is
not a whole number in range is :class:`BadQuery`, whose message the view shows on its
page with a 400 (never a silent default: ``?step=abc`` must not quietly show step 0).
A word out of a fixed list (``?rules=app``, ``?cat=pair``) is read by
:func:`query_choice` the same way: one that is not in the list is :class:`BadQuery`
(``?rules=nonsense`` must not quietly show the default rules)."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import QueryDict
from django.utils.translation import gettext

from engine.numbers import MAX_DIGITS, NumberError, parse_int
from tutorial.language import listing
from tutorial.visitor_text import clean


class BadQuery(ValueError):
    """A number in the address that is not a whole number in range; ``message`` says
    which one and what it can be, in the page's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def query_int(query: QueryDict, key: str, what: str, lo: int, hi: int | None,
              default: int) -> int:
    """``query[key]`` as a whole number in ``lo … hi`` (``hi`` None: no bound but
    :data:`~engine.numbers.MAX_DIGITS`); ``default`` when the address does not have ``key``
    at all; else :class:`BadQuery` naming it by ``what`` ("页码")."""
    raw = query.get(key)
    if raw is None:
        return default
    try:
        return parse_int(raw, lo, 10**MAX_DIGITS - 1 if hi is None else hi)
    except NumberError:
        raise BadQuery(bad_number(what, lo, hi)) from None


def bad_number(what: str, lo: int, hi: int | None) -> str:
    """"网址里的页码不对：要是 1 到 3 之间的整数。" (or "只能是 1" when lo == hi)."""
    if hi is None:
        return gettext("网址里的%(what)s不对：要是不小于 %(lo)s 的整数。") % {
            "what": what, "lo": lo}
    if lo == hi:
        return gettext("网址里的%(what)s不对：只能是 %(lo)s。") % {"what": what, "lo": lo}
    return gettext("网址里的%(what)s不对：要是 %(lo)s 到 %(hi)s 之间的整数。") % {
        "what": what, "lo": lo, "hi": hi}


def query_choice(query: QueryDict, key: str, what: str, choices: Sequence[str],
                 default: str) -> str:
    """``query[key]`` when it is one of ``choices``; ``default`` when the address does not
    have ``key`` or has it empty (a form's "any"); else :class:`BadQuery` naming it by
    ``what`` ("规则") and listing the choices."""
    raw = query.get(key)
    if not raw:
        return default
    if raw in choices:
        return raw
    raise BadQuery(bad_choice(what, raw, choices))


def bad_choice(what: str, raw: str, choices: Sequence[str]) -> str:
    """"网址里的规则“abc”不对：只能是 xuanjing、app 中的一个。" (in English "… can only be
    xuanjing or app, not “abc”."; "只能是 1" when there is one choice)."""
    if len(choices) == 1:
        return gettext("网址里的%(what)s不对：只能是 %(lo)s。") % {"what": what, "lo": choices[0]}
    return gettext("网址里的%(what)s“%(value)s”不对：只能是 %(choices)s 中的一个。") % {
        "what": what, "value": clean(raw)[:20],  # as visitors' text is shown back
        "choices": listing(choices, either=True)}
