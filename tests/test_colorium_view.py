"""The Colorium widget from Python: draft and draw by intents, refusals shown, only legal places offered."""

import dataclasses
import re

import pytest

from colorlab.colorium.agents import GreedyBot, play_game
from colorlab.colorium.model import BONUSES, ready_bonuses
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import placements
from colorlab.colorium.view import ColoriumGame
from colorlab.record import GameRecord
from tests.helpers.page import browser_sends, downloads


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
    browser_sends(
        widget, {"type": "draw", "shape": option["shape"], "colour": option["colours"][0], "cells": spot, "cuts": 0}
    )
    assert widget.notice["kind"] == "info"
    assert all(widget.state.boards[0].colour(r, c) == option["colours"][0] for r, c in spot)


@pytest.mark.parametrize(
    "intent",
    [
        {"type": "draw", "shape": "L", "colour": "R", "cells": [[0, 0], [0, 1], [0, 2], [1, 0]], "cuts": 0},
        {"type": "draw", "shape": "L", "colour": "R", "cells": [["0", 0]], "cuts": 0},
        {"type": "pick", "die": 99},
        {"type": "wild", "row": 0, "col": 0, "colour": "R"},
        {"type": "draw", "shape": "L"},
        {"type": "jump"},
    ],
)
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
        my_move(widget, me)
    view = widget.view
    assert view["over"] and view["winners"]
    assert set(view["parts"][0]) == {"shapes", "colours", "rows", *(m["id"] for m in view["missions"])}
    [saved] = downloads(widget, {"type": "save"})
    other = ColoriumGame(bots=1, seed=1)
    browser_sends(other, {"type": "load", "text": saved["text"]})
    assert other.view["boards"] == view["boards"]


def test_a_still_picture_for_pages_without_a_kernel_and_no_seed_in_the_view():
    widget = ColoriumGame(bots=1, seed=987_654_321)
    assert "987654321" not in str(widget.view)
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "<svg" in data["text/html"] and "Missions:" in data["text/html"]


def my_move(widget, me):
    """Send what a greedy learner at seat 0 would do now (a bot's turn: ask for the bot's move)."""
    if widget.view["bots_to_move"]:
        browser_sends(widget, {"type": "bot"})
    elif widget.state.phase == "draft":
        browser_sends(widget, {"type": "pick", "die": me.act(widget.state, 0).die})
    else:
        draw = me.act(widget.state, 0)
        browser_sends(
            widget,
            {
                "type": "draw",
                "shape": draw.shape,
                "colour": draw.colour,
                "cells": [list(c) for c in draw.cells],
                "cuts": draw.cuts,
            },
        )


def check_view_fits(widget, players):
    """Is the view drawn for this many players, all the way through, with no error shown?"""
    view = widget.view
    assert widget.notice.get("kind") != "error", widget.notice
    assert len(view["names"]) == len(view["boards"]) == len(view["picks"]) == len(view["out"]) == players
    assert len(view["bonuses"]) == len(view["parts"]) == len(view["scores"]) == len(view["row_points"]) == players
    rules = widget.state.rules
    assert all(len(rows) == rules.height and all(len(row) == rules.width for row in rows) for rows in view["boards"])


def play_on(widget, moves=40):
    """Play some moves (bots and a greedy seat 0), checking the view after each."""
    me = GreedyBot(seed=4)
    for _ in range(moves):
        if widget.state.over:
            return
        my_move(widget, me)
        check_view_fits(widget, widget.state.players)


@pytest.mark.parametrize("players", [4, 1, 3])
def test_the_widget_follows_a_change_of_players_in_the_rule_editor(players):
    widget = ColoriumGame(bots=1, seed=3)
    play_on(widget, 6)
    editor = widget.rule_editor()
    editor.controls["players"].value = players
    assert editor.rules.players == players and "players" in editor.message
    check_view_fits(widget, players)
    assert sorted(widget.bots) == list(range(1, players))
    editor.controls["width"].value = 6
    play_on(widget, 8)
    editor.controls["drop"].value = "straight"
    editor.controls["mirror_images"].value = False
    assert widget.state.rules.mirror_images is False and "running game" in editor.message
    check_view_fits(widget, players)
    play_on(widget)


@pytest.mark.parametrize("players, cut", [(4, 40), (1, 10), (3, None)])
def test_the_widget_follows_a_loaded_game_of_another_player_count(players, cut):
    widget = ColoriumGame(bots=1, seed=3)
    play_on(widget, 6)
    saved = play_game(Rules(players=players, width=6, height=7), seed=players)
    saved = GameRecord("colorium", saved.rules, saved.seed, saved.actions[:cut])
    browser_sends(widget, {"type": "load", "text": saved.to_json()})
    assert widget.notice["kind"] == "info" and widget.state.players == players
    check_view_fits(widget, players)
    browser_sends(widget, {"type": "history", "step": 0})
    check_view_fits(widget, players)
    browser_sends(widget, {"type": "live"})
    play_on(widget)
    browser_sends(widget, {"type": "new_game"})
    check_view_fits(widget, players)
    play_on(widget, 10)


def test_once_out_you_are_never_offered_a_wild_space_and_one_is_refused():
    record = play_game(Rules(players=2), seed=3)  # a game where seat 0 is out with a wild space ready
    states = list(record.states())
    step = next(
        i
        for i, state in enumerate(states)
        if state.out[0] and not state.over and state.phase == "draw" and "wild" in ready_bonuses(state, 0)
    )
    widget = ColoriumGame(bots=1, seed=1)
    browser_sends(
        widget,
        {"type": "load", "text": GameRecord("colorium", record.rules, record.seed, record.actions[:step]).to_json()},
    )
    board = widget.state.boards[0]
    empty = next((r, c) for r in range(board.height) for c in range(board.width) if board.colour(r, c) is None)
    before = widget.record
    browser_sends(widget, {"type": "wild", "row": empty[0], "col": empty[1], "colour": "G"})
    assert widget.notice["kind"] == "error" and "out" in widget.notice["text"] and widget.record == before
    assert widget.view["out"][0] and widget.view["wild_colours"] == [] and widget.view["options"] == []


def test_two_ready_scissors_offer_parts_that_only_two_cuts_make():
    widget = ColoriumGame(bots=1, seed=3)
    to_my_drawing(widget)
    state = widget.state
    marks = tuple("ready" if name in ("scissors", "shape") else mark for name, mark in zip(BONUSES, state.bonuses[0]))
    options = widget.my_options(dataclasses.replace(state, bonuses=(marks,) + state.bonuses[1:]))
    assert {(option["shape"], option["size"]) for option in options if option["cuts"] == 2} == {("O", 1), ("T", 2)}


# What a learner must never read: a seat number, a colour code, or a space's coordinates.
UNPLAIN = re.compile(r"\b[Pp]layer \d|\bseat\b|\b(in|with|colour die|colour dice) [RYGBPO]\b|\(\d+, ?\d+\)")


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=2, mirror_images=False, drop="straight")])
def test_every_notice_and_event_of_whole_games_names_players_in_plain_words(rules):
    for seed in range(2):
        widget = ColoriumGame(rules, bots=rules.players - 1, seed=seed)
        me = GreedyBot(seed=seed)
        shown = set(widget.view["events"])
        for _ in range(600):
            if widget.state.over:
                break
            my_move(widget, me)
            shown.update(widget.view["events"] + [widget.notice.get("text", "")])
        assert widget.state.over
        assert not [text for text in shown if UNPLAIN.search(text)]
        assert any(text.startswith("You: draws") for text in shown)
        assert any(text.startswith("Bot 1: takes the colour die") for text in shown)


def test_a_refusal_names_the_players_not_their_seats():
    widget = ColoriumGame(bots=1, seed=3)
    browser_sends(widget, {"type": "pick", "die": 0})
    browser_sends(widget, {"type": "pick", "die": 0})
    assert widget.notice == {**widget.notice, "kind": "error", "text": "It is Bot 1's pick, not yours"}


def test_a_legend_explains_the_row_races_and_the_bonus_tags():
    legend = ColoriumGame(bots=1, seed=3).view["legend"]
    assert "10/5 means 10 points for the first, 5 for the second" in legend["rows"]
    assert all(word in legend["bonuses"] for word in ("column", "colour:", "shape:", "✂ cut:", "★ wild:"))
    plain = ColoriumGame(Rules(players=2, row_rewards=False, bonuses=False), seed=3).view["legend"]
    assert plain == {"rows": "", "bonuses": ""}


def test_no_mirror_is_offered_when_the_rules_forbid_mirror_images():
    mirrored = to_my_drawing(ColoriumGame(bots=1, seed=3))
    assert mirrored["can_mirror"] and all("mirror" in option for option in mirrored["options"])
    upright = to_my_drawing(ColoriumGame(Rules(players=2, mirror_images=False), seed=3))
    assert not upright["can_mirror"] and upright["options"]
    assert not any("mirror" in option for option in upright["options"])
