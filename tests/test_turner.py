"""The task-card turner: presses from the page turn the card, Python keeps the truth, refusals are shown."""

import itertools
import random

import pytest
import traitlets

from colorlab import symmetry
from colorlab.colorform import task_card
from colorlab.colorform.components import turned
from colorlab.colorform.turner import TaskTurner, turn_words
from colorlab.rules import IllegalAction

SEQ = itertools.count(1)


def press(widget, intent):
    """Deliver a press the way the page does: a state update of `intent`, numbered so that repeats are changes."""
    if isinstance(intent, dict):
        intent = {"seq": next(SEQ), **intent}
    widget.set_state({"intent": intent})


def cycle_notation(permutation):
    """Write a sympy permutation in the widget's notation: its cycles, or () for the identity."""
    return "".join("(" + " ".join(map(str, cycle)) + ")" for cycle in permutation.cyclic_form) or "()"


def position(widget):
    return widget.rotation, widget.mirrored, widget.element


TURN = symmetry.quarter_turn(3)
MIRROR = symmetry.mirror(3)


def test_a_new_turner_shows_the_card_as_printed():
    widget = TaskTurner(12)
    assert position(widget) == (0, False, "()")
    assert widget.card == task_card(12) and widget.cells == task_card(12).cells
    assert widget.assets["card"]["number"] == 12 and len(widget.assets["card"]["cells"]) == 9
    assert set(widget.assets["destinations"]) == {"0,0", "1,0", "2,0", "3,0"} and not widget.assets["mirrors"]
    assert TaskTurner(task_card(3)).card.number == 3


@pytest.mark.parametrize("k", range(9))
def test_k_presses_of_the_clockwise_button_give_the_kth_power_of_sympys_quarter_turn(k):
    widget = TaskTurner(12)
    for _ in range(k):
        press(widget, {"type": "turn", "quarter_turns": 1})
    assert widget.rotation == k % 4 and widget.mirrored is False
    assert widget.element == cycle_notation(TURN**k)
    assert widget.cells == turned(task_card(12).cells, k)
    assert widget.notice.get("text", "") == ""


def test_the_anticlockwise_button_undoes_the_clockwise_one():
    widget = TaskTurner(7)
    press(widget, {"type": "turn", "quarter_turns": -1})
    assert widget.rotation == 3 and widget.element == cycle_notation(TURN**-1) == "(0 6 8 2)(1 3 7 5)"
    press(widget, {"type": "turn", "quarter_turns": 1})
    assert position(widget) == (0, False, "()")


def test_random_presses_with_mirrors_match_the_product_in_sympy():
    rng = random.Random(2024)
    widget = TaskTurner(20, mirrors=True)
    product = TURN**0
    for _ in range(200):
        if rng.random() < 0.3:
            press(widget, {"type": "mirror"})
            product = product * MIRROR  # sympy's p * q does p first, then q
        else:
            quarters = rng.choice([-3, -2, -1, 1, 2, 3])
            press(widget, {"type": "turn", "quarter_turns": quarters})
            product = product * TURN**quarters
        assert widget.element == cycle_notation(product)
        assert product == MIRROR ** int(widget.mirrored) * TURN**widget.rotation
        assert widget.cells == turned(task_card(20).cells, widget.rotation, widget.mirrored)


def test_reset_puts_the_card_back():
    widget = TaskTurner(5, mirrors=True)
    press(widget, {"type": "turn", "quarter_turns": 1})
    press(widget, {"type": "mirror"})
    assert position(widget) == (3, True, "(1 3)(2 6)(5 7)")
    assert turn_words(3, True).startswith("a mirror image in the diagonal from top left to bottom right")
    press(widget, {"type": "reset"})
    assert position(widget) == (0, False, "()")


def test_the_notebook_turns_and_mirrors_with_methods():
    widget = TaskTurner(12, mirrors=True)
    widget.turn()
    widget.turn(2)
    assert widget.rotation == 3 and widget.element == cycle_notation(TURN**3)
    widget.mirror()
    assert (widget.rotation, widget.mirrored) == (1, True)
    assert widget.element == cycle_notation(TURN**3 * MIRROR)
    with pytest.raises(IllegalAction):
        TaskTurner(12).mirror()
    with pytest.raises(ValueError):
        widget.turn(True)
    with pytest.raises(ValueError):
        widget.turn(1.5)


@pytest.mark.parametrize(
    "name, value", [("rotation", 4), ("rotation", -1), ("rotation", True), ("mirrored", True), ("palette", "neon")]
)
def test_python_refuses_impossible_positions_too(name, value):
    widget = TaskTurner(12)
    with pytest.raises(traitlets.TraitError):
        setattr(widget, name, value)
    assert position(widget) == (0, False, "()") and widget.palette == "default"


BAD_PRESSES = [
    ({"type": "turn", "quarter_turns": 7}, False),
    ({"type": "turn", "quarter_turns": -4}, False),
    ({"type": "turn", "quarter_turns": "1"}, False),
    ({"type": "turn", "quarter_turns": 1.0}, False),
    ({"type": "turn", "quarter_turns": True}, False),
    ({"type": "turn"}, False),
    ({"type": "turn", "quarter_turns": 1, "rotation": 2}, False),
    ({"type": "mirror", "extra": 1}, True),
    ({"type": "mirror"}, False),
    ({"type": "spin"}, False),
    ({"quarter_turns": 1}, False),
    ([1, 2, 3], False),
    ("turn", False),
    (5, False),
    ({"type": "turn", "quarter_turns": 1, "seq": "x"}, False),
    ({"type": "reset", "pad": "x" * 300_000}, False),
]


@pytest.mark.parametrize("intent, mirrors", BAD_PRESSES, ids=range(len(BAD_PRESSES)))
def test_a_bad_press_is_refused_in_the_widget_and_changes_nothing(intent, mirrors):
    widget = TaskTurner(12, mirrors=mirrors)
    widget.turn()
    before = position(widget)
    press(widget, intent)
    assert widget.notice["kind"] == "error" and widget.notice["text"]
    assert position(widget) == before


@pytest.mark.parametrize(
    "update",
    [
        {"rotation": 7},
        {"rotation": "1"},
        {"rotation": True},
        {"rotation": 2},
        {"mirrored": True},
        {"element": "(0 1)"},
        {"assets": {}},
        {"notice": {"text": "hello"}},
        {"secret": 1},
        {"palette": "neon"},
        {"rotation": 2, "palette": "colour-blind-safe"},
    ],
)
def test_the_page_may_only_press_buttons_and_pick_a_known_palette(update):
    widget = TaskTurner(12)
    widget.turn()
    before, assets = position(widget), widget.assets
    widget.set_state(update)
    assert widget.notice["kind"] == "error" and "may not" in widget.notice["text"]
    assert position(widget) == before and widget.assets == assets
    assert widget.palette == ("colour-blind-safe" if update.get("palette") == "colour-blind-safe" else "default")


def test_the_palette_may_change_and_an_error_notice_clears_on_a_good_press():
    widget = TaskTurner(12)
    widget.set_state({"palette": "colour-blind-safe"})
    assert widget.palette == "colour-blind-safe" and not widget.notice
    press(widget, {"type": "mirror"})
    assert widget.notice["kind"] == "error"
    press(widget, {"type": "turn", "quarter_turns": 2})
    assert widget.notice["text"] == "" and widget.rotation == 2


def test_the_same_press_twice_turns_the_card_twice():
    widget = TaskTurner(12)
    widget.set_state({"intent": {"type": "turn", "quarter_turns": 1, "seq": 1}})
    assert widget.rotation == 1
    widget.set_state({"intent": {"type": "turn", "quarter_turns": 1, "seq": 2}})
    assert widget.rotation == 2


def test_words_name_every_position_of_d4_once():
    words = {turn_words(k, m) for k in range(4) for m in (False, True)}
    assert len(words) == 8
    assert turn_words(0, True) == "a mirror image in the upright middle line (mirror left to right)"
    widget = TaskTurner(12, mirrors=True)
    assert set(widget.assets["words"].values()) == words


def test_the_page_sees_only_the_card_and_fixed_drawing_data():
    widget = TaskTurner(12)
    state = widget.get_state()
    synced = {
        name for name in state if not name.startswith("_") and name not in {"layout", "tabbable", "tooltip", "comm_id"}
    }
    assert synced == {"rotation", "mirrored", "element", "notice", "palette", "intent", "assets"}


def test_without_a_browser_the_turner_still_says_where_the_card_lies():
    widget = TaskTurner(12)
    widget.turn(2)
    assert (
        repr(widget)
        == "TaskTurner(task card 12, mirrors=False: rotation=2, mirrored=False, element='(0 8)(1 7)(2 6)(3 5)')"
    )
