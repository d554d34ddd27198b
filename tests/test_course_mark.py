"""``?course=<lesson>`` (a page opened from a lesson's reading list, tutorial.course.returning)
that is no lesson was silently ignored on every page; now the page says so at its top and
answers 400 (tutorial.course.BadCourseMiddleware), like every bad value in an address
(tutorial.query), in both languages, and is otherwise the same page without the way back."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.english import game_terms, untranslated
from tutorial import course

SLUGS = [les.slug for les in course.lessons()]
ZH = "网址里的课“nope”不对：只能是 " + "、".join(SLUGS) + " 中的一个。"
EN = ("The address is wrong: the lesson can only be " + ", ".join(SLUGS[:-1])
      + f" or {SLUGS[-1]}, not “nope”.")


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.mark.parametrize(("language", "message", "title"),
                         [("zh-hans", ZH, "牌"), ("en", EN, "Cards")])
def test_a_course_that_is_no_lesson_is_said_on_the_page(language: str, message: str,
                                                         title: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for _ in range(2):  # rendered, then from the page cache: the same answer
        response = client.get("/cards/?course=nope")
        assert response.status_code == 400
        html = response.content.decode()
        assert f'<p class="notice" role="alert" data-course-problem>{message}</p>' in html
        assert "course-return" not in html and title in html
        assert 'class="card' in html  # the page itself is there
    gzipped = client.get("/cards/?course=nope", HTTP_ACCEPT_ENCODING="gzip")
    assert gzipped.status_code == 400
    if language == "en":
        assert untranslated(html, game_terms()) == []
    # the same page without the mark, with a right one or an empty one: no message, 200
    for path in ("/cards/", "/cards/?course=cards", "/cards/?course="):
        response = client.get(path)
        assert response.status_code == 200 and "data-course-problem" not in response.text


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_value_is_shown_escaped_and_short(language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/rules/", {"course": "<b>x</b>" + "y" * 40})
    assert response.status_code == 400
    assert "<b>x" not in response.text and "&lt;b&gt;x&lt;/b&gt;" + "y" * 12 in response.text
    assert "y" * 13 not in response.text.split("data-course-problem>")[1].split("</p>")[0]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_walkthrough_step_with_a_bad_course_drops_it(language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/walkthroughs/full-hand/1/?course=nope")
    assert response.status_code == 400
    assert "data-course-problem" in response.text
    assert 'href="/walkthroughs/full-hand/2/"' in response.text  # no mark carried on
    # an htmx fragment cannot show the message: it is left as it was (the whole page said it)
    fragment = client.get("/walkthroughs/full-hand/2/?course=nope", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.text


def test_a_right_course_still_leads_back() -> None:
    response = Client().get("/cards/?course=cards")
    assert response.status_code == 200
    assert 'href="/course/cards/1/" data-course-next' in response.text
