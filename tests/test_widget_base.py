"""The widget base, through all four game widgets: practice marks, switches, intents, junk and saves."""

import dataclasses
import json
import logging
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorlab import colourbrain
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox.view import ColorFoxGame
from colorlab.colorium.view import ColoriumGame
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.record import Mark
from colorlab.widgets import base
from colorlab.widgets.base import GameWidget, IntentError, check_intent
from tests.helpers.examples import examples
from tests.helpers.page import browser_sends, downloads

TABLES = {
    "colorform": lambda **kw: ColorFormGame(bots=1, seed=5, bots_wait=True, **kw),
    "colorfox": lambda **kw: ColorFoxGame(bots=1, seed=5, **kw),
    "colorium": lambda **kw: ColoriumGame(bots=1, seed=5, **kw),
    "colourbrain": lambda **kw: ColourbrainQuiz(colourbrain.Rules(teams=2), seed=5, **kw),
}
each_game = pytest.mark.parametrize("game", TABLES)


def change_a_live_rule(widget: GameWidget) -> None:
    """Make one move of the learner's that every game knows: flip a yes/no rule that may change mid-game."""
    rules = widget.state.rules
    name = next(spec["name"] for spec in type(rules).describe() if spec["live"] and spec["type"] == "bool")
    widget.apply_rules(dataclasses.replace(rules, **{name: not getattr(rules, name)}), {name})
    assert widget.record.actions, "the rule change should be an action of the record"


def saved_text(widget: GameWidget, dropped: tuple[str, ...] = (), **changes) -> str:
    """The widget's game as the text of a saved file, with some top-level fields changed and some left out."""
    saved = {**json.loads(widget.record.to_json()), **changes}
    return json.dumps({field: value for field, value in saved.items() if field not in dropped})


# Undo and loading mark a practice game: in the view, the record and the saved file.


@each_game
def test_an_undo_marks_a_practice_game_in_the_view_the_record_and_the_file(game):
    widget = TABLES[game]()
    assert widget.view["practice"] == {"undo": True, "loading": True, "note": ""}
    change_a_live_rule(widget)
    moves = len(widget.record.actions)
    browser_sends(widget, {"type": "undo"})
    assert widget.notice["kind"] == "info" and len(widget.record.actions) < moves
    assert widget.record.marks == (Mark("undo", moves, moves - len(widget.record.actions)),)
    assert widget.view["practice"]["note"].startswith("Practice game:")
    assert "taken back" in widget.view["practice"]["note"]
    [message] = downloads(widget, {"type": "save"})
    saved = json.loads(message["text"])
    assert saved["marks"] == [mark.to_dict() for mark in widget.record.marks]
    other = TABLES[game]()
    browser_sends(other, {"type": "load", "text": json.dumps(saved)})
    assert other.notice["kind"] == "info"
    assert other.record.marks == widget.record.marks + (Mark("loaded", len(widget.record.actions)),)
    assert "taken back" in other.view["practice"]["note"] and "loaded" in other.view["practice"]["note"]


@each_game
def test_a_loaded_game_stays_marked_even_when_the_file_was_edited(game):
    widget = TABLES[game]()
    change_a_live_rule(widget)
    moves = len(widget.record.actions)
    for text in (saved_text(widget, marks=[]), saved_text(widget, ("marks", "seeding", "bots"), version=1)):
        other = TABLES[game]()
        browser_sends(other, {"type": "load", "text": text})
        assert other.notice["kind"] == "info", other.notice
        assert other.record.marks == (Mark("loaded", moves),)
        assert "loaded" in other.view["practice"]["note"]


def right(quiz):
    return list(quiz.state.question.answer)


def test_answer_read_the_solution_undo_and_answer_again_is_a_practice_game():
    quiz = TABLES["colourbrain"]()
    wrong = [c for c in ["red", "blue", "green", "black", "white", "pink"] if c not in right(quiz)][: len(right(quiz))]
    solution = right(quiz)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": wrong, "copier": False})
    browser_sends(quiz, {"type": "answer", "team": 1, "colours": wrong, "copier": False})
    assert sorted(quiz.view["last"]["solution"]) == sorted(solution) and quiz.view["scores"] == [0, 0]
    while quiz.record.actions:
        browser_sends(quiz, {"type": "undo"})
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": solution, "copier": False})
    assert quiz.record.practice and quiz.view["practice"]["note"].startswith("Practice game:")


# Undo and loading switched off for a class.


@each_game
def test_undo_and_loading_can_be_switched_off_and_the_kernel_refuses_them(game):
    widget = TABLES[game](undo=False, loading=False)
    assert widget.view["practice"] == {"undo": False, "loading": False, "note": ""}
    change_a_live_rule(widget)
    before = widget.record
    browser_sends(widget, {"type": "undo"})
    assert widget.notice["kind"] == "error" and "undo" in widget.notice["text"].lower()
    browser_sends(widget, {"type": "load", "text": TABLES[game]().record.to_json()})
    assert widget.notice["kind"] == "error" and "load" in widget.notice["text"].lower()
    assert widget.record is before and widget.record.marks == ()
    browser_sends(widget, {"type": "history", "step": 0})
    assert widget.notice["kind"] == "error" or not widget.view["history"]["live"]


@each_game
def test_each_switch_works_alone(game):
    no_undo, no_loading = TABLES[game](undo=False), TABLES[game](loading=False)
    assert no_undo.view["practice"]["loading"] and not no_undo.view["practice"]["undo"]
    assert no_loading.view["practice"]["undo"] and not no_loading.view["practice"]["loading"]
    change_a_live_rule(no_loading)
    browser_sends(no_loading, {"type": "undo"})
    assert no_loading.notice["kind"] == "info" and no_loading.record.practice


# Nothing a player chose stays in a synced trait, nor is echoed to the other pages.


def capture_messages(widget) -> list[dict]:
    """Keep every message the widget would send to the pages."""
    sent: list[dict] = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    return sent


@each_game
def test_an_intent_is_cleared_once_handled_and_never_echoed(game):
    widget = TABLES[game]()
    sent = capture_messages(widget)
    for intent in ({"type": "history", "step": 0}, {"type": "live"}, {"type": "fly", "secret": "blue"}):
        browser_sends(widget, intent)
        assert widget.get_state()["intent"] is None
    assert not [msg for msg in sent if msg.get("method") == "echo_update" and "intent" in msg["state"]]
    assert "blue" not in json.dumps([msg for msg in sent if "intent" in msg.get("state", {})])


def test_a_locked_answer_leaves_no_trace_in_any_synced_trait():
    states = []
    for colours in (["red"], ["blue"]):
        quiz = ColourbrainQuiz(colourbrain.Rules(teams=2), seed=11)
        count = len(right(quiz))
        pick = [c for c in ["red", "blue", "green", "black", "white", "pink", "brown"] if c not in colours]
        browser_sends(quiz, {"type": "answer", "team": 0, "colours": colours + pick[: count - 1], "copier": False})
        assert quiz.view["answered"] == [True, False]
        synced = {name: value for name, value in quiz.get_state().items() if name != "layout"}  # a model id
        states.append(json.dumps(synced, sort_keys=True))
    assert states[0] == states[1]


# Junk from the page: a clean refusal inside the widget, never a logged traceback.

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**400), 10**400)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from([2**53 + 1, 10**309, -(10**309), 1e308])
)
JSON_VALUES = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
OF_TYPE = {
    int: st.integers() | st.integers(-(10**400), 10**400),
    float: st.floats(),
    bool: st.booleans(),
    str: st.text(max_size=20) | st.sampled_from(["red", "blue", "red star", "I", "O", "R"]),
    list: st.lists(JSON_VALUES, max_size=5),
}


def well_typed_intents(widget) -> st.SearchStrategy:
    """Intents of the widget's own kinds with fields of the right types but any values (saves excluded)."""

    def fields(spec):
        return {
            name: st.one_of([OF_TYPE[kind] for kind in (kinds if isinstance(kinds, tuple) else (kinds,))])
            for name, kinds in spec.items()
        }

    return st.one_of(
        [
            st.fixed_dictionaries({"type": st.just(kind), **fields(spec)})
            for kind, spec in widget.INTENTS.items()
            if kind != "save"
        ]
    )


class Recorder(logging.Handler):
    """Keep the records of a logger (colorlab logs a bug as an exception with its traceback)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@each_game
def test_junk_intents_and_palettes_are_refused_cleanly(game):
    widget = TABLES[game]()
    logged = Recorder()
    logging.getLogger("colorlab").addHandler(logged)

    @settings(max_examples=examples(120), deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        intent=JSON_VALUES | st.fixed_dictionaries({"type": JSON_VALUES}) | well_typed_intents(widget),
        palette=JSON_VALUES,
    )
    def refuses_junk(intent, palette):
        record, seq = widget.record, widget.notice.get("seq")
        browser_sends(widget, intent)
        assert not logged.records, [r.getMessage() for r in logged.records]
        assert widget.get_state()["intent"] is None
        try:
            check_intent(intent, widget.INTENTS)
        except IntentError:
            if intent is not None:  # None is the page's empty intent: nothing to do, nothing to refuse
                assert widget.notice["kind"] == "error" and widget.notice["seq"] != seq
                assert widget.record is record
        if palette not in ("default", "colour-blind-safe"):
            seq = widget.notice.get("seq")
            widget.set_state({"palette": palette})
            assert widget.palette == "default" and widget.notice["kind"] == "error" and widget.notice["seq"] != seq

    try:
        refuses_junk()
    finally:
        logging.getLogger("colorlab").removeHandler(logged)


@pytest.mark.parametrize("palette", [[], ["default"], {}, {"a": 1}, 3, None, True, "sepia", 10**400, 1.5])
def test_a_palette_that_is_not_a_known_name_is_refused(palette):
    widget = TABLES["colorfox"]()
    widget.set_state({"palette": palette})
    assert widget.palette == "default" and widget.notice["kind"] == "error"


@pytest.mark.parametrize("kind", [[], ["undo"], {}, {"type": "undo"}, 3, None, 10**400])
def test_an_intent_type_that_is_not_text_is_refused(kind):
    widget = TABLES["colorium"]()
    before = widget.record
    browser_sends(widget, {"type": kind})
    assert widget.notice["kind"] == "error" and widget.record is before


@pytest.mark.parametrize(
    "number",
    [10**309, -(10**309), 2**53 + 1, 10**5000],
    ids=["above float", "below float", "beyond exact", "5000 digits"],
)
def test_numbers_no_browser_could_send_are_refused(number):
    widget = TABLES["colorform"]()
    before = widget.record
    for intent in (
        {"type": "tick", "time": number},
        {"type": "history", "step": number},
        {"type": "live", "seq": number},
    ):
        browser_sends(widget, intent)
        assert widget.notice["kind"] == "error" and widget.record is before
        assert len(widget.notice["text"]) < 300


# Saves from the page: a download to the learner's device, by a one-off message, never a synced trait.


@each_game
def test_save_from_the_page_is_a_download_that_loads_back_and_writes_nothing_on_the_server(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    widget = TABLES[game](folder=tmp_path)
    change_a_live_rule(widget)
    [message] = downloads(widget, {"type": "save"})
    assert message["type"] == "download" and message["name"].startswith(f"{game}-")
    assert message["name"].endswith(".json") and message["name"] in widget.notice["text"]
    assert not list(tmp_path.iterdir())
    other = TABLES[game]()
    browser_sends(other, {"type": "load", "text": message["text"]})
    assert other.notice["kind"] == "info" and other.record.actions == widget.record.actions
    assert other.record.seed == widget.record.seed


@each_game
def test_the_saved_text_reaches_the_page_only_on_save_and_never_in_a_synced_trait(game):
    widget = TABLES[game]()
    assert downloads(widget, {"type": "live"}) == [] and downloads(widget, {"type": "undo"}) == []
    [message] = downloads(widget, {"type": "save"})
    assert json.loads(message["text"])["seed"] == widget.record.seed
    synced = json.dumps(widget.get_state(), default=str)
    assert message["text"] not in synced and '"seed"' not in synced and '"actions"' not in synced


@each_game
def test_nothing_the_page_sends_names_a_path(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    widget = TABLES[game](folder=tmp_path)
    assert widget.INTENTS["save"] == {} and widget.INTENTS["load"] == {"text": str}
    for intent in (
        {"type": "save", "path": str(tmp_path / "mine.json")},
        {"type": "save", "folder": str(tmp_path / "sub")},
        {"type": "load", "path": str(tmp_path / "mine.json")},
    ):
        browser_sends(widget, intent)
        assert widget.notice["kind"] == "error"
    assert not list(tmp_path.iterdir())


@each_game
def test_save_from_the_notebook_refuses_an_existing_file_unless_asked(game, tmp_path):
    widget = TABLES[game]()
    path = tmp_path / "game.json"
    path.write_text("a teacher's notes", encoding="utf-8")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        widget.save(path)
    assert path.read_text(encoding="utf-8") == "a teacher's notes"
    assert widget.save(path, overwrite=True) == path
    assert json.loads(path.read_text(encoding="utf-8"))["game"] == game


def test_a_refusal_of_a_huge_intent_stays_short():
    widget = TABLES["colorfox"]()
    for intent in ({"type": "live", "x" * 5000: 1}, {"type": "y" * 5000}, {"type": "history", "step": "z" * 5000}):
        browser_sends(widget, intent)
        assert widget.notice["kind"] == "error" and len(widget.notice["text"]) < 300


# A rule editor follows the game it edits.


@each_game
def test_the_rule_editor_follows_a_loaded_game_and_an_undo(game):
    widget, other = TABLES[game](), TABLES[game]()
    editor = widget.rule_editor()
    seats = "teams" if game == "colourbrain" else "players"
    other.apply_rules(dataclasses.replace(other.state.rules, **{seats: 3}), {seats})
    widget.load_text(other.record.to_json())
    assert editor.rules == widget.state.rules and getattr(editor.rules, seats) == 3
    assert editor.controls[seats].value == 3
    change_a_live_rule(widget)
    assert editor.rules == widget.state.rules
    widget.undo()
    assert editor.rules == widget.state.rules == other.state.rules


def test_a_page_served_to_a_class_that_floods_a_widget_has_the_surplus_dropped_unread_and_is_told_once(monkeypatch):
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    widget = ColorFoxGame(bots=1, seed=1)
    handled = []
    monkeypatch.setattr(widget, "act", handled.append)
    now = [time.monotonic()]
    monkeypatch.setattr(base.time, "monotonic", lambda: now[0])  # the flood comes within one instant, however slow
    for _ in range(base.INTENT_BURST + 50):
        browser_sends(widget, {"type": "history", "step": 0})
    assert len(handled) == base.INTENT_BURST
    assert widget.notice["kind"] == "error" and "Too many clicks at once" in widget.notice["text"]
    told = widget.notice["seq"]
    browser_sends(widget, {"type": "history", "step": 0})
    assert widget.notice["seq"] == told and len(handled) == base.INTENT_BURST
    now[0] += 3 / base.INTENT_RATE  # the steady rate lets the page in again a little later
    browser_sends(widget, {"type": "history", "step": 0})
    assert len(handled) == base.INTENT_BURST + 1
