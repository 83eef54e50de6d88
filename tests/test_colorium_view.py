"""The Colorium widget from Python: draft and draw by intents, refusals shown, only legal places offered."""

import itertools

import pytest

from colorlab.colorium.agents import GreedyBot
from colorlab.colorium.shapes import placements
from colorlab.colorium.view import ColoriumGame

SEQ = itertools.count(1)


def browser_sends(widget, intent):
    """Deliver a message the way the page does: a numbered update of the intent trait."""
    if isinstance(intent, dict):
        intent = {**intent, "seq": next(SEQ)}
    widget.set_state({"intent": intent})


def to_my_drawing(widget):
    """Draft (as a greedy player would) until seat 0 has to draw."""
    me = GreedyBot(seed=1)
    while widget.state.phase == "draft":
        if widget.view["my_pick"]:
            browser_sends(widget, {"type": "pick", "die": me.act(widget.state, 0).die})
        else:
            browser_sends(widget, {"type": "bot"})
    return widget.view


def test_the_draft_by_clicking_gives_one_die_of_each_kind():
    widget = ColoriumGame(bots=1, seed=3)
    view = to_my_drawing(widget)
    shape, colour = view["picks"][0]
    assert shape in "IOTLSV" and colour in "RYGBPO"


def test_only_legal_resting_places_are_offered_and_one_draws():
    widget = ColoriumGame(bots=1, seed=3)
    view = to_my_drawing(widget)
    option = view["options"][0]
    legal = {frozenset(p.cells) for p in placements(widget.state.boards[0], option["shape"], widget.state.rules)}
    offered = {frozenset(map(tuple, spot)) for spots in option["spots"] for spot in spots}
    assert offered == legal
    spot = next(spot for spots in option["spots"] for spot in spots)
    browser_sends(widget, {"type": "draw", "shape": option["shape"], "colour": option["colours"][0],
                           "cells": spot, "cut": False})
    assert widget.notice["kind"] == "info"
    assert all(widget.state.boards[0].colour(r, c) == option["colours"][0] for r, c in spot)


@pytest.mark.parametrize("intent", [
    {"type": "draw", "shape": "L", "colour": "R", "cells": [[0, 0], [0, 1], [0, 2], [1, 0]], "cut": False},
    {"type": "draw", "shape": "L", "colour": "R", "cells": [["0", 0]], "cut": False},
    {"type": "pick", "die": 99},
    {"type": "wild", "row": 0, "col": 0, "colour": "R"},
    {"type": "draw", "shape": "L"},
    {"type": "jump"},
])
def test_bad_intents_are_refused_in_the_widget(intent):
    widget = ColoriumGame(bots=1, seed=3)
    to_my_drawing(widget)
    before = widget.record
    browser_sends(widget, intent)
    assert widget.notice["kind"] == "error" and widget.record == before


def test_turn_and_mirror_tables_move_between_orientations():
    widget = ColoriumGame(bots=1, seed=3)
    option = to_my_drawing(widget)["options"][0]
    count = len(option["spots"])
    assert sorted(set(option["turn"])) == list(range(count))
    orient = 0
    for _ in range(4):
        orient = option["turn"][orient]
    assert orient == 0


def test_a_whole_game_in_the_widget_ends_with_itemised_scores(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    widget = ColoriumGame(bots=1, seed=5)
    me = GreedyBot(seed=2)
    for _ in range(500):
        if widget.state.over:
            break
        if widget.view["bots_to_move"]:
            browser_sends(widget, {"type": "bot"})
        elif widget.state.phase == "draft":
            browser_sends(widget, {"type": "pick", "die": me.act(widget.state, 0).die})
        else:
            draw = me.act(widget.state, 0)
            browser_sends(widget, {"type": "draw", "shape": draw.shape, "colour": draw.colour,
                                   "cells": [list(c) for c in draw.cells], "cut": draw.cut})
    view = widget.view
    assert view["over"] and view["winners"]
    assert set(view["parts"][0]) == {"shapes", "colours", "rows", *(m["id"] for m in view["missions"])}
    browser_sends(widget, {"type": "save"})
    other = ColoriumGame(bots=1, seed=1)
    browser_sends(other, {"type": "load", "text": next(tmp_path.glob("colorium-*.json")).read_text()})
    assert other.view["boards"] == view["boards"]


def test_a_still_picture_for_pages_without_a_kernel_and_no_seed_in_the_view():
    widget = ColoriumGame(bots=1, seed=987_654_321)
    assert "987654321" not in str(widget.view)
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "<svg" in data["text/html"] and "Missions:" in data["text/html"]
