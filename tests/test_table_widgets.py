"""Game widgets at a shared table: two seats of one table in one process, each its own kernel's store.

Each learner's widget holds one Seat; its moves go through the table, and the other widget sees them only
after its page's "sync" intent. Refusals (out of turn, stale, closed, undo, loading, new game, rule changes,
Save) appear as notices and change nothing; no synced trait ever holds the seed, the token or a hand that
is not the seat's own.
"""

from __future__ import annotations

import dataclasses
import json
import time

import pytest
import sqlalchemy

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.colorform.solver import solve
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox.view import ColorFoxGame
from colorlab.colorium.view import ColoriumGame
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.rules import IllegalAction
from colorlab.tables import TableStore
from tests.helpers.page import browser_sends

SEED = 20_261_130_123_457  # large enough that no count or cell number in a view can look like it

WIDGETS = {
    "colorfox": ColorFoxGame,
    "colorium": ColoriumGame,
    "colourbrain": ColourbrainQuiz,
    "colorform": ColorFormGame,
}
RULES = {
    "colorfox": colorfox.Rules(players=2),
    "colorium": colorium.Rules(players=2),
    "colourbrain": colourbrain.Rules(teams=2),
    "colorform": colorform.Rules(variant="junior"),
}


@dataclasses.dataclass
class Table:
    """One table with two learners, Ada (seat 0) and Bo (seat 1), each in a kernel with its own store."""

    store: TableStore
    code: str
    ada: object
    bo: object

    def actions(self) -> list:
        return list(TableStore(self.store.where).record(self.code).actions)

    def widgets(self) -> list:
        return [self.ada, self.bo]


def sit_down(tmp_path, game: str, rules=None, seed: int = SEED, bots=None) -> Table:
    """Open a table and give seats 0 and 1 a widget each, as two learners' kernels would."""
    path = tmp_path / "class.db"
    store = TableStore(path)
    code = store.create(game, rules or RULES[game], seed=seed, bots=bots)
    ada = TableStore(path).join(code, seat=0, name="Ada")
    bo = TableStore(path).join(code, seat=1, name="Bo")
    return Table(store, code, WIDGETS[game](seat=ada), WIDGETS[game](seat=bo))


def a_move(widget) -> dict | None:
    """A legal intent for the widget's own seat now, read from its view (None: not its move)."""
    view, you = widget.view, widget.you
    game = view.get("game")
    if game == "colorfox":
        if view["legal"]:
            card, x, y, turned = view["legal"][0]
            return {"type": "place", "card": card, "x": x, "y": y, "turned": turned}
        if view["to_move"] == you and view["exchanges_left"]:
            return {"type": "done"}
        return {"type": "pass"} if view["to_move"] == you and not view["offer"] else None
    if game == "colorium":
        if view["my_pick"]:
            return {"type": "pick", "die": 0}
        if view["options"]:
            option = view["options"][0]
            spot = next(spots[0] for spots in option["spots"] if spots)
            return {
                "type": "draw",
                "shape": option["shape"],
                "colour": option["colours"][0],
                "cells": spot,
                "cuts": option["cuts"],
            }
        return None
    if game == "colourbrain":
        if view["at_keyboard"] == you:
            colours = ["red", "orange", "yellow", "green", "blue"][: view["question"]["count"]]
            return {"type": "answer", "team": you, "colours": colours, "copier": False}
        return None
    return {"type": "pass"} if view["active"] == you and not view["over"] else None


def mover_and_other(table: Table):
    """Which widget moves first, and which waits (Ada first when both may move, as Colourbrain's teams)?"""
    for widget, other in [(table.ada, table.bo), (table.bo, table.ada)]:
        if a_move(widget) is not None:
            return widget, other
    raise AssertionError("no seat may move")


def synced_text(widget) -> str:
    """Everything the page may read of a widget (every synced trait), as one text."""
    return json.dumps(widget.get_state(), default=str)


# --- two seats, two views ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", WIDGETS)
def test_two_widgets_at_one_table_show_each_seat_its_own_view(tmp_path, game):
    table = sit_down(tmp_path, game)
    for widget, mine, theirs in [(table.ada, 0, 1), (table.bo, 1, 0)]:
        names = widget.view["names"]
        assert names[mine] == "You" and names[theirs] == ["Ada", "Bo"][theirs]
        assert widget.view["seating"]["seat"] == mine and widget.view["seating"]["code"] == table.code
    if game == "colorfox":
        assert table.ada.view["hand"] != table.bo.view["hand"]
        assert table.ada.view["hand"] == colorfox.observation(table.ada.state, 0)["hand"]
        assert table.bo.view["hand"] == colorfox.observation(table.bo.state, 1)["hand"]
    if game == "colourbrain":
        assert table.ada.view["at_keyboard"] == 0 and table.bo.view["at_keyboard"] == 1
    if game in ("colorium", "colorform"):
        assert table.ada.view["you"] == 0 and table.bo.view["you"] == 1


@pytest.mark.parametrize("game", WIDGETS)
def test_a_move_in_one_widget_reaches_the_other_after_its_sync(tmp_path, game):
    table = sit_down(tmp_path, game)
    mover, other = mover_and_other(table)
    browser_sends(mover, a_move(mover))
    assert mover.notice.get("kind") != "error", mover.notice
    assert len(table.actions()) == 1 and mover.view["seating"]["step"] == 1
    assert other.view["seating"]["step"] == 0 and other.view["history"]["length"] == 0
    browser_sends(other, {"type": "sync"})
    assert other.view["seating"]["step"] == 1 and other.view["history"]["length"] == 1
    assert other.state == mover.state
    assert other.notice.get("kind") != "error", other.notice


@pytest.mark.parametrize("game", WIDGETS)
def test_a_sync_sends_a_new_view_only_when_the_table_changed(tmp_path, game):
    table = sit_down(tmp_path, game)
    mover, other = mover_and_other(table)
    views = []
    other.observe(lambda change: views.append(change["new"]), names="view")
    for _ in range(3):
        browser_sends(other, {"type": "sync"})
    assert views == []
    browser_sends(mover, a_move(mover))
    browser_sends(other, {"type": "sync"})
    browser_sends(other, {"type": "sync"})
    assert len(views) == 1 and views[0]["seating"]["step"] == 1


@pytest.mark.parametrize("game", list(WIDGETS))
def test_a_page_saying_it_is_open_is_noted_for_the_teacher_and_changes_nothing_else(tmp_path, game):
    table = sit_down(tmp_path, game)
    with table.store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE colorlab_seats SET seen = seen - 120")
    assert [seat["connected"] for seat in table.store.tables()[0]["seats"]] == [False, False]
    views, mark = [], table.store.table_row(table.code).changed
    table.ada.observe(lambda change: views.append(change["new"]), names=["view", "notice"])
    browser_sends(table.ada, {"type": "here"})
    assert [seat["connected"] for seat in table.store.tables()[0]["seats"]] == [True, False]
    assert views == [] and table.store.table_row(table.code).changed == mark
    browser_sends(table.ada, {"type": "here", "extra": "junk"})
    assert table.ada.notice["kind"] == "error" and table.actions() == []


def test_a_learner_sitting_down_reaches_the_pages_of_those_already_seated(tmp_path):
    store = TableStore(tmp_path / "class.db")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=SEED)
    ada = ColorFoxGame(seat=store.join(code, seat=0, name="Ada"))
    assert ada.view["seating"]["free_seats"] == 1 and ada.view["names"] == ["You", "free seat"]
    TableStore(tmp_path / "class.db").join(code, seat=1, name="Bo")
    browser_sends(ada, {"type": "sync"})
    assert ada.view["seating"]["free_seats"] == 0 and ada.view["names"] == ["You", "Bo"]


def test_the_tables_bots_move_by_themselves_and_are_named_in_the_view(tmp_path):
    store = TableStore(tmp_path / "class.db")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=SEED, bots={0: "GreedyBot"})
    bo = ColorFoxGame(seat=store.join(code, seat=1, name="Bo"))
    assert bo.view["names"] == ["GreedyBot", "You"] and not bo.view["bots_to_move"]
    assert bo.view["seating"]["step"] >= 1 and bo.view["to_move"] == 1  # the bot moved when Bo sat down
    assert any(text.startswith("GreedyBot") for text in bo.view["events"])


# --- refusals -----------------------------------------------------------------------------------------


def assert_refused(table: Table, widget, intent, words: str) -> None:
    """The intent is refused with a notice holding `words`, and neither the table nor the page changed."""
    before, shown = table.actions(), widget.view
    browser_sends(widget, intent)
    assert widget.notice["kind"] == "error" and words in widget.notice["text"], widget.notice
    assert table.actions() == before
    assert {key: value for key, value in widget.view.items() if key != "seating"} == {
        key: value for key, value in shown.items() if key != "seating"
    }


@pytest.mark.parametrize("game", WIDGETS)
def test_a_move_out_of_turn_is_refused_in_the_widget(tmp_path, game):
    table = sit_down(tmp_path, game)
    mover, other = mover_and_other(table)
    if game == "colourbrain":  # every team answers at once: out of turn is answering for another team
        assert_refused(table, other, a_move(mover), "your own team")
    else:
        assert a_move(other) is None
        assert_refused(table, other, {**a_move(mover)}, "")


OFF_AT_A_TABLE = [
    ({"type": "undo"}, "no undo at a table"),
    ({"type": "load", "text": "{}"}, "cannot be loaded"),
    ({"type": "new_game"}, "ask your teacher for a new table"),
    ({"type": "save"}, "Save is off"),
    ({"type": "bot"}, "move by themselves"),
]


@pytest.mark.parametrize("game", WIDGETS)
@pytest.mark.parametrize("intent, words", OFF_AT_A_TABLE, ids=[intent["type"] for intent, _ in OFF_AT_A_TABLE])
def test_undo_loading_new_games_save_and_the_widgets_own_bots_are_refused_at_a_table(tmp_path, game, intent, words):
    table = sit_down(tmp_path, game)
    mover, _ = mover_and_other(table)
    browser_sends(mover, a_move(mover))
    sent = []
    mover.send = lambda content, buffers=None: sent.append(content)
    if intent["type"] not in mover.INTENTS:
        words = "nknown intent"
    assert_refused(table, mover, intent, words)
    assert sent == []  # no download of the table's record, which holds the seed


@pytest.mark.parametrize("game", WIDGETS)
def test_the_notebook_cannot_undo_load_save_or_change_the_rules_of_a_table(tmp_path, game):
    table = sit_down(tmp_path, game)
    widget = table.ada
    record = TableStore(tmp_path / "class.db").record(table.code)
    for attempt in [widget.undo, lambda: widget.load_text(record.to_json()), lambda: widget.save(tmp_path / "x.json")]:
        with pytest.raises(IllegalAction):
            attempt()
    assert not (tmp_path / "x.json").exists()
    editor = widget.rule_editor()
    with pytest.raises(IllegalAction, match="fixed when it is opened"):
        widget.apply_rules(record.rules, {"players"})
    assert editor.rules == record.rules and table.actions() == []


def test_the_page_is_told_that_undo_and_loading_are_off_at_a_table(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    assert table.ada.view["practice"] == {"undo": False, "loading": False, "note": ""}


def test_a_move_chosen_before_another_seats_move_arrived_is_stale(tmp_path):
    table = sit_down(tmp_path, "colorform")  # junior: turn by turn, every step a new moment
    browser_sends(table.ada, {"type": "pass"})
    browser_sends(table.bo, {"type": "sync"})
    assert table.bo.view["active"] == 1
    assert_refused(table, table.bo, {"type": "pass", "seen": 0}, "moved on")
    browser_sends(table.bo, {"type": "pass", "seen": 1})
    assert table.bo.notice.get("kind") != "error" and len(table.actions()) == 2


def test_a_colorfox_move_from_a_page_that_had_not_seen_the_last_move_is_stale(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    mover, other = mover_and_other(table)
    while mover.view["to_move"] == mover.you:
        browser_sends(mover, a_move(mover))
    browser_sends(other, {"type": "sync"})
    seen = other.view["seating"]["step"]
    while other.view["to_move"] == other.you:
        browser_sends(other, a_move(other))
    browser_sends(mover, {"type": "sync"})
    assert mover.view["to_move"] == mover.you and mover.view["seating"]["step"] > seen
    assert_refused(table, mover, {**a_move(mover), "seen": seen}, "moved on")


def test_a_closed_table_is_shown_and_refuses_moves(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    mover, _ = mover_and_other(table)
    table.store.close(table.code)
    browser_sends(mover, {"type": "sync"})
    assert mover.view["seating"]["closed"]
    assert_refused(table, mover, a_move(mover), "closed")


def test_a_store_that_does_not_answer_is_a_notice_and_the_page_recovers(tmp_path, monkeypatch):
    table = sit_down(tmp_path, "colorfox")
    mover, other = mover_and_other(table)
    browser_sends(mover, a_move(mover))
    store = other.seat.store

    def unreachable(code):
        raise sqlalchemy.exc.OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(store, "look", unreachable)
    browser_sends(other, {"type": "sync"})
    assert other.notice["kind"] == "error" and "cannot be reached" in other.notice["text"]
    assert "Traceback" not in other.notice["text"] and other.view["seating"]["step"] == 0
    seq = other.notice["seq"]
    browser_sends(other, {"type": "sync"})
    assert other.notice["seq"] == seq  # said once, not four times a second
    monkeypatch.undo()
    browser_sends(other, {"type": "sync"})
    assert other.notice["text"] == "" and other.view["seating"]["step"] == 1


def test_a_sync_from_a_widget_played_alone_is_refused(tmp_path):
    widget = ColorFoxGame(bots=1, seed=1)
    browser_sends(widget, {"type": "sync"})
    assert widget.notice["kind"] == "error" and "not played at a table" in widget.notice["text"]


def test_a_seat_at_another_games_table_is_refused(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    with pytest.raises(ValueError, match="plays colorfox"):
        ColoriumGame(seat=table.ada.seat)


# --- hidden information --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", WIDGETS)
def test_no_synced_trait_holds_the_seed_or_the_token(tmp_path, game):
    table = sit_down(tmp_path, game)
    for _ in range(6):
        for widget in table.widgets():
            intent = a_move(widget)
            if intent is not None:
                browser_sends(widget, intent)
            browser_sends(widget, {"type": "sync"})
            text = synced_text(widget)
            assert str(SEED) not in text and widget.seat.token not in text
            assert table.ada.seat.token not in text and table.bo.seat.token not in text


def card_numbers(value) -> set[int]:
    """Every "number" field anywhere in a JSON value (the ColorFox cards the page can read)."""
    if isinstance(value, dict):
        found = {value["number"]} if isinstance(value.get("number"), int) else set()
        return found.union(*(card_numbers(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(card_numbers(item) for item in value))
    return set()


def test_no_colorfox_card_of_the_other_hand_reaches_the_page(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    for _ in range(8):
        for widget, other in [(table.ada, table.bo), (table.bo, table.ada)]:
            intent = a_move(widget)
            if intent is not None:
                browser_sends(widget, intent)
            browser_sends(widget, {"type": "sync"})
            hidden = {card.number for card in widget.state.hands[other.you]}
            assert hidden and not hidden & card_numbers(widget.get_state())


def test_twin_tables_that_differ_only_in_another_teams_locked_answer_look_the_same_to_a_team(tmp_path):
    pages = []
    for folder, answer in [("one", ["red"]), ("two", ["blue"])]:
        (tmp_path / folder).mkdir()
        table = sit_down(tmp_path / folder, "colourbrain", colourbrain.Rules(teams=2))
        count = table.bo.view["question"]["count"]
        colours = (answer + ["green", "yellow", "purple", "orange", "pink"])[:count]
        browser_sends(table.bo, {"type": "answer", "team": 1, "colours": colours, "copier": False})
        browser_sends(table.ada, {"type": "sync"})
        assert table.ada.view["answered"] == [False, True]
        state = table.ada.get_state()
        state["view"]["seating"].pop("code")
        state.pop("layout")  # the id of the widget's layout object
        pages.append(state)
    assert pages[0] == pages[1]


# --- Col-Or-Form's STOP at a table -------------------------------------------------------------------


def a_solution(widget) -> dict:
    state = widget.state
    for task in state.revealed_tasks():
        for found in solve(state.tops, state.hands[widget.you], task, state.rules)[:1]:
            return {
                "type": "claim",
                "task": task.number,
                "rotation": found.rotation,
                "mirrored": found.mirrored,
                "placements": [[cell, str(card)] for cell, card in sorted(found.placements.items())],
            }
    return None


def base_table_with_a_solution(tmp_path) -> Table:
    for seed in range(SEED, SEED + 40):
        folder = tmp_path / str(seed)
        folder.mkdir()
        table = sit_down(folder, "colorform", colorform.Rules(), seed=seed)
        if a_solution(table.ada) is not None:
            return table
    raise AssertionError("no deal gave Ada a solution")


def test_a_colorform_claim_is_a_call_the_others_see_and_the_table_settles(tmp_path):
    table = base_table_with_a_solution(tmp_path)
    ada, bo = table.ada, table.bo
    assert not ada.view["clock_running"] and not ada.view["waiting_for_start"]
    browser_sends(ada, a_solution(ada))
    assert ada.notice["kind"] == "info" and "call is in" in ada.notice["text"]
    assert table.actions() == [] and ada.view["seating"]["called"] == [0]
    browser_sends(bo, {"type": "sync"})
    assert bo.view["seating"]["called"] == [0] and bo.view["seating"]["step"] == 0
    assert "task" not in json.dumps(bo.view["seating"])  # who called, never what
    assert_refused(table, ada, a_solution(ada), "already called")
    time.sleep(ada.state.rules.stop_window + 0.2)
    browser_sends(bo, {"type": "sync"})
    assert len(table.actions()) == 1 and bo.view["seating"]["called"] == []
    assert "Ada" in bo.notice["text"] and "solved" in bo.notice["text"]
    browser_sends(ada, {"type": "sync"})
    assert ada.view["seating"]["step"] == 1 and ada.notice["text"].startswith("You")


@pytest.mark.parametrize(
    "intent, words",
    [
        ({"type": "start"}, "no Start"),
        ({"type": "skip"}, "nobody skips"),
        ({"type": "stop"}, "sends your solution at once"),
    ],
)
def test_colorform_has_no_start_skip_or_kernel_stop_at_a_table(tmp_path, intent, words):
    table = sit_down(tmp_path, "colorform", colorform.Rules())
    assert_refused(table, table.ada, intent, words)


def test_colorform_junior_at_a_table_goes_turn_by_turn(tmp_path):
    table = sit_down(tmp_path, "colorform")
    for turn in range(4):
        mover, other = mover_and_other(table)
        assert mover.view["active"] == mover.you == turn % 2
        browser_sends(mover, a_move(mover))
        browser_sends(other, {"type": "sync"})
        assert mover.notice.get("kind") != "error" and len(table.actions()) == turn + 1


# --- a watcher of a Colourbrain table --------------------------------------------------------------


def test_a_colourbrain_watcher_sees_the_room_and_answers_nothing(tmp_path):
    table = sit_down(tmp_path, "colourbrain")
    room = ColourbrainQuiz(seat=table.store.watch(table.code))
    assert room.view["names"] == ["Ada", "Bo"] and room.view["at_keyboard"] is None
    browser_sends(table.ada, a_move(table.ada))
    browser_sends(room, {"type": "sync"})
    assert room.view["answered"] == [True, False] and room.view["answers"] == [None, None]
    assert_refused(table, room, {"type": "answer", "team": 1, "colours": ["red"], "copier": False}, "own team")


def test_a_watcher_of_another_game_is_refused(tmp_path):
    table = sit_down(tmp_path, "colorfox")
    with pytest.raises(ValueError, match="join the table"):
        ColorFoxGame(seat=table.store.watch(table.code))
