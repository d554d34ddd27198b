"""Every URL answers 405 (with ``Allow``) to the methods it does not serve (issue 21 §4):
TRACE, PUT, DELETE, PATCH and OPTIONS everywhere, POST where only GET and HEAD are served,
and nothing is written by a refused request (/healthz writes its probe row only on GET)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tutorial.models_health import HealthProbe

SAMPLE = {"uuid": str(uuid.UUID(int=1)), "int": "1", "slug": "bigger", "str": "x"}


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern)


def _url(route: str) -> str:
    for converter, value in SAMPLE.items():
        while f"<{converter}:" in route:
            start = route.index(f"<{converter}:")
            route = route[:start] + value + route[route.index(">", start) + 1:]
    assert "<" not in route, route
    return "/" + route


URLS = sorted({_url(r) for r in _routes(get_resolver().url_patterns)
               if not r.startswith(("static", "media"))})


def test_every_route_is_walked() -> None:
    assert "/healthz" in URLS and "/quiz/bigger/" in URLS and len(URLS) > 40


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
def test_unserved_methods_are_405(client: Client, url: str) -> None:
    probes = HealthProbe.objects.count()
    allowed: set[str] | None = None
    for method in ("TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"):
        response = client.generic(method, url)
        assert response.status_code == 405, (method, url, response.status_code)
        allow = set(response["Allow"].replace(" ", "").split(","))
        assert allow == (allowed or allow) and allow <= {"GET", "HEAD", "POST"}, (method, url)
        allowed = allow
    assert allowed is not None
    assert "HEAD" in allowed or "GET" not in allowed
    if "POST" not in allowed:
        refused = client.post(url)
        assert refused.status_code == 405, url
        # the site's page, saying which methods the address takes (the body was empty)
        assert "这个地址不收这种请求" in refused.content.decode(), url
        assert refused["Allow"] == response["Allow"], url
    if "GET" not in allowed:
        assert client.get(url).status_code == 405, url
    assert HealthProbe.objects.count() == probes
