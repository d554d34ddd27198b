"""The course with Django's test client: every lesson and exercise, stars, the map and
the home page's next step, GET never writing, bad input (4xx, nothing recorded), htmx
fragments and English pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from engine import quiz as q
from tests.english import game_terms, unlinked, untranslated
from tutorial import course
from tutorial.models_course import CourseProgress, stars_for

pytestmark = pytest.mark.django_db
SEED = 11


def right(ex: course.Exercise, seed: int = SEED) -> dict[str, str]:
    shown = course.question(ex, seed)
    if shown is None:
        return {"choice": str(ex.answer)}
    return q.solve(shown, course.RULES)


def wrong(ex: course.Exercise, seed: int = SEED) -> dict[str, str]:
    shown = course.question(ex, seed)
    if shown is None:
        return {"choice": str((ex.answer + 1) % len(ex.options))}
    from tests.test_quiz_views import wrong_answer

    return wrong_answer(shown)


def answer(client: Client, lesson: course.Lesson, n: int, fields: dict[str, str],
           seed: int = SEED, **extra: Any) -> Any:
    return client.post(f"/course/{lesson.slug}/{n}/", {"seed": str(seed), **fields}, **extra)


def take(client: Client, lesson: course.Lesson, mistakes: int = 0) -> Any:
    response = None
    for ex in lesson.exercises:
        fields = wrong(ex) if ex.n <= mistakes else right(ex)
        response = answer(client, lesson, ex.n, fields)
        assert response.status_code == 200, response.content.decode()[:500]
    return response


def test_stars() -> None:
    assert [stars_for(r) for r in ("111", "101", "100", "000", "1111")] == [3, 2, 1, 1, 3]


def test_course_order_starts_with_the_whole_hand() -> None:
    slugs = [les.slug for les in course.lessons()]
    assert slugs == ["hand", "cards", "groups", "special", "split", "betting", "squeeze",
                     "settle", "mango"]
    for les in course.lessons():
        # the betting lesson adds three 瞧-or-甩 judgements to its four words
        assert 3 <= len(les.exercises) <= (7 if les.slug == "betting" else 4)
        for ex in les.exercises:
            for seed in range(5):  # every exercise generates, and its answer is right
                shown = course.question(ex, seed)
                assert course.check(ex, shown, right(ex, seed)).correct


def test_get_never_writes(client: Client) -> None:
    urls = ["/", "/course/"]
    for les in course.lessons():
        urls.append(f"/course/{les.slug}/")
        urls += [f"/course/{les.slug}/{ex.n}/?seed={SEED}" for ex in les.exercises]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "sessionid" not in response.cookies, url
    assert Session.objects.count() == 0
    assert CourseProgress.objects.count() == 0


def test_quiz_exercise_without_seed_redirects_to_a_seeded_address(client: Client) -> None:
    response = client.get("/course/cards/1/")
    assert response.status_code == 302
    assert response["Location"].startswith("/course/cards/1/?seed=")
    assert client.get("/course/hand/1/").status_code == 200  # written questions need no seed


def test_every_page_of_the_path_ends_with_next(client: Client) -> None:
    lessons = course.lessons()
    html = client.get("/course/").content.decode()
    assert 'data-course-next' in html and f'href="/course/{lessons[0].slug}/"' in html
    for les in lessons:
        html = client.get(f"/course/{les.slug}/").content.decode()
        assert f'href="/course/{les.slug}/1/" data-course-next' in html
        for href, _label in les.read:  # every reading link works and leads back
            url = course.reading_url(href, les)
            assert f'href="{url.replace("&", "&amp;")}"' in html
            page = client.get(url).content.decode()
            back = f'<a class="button" href="/course/{les.slug}/1/" data-course-next>'
            assert back in page, url
            if href.startswith("/walkthroughs/"):  # its steps keep the way back to the lesson
                assert f'?course={les.slug}" hx-get=' in page and 'class="wt-course"' not in page
    assert "course-return" not in client.get("/cards/").content.decode()
    assert "course-return" not in client.get("/cards/?course=nope").content.decode()


def test_whole_course_three_stars_and_the_map(client: Client) -> None:
    lessons = course.lessons()
    for i, les in enumerate(lessons):
        response = take(client, les)
        html = response.content.decode()
        assert "这一课学完了" in html and "全对，三颗星！" in html
        nxt = f"/course/{lessons[i + 1].slug}/" if i + 1 < len(lessons) else "/course/table/"
        assert f'href="{nxt}" data-course-next' in html
        home = client.get("/").content.decode()
        if i + 1 < len(lessons):
            assert f'<a class="path__link" href="{nxt}" aria-current="step">' in home
    assert all(p.stars == 3 and p.done for p in CourseProgress.objects.all())
    html = client.get("/course/").content.decode()
    assert html.count("3 颗星（满分 3 颗）") == len(lessons)
    assert html.count('aria-current="step"') == 1  # only the teaching table is next
    assert '<a class="path__link" href="/course/table/" aria-current="step">' in html
    assert 'href="/course/table/" data-course-next' in html


def test_mistakes_cost_stars_and_the_best_is_kept(client: Client) -> None:
    les = course.lessons()[1]
    html = take(client, les, mistakes=1).content.decode()
    assert "2 颗星（满分 3 颗）" in html and "再做一遍" in html
    assert "值得再做一遍" not in client.get("/course/").content.decode()  # two stars
    take(client, les, mistakes=3)
    row = CourseProgress.objects.get()
    assert (row.stars, row.run) == (2, "000")
    take(client, les)
    assert CourseProgress.objects.get().stars == 3
    map_html = client.get("/course/").content.decode()
    assert "3 颗星（满分 3 颗）" in map_html
    assert "学完 1 课，共 9 课；得了 3 颗星，满分 27 颗。" in map_html
    # The next step is the first lesson not done: the whole hand.
    assert '<a class="path__link" href="/course/hand/" aria-current="step">' in map_html
    assert "值得再做一遍" not in map_html


def test_the_map_suggests_redoing_a_one_star_lesson(client: Client) -> None:
    les = course.lessons()[1]
    finished = take(client, les, mistakes=3).content.decode()
    assert CourseProgress.objects.get().stars == 1
    # three mistakes leave one star, as the sentence under them says (it said only that
    # each mistake costs one)
    assert "1 颗星（满分 3 颗）" in finished and "做完的课至少有一颗" in finished
    for url in ("/course/", "/"):
        html = client.get(url).content.decode()
        step = html.split(f'href="/course/{les.slug}/"')[1].split("</li>")[0]
        assert "1 颗星（满分 3 颗）" in step and "错得多了，值得再做一遍" in step, url
    client.cookies["django_language"] = "en"
    assert "Several mistakes: worth doing again" in client.get("/course/").content.decode()


def test_feedback_says_right_or_wrong_and_explains(client: Client) -> None:
    les = course.lesson("betting")
    assert les is not None
    html = unlinked(answer(client, les, 1, wrong(les.exercises[0])).content.decode())
    assert "答错了。" in html and "答案：" in html and les.exercises[0].why in html
    assert "course-dots__dot--wrong" in html
    html = answer(client, les, 2, right(les.exercises[1])).content.decode()
    assert "答对了！" in html and 'href="/course/betting/3/" ' in html


def test_bad_input_is_refused_and_records_nothing(client: Client) -> None:
    hand = course.lesson("hand")
    cards = course.lesson("cards")
    assert hand is not None and cards is not None
    cases = [
        ("/course/hand/1/", {}, 400),  # nothing chosen
        ("/course/hand/1/", {"choice": "7"}, 400),  # not an option
        ("/course/hand/1/", {"choice": "x"}, 400),
        ("/course/hand/1/", {"choice": "١"}, 400),  # the answer in Arabic-Indic digits
        ("/course/hand/1/", {"choice": "٠"}, 400),
        ("/course/hand/1/", {"choice": "1" + "0" * 4300}, 400),  # was a 500
        ("/course/cards/1/", {"seed": "abc", "pos_0": "1"}, 400),
        ("/course/cards/1/", {"seed": "99999999999999"}, 400),
        ("/course/cards/1/", {"seed": "5", "pos_0": "9"}, 400),
        ("/course/hand/2/", right(hand.exercises[1]), 409),  # out of order, no session yet
    ]
    for url, data, status in cases:
        response = client.post(url, data)
        assert response.status_code == status, (url, data, response.status_code)
        assert "答对了" not in response.content.decode()
    assert client.get("/course/nope/").status_code == 404
    assert client.get("/course/hand/0/").status_code == 404
    assert client.get("/course/hand/9/").status_code == 404
    assert client.post("/course/hand/9/", {"choice": "0"}).status_code == 404
    assert client.get("/course/cards/1/?seed=-3").status_code == 400
    assert client.put("/course/hand/1/").status_code == 405
    assert client.put("/course/").status_code == 405
    assert client.put("/course/hand/").status_code == 405
    assert Session.objects.count() == 0
    assert CourseProgress.objects.count() == 0


def test_replays_and_skips_change_nothing(client: Client) -> None:
    les = course.lesson("hand")
    assert les is not None
    assert answer(client, les, 1, right(les.exercises[0])).status_code == 200
    before = list(CourseProgress.objects.values())
    assert answer(client, les, 3, right(les.exercises[2])).status_code == 409  # skips 2
    assert answer(client, les, 2, {"choice": "9"}).status_code == 400
    assert list(CourseProgress.objects.values()) == before
    assert answer(client, les, 2, right(les.exercises[1])).status_code == 200
    assert answer(client, les, 2, wrong(les.exercises[1])).status_code == 409  # replay
    assert CourseProgress.objects.get().run == "11"


def test_htmx_gets_the_fragment(client: Client) -> None:
    les = course.lesson("groups")
    assert les is not None
    response = answer(client, les, 1, right(les.exercises[0]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="quiz-area"') and "<html" not in html
    response = client.get(f"/course/groups/2/?seed={SEED}", HTTP_HX_REQUEST="true")
    assert response.content.decode().lstrip().startswith('<div id="quiz-area"')
    bad = answer(client, les, 2, {"choice": "zzz"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "<html" not in bad.content.decode()


def test_home_map_for_a_new_visitor_and_after_a_lesson(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'class="path course-map"' in html
    assert '<a class="path__link" href="/course/hand/" aria-current="step">' in html
    assert 'href="/course/hand/" data-course-next' in html
    take(client, course.lessons()[0], mistakes=1)
    html = client.get("/").content.decode()
    assert "2 颗星（满分 3 颗）" in html
    assert '<a class="path__link" href="/course/cards/" aria-current="step">' in html
    assert "接着学" in html
    # Another visitor still gets the fresh (cached) page.
    assert "接着学" not in Client().get("/").content.decode()


def test_english_pages(client: Client) -> None:
    client.cookies["django_language"] = "en"
    terms = game_terms()
    pages = ["/", "/course/"]
    for les in course.lessons():
        pages.append(f"/course/{les.slug}/")
        pages += [f"/course/{les.slug}/{ex.n}/?seed={SEED}" for ex in les.exercises]
    for url in pages:
        html = client.get(url).content.decode()
        assert untranslated(html, terms) == [], url
    for les in course.lessons():
        for ex in les.exercises:
            html = answer(client, les, ex.n, wrong(ex) if ex.n == 1 else right(ex)).content.decode()
            assert untranslated(html, terms) == [], (les.slug, ex.n)
    assert "Next step" in html and "lesson done" in html.lower()


def test_a_walkthrough_ends_by_leading_back_to_the_course(client: Client) -> None:
    from tutorial import walkthroughs as wt

    walkthrough = wt.get_walkthrough("full-hand")
    assert walkthrough is not None
    last = len(walkthrough.steps)
    html = client.get(f"/walkthroughs/full-hand/{last}/").content.decode()
    assert '<p class="wt-course"><a href="/course/">' in html
    assert 'class="wt-course"' not in client.get("/walkthroughs/full-hand/1/").content.decode()
    # opened from a lesson, its last step leads back to that lesson's exercises
    html = client.get(f"/walkthroughs/full-hand/{last}/?course=mango").content.decode()
    assert 'class="wt-course"' not in html
    assert '<a class="button" href="/course/mango/1/" data-course-next>' in html
    html = client.get(f"/walkthroughs/full-hand/{last - 1}/?course=mango").content.decode()
    assert f'href="/walkthroughs/full-hand/{last}/?course=mango"' in html


def test_the_first_lesson_reads_nothing_that_needs_the_cards() -> None:
    """Issue 23: lesson 1 sent a beginner into the 36-step full-hand walkthrough (揍芒, 躺,
    打鸡 …) before any card was taught; the whole hand waits for the last lesson."""
    first, last = course.lessons()[0], course.lessons()[-1]
    assert not any(href.startswith("/walkthroughs/") for href, _label in first.read)
    assert "/walkthroughs/full-hand/1/" in {href for href, _label in last.read}


def test_pages_that_show_progress_vary_on_the_cookie(client: Client) -> None:
    for url in ("/", "/course/", "/course/hand/", "/course/hand/1/"):
        assert "Cookie" in client.get(url)["Vary"], url


def test_a_lesson_links_the_quizzes_its_exercises_come_from(client: Client) -> None:
    html = client.get("/course/groups/").content.decode()
    for url in ("/quiz/bigger/?level=1", "/quiz/bigger/?level=2", "/quiz/order/?level=1"):
        assert f'<a href="{url}">' in html
    assert "course-drills" not in client.get("/course/betting/").content.decode()


def test_reading_links_keep_their_anchor() -> None:
    betting = course.lesson("betting")
    assert betting is not None
    assert course.reading_url("/rules/#words", betting) == "/rules/?course=betting#words"
    assert course.reading_url("/pairs/?cat=pair", betting) == "/pairs/?cat=pair&course=betting"
    assert course.reading_url("/walkthroughs/full-hand/9/", betting) == \
        "/walkthroughs/full-hand/9/?course=betting"


def test_betting_judgements_are_the_engines(client: Client) -> None:
    """瞧 or 甩 in a spot: the answer and the figures of its explanation come from the
    engine's exact chances (advisor), shown as whole percentages that sum to 100 and
    recomputed here from them: 瞧 averages (吃 − 死) × the level, from the percentages as
    shown (the sentence said +35.1 beside 66% and 8% at 60, which make +34.8), 甩 loses
    the stake; a weak hand is worth a call when it is cheap."""
    from engine.advisor import advise
    from engine.rules import get_rules

    betting = course.lesson("betting")
    assert betting is not None
    bets = [ex for ex in betting.exercises if ex.bet is not None]
    assert len(bets) == 3
    for ex in betting.exercises:  # in order: an exercise counts after the ones before it
        if ex.bet is None:
            answer(client, betting, ex.n, right(ex))
            continue
        assert ex.options == ("瞧", "甩")
        advice = advise(ex.bet.cards, get_rules("xuanjing"))
        best = advice.splits[advice.best]
        win, push, lose = q.whole_percents(best.p_win, best.p_push, best.p_lose)
        assert win + push + lose == 100
        assert abs(win - 100 * best.p_win) < 1 and abs(lose - 100 * best.p_lose) < 1
        call = (win - lose) * ex.bet.level / 100
        assert abs(call - (best.p_win - best.p_lose) * ex.bet.level) < ex.bet.level / 50
        assert ex.answer == (0 if call > -ex.bet.stake else 1)
        html = client.get(f"/course/betting/{ex.n}/").content.decode()
        assert f"你已经下到 {ex.bet.stake}，对手返到 {ex.bet.level}" in html
        # a raise to answer is in round 3, not after it (「第三轮过后」 is the showdown)
        assert "第三轮下注，四张牌都到手了" in html and "第三轮过后" not in html
        assert html.count('data-card="') >= 4
        r = answer(client, betting, ex.n, right(ex))
        feedback = r.content.decode()
        assert "答对了" in feedback and f"瞧：平均 {call:+.1f}" in feedback
        assert f"吃 {win}%，走 {push}%，死 {lose}%" in feedback
        assert f"甩：{-ex.bet.stake:+d}" in feedback
    assert [ex.answer for ex in bets] == [0, 1, 0]  # strong: 瞧; weak and dear: 甩; cheap: 瞧
    client.cookies["django_language"] = "en"
    for ex in betting.exercises[:bets[1].n - 1]:
        answer(client, betting, ex.n, right(ex))
    html = answer(client, betting, bets[1].n, wrong(bets[1])).content.decode()
    why = html[html.find('class="quiz-why"'):].split("</p>")[0]
    assert "5%" in why and "74%" in why and "A call averages -69.0" in why  # (5 − 74) × 100
    assert "So: Fold (" in why
    assert "tóu, head" in why and "head (" not in why  # 头 glossed once


def test_whole_percents_sum_to_100() -> None:
    assert q.whole_percents(1 / 3, 1 / 3, 1 / 3) == (34, 33, 33)
    assert q.whole_percents(0.10466, 0.48236, 0.41298) == (11, 48, 41)  # not 10/48/41
    assert q.whole_percents(0.0, 0.0, 1.0) == (0, 0, 100)


def test_english_course_pages_pass_the_language_checks(client: Client) -> None:
    """tests/test_language.py's checks over every exercise (asked and answered, right and
    wrong) and every stop of the teaching table, which the site walk does not visit: the
    teaching table's 「(if they fold, it becomes 皮 (pí, folded stakes))」 was a gloss inside
    a bracket."""
    from tests.test_language import problems

    client.cookies["django_language"] = "en"
    found = []
    pages = ["/course/table/", *[f"/course/table/{n}/" for n in range(1, 9)]]
    for url in pages:
        found += [(url, p) for p in problems(client.get(url).content.decode())]
    for mistakes in (0, 9):  # every answer right, then every answer wrong
        for les in course.lessons():
            for ex in les.exercises:
                url = f"/course/{les.slug}/{ex.n}/"
                found += [(url, p) for p in problems(client.get(f"{url}?seed={SEED}")
                                                      .content.decode())]
                fields = wrong(ex) if ex.n <= mistakes else right(ex)
                response = answer(client, les, ex.n, fields)
                assert response.status_code == 200, url
                found += [(url, p) for p in problems(response.content.decode())]
    assert found == []


def test_exercise_dots_count_questions_not_steps(client: Client) -> None:
    """The dots of an exercise page are the lesson's questions (the teaching table's are
    its steps)."""
    hand = course.lessons()[0]
    html = answer(client, hand, 1, wrong(hand.exercises[0])).content.decode()
    assert "第 1 题：错" in html and "第 2 题" in html and "第 1 步" not in html
    client.cookies["django_language"] = "en"
    html = client.get("/course/hand/2/").content.decode()
    assert "Question 1: wrong" in html and "Step 1" not in html
    assert "Step 1" in client.get("/course/table/1/").content.decode()


def test_the_split_lesson_teaches_sanhua_which_the_table_allows_by_default(
        client: Client) -> None:
    """三花 is on by default at the practice table (RULES: option sanhua, from 002 and 003)
    but no lesson said what it was: the split lesson now does, and whose rule it is."""
    html = client.get("/course/split/").content.decode()
    assert "三花十" in html and "三花六" in html and "《旋经》里没有" in html
    client.cookies["django_language"] = "en"
    text = re.sub(r"<[^>]+>", "", client.get("/course/split/").content.decode())
    assert "may declare 三花 instead of splitting" in text
    assert "the Xuanjing does not have it" in text


def test_course_split_exercise_reads_a_tiny_chance_as_under_1_percent(client: Client) -> None:
    """The course's split exercises show the quiz's table: a 0.35 % chance to win reads
    "<1%", not "0%" (seed 1 of the level-1 split question, see test_quiz_views)."""
    split = course.lesson("split")
    assert split is not None
    ex = split.exercises[0]
    assert (ex.quiz, ex.level) == ("split", 1)
    html = answer(client, split, ex.n, right(ex, 1), seed=1).content.decode()
    cells = re.findall(r'<td class="quiz-num[^>]*>([^<]*)</td>', html)
    assert "&lt;1%" in cells and "0%" not in cells


def test_bet_explanation_says_a_tiny_chance_is_below_one_percent() -> None:
    """The 瞧-or-甩 explanation prints 吃/走/死 as the split rows do
    (engine.quiz.shown_percents): a chance that is not 0 reads "<1%", never "0%"."""
    _, figures = course.bet_judgement(course.Bet(course.parse_hand("RQ RQ R8 R8"), 3, 10))
    assert (figures["win"], figures["push"], figures["lose"]) == ("98%", "2%", "<1%")
    assert figures["call"] == "+9.8"  # (98 − 0) × 10 / 100: the whole percents add up
