"""Pages that are the same for every visitor are cached whole; the language switch is a
GET so that no page needs a CSRF token of its own."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tutorial.views import reference

pytestmark = pytest.mark.django_db


def test_reference_pages_hold_no_csrf_token(client: Client) -> None:
    for url in ("/", "/cards/", "/pairs/?q=tgj", "/pairs/RQ-B9/", "/rules/", "/rules/chart/"):
        html = client.get(url).content.decode()
        assert "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html, url


def test_second_visit_is_served_from_the_cache(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = client.get("/pairs/?q=tgj")
    calls: list[Any] = []
    real = reference.render

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(reference, "render", counting)
    second = client.get("/pairs/?q=tgj")
    assert calls == []
    assert second.content == first.content
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]
    client.get("/pairs/?q=tgjj")
    assert len(calls) == 1


def test_cache_keeps_languages_and_htmx_apart(client: Client) -> None:
    chinese = client.get("/pairs/?q=tgj").content.decode()
    fragment = client.get("/pairs/?q=tgj", HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode()
    assert fragment["HX-Push-Url"] == "/pairs/?q=tgj"
    again = client.get("/pairs/?q=tgj", HTTP_HX_REQUEST="true")
    assert again["HX-Push-Url"] == "/pairs/?q=tgj"
    client.cookies["django_language"] = "en"
    english = client.get("/pairs/?q=tgj").content.decode()
    assert '<html lang="en"' in english and '<html lang="zh-Hans"' in chinese


def test_errors_and_redirects_are_not_cached(client: Client) -> None:
    assert client.get("/pairs/XX/").status_code == 404
    assert client.get("/pairs/XX/").status_code == 404
    assert client.get("/pairs/B9-RQ/").status_code == 301


def test_language_switch_is_a_get(client: Client) -> None:
    response = client.get("/lang/", {"language": "en", "next": "/pairs/?q=tgj"})
    assert response.status_code == 302 and response["Location"] == "/pairs/?q=tgj"
    assert client.cookies["django_language"].value == "en"
    assert '<html lang="en"' in client.get("/pairs/?q=tgj").content.decode()


@pytest.mark.parametrize(
    "params",
    [{"language": "en", "next": "https://evil.example/"}, {"language": "en", "next": "//x.y/"},
     {"language": "xx"}, {}],
)
def test_language_switch_refuses_bad_input(client: Client, params: dict[str, str]) -> None:
    response = client.get("/lang/", params)
    assert response.status_code == 302 and response["Location"] == "/"
    if params.get("language") == "xx" or not params:
        assert "django_language" not in response.cookies
