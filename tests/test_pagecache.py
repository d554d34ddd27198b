"""Pages that are the same for every visitor are cached whole; the language switch is a
GET so that no page needs a CSRF token of its own."""

from __future__ import annotations

import gzip
import re
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


def test_odd_htmx_headers_do_not_poison_the_cache(client: Client) -> None:
    """Only "true" makes a request htmx (django-htmx): "HX-Request: false" once stored the
    whole page under the fragment's key for every visitor, "HX-History-Restore-Request:
    no" a fragment under the page's, and a boosted walkthrough step its own answer under
    the plain one."""
    url = "/walkthroughs/xj-2p-1/2/"
    assert "<html" in client.get(url, HTTP_HX_REQUEST="false").content.decode()
    assert "<html" not in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    restored = client.get("/pairs/?q=tgj", HTTP_HX_REQUEST="true",
                          HTTP_HX_HISTORY_RESTORE_REQUEST="no")
    assert "<html" not in restored.content.decode()
    assert "<html" in client.get("/pairs/?q=tgj", HTTP_HX_REQUEST="true",
                                 HTTP_HX_HISTORY_RESTORE_REQUEST="true").content.decode()
    boosted = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true").content
    plain = client.get(url, HTTP_HX_REQUEST="true").content
    assert boosted == client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true").content
    assert plain != boosted


def test_too_many_fields_is_a_400_page(client: Client) -> None:
    """An address of 1,001 fields is refused with the 400 page (its context processor read
    the fields again and turned it into a 500)."""
    for url, status in (("/", 400), ("/pairs/", 400), ("/nope/", 404)):
        response = client.get(url + "?" + "&" * 1000)
        assert response.status_code == status, url
        assert "<html" in response.content.decode()


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


def _counting_render(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[Any]:
    calls: list[Any] = []
    real = module.render

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "render", counting)
    return calls


def test_newcomers_share_a_page_a_visitor_with_progress_gets_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.test_course_views import take
    from tutorial import course as course_data
    from tutorial.views import course

    first = Client().get("/course/")
    calls = _counting_render(monkeypatch, course)
    again = Client().get("/course/")
    assert calls == [] and again.content == first.content
    assert "Cookie" in again["Vary"]
    learner = Client()
    take(learner, course_data.lessons()[0])  # the session now holds three stars
    mine = learner.get("/course/").content.decode()
    assert len(calls) >= 1 and "3 颗星（满分 3 颗）" in mine
    assert "3 颗星（满分 3 颗）" not in Client().get("/course/").content.decode()


def test_a_cached_form_gets_each_visitor_their_own_csrf_token() -> None:
    pages = []
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        html = client.get("/table/").content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert token and "csrf-token" not in html
        pages.append(token.group(1))
        start = client.post("/table/", {"csrfmiddlewaretoken": token.group(1), "bots": "2",
                                        "level": "simple", "stakes": "1、3", "mango": "fixed"})
        assert start.status_code == 303  # the token is the visitor's own: accepted
    assert pages[0] != pages[1]


def test_cached_pages_go_out_gzip_compressed_as_stored(client: Client) -> None:
    plain = client.get("/walkthroughs/").content
    for _ in range(2):  # the page is rendered, then served from the cache
        sent = client.get("/walkthroughs/", HTTP_ACCEPT_ENCODING="gzip")
        assert sent["Content-Encoding"] == "gzip" and "Accept-Encoding" in sent["Vary"]
        assert gzip.decompress(sent.content) == plain


def test_calc_for_a_night_is_never_cached(client: Client, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    from tutorial.views import calc

    client.get("/calc/?night=abc")
    calls = _counting_render(monkeypatch, calc)
    client.get("/calc/?night=abc")
    client.get("/calc/")
    client.get("/calc/")
    assert len(calls) == 2


@pytest.mark.parametrize("url", ["/accounts/login/?next=/quiz/", "/accounts/signup/"])
def test_account_forms_are_cached_for_newcomers_and_still_never_stored_by_browsers(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.contrib.auth.models import User
    from django.template import loader

    User.objects.create_user("learner", password="a long enough passphrase")
    tokens = []
    for visit in range(3):
        if visit == 1:  # later newcomers are served from the cache: nothing is rendered
            monkeypatch.setattr(loader, "get_template", None)
        client = Client(enforce_csrf_checks=True)
        response = client.get(url)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        html = response.content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert token and "csrf-token" not in html
        tokens.append(token.group(1))
    monkeypatch.undo()
    assert len(set(tokens)) == 3
    if "login" in url:  # the cached form's token is the visitor's own: the login works
        answer = client.post(url, {"csrfmiddlewaretoken": tokens[-1], "username": "learner",
                                   "password": "a long enough passphrase"})
        assert answer.status_code == 302 and answer["Location"] == "/quiz/"
