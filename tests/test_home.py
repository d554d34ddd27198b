"""Home page, language switch, health check, 404 page, and a real-browser run."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import Card, Kind
from tests.english import unlinked
from tutorial.templatetags.cards import card_context

pytestmark = pytest.mark.django_db


def test_home_is_chinese_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="zh-Hans">' in html
    assert "<title>扯旋学堂 · 学打四川扯旋</title>" in html
    assert "扯旋是流行于四川的一种扑克牌玩法" in unlinked(html)
    for href in ("/cards/", "/pairs/", "/rules/", "/quiz/", "/walkthroughs/", "/table/",
                 "/calc/", "/night/"):
        assert f'href="{href}"' in html
    assert 'aria-label="天牌 红桃Q"' in html
    assert 'aria-label="黑9 黑桃9"' in html


def test_no_inline_scripts_or_styles(client: Client) -> None:
    html = client.get("/").content.decode()
    assert " style=" not in html
    assert "<style" not in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag, tag
    assert "//unpkg" not in html and "cdn" not in html.lower()


@pytest.mark.parametrize("debug", [False, True])
def test_htmx_is_served_locally(client: Client, settings: Any, debug: bool) -> None:
    """The same with DEBUG on (`make run`): without django-htmx's DEBUG helper, which
    would replace the whole document with every 4xx answer the pages swap in."""
    settings.DEBUG = debug
    html = client.get("/").content.decode()
    assert "django-htmx.js" not in html
    match = re.search(r'<script src="([^"]*htmx-2[^"]*\.js)"', html)
    assert match, "htmx script tag missing"
    assert match.group(1).startswith("/static/")
    assert client.get(match.group(1)).status_code == 200


def test_english_via_language_switch(client: Client) -> None:
    response = client.get(reverse("switch_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "Chexuan School" in html
    assert "Learning path" in html
    assert 'aria-label="天牌, Q of hearts"' in html


def test_english_via_cookie(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/").content.decode()
    assert "How a hand goes" in html


def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


def test_404_is_a_friendly_page(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "找不到这一页" in html
    assert "Traceback" not in html
    assert 'href="/"' in html


def test_card_context_for_kinds_and_cards() -> None:
    queen = card_context(Kind.RQ)
    assert (queen["rank"], queen["color"], queen["suit_id"]) == ("Q", "red", "suit-h")
    assert queen["is_face"] and not queen["pips"]
    ten = card_context(Card(Kind.B10, "♣"), "small")
    assert ten["suit_id"] == "suit-c" and ten["size"] == "small"
    assert len(ten["pips"]) == 10
    assert ten["label"] == "梅十 梅花10"
    joker = card_context(Kind.JK)
    assert joker["is_joker"] and joker["label"] == "大鬼 大王"
    for kind in Kind:
        ctx = card_context(kind)
        if not (ctx["is_face"] or ctx["is_joker"]):
            assert len(ctx["pips"]) == int(kind.rank_label)


@pytest.mark.browser
def test_home_in_a_real_browser(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    page.goto(live_server.url + "/")
    assert page.title() == "扯旋学堂 · 学打四川扯旋"
    queen = page.get_by_role("img", name="天牌 红桃Q")
    assert queen.count() == 1 and queen.is_visible()
    assert page.locator(".card--joker").count() == 1
    # htmx loaded from the site itself
    assert page.evaluate("typeof window.htmx") == "object"
    axe(page)
    screenshot(page, "home-zh")

    page.get_by_role("button", name="English").click()
    page.wait_for_url(live_server.url + "/")
    assert page.title() == "Chexuan School · Learn to play Sichuan Chexuan"
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("img", name="天牌, Q of hearts").count() == 1
    axe(page)
    screenshot(page, "home-en")


@pytest.mark.browser
def test_home_on_a_phone(live_server: Any, phone_page: Any, screenshot: Any, axe: Any) -> None:
    phone_page.goto(live_server.url + "/")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "page scrolls sideways on a phone"
    axe(phone_page)
    screenshot(phone_page, "home-phone")


def test_strict_content_security_policy(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
