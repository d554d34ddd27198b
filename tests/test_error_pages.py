"""The error pages 400, 403, 403_csrf, 404 and 429 share one frame (errors/frame.html):
each keeps its own words, title, status and the heading that names the panel
(aria-labelledby), in both languages."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from tests.english import game_terms, untranslated

# template, id of its heading, heading in Chinese, in English
PAGES = (
    ("400.html", "bad-title", "这个请求没能办完", "This request could not be completed"),
    ("403.html", "denied-title", "这一步不能做", "This cannot be done"),
    ("403_csrf.html", "csrf-title", "表单已经过期", "This form has expired"),
    ("404.html", "nf-title", "找不到这一页", "Page not found"),
    ("405.html", "method-title", "这个地址不收这种请求", "This address does not take that request"),
    ("429.html", "limit-title", "请求太频繁了", "Too many requests"),
)
SITE = {"zh-hans": "扯旋学堂", "en": "Chexuan School"}
HOME = {"zh-hans": "回到首页", "en": "Back to the home page"}


def _framed(html: str, heading_id: str, heading: str, language: str) -> None:
    assert re.search(rf"<title>{re.escape(heading)} · {SITE[language]}</title>", html)
    assert f'<section class="panel panel--notice" aria-labelledby="{heading_id}">' in html
    assert f'<h1 id="{heading_id}">{heading}</h1>' in html
    assert html.count("<h1") == 1
    assert f'<a class="button" href="/">{HOME[language]}</a>' in html
    assert 'class="site-header"' in html  # inside the site's own frame (base.html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize(("template", "heading_id", "zh", "en"), PAGES)
def test_each_error_page_in_both_languages(template: str, heading_id: str, zh: str, en: str,
                                           language: str) -> None:
    request = RequestFactory().get("/")
    with translation.override(language):
        html = render_to_string(template, {"seconds": 7, "cookies": True}, request=request)
    _framed(html, heading_id, zh if language == "zh-hans" else en, language)
    if language == "en":
        assert untranslated(html, game_terms()) == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_429_page_keeps_both_paragraphs(language: str) -> None:
    request = RequestFactory().get("/")
    with translation.override(language):
        with_cookies = render_to_string("429.html", {"seconds": 7, "cookies": True},
                                        request=request)
        without = render_to_string("429.html", {"seconds": 7, "cookies": False},
                                   request=request)
        refusal = render_to_string("429.html#refusal", {"seconds": 7}, request=request)
    cookie = "cookie"
    assert "7" in with_cookies and with_cookies.count(cookie) > without.count(cookie)
    assert "<section" not in refusal and 'class="limit-refusal"' in refusal and "7" in refusal


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_404_and_csrf_answers_through_the_client(language: str) -> None:
    zh = language == "zh-hans"
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    _framed(response.text, "nf-title", "找不到这一页" if zh else "Page not found", language)
    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    response = strict.post("/lang/", {"language": "en"})
    assert response.status_code == 403
    _framed(response.text, "csrf-title", "表单已经过期" if zh else "This form has expired",
            language)
