"""The practice table's and the coach's read-through (December 2026): each test pins a
sentence or an answer that was wrong before."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from engine.game import Act, Action, Phase
from engine.review import grade
from tests.coach_hands import coached
from tests.tables import at_showdown, bots_fold_to_qiao, game_of, save_game
from tests.test_language import problems
from tutorial.models_coach import HandReview
from tutorial.models_table import PracticeTable
from tutorial.percentages import percentage, percentages
from tutorial.views.coach import _figures, _picked

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """The page's words without their markup (terms are links to the glossary)."""
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(("lang", "message"), [
    ("zh-hans", "没有这种注码：只能打 1、3，5、10 或 5、20"),
    ("en", "No such stakes: choose 1、3, 5、10 or 5、20"),
])
def test_unknown_stakes_are_refused_in_the_page_language(client: Client, lang: str,
                                                         message: str) -> None:
    client.cookies["django_language"] = lang
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "7、7"})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text(html)
    assert "unknown stakes preset" not in html  # the engine's English message
    assert PracticeTable.objects.count() == 0


def test_a_mango_line_says_mango_pot_without_a_gloss_of_its_own(client: Client) -> None:
    """The log's 芒果 line: the glossary glosses the kind's first use (休芒 is "check
    mango"); a later use said "揍芒 (mango)", a second, wrong gloss."""
    r = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    bots_fold_to_qiao(url, 3)  # 揍芒 charged in hands 2 and 3
    client.cookies["django_language"] = "en"
    html = client.get(url + "history").content.decode()
    assert text(html).count("paid into the mango pot, which now holds") == 2
    assert not re.search(r"[揍休圈]芒 \(mango\)", html)
    assert problems(html) == []


def test_the_review_and_try_again_pages_have_no_gloss_inside_brackets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's note on the continuations and 再来一次's 返 help put 敲 inside
    brackets, where its first use got its gloss: "(… 敲 (qiāo, all-in) …)"."""
    client, tid = coached(monkeypatch, hands=1)
    client.cookies["django_language"] = "en"
    review = client.get(f"/coach/{tid}/1/").content.decode()
    assert "the way that suits each choice best: like the strong bot" in text(review)
    retry = client.get(f"/coach/{tid}/1/retry/0/").content.decode()
    assert re.search(r"Any amount from \d+ to (\d+); raising to \1 is 敲", text(retry))
    for page in (review, retry):
        assert problems(page) == []


def test_the_seats_name_every_bot_level_in_lower_case(client: Client) -> None:
    """The seat's level: "simple", "strong" and (it said "Expert") "expert"."""
    client.cookies["django_language"] = "en"
    r = client.post("/table/", {"bots": "1", "level": "expert", "stakes": "1、3"})
    html = client.get(str(r["Location"])).content.decode()
    assert "Bot A <small>expert</small>" in html


def test_picking_the_better_option_again_is_compared_with_the_choice_at_the_table() -> None:
    """再来一次: the option that beat the learner's choice, picked, is priced against that
    choice (the same pair, turned round); the sentence called the learner's choice "the
    best of the other options on a separate set of deals", which it need not be."""
    with translation.override("zh-hans"):
        d = _figures({
            "round": 2, "step": 5, "index": 0, "opening": 3, "exact": False, "to_call": 0,
            "chosen": 0, "best": 1, "rival": 1, "loss": 6.0, "loss_stderr": 0.5,
            "grade": grade(6.0, 0.5, 3),
            "options": [{"kind": "check", "ev": 2.0, "stderr": 1.0},
                        {"kind": "raise", "amount": 10, "ev": 8.0, "stderr": 1.5},
                        {"kind": "qiao", "amount": 90, "ev": 7.5, "stderr": 2.0}]})
        picked = _picked(d, 1, 3)  # 休 is offered: nobody had bet, so the bet is a 发招
        assert picked["why"].startswith(
            "你的“发招 10”比你在牌桌上选的“休”平均多 6.0 个筹码，"
            "95% 的把握在 4.8 到 7.2 之间，算好。")  # ± 2.32 × 0.5 (Z_LOOKS)
        assert "另一批牌局上挑出的别的选择里最好的" not in picked["why"]
        assert picked["grade"] == "好"
        other = _picked(d, 2, 3)  # any other option: against the best, as before
        assert other["why"].startswith("“发招 10”比你的“敲 90”平均多 0.5 个筹码")
    with translation.override("en"):
        d_en = _figures({k: v for k, v in d.items() if k not in ("why", "options")}
                        | {"options": [{k: v for k, v in o.items() if k != "label"}
                                       for o in d["options"]]})
        en = _picked(d_en, 1, 3)["why"]
    assert en.startswith("Your “Lead (发招) 10” wins 6.0 chips more than “Check (休)”, your "
                         "choice at the table, on average (95 % sure: between 4.8 and 7.2): "
                         "good.")


@pytest.mark.parametrize(("lang", "reason"), [
    ("zh-hans", "头尾一样大，尽量平分"),
    ("en", "equal 头 and 尾: shared as evenly as their stakes allow")])
def test_a_shared_win_says_as_evenly_as_the_stakes_allow(client: Client, lang: str,
                                                         reason: str) -> None:
    """Equal 头 and 尾 share what they take as evenly as their stakes allow (RULES §5.4
    with each one's cap: engine.settle._share); the table said 平分 (shared equally)."""
    r = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck(
        {0: ["RQ", "B9", "R8", "R7"], 1: ["RQ", "B9", "R8", "R7"], 2: ["B5", "B7", "R3", "B4"]})))
    while g.phase is not Phase.BETWEEN:
        actor = g.to_act
        assert actor is not None and g.hand is not None
        if g.phase is Phase.SHOWDOWN:
            g.apply(Action(Act.SPLIT, actor, cards=tuple(g.hand.cards[actor])))
        else:
            legal = g.legal_actions()
            if Act.CALL in legal.acts:
                g.apply(Action(Act.CALL, actor))
            else:  # rounds 2 and 3: the leader bets (everyone checking would end the hand)
                g.apply(Action(Act.RAISE, actor, legal.min_raise))
    result = g.history[-1].result
    assert result is not None
    assert any(t["limited_by"] == "shared" for t in result.transfers)
    save_game(url, g)
    client.cookies["django_language"] = lang
    html = text(client.get(url).content.decode())
    assert reason in html
    assert "头尾一样大，平分" not in html and "equal 头 and 尾: shared (" not in html


def test_a_hand_that_ends_with_everyone_checking_says_so_in_english(client: Client) -> None:
    """The result's heading is not glossed (headings are skipped), so "Hand 1: 休过河"
    left an English reader without a word of English for how the hand ended."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    while g.phase is Phase.BETTING:
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        g.apply(Action(Act.CHECK if Act.CHECK in legal.acts else Act.CALL, actor))
    assert g.history[-1].result is not None and g.history[-1].result.how == "xiu"
    save_game(url, g)
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert "<h3>Hand 1: everyone checked (休过河)</h3>" in html
    assert problems(html) == []


def test_the_mango_of_the_next_hand_is_named_once_and_as_the_next(client: Client) -> None:
    """Between hands the board said "这一手打 休芒" (English "This hand: 休芒") under
    the result's "下一手打 休芒": the same mango twice, once as the hand just played.
    Now it is said once, as the next hand's."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    while g.phase is Phase.BETTING:  # everyone checks: 休过河, 休芒 next
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        g.apply(Action(Act.CHECK if Act.CHECK in legal.acts else Act.CALL, actor))
    save_game(url, g)
    html = text(client.get(url).content.decode())
    assert html.count("下一手打 休芒") == 1 and "这一手打" not in html


def test_a_review_without_decisions_does_not_explain_how_decisions_are_priced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The note on how each choice is priced stood above "这一手你没有下注的决定" too."""
    client, tid = coached(monkeypatch, hands=1)
    note = "每种选择都从你当时知道的出发"
    assert note in text(client.get(f"/coach/{tid}/1/").content.decode())
    row = HandReview.objects.get(table_id=tid, number=1)
    row.data = {**row.data, "decisions": []}
    row.save()
    html = text(client.get(f"/coach/{tid}/1/").content.decode())
    assert "这一手你没有下注的决定" in html and note not in html


def test_every_betting_button_starts_with_a_capital_in_english(client: Client) -> None:
    """The buttons said "Call (瞧)", "Fold (甩)" but "all-in (敲)" and "double (拖)"."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    g.state.dealer = 1  # the learner is 挡家 (the forced 发招); the bot speaks first
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    g.apply(Action(Act.RAISE, 1, 10))  # a raise: doubling it to 20 reaches the floor
    assert g.to_act == 0 and {Act.TUO, Act.QIAO} <= set(g.legal_actions(0).acts)
    save_game(url, g)
    client.cookies["django_language"] = "en"
    words = re.findall(r'class="act__word">([^<]*)<', client.get(url).content.decode())
    assert {"All-in (敲)", "Double (拖)", "Call (瞧)", "Fold (甩)"} <= set(words)
    assert all(w[0].isupper() for w in words)


@pytest.mark.parametrize(("act", "message"), [
    ("sanhua", "“Declare 三花"), ("end", "“Play the last orbit (圈芒"), ("deal", "“Deal”")])
def test_a_refused_act_is_named_like_a_button(client: Client, act: str, message: str) -> None:
    """A refusal names the act in quotes at the start of its sentence: it said
    "“declares 三花” is not possible now" and "“final orbit” is only possible …"."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    g.state.dealer = 0  # the bot is 挡家: the learner speaks first
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))  # betting: none of these now
    assert g.to_act == 0
    save_game(url, g)
    client.cookies["django_language"] = "en"
    response = client.post(url + "act", {"seq": g.seq, "act": act})
    assert response.status_code == 400
    alert = re.search(r'role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert alert and text(alert.group(1)).startswith(message), alert


def test_the_phase_on_the_board_starts_with_a_capital(client: Client) -> None:
    """"Round 1" … but "showdown" (the word shared with the result's sentence)."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    at_showdown(url)
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert '<span class="board__phase">Showdown</span>' in html


@pytest.mark.parametrize(("lang", "said", "gone"), [
    ("zh-hans", "标着“精确”的，是把每一种可能都算到了", "都带着误差"),
    ("en", "those marked “exact” count every possibility",
     "averages estimated against the bots at your table and come")])
def test_the_coach_page_does_not_say_every_figure_has_an_error(
        client: Client, lang: str, said: str, gone: str) -> None:
    """Heads-up in round 3 (and many splits) the figures are exact (marked 精确, no
    error); /coach/ said every figure came with a margin of error."""
    client.cookies["django_language"] = lang
    html = text(client.get("/coach/").content.decode())
    assert said in html and gone not in html


def test_a_tiny_error_is_not_shown_as_zero_point_zero() -> None:
    """A share's error below 0.05 % read "± 0.0%" ("about 2% of the deals (± 0.0%)")."""
    assert [percentage(x) for x in (0, 0.0003, 0.00004, 0.004, 0.0123)] == [
        "0", "0.03", "<0.01", "0.4", "1"]


def test_how_often_the_hand_wins_is_zero_or_all_only_when_it_is() -> None:
    """"这手牌 0% 的牌局会赢钱" was said of a hand that wins 0.4 % of the deals."""
    assert [percentage(x) for x in (0, 0.004, 0.5, 0.996, 0.99996, 1)] == [
        "0", "0.4", "50", "99.6", ">99.99", "100"]
    with translation.override("zh-hans"):
        d = _figures({
            "round": 3, "step": 9, "index": 0, "opening": 3, "exact": True, "to_call": 0,
            "chosen": 0, "best": 0, "rival": 0, "loss": 0.0, "loss_stderr": 0.0,
            "grade": "好", "win": 0.004, "win_stderr": 0.0,
            "options": [{"kind": "check", "ev": 0.0, "stderr": 0.0},
                        {"kind": "qiao", "amount": 40, "ev": -3.0, "stderr": 0.0}]})
    assert "这手牌 0.4% 的牌局会赢钱" in d["why"]


def test_the_share_of_deals_a_call_wins_is_zero_only_when_it_is() -> None:
    """瞧's share of deals that end better than folding: 0.3 % read "约 0%"."""
    assert percentages(0.003, 0.3) == ("0.3", "30.0")
    assert percentages(0.214, 0.07) == ("21", "7")
    assert percentages(0.2104, 0.2096) == ("21.04", "20.96")
    assert percentages(0.99997, 0.5) == (">99.99", "50")


def test_a_pick_above_the_choice_that_was_best_is_compared_with_that_choice() -> None:
    """When the learner's choice was the best, another pick is compared with it; a pick
    whose mean came out higher read "… than “休” (the best of the other options on a
    separate set of deals)", which the learner's own choice is not."""
    with translation.override("zh-hans"):
        d = _figures({
            "round": 2, "step": 5, "index": 0, "opening": 3, "exact": False, "to_call": 0,
            "chosen": 0, "best": 0, "rival": 1, "loss": -0.5, "loss_stderr": 0.4,
            "grade": "好",
            "options": [{"kind": "check", "ev": 2.0, "stderr": 1.0},
                        {"kind": "raise", "amount": 10, "ev": 1.8, "stderr": 1.5},
                        {"kind": "qiao", "amount": 90, "ev": 2.6, "stderr": 2.0}]})
        why = _picked(d, 2, 3)["why"]
    assert why.startswith("你的“敲 90”比你在牌桌上选的“休”平均多 0.6 个筹码")


def test_the_split_hint_has_no_gloss_inside_brackets(client: Client) -> None:
    """The hint's note: "(吃 (chī, win) +1, 走 (zǒu, stand-off) 0, …)"."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    at_showdown(url)
    client.cookies["django_language"] = "en"
    html = client.get(url + "?hint=1").content.decode()
    assert "counting 吃 (chī, win) as +1, 走 (zǒu, stand-off) as 0 and 死 (sǐ, lose) as −1" \
        in text(html)
    assert problems(html) == []


def test_the_split_sentences_are_not_spaced_apart_in_chinese(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"最好的分法平均多 15.7 个筹码。 桌上的皮有 8": a space after a Chinese full stop
    (English keeps its space between the sentences)."""
    client, tid = coached(monkeypatch, hands=1)
    row = HandReview.objects.get(table_id=tid, number=1)
    split = {"best": 0, "chosen": 1, "loss": 2.5, "loss_stderr": 0.0, "grade": "不精确",
             "exact": True, "pi": 8,
             "options": [{"head_name": "天官九", "tail_name": "人十五", "ev": 3.0, "stderr": 0},
                         {"head_name": "天红杠", "tail_name": "七点", "ev": 0.5, "stderr": 0}]}
    row.data = {**row.data, "split": split}
    row.save()
    html = text(client.get(f"/coach/{tid}/1/").content.decode())
    assert "最好的分法平均多 2.5 个筹码。桌上的皮有 8，尾最大的吃。" in html
    client.cookies["django_language"] = "en"
    html = text(client.get(f"/coach/{tid}/1/").content.decode())
    assert "wins 2.5 chips more on average. The 皮" in html


@pytest.mark.parametrize(("lang", "empty", "left"), [
    ("zh-hans", "你的钵钵空了：先补钵钵（至少 50）或者离座", "你已经离座了"),
    ("en", "Your 钵钵 (bōbo, stack) is empty: re-buy (at least 50) or leave.",
     "You have left the table.")])
def test_a_refusal_about_the_learners_own_seat_says_you(
        client: Client, lang: str, empty: str, left: str) -> None:
    """It said "You’s 钵钵 is empty" and "You has left the table" ("你 的钵钵空了")."""
    r = client.post("/table/", {"bots": "1", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    client.cookies["django_language"] = lang
    g = game_of(url)
    g.seats[0].bobo = 0
    save_game(url, g)
    response = client.post(url + "act", {"seq": g.seq, "act": "deal"})
    alert = re.search(r'role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert response.status_code == 400 and alert and text(alert.group(1)) == empty
    g.seats[0].bobo, g.seats[0].left = 100, True
    save_game(url, g)
    response = client.post(url + "act", {"seq": g.seq, "act": "leave"})
    alert = re.search(r'role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert response.status_code == 400 and alert and text(alert.group(1)) == left
