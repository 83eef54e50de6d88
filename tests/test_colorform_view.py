"""The Col-Or-Form widget from Python: intents in, the visible state out, refusals shown."""

import dataclasses
import itertools
import json
import random
import re

import pytest

from colorlab.colorform import ChangeRules, Rules, Stop, agents, figure, observation, play_game, solve, why_not
from colorlab.colorform.view import (
    LAPSE_GRACE,
    NO_TASK_FOR_YOU,
    ONLY_YOUR_CARDS,
    PRESS_START,
    ColorFormGame,
    turn_cycles,
)
from colorlab.record import GameRecord
from tests.helpers.page import browser_sends, downloads


def game(**kwargs):
    return ColorFormGame(bots=2, seed=987_654_321, bots_wait=True, **kwargs)


def solvable_claim(widget):
    state = widget.state
    for task in state.revealed_tasks():
        found = solve(state.tops, state.hands[0], task, state.rules)
        if found:
            best = found[0]
            return {
                "type": "claim",
                "task": task.number,
                "rotation": best.rotation,
                "mirrored": False,
                "placements": [[c, str(f)] for c, f in best.placements.items()],
            }
    pytest.skip("no solvable task for seat 0 in this deal")


def test_a_correct_claim_by_clicking_scores():
    widget = game()
    intent = solvable_claim(widget)
    browser_sends(widget, intent)
    task = next(c for c, _ in widget.state.won[0])
    assert widget.view["scores"][0] == task.size > 0
    assert widget.notice["kind"] == "info" and "solved" in widget.notice["text"]


def test_a_wrong_claim_costs_points_and_says_why():
    widget = game()
    state = widget.state
    wrong = next(
        (t, k)
        for t in state.revealed_tasks()
        for k in range(4)
        if not any(s.rotation == k and not s.placements for s in solve(state.tops, [], t, state.rules))
    )
    task, rotation = wrong
    browser_sends(
        widget, {"type": "claim", "task": task.number, "rotation": rotation, "mirrored": False, "placements": []}
    )
    assert widget.view["scores"][0] == -task.size
    assert widget.notice["kind"] == "error" and "does not fit" in widget.notice["text"]


MALFORMED = [
    [1, 2, 3],
    "claim",
    {"type": "fly"},
    {"type": "claim"},
    {"type": "hint", "extra": 1},
    {"type": "claim", "task": "5", "rotation": 0, "mirrored": False, "placements": []},
    {"type": "claim", "task": 5, "rotation": True, "mirrored": False, "placements": []},
    {"type": "claim", "task": 5, "rotation": 0, "mirrored": False, "placements": [["0", "red star"]]},
    {"type": "claim", "task": 5, "rotation": 0, "mirrored": False, "placements": [[0, "pink star"]]},
    {"type": "claim", "task": 99, "rotation": 0, "mirrored": False, "placements": []},
    {"type": "claim", "task": 5, "rotation": 0, "mirrored": False, "placements": [[0, "red star"]] * 50_000},
    {"type": "history", "step": 10**9},
    {"type": "load", "text": "{not json"},
    {"type": "load", "text": json.dumps({"format": "colorlab-record"})},
    {"type": "tick", "time": 99.0},
    {"type": "claim", "task": 5, "rotation": 0, "mirrored": False, "placements": [], "stop_time": 0.0},
    {"type": "claim", "task": 5, "rotation": 0, "mirrored": False, "placements": [], "seconds_shown": 0.0},
]


@pytest.mark.parametrize("intent", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_or_illegal_intents_are_refused_in_the_widget_and_change_nothing(intent):
    widget = game()
    before, view_before = widget.record, dict(widget.view)
    browser_sends(widget, intent)
    assert widget.notice["kind"] == "error"
    assert widget.record == before
    assert widget.view["scores"] == view_before["scores"] and widget.view["layout"] == view_before["layout"]


def test_the_page_cannot_overwrite_the_view_or_pick_an_unknown_palette():
    widget = game()
    true_view = widget.view
    widget.set_state({"view": {"scores": [99, 0, 0]}})
    assert widget.view == true_view and widget.notice["kind"] == "error"
    widget.set_state({"palette": "colour-blind-safe"})
    assert widget.palette == "colour-blind-safe"
    widget.set_state({"palette": "neon"})
    assert widget.palette == "colour-blind-safe" and widget.notice["kind"] == "error"


def test_the_view_hides_what_seat_zero_may_not_see():
    widget = game()
    text = json.dumps(widget.view)
    assert str(widget.record.seed) not in text
    state = widget.state
    shuffled = dataclasses.replace(
        state,
        seed=state.seed + 1,
        figure_pile=tuple(random.Random(1).sample(state.figure_pile, len(state.figure_pile))),
        task_pile=tuple(random.Random(2).sample(state.task_pile, len(state.task_pile))),
    )
    assert observation(shuffled, 0) == observation(state, 0)


def test_skip_lets_the_bots_move_and_undo_takes_back_only_my_moves():
    widget = game()
    browser_sends(widget, {"type": "skip"})
    assert len(widget.record.actions) == 1
    browser_sends(widget, solvable_claim(widget))
    assert len(widget.record.actions) == 2
    browser_sends(widget, {"type": "undo"})
    assert len(widget.record.actions) == 1


def only_my_cards_solve(state):
    """Can some revealed task be solved with seat 0's hand, and none with a bot's hand? (Public facts.)"""

    def can(seat):
        return any(solve(state.tops, state.hands[seat], task, state.rules) for task in state.revealed_tasks())

    return can(0) and not any(can(seat) for seat in range(1, state.players))


def skipped_until_only_my_cards_solve():
    """A calm table with one bot, skipped ahead until only seat 0's cards can solve a revealed task."""
    widget = ColorFormGame(bots=1, seed=20_261_129, bots_wait=True)
    for _ in range(40):
        if only_my_cards_solve(widget.state):
            return widget
        browser_sends(widget, {"type": "skip"})
        assert widget.notice.get("kind") != "error", widget.notice
    raise AssertionError("the bots could always solve something in this game")


def test_skip_never_ends_a_round_that_only_your_cards_can_solve():
    widget = skipped_until_only_my_cards_solve()
    before, phase = widget.record, widget.view["phase"]
    browser_sends(widget, {"type": "skip"})
    assert widget.record == before and widget.view["phase"] == phase
    assert widget.notice == {"text": ONLY_YOUR_CARDS, "kind": "error", "seq": widget.notice["seq"]}
    assert widget.view["only_you_can_solve"]
    browser_sends(widget, solvable_claim(widget))
    assert widget.record.actions[-1].claims[0].player == 0


def test_skip_ahead_is_offered_exactly_when_a_bot_can_solve_a_task():
    widget = ColorFormGame(bots=1, seed=20_261_129, bots_wait=True)
    for _ in range(12):
        if widget.state.over:
            break
        assert widget.view["only_you_can_solve"] == only_my_cards_solve(widget.state)
        browser_sends(widget, {"type": "skip"} if not widget.view["only_you_can_solve"] else solvable_claim(widget))


def test_skip_in_a_finished_game_is_refused_cleanly():
    widget = game()
    browser_sends(widget, {"type": "load", "text": play_game(Rules(players=3), seed=1).to_json()})
    assert widget.state.over
    browser_sends(widget, {"type": "skip"})
    assert widget.notice["kind"] == "error" and widget.notice["text"].startswith("The game is over")


def test_an_old_save_that_gives_up_on_a_round_is_refused_in_the_widget():
    widget = game()
    saved = json.loads(widget.record.to_json())
    saved["actions"].append({"type": "give up"})
    before = widget.record
    browser_sends(widget, {"type": "load", "text": json.dumps(saved)})
    assert widget.record == before and widget.notice["kind"] == "error"
    assert "action 0 is malformed: it gives up on a round" in widget.notice["text"].lower()


def test_history_steps_back_and_forward_and_blocks_play_while_looking_back():
    widget = game()
    browser_sends(widget, {"type": "skip"})
    browser_sends(widget, {"type": "skip"})
    browser_sends(widget, {"type": "history", "step": 0})
    assert {key: widget.view["history"][key] for key in ("step", "length", "live")} == {
        "step": 0,
        "length": 2,
        "live": False,
    }
    assert widget.view["scores"] == [0, 0, 0]
    browser_sends(widget, {"type": "skip"})
    assert widget.notice["kind"] == "error" and len(widget.record.actions) == 2
    browser_sends(widget, {"type": "live"})
    assert widget.view["history"]["live"]


def test_save_and_load_round_trip(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    widget = game()
    browser_sends(widget, {"type": "skip"})
    [saved] = downloads(widget, {"type": "save"})
    assert "Saved" in widget.notice["text"]
    other = game()
    browser_sends(other, {"type": "load", "text": saved["text"]})
    assert other.record == widget.record and other.view["layout"] == widget.view["layout"]
    corrupt = saved["text"].replace('"actions"', '"actions", "actions"', 1)
    browser_sends(other, {"type": "load", "text": corrupt})
    assert other.notice["kind"] == "error" and other.record == widget.record


def test_junior_mode_plays_the_bots_turns():
    widget = ColorFormGame(Rules.junior(players=3), seed=2)
    assert widget.view["active"] == 0
    browser_sends(widget, {"type": "pass"})
    assert widget.view["active"] == 0 or widget.view["over"]
    assert len(widget.record.actions) >= 3


def test_hint_names_a_solution_with_reasons():
    widget = game()
    state = widget.state
    solvable_now = any(solve(state.tops, state.hands[0], t, state.rules) for t in state.revealed_tasks())
    browser_sends(widget, {"type": "hint"})
    hint = widget.view["hint"]
    if solvable_now:
        assert hint["reasons"] and hint["task"] in [t["number"] for t in widget.view["tasks"]]
        task = next(t for t in state.revealed_tasks() if t.number == hint["task"])
        placements = {cell: figure(name) for cell, name in hint["placements"]}
        assert why_not(state.tops, task, hint["rotation"], placements) == []
    else:
        assert hint is None and "No revealed task" in widget.notice["text"]


def test_live_rules_change_the_running_game_and_others_start_a_new_one():
    widget = game()
    said = widget.apply_rules(dataclasses.replace(widget.state.rules, rotations=False), {"rotations"})
    assert said == "Applied to the running game."
    assert isinstance(widget.record.actions[-1], ChangeRules) and not widget.state.rules.rotations
    seed = widget.record.seed
    said = widget.apply_rules(dataclasses.replace(widget.state.rules, players=4), {"players"})
    assert "new game" in said and widget.record.seed != seed and len(widget.view["names"]) == 4
    again = GameRecord.from_json(widget.record.to_json())
    assert again.final_state() == widget.state


def test_the_turn_is_shown_as_a_group_element():
    assert turn_cycles(0, False) == "()"
    assert turn_cycles(1, False) == "(0 2 8 6)(1 5 7 3)"
    assert turn_cycles(0, True) == "(0 2)(3 5)(6 8)"


def test_a_still_picture_is_offered_without_a_kernel():
    bundle = game()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "<svg" in data["text/html"] and "Layout" in data["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in data


@pytest.mark.processes
def test_an_exported_lesson_shows_the_table_without_a_kernel(tmp_path):
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "from colorlab.colorform.view import ColorFormGame\nColorFormGame(bots=1, seed=4, bots_wait=True)"
            )
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    nbclient.NotebookClient(notebook, timeout=60, resources={"metadata": {"path": str(tmp_path)}}).execute()
    notebook.metadata.pop("widgets", None)  # as when the widget state was not saved
    html, _ = HTMLExporter().from_notebook_node(notebook)
    assert "colorlab-still" in html and "<svg" in html and "Your hand" in html


# --- The kernel's clock decides ---------------------------------------------------------------


class FakeClock:
    """A kernel clock that a test moves by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def timed(seed=5, **kwargs):
    """A table whose bots call STOP in real time, on a clock the test moves, its round started; and that clock."""
    clock = FakeClock()
    widget = ColorFormGame(bots=2, seed=seed, clock=clock, **kwargs)
    if not widget.bots_wait:
        browser_sends(widget, {"type": "start"})
    return widget, clock


def first_bot_moment(widget):
    return min(call.time for call in widget.plans.values())


def test_bots_call_stop_when_the_kernels_clock_says_their_moment_has_come():
    widget, clock = timed()
    window, started = widget.state.rules.stop_window, widget.view["phase"]
    clock.advance(first_bot_moment(widget) + window - 0.01)
    browser_sends(widget, {"type": "tick"})
    assert widget.record.actions == ()
    clock.advance(0.02)
    browser_sends(widget, {"type": "tick"})
    assert len(widget.record.actions) == 1 and isinstance(widget.record.actions[0], Stop)
    assert all(claim.player != 0 for claim in widget.record.actions[0].claims)
    assert widget.view["phase"] == started + 1


def test_a_stop_is_timed_by_the_kernel_and_the_solution_shown_after_it():
    widget, clock = timed()
    intent = solvable_claim(widget)
    clock.advance(0.3)
    browser_sends(widget, {"type": "stop"})
    assert widget.view["stopped"] and "Show your solution" in widget.notice["text"]
    clock.advance(2.5)
    browser_sends(widget, intent)
    mine = next(claim for claim in widget.record.actions[-1].claims if claim.player == 0)
    assert (mine.time, mine.seconds_shown) == (0.3, 2.5)
    assert widget.view["scores"][0] > 0 and not widget.view["stopped"]


def test_a_stop_in_the_same_moment_as_a_bot_is_resolved_with_it_and_a_later_one_is_too_late():
    widget, clock = timed()
    window = widget.state.rules.stop_window
    bot = min(widget.plans, key=lambda seat: widget.plans[seat].time)
    intent = solvable_claim(widget)
    clock.advance(first_bot_moment(widget) + window / 2)
    browser_sends(widget, {"type": "stop"})
    browser_sends(widget, intent)
    assert {0, bot} <= {claim.player for claim in widget.record.actions[-1].claims}
    late, clock = timed()
    clock.advance(first_bot_moment(late) + window + 0.1)
    browser_sends(late, {"type": "stop"})
    assert "Too late" in late.notice["text"] and not late.view["stopped"]
    assert all(claim.player != 0 for claim in late.record.actions[-1].claims)


def test_an_illegal_claim_never_triggers_the_bots_stop():
    widget, clock = timed()
    started = widget.view["phase"]
    clock.advance(first_bot_moment(widget) + 30.0)
    shown = {task["number"] for task in widget.view["tasks"]}
    hidden = next(number for number in range(1, 31) if number not in shown)
    browser_sends(widget, {"type": "claim", "task": hidden, "rotation": 0, "mirrored": False, "placements": []})
    assert widget.notice["kind"] == "error" and f"task card {hidden}" in widget.notice["text"].lower()
    assert widget.record.actions == () and widget.view["phase"] == started
    task = widget.view["tasks"][0]
    white = next(cell for cell, name in enumerate(task["cells"]) if name is None)
    card = widget.view["hands"][0][0]
    browser_sends(
        widget,
        {"type": "claim", "task": task["number"], "rotation": 0, "mirrored": False, "placements": [[white, card]]},
    )
    assert widget.notice["kind"] == "error" and "white" in widget.notice["text"]
    assert widget.record.actions == ()


def test_a_stop_with_no_solution_shown_runs_out_of_time():
    widget, clock = timed()
    browser_sends(widget, {"type": "stop"})
    clock.advance(widget.state.rules.seconds_to_show + LAPSE_GRACE + 0.1)
    browser_sends(widget, {"type": "tick"})
    assert not widget.view["stopped"] and "ran out of time" in widget.notice["text"]


def test_a_calm_table_never_lets_the_clock_decide():
    widget, clock = timed(bots_wait=True)
    intent = solvable_claim(widget)
    clock.advance(3600.0)
    browser_sends(widget, {"type": "tick"})
    assert widget.record.actions == () and not widget.view["clock_running"]
    browser_sends(widget, intent)
    mine = next(claim for claim in widget.record.actions[-1].claims if claim.player == 0)
    assert mine.time == 0.0


def synced_state(widget):
    """Everything the page receives, but the id of the widget's own Layout model."""
    return {name: value for name, value in widget.get_state().items() if name != "layout"}


def test_twin_tables_that_differ_only_in_the_bots_plans_send_the_page_the_same():
    first, first_clock = timed()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agents, "reaction_seconds", lambda *args: 33.0)
        second, second_clock = timed()
    assert first.plans != second.plans
    assert synced_state(first) == synced_state(second)
    for table, clock in ((first, first_clock), (second, second_clock)):
        clock.advance(0.2)
        browser_sends(table, {"type": "tick"})
        browser_sends(table, {"type": "stop"})
    assert synced_state(first) == synced_state(second)


def numbers_and_keys(value):
    """Every number and every key inside a plain JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from numbers_and_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from numbers_and_keys(item)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


def test_the_view_holds_no_bot_plan_nor_its_time():
    widget, _ = timed()
    found = list(numbers_and_keys(widget.view))
    keys = [item for item in found if isinstance(item, str)]
    assert not [key for key in keys if "plan" in key or "bot_time" in key or "next_bot" in key]
    assert not {call.time for call in widget.plans.values()} & {n for n in found if not isinstance(n, str)}


# --- Every rule change and every loaded game ----------------------------------------------


def sized_for(view, players):
    """Does every per-player part of the view have one entry per player?"""
    return len(view["names"]) == len(view["hands"]) == len(view["piles"]) == len(view["scores"]) == players and all(
        task["owner"] < players for task in view["tasks"]
    )


def test_the_widget_follows_every_rule_change_and_every_loaded_game():
    widget, clock = timed()
    editor = widget.rule_editor()
    for players in (5, 2, 4):
        editor.controls["players"].value = players
        assert sized_for(widget.view, players) and len(widget.bots) == players - 1, editor.message
        clock.advance(60.0)
        browser_sends(widget, {"type": "tick"})
        assert widget.notice.get("kind") != "error" and sized_for(widget.view, players)
    editor.controls["variant"].value = "junior"
    assert widget.view["variant"] == "junior" and sized_for(widget.view, 4)
    browser_sends(widget, {"type": "pass"})
    assert sized_for(widget.view, 4)
    editor.controls["variant"].value = "base"
    assert widget.view["variant"] == "base" and sized_for(widget.view, 4)
    browser_sends(widget, {"type": "stop"})
    for saved in (
        ColorFormGame(Rules(players=3), seed=1, bots_wait=True),
        ColorFormGame(Rules.junior(players=6, tasks_per_player=2), seed=2),
        ColorFormGame(Rules(players=2), seed=3, bots_wait=True),
    ):
        browser_sends(saved, {"type": "skip"} if not saved.state.junior else {"type": "pass"})
        browser_sends(widget, {"type": "load", "text": saved.record.to_json()})
        players = saved.state.rules.players
        assert widget.notice["kind"] == "info" and sized_for(widget.view, players), widget.notice
        assert widget.view["variant"] == saved.state.rules.variant and not widget.view["stopped"]
        assert editor.rules == widget.state.rules
        clock.advance(60.0)
        browser_sends(widget, {"type": "tick"})
        browser_sends(widget, {"type": "hint"})
        assert sized_for(widget.view, players)
    browser_sends(widget, {"type": "history", "step": 0})
    assert sized_for(widget.view, 2)
    editor.controls["hand_size"].value = 3
    assert widget.state.rules == Rules(players=2, hand_size=3) and sized_for(widget.view, 2)


# --- What a learner met at the table (issue 11) ---------------------------------------------


def unstarted(seed=5):
    """A table on the kernel's clock whose first round has not been started; and that clock."""
    clock = FakeClock()
    return ColorFormGame(bots=2, seed=seed, clock=clock), clock


def test_the_bots_wait_for_start_and_every_new_round_waits_for_it_again():
    widget, clock = unstarted()
    assert widget.view["waiting_for_start"] and not widget.view["clock_running"]
    clock.advance(3600.0)
    browser_sends(widget, {"type": "tick"})
    for refused in ({"type": "stop"}, {"type": "skip"}, solvable_claim(widget)):
        browser_sends(widget, refused)
        assert widget.notice == {"text": PRESS_START, "kind": "error", "seq": widget.notice["seq"]}
    assert widget.record.actions == ()
    browser_sends(widget, {"type": "start"})
    assert not widget.view["waiting_for_start"] and widget.view["clock_running"]
    clock.advance(first_bot_moment(widget) + widget.state.rules.stop_window + 0.01)
    browser_sends(widget, {"type": "tick"})
    assert len(widget.record.actions) == 1
    for _ in range(20):
        if widget.state.round > 1:
            break
        browser_sends(widget, {"type": "skip"} if not widget.view["only_you_can_solve"] else solvable_claim(widget))
    assert widget.view["waiting_for_start"] and "Press Start" in widget.notice["text"]
    actions = widget.record.actions
    clock.advance(3600.0)
    browser_sends(widget, {"type": "tick"})
    assert widget.record.actions == actions
    browser_sends(widget, {"type": "start"})
    assert widget.view["clock_running"] and "Round 2 has started" in widget.notice["text"]


def test_a_calm_table_has_no_start_and_plays_at_once():
    widget = game()
    assert not widget.view["waiting_for_start"]
    browser_sends(widget, {"type": "start"})
    assert widget.notice["kind"] == "error" and "no clock" in widget.notice["text"]
    browser_sends(widget, solvable_claim(widget))
    assert widget.view["scores"][0] > 0


def test_the_timed_table_never_just_waits():
    """Started, it always has a bot about to call, or says the round waits for you, or is over."""
    widget, clock = unstarted(seed=11)
    for _ in range(500):
        view = widget.view
        if view["over"]:
            return
        before = (widget.record.actions, view["phase"])
        if view["waiting_for_start"]:
            browser_sends(widget, {"type": "start"})
        elif view["only_you_can_solve"]:
            browser_sends(widget, solvable_claim(widget))
        else:
            assert widget.plans, "the clock runs, but no bot will ever call STOP"
            clock.advance(first_bot_moment(widget) + widget.state.rules.stop_window + 0.01)
            browser_sends(widget, {"type": "tick"})
        assert widget.notice.get("kind") != "error" or "wrong" in widget.notice["text"], widget.notice
        assert (widget.record.actions, widget.view["phase"]) != before
    raise AssertionError("the game did not end")


def test_the_final_ranking_says_each_place_once():
    widget = game()
    browser_sends(widget, {"type": "load", "text": play_game(Rules(players=3), seed=4).to_json()})
    view = widget.view
    assert view["over"]
    lines = view["final_ranking"]
    assert len(lines) == 3
    for line, (place, seat) in zip(lines, view["ranking"]):
        found = re.fullmatch(r"(\d+)\. (.+): (-?\d+) points?", line)
        assert found, line
        assert (int(found[1]), found[2], int(found[3])) == (place, view["names"][seat], view["scores"][seat])


def test_junior_tasks_left_count_the_card_turned_up_at_every_step_of_history():
    widget = ColorFormGame(Rules.junior(players=3), seed=2)
    for _ in range(3):
        browser_sends(widget, {"type": "pass"})
    steps = widget.view["history"]["length"]
    counts = []
    for step in range(steps + 1):
        browser_sends(widget, {"type": "history", "step": step})
        counts.append([pile["tasks_left"] for pile in widget.view["piles"]])
    assert counts[0] == [4, 4, 4]
    successive = itertools.pairwise(counts)
    assert all(now <= then for earlier, later in successive for then, now in zip(earlier, later)), counts


CYCLES = re.compile(r"\(\d( \d)+\)")
JARGON = ("seat", "identity", " = ", "quarter turn(s)", "clockwise", "player 0", "Player 1")


def words_shown(widget):
    """Every text the table shows the learner: events, the notice, the hint, the ways a task is turned."""
    view = widget.view
    texts = list(view["events"]) + [widget.notice.get("text", "")] + list(widget.assets["turns"].values())
    if view["hint"]:
        texts += [view["hint"]["turn"], *view["hint"]["reasons"]]
    return texts


def test_the_table_speaks_plain_words():
    shown = []
    widget = game()
    task, on_the_layout = widget.view["tasks"][0]["number"], widget.view["layout"][0]["top"]
    browser_sends(
        widget, {"type": "claim", "task": task, "rotation": 0, "mirrored": False, "placements": [[0, on_the_layout]]}
    )
    assert widget.notice["text"] == f"You do not hold {on_the_layout}"
    widget.apply_rules(dataclasses.replace(widget.state.rules, rotations=False), {"rotations"})
    assert 'Rules changed: "Turn task cards" is now off.' in widget.view["events"]
    shown += words_shown(widget)
    for _ in range(4):
        browser_sends(widget, {"type": "hint"})
        shown += words_shown(widget)
        browser_sends(widget, {"type": "skip"} if not widget.view["only_you_can_solve"] else solvable_claim(widget))
        shown += words_shown(widget)
    junior = ColorFormGame(Rules.junior(players=3, mirror_images=True), seed=2)
    shown += words_shown(junior)
    browser_sends(junior, {"type": "hint"})
    browser_sends(junior, {"type": "pass"})
    shown += words_shown(junior)
    assert "Turned a quarter to the right" in shown and "Not turned" in shown
    assert [text for text in shown if CYCLES.search(text) or any(word in text for word in JARGON)] == []


def test_a_hint_that_nothing_can_be_solved_goes_when_the_table_changes():
    widget = ColorFormGame(Rules(players=3, matching="shape and colour"), seed=2, bots_wait=True)
    state = widget.state
    assert not any(solve(state.tops, state.hands[0], task, state.rules) for task in state.revealed_tasks())
    browser_sends(widget, {"type": "hint"})
    assert widget.notice["text"] == NO_TASK_FOR_YOU
    browser_sends(widget, {"type": "skip"})
    assert widget.notice["text"] != NO_TASK_FOR_YOU
    junior = ColorFormGame(Rules.junior(players=2), seed=2)
    browser_sends(junior, {"type": "hint"})
    hinted = junior.view["hint"] or junior.notice["text"] == NO_TASK_FOR_YOU
    browser_sends(junior, {"type": "pass"})
    assert hinted and junior.view["hint"] is None and junior.notice["text"] != NO_TASK_FOR_YOU
