"""The home page: what 扯旋 is and where to start."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.cards import Kind


def home(request: HttpRequest) -> HttpResponse:
    context = {
        # 天九王: 天牌 + 黑9, the strongest two-card group after pairs and 丁二皇.
        "tianjiuwang": [Kind.RQ, Kind.B9],
        # 丁二皇: 丁丁 + 大鬼, the strongest group of all.
        "dingerhuang": [Kind.R3, Kind.JK],
    }
    return render(request, "home.html", context)
