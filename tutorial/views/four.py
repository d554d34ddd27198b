"""``/pairs/four/``: the names of whole four-card hands (data: tutorial/content/four_cards.json,
loaded by :mod:`tutorial.four`; the groups of each example named by the engine)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tutorial.four import four_names
from tutorial.pagecache import visitor_independent


@visitor_independent
def four_page(request: HttpRequest) -> HttpResponse:
    names = four_names()
    return render(request, "four/four.html", {
        "named": [f for f in names if f.section == "named"],
        "short": [f for f in names if f.section == "short"],
    })
