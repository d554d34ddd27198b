"""The practice table in both languages: every refusal of the engine has a worded message,
every interface string has an English translation, and the English pages show Chinese
only for game vocabulary (pair names and outcomes inside ``lang="zh"``)."""

from __future__ import annotations

import ast
import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, pgettext

from engine.game import ERROR_PARAMS, Act, Action, ActionError, ErrorCode, Game, Phase
from tests import english
from tests.english import game_terms, unlinked
from tutorial.models_table import PracticeTable
from tutorial.views.table import (
    ACT_WORDS,
    BOT_NAMES,
    ERROR_MESSAGES,
    OUTCOME_WORDS,
    error_message,
)

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
SAMPLE = {"act": "raise", "name": "电脑甲", "who": "电脑乙", "min": 10, "max": 100,
          "level": 6, "floor": 5, "bobo": 4}

# Pair names are not allowed outside lang="zh" elements on the table pages (but the
# start form names the 地九王 option in its English label).
TERMS = sorted({*game_terms(pair_names=False), "地九王"}, key=len, reverse=True)


def untranslated(html: str) -> list[str]:
    return english.untranslated(html, TERMS)


def test_the_checker_catches_chinese_outside_lang_zh() -> None:
    html = ('<p>Call (瞧)</p><p lang="zh">四六皱</p><p>四六皱</p>'
            '<span aria-label="盖着的牌"></span><p>the 钵钵</p>')
    assert untranslated(html) == ["四六皱", "盖着的牌"]


# ---------------------------------------------------------------- refusals
def test_every_error_code_has_a_message_in_both_languages() -> None:
    assert set(ERROR_MESSAGES) == set(ErrorCode)
    for code in ErrorCode:
        msgid = ERROR_MESSAGES[code]
        assert CJK.search(msgid), code  # msgids are the Chinese text
        assert set(PLACEHOLDER.findall(msgid)) <= ERROR_PARAMS[code], code
        params = {k: SAMPLE[k] for k in ERROR_PARAMS[code]}
        error = ActionError(code, "english for the CLI", **params)
        assert str(error) == "english for the CLI"
        with translation.override("zh-hans"):
            zh = error_message(error, {"电脑甲": "电脑甲", "电脑乙": "电脑乙"})
        with translation.override("en"):
            english = gettext(msgid)
            assert english != msgid, f"{code}: no English translation"
            assert set(PLACEHOLDER.findall(english)) == set(PLACEHOLDER.findall(msgid)), code
            en = error_message(error, {"电脑甲": "Bot A", "电脑乙": "Bot B"})
        assert CJK.search(zh) and "%(" not in zh and "%(" not in en, code
        assert untranslated(f"<p>{en}</p>") == [], (code, en)
        for key in PLACEHOLDER.findall(msgid):
            if key in ("min", "max", "level", "floor", "bobo"):
                assert str(SAMPLE[key]) in zh and str(SAMPLE[key]) in en, (code, key)


def test_error_params_are_checked_and_pickle() -> None:
    import pickle

    with pytest.raises(TypeError):
        ActionError(ErrorCode.RAISE_TOO_BIG, "x")  # max is missing
    error = ActionError(ErrorCode.RAISE_TOO_BIG, "too much", max=5)
    again = pickle.loads(pickle.dumps(error))
    assert again.code is ErrorCode.RAISE_TOO_BIG and again.params == {"max": 5}


def test_engine_refusals_carry_codes() -> None:
    g = Game.new([("甲", None), ("乙", None), ("丙", None)], dealer=2)
    with pytest.raises(ActionError) as caught:
        g.do("call", 0)
    assert caught.value.code is ErrorCode.NO_HAND
    g.do("deal")
    actor = g.to_act
    assert actor is not None
    other = next(s for s in range(3) if s != actor)
    cases: list[tuple[Action, ErrorCode, dict[str, object]]] = [
        (Action(Act.RAISE, actor, 9), ErrorCode.RAISE_TOO_SMALL, {"min": 10}),
        (Action(Act.RAISE, actor, 101), ErrorCode.RAISE_TOO_BIG, {"max": 100}),
        (Action(Act.RAISE, actor), ErrorCode.RAISE_NEEDS_AMOUNT, {}),
        (Action(Act.CHECK, actor), ErrorCode.CANNOT_CHECK, {}),
        (Action(Act.CALL, other), ErrorCode.NOT_YOUR_TURN,
         {"name": g.seats[other].name, "who": g.seats[actor].name}),
        (Action(Act.DEAL), ErrorCode.BETWEEN_HANDS_ONLY, {"act": "deal"}),
        (Action(Act.SPLIT, actor), ErrorCode.NOT_POSSIBLE, {"act": "split"}),
    ]
    for action, code, params in cases:
        with pytest.raises(ActionError) as caught:
            g.apply(action)
        assert caught.value.code is code
        for key, value in params.items():
            assert caught.value.params[key] == value
    with pytest.raises(ActionError) as caught:
        Action.from_dict({"kind": "dance"})
    assert caught.value.code is ErrorCode.UNKNOWN_ACTION


# ---------------------------------------------------------------- catalog
def _template_msgids(text: str) -> set[str]:
    """The template's msgids without a context (a ``context "x"`` one is checked by
    :func:`_template_contexted`)."""
    ids = set(re.findall(r'{%\s*translate\s+"([^"]*)"(?!\s+context)', text))
    ids |= set(re.findall(r"{%\s*translate\s+'([^']*)'(?!\s+context)", text))
    for body in re.findall(r"{%\s*blocktranslate(?![^%]*context)[^%]*%}(.*?)"
                           r"{%\s*endblocktranslate\s*%}", text, re.S):
        ids.add(re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", body))
    return ids


def _template_contexted(text: str) -> set[tuple[str, str]]:
    return set(re.findall(r'{%\s*translate\s+"([^"]*)"\s+context\s+"([^"]*)"', text))


def _python_msgids(path: Path) -> set[str]:
    ids = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_") and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            ids.add(node.args[0].value)
    return ids


def test_every_table_string_has_an_english_translation() -> None:
    ids: set[str] = set()
    for template in (ROOT / "templates" / "table").glob("*.html"):
        ids |= _template_msgids(template.read_text())
    ids |= _python_msgids(ROOT / "tutorial" / "views" / "table.py")
    ids |= _python_msgids(ROOT / "tutorial" / "table_log.py")
    ids |= set(ACT_WORDS.values()) | set(BOT_NAMES) | set(OUTCOME_WORDS)
    assert len(ids) > 150
    contexted = {pair for template in (ROOT / "templates" / "table").glob("*.html")
                 for pair in _template_contexted(template.read_text())}
    with translation.override("en"):
        missing = sorted(i for i in ids if CJK.search(i) and gettext(i) == i
                         and untranslated(f"<p>{i}</p>"))  # "钵钵 %(b)s" stays as it is
        missing += sorted(f"{c}: {i}" for i, c in contexted if pgettext(c, i) == i)
    assert missing == []


# ---------------------------------------------------------------- English pages
def _create(client: Client) -> str:
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3",
                                       "sanhua": "on", "mango": "fixed"})
    assert response.status_code == 303
    return str(response["Location"])


def _table(url: str) -> PracticeTable:
    return PracticeTable.objects.get(pk=uuid.UUID(url.split("/")[2]))


def _put(url: str, game: Game, squeezed: bool = False) -> None:
    t = _table(url)
    t.state = game.to_dict()
    t.seq = game.seq
    if squeezed and game.hand is not None:
        t.squeezed = game.hand.number
    t.save()


def everyone_calls(game: Game, until_round: int = 4) -> None:
    """Everybody calls; in rounds 2 and 3 the first to speak opens (no 休过河)."""
    while game.phase is Phase.BETTING and game.hand is not None \
            and game.hand.round < until_round:
        legal = game.legal_actions()
        actor = game.to_act
        assert actor is not None
        if Act.CHECK in legal:
            game.apply(Action(Act.RAISE, actor, legal.min_raise))
        else:
            game.apply(Action(Act.CALL, actor))


HANDS = {0: ["RQ", "B9", "R8", "R8"], 1: ["B5", "B7", "B6", "B4"],
         2: ["R10", "B10", "BJ", "B5"]}


@pytest.mark.django_db
def test_english_pages_show_no_untranslated_text() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    pages: dict[str, str] = {"start": client.get("/table/").content.decode()}
    url = _create(client)
    pages["between"] = client.get(url).content.decode()
    g = Game.from_dict(_table(url).state)
    g.state.dealer = g.state.config["dealer"] = 1  # the human speaks first
    g.apply(Action(Act.DEAL, cards=g.stacked_deck(HANDS)))
    _put(url, g)
    pages["round1"] = client.get(url).content.decode()
    seq = _table(url).seq
    refused = client.post(url + "act", {"seq": seq, "act": "raise", "amount": "9"},
                          HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    pages["refused"] = refused.content.decode()
    assert "A raise goes to at least 10" in pages["refused"]
    stale = client.post(url + "act", {"seq": seq - 1, "act": "call"}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    pages["stale"] = stale.content.decode()
    everyone_calls(g, 3)
    _put(url, g)
    pages["squeeze"] = client.get(url).content.decode()
    assert "squeeze__cover" in pages["squeeze"]
    everyone_calls(g)
    while g.to_act not in (0, None):
        from engine.bots import choose_split

        g.apply(choose_split(g, g.to_act, "simple"))
    _put(url, g, squeezed=True)
    if g.to_act == 0:
        pages["split"] = client.get(url + "?hint=1").content.decode()
        assert "hint--best" in pages["split"]
        mine = g.hand.cards[0]  # type: ignore[union-attr]
        r = client.post(url + "act", {"seq": g.seq, "act": "split", "head": mine[:2]})
        assert r.status_code == 303
        g = Game.from_dict(_table(url).state)
        while g.to_act not in (0, None):
            from engine.bots import choose_split

            g.apply(choose_split(g, g.to_act, "simple"))
        _put(url, g, squeezed=True)
    assert g.phase is Phase.BETWEEN
    pages["result"] = client.get(url).content.decode()
    assert 'class="result__outcome"' in pages["result"] or "三花" in pages["result"]
    pages["history"] = client.get(url + "history").content.decode()
    pages["replay"] = client.get(url + "history?hand=1&step=3").content.decode()
    assert {"split", "result", "squeeze"} <= set(pages)
    for name, html in pages.items():
        assert '<html lang="en"' in html or not html.lstrip().startswith("<!"), name
        assert untranslated(html) == [], (name, untranslated(html))


@pytest.mark.django_db
def test_outcomes_keep_chinese_and_get_an_english_gloss() -> None:
    for language, expect in (("en", True), ("zh-hans", False)):
        client = Client()
        client.cookies["django_language"] = language
        url = _create(client)
        g = Game.from_dict(_table(url).state)
        g.state.dealer = 1
        g.apply(Action(Act.DEAL, cards=g.stacked_deck(
            {0: ["RQ", "B9", "R8", "R8"], 1: ["B5", "B7", "B6", "B4"],
             2: ["B8", "R7", "R6", "R3"]})))
        everyone_calls(g, 3)
        everyone_calls(g)
        while g.to_act is not None:
            from engine.bots import choose_split

            g.apply(choose_split(g, g.to_act, "simple"))
        _put(url, g, squeezed=True)
        html = client.get(url).content.decode()
        outcomes = re.findall(r'<p class="result__outcome">(.*?)</p>', unlinked(html))
        assert outcomes
        for line in outcomes:
            m = re.search(r'<span lang="zh(?:-Hans)?">(吃|走|死)</span>'
                          r'( \((?:\w+, )?(win|stand-off|lose)\))?', line)
            assert m, line
            assert bool(m.group(2)) is expect, line


def test_log_sentences_are_english_for_you_and_for_others() -> None:
    """Every log sentence has two English wordings: "You call" and "Bot A calls"."""
    from django.utils.translation import pgettext

    from tutorial.table_log import SENTENCES

    with translation.override("en"):
        for msgid in SENTENCES.values():
            others, you = pgettext("log", msgid), pgettext("log-you", msgid)
            assert others != msgid and "%(who)s" in others, msgid
            assert you.startswith("You ") and "%(who)s" not in you, msgid
            assert set(PLACEHOLDER.findall(others)) == set(PLACEHOLDER.findall(msgid))
            assert untranslated(f"<p>{you}</p>") == [], you
