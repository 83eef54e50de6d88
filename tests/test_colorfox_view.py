"""The ColorFox widget from Python: intents in, the visible state out, refusals shown."""

import dataclasses
import json
import random
import re

import pytest

from colorlab.colorfox import GreedyBot, Place, Rules, model, observation, play_game
from colorlab.colorfox.view import ColorFoxGame, final_lines
from colorlab.rules import ChangeRules
from tests.helpers.page import browser_sends, downloads


def place_intent(widget, index=0):
    card, x, y, turned = widget.view["legal"][index]
    return {"type": "place", "card": card, "x": x, "y": y, "turned": turned}


def table(**kwargs):
    return ColorFoxGame(bots=1, seed=123_456_789, **kwargs)


def test_placing_a_card_by_clicking_pays_its_sticks():
    widget = table()
    intent = place_intent(widget)
    browser_sends(widget, intent)
    assert (intent["x"], intent["y"]) in widget.state.table
    assert sum(widget.view["sticks"][0].values()) >= 1
    assert widget.view["bots_to_move"] and widget.notice["kind"] == "info"


def test_the_bots_move_one_at_a_time_when_the_page_asks():
    widget = table()
    browser_sends(widget, place_intent(widget))
    moves = len(widget.record.actions)
    browser_sends(widget, {"type": "bot"})
    assert len(widget.record.actions) == moves + 1


MALFORMED = [
    {"type": "place", "card": 999, "x": 0, "y": -1, "turned": False},
    {"type": "place", "card": 1, "x": 0, "y": 0, "turned": False},
    {"type": "place", "card": 1, "x": "0", "y": -1, "turned": False},
    {"type": "place", "card": 1, "x": 0, "y": -1},
    {"type": "exchange", "opponent": 1, "give": "red", "take": "blue"},
    {"type": "done"},
    {"type": "pass"},
    {"type": "fly"},
    ["place"],
    {"type": "load", "text": "[]"},
    {"type": "place", "card": 1, "x": 0, "y": -1, "turned": False, "extra": "x" * 300_000},
]


@pytest.mark.parametrize("intent", MALFORMED, ids=range(len(MALFORMED)))
def test_bad_intents_are_refused_in_the_widget_and_change_nothing(intent):
    widget = table()
    before = widget.record
    browser_sends(widget, intent)
    assert widget.notice["kind"] == "error" and widget.notice["text"]
    assert widget.record == before


def test_the_view_hides_other_hands_the_deck_and_the_seed():
    widget = table()
    text = json.dumps(widget.view)
    assert str(widget.record.seed) not in text
    assert widget.view["hand_sizes"][1] == len(widget.state.hands[1]) and "hands" not in widget.view
    state = widget.state
    cards = list(state.hands[1]) + list(state.deck)
    random.Random(5).shuffle(cards)
    size = len(state.hands[1])
    redealt = dataclasses.replace(
        state, seed=state.seed + 1, hands=(state.hands[0], tuple(cards[:size])), deck=tuple(cards[size:])
    )
    assert observation(redealt, 0) == observation(state, 0)


def test_an_exchange_made_in_the_page_swaps_sticks():
    for seed in range(60):
        widget = ColorFoxGame(bots=1, seed=seed)
        helper = GreedyBot(seed=seed)
        while not widget.state.over and not widget.state.exchanges_left:
            if widget.state.active == 0:
                widget.play(helper.act(widget.state, 0))
            else:
                widget.bot_move()
        if widget.state.exchanges_left and widget.state.active == 0:
            break
    else:
        pytest.skip("no exchange for seat 0 came up")
    widget.refresh()
    mine, theirs = widget.state.sticks[0], widget.state.sticks[1]
    give = next(c for c, n in widget.view["sticks"][0].items() if n)
    take = next(c for c, n in widget.view["sticks"][1].items() if n and c != give)
    browser_sends(widget, {"type": "exchange", "opponent": 1, "give": give, "take": take})
    assert widget.notice["kind"] == "info", widget.notice
    assert sum(widget.state.sticks[0]) == sum(mine) and sum(widget.state.sticks[1]) == sum(theirs)
    assert widget.view["sticks"][0][take] >= 1


def test_undo_save_and_load(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    widget = table()
    browser_sends(widget, place_intent(widget))
    browser_sends(widget, {"type": "bot"})
    [message] = downloads(widget, {"type": "save"})
    saved = message["text"]
    other = table()
    browser_sends(other, {"type": "load", "text": saved})
    assert other.record == widget.record and other.view["table"] == widget.view["table"]
    browser_sends(widget, {"type": "undo"})
    assert widget.record.actions == ()


def test_live_rules_apply_to_the_running_game():
    widget = table()
    said = widget.apply_rules(dataclasses.replace(widget.state.rules, half_turn=True), {"half_turn"})
    assert said == "Applied to the running game." and isinstance(widget.record.actions[-1], ChangeRules)
    assert any(turned for _, _, _, turned in widget.view["legal"])
    said = widget.apply_rules(Rules(players=3), {"players"})
    assert "new game" in said and len(widget.view["names"]) == 3


def test_sets_are_sent_as_triangles_with_their_scores():
    widget = table()
    while sum(widget.state.sticks[0]) < 3 and not widget.state.over:
        if widget.state.active == 0 and not widget.state.exchanges_left:
            browser_sends(widget, place_intent(widget) if widget.view["legal"] else {"type": "pass"})
        elif widget.state.active == 0:
            browser_sends(widget, {"type": "done"})
        else:
            browser_sends(widget, {"type": "bot"})
    sets = widget.view["sets"][0]
    assert sum(len(s["colours"]) for s in sets) == sum(widget.state.sticks[0])
    assert sum(s["score"] for s in sets) == widget.view["scores"][0]


def test_a_still_picture_is_offered_without_a_kernel():
    bundle = table()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "<svg" in data["text/html"] and "ColorFox table" in data["text/html"]


INTENT_TYPES = {
    "Place": "place",
    "Exchange": "exchange",
    "Offer": "offer",
    "HandBack": "hand_back",
    "Done": "done",
    "Pass": "pass",
}


def intent_for(action):
    """The page's intent for a model action of seat 0."""
    fields = action._asdict() if isinstance(action, Place) else dataclasses.asdict(action)
    return {"type": INTENT_TYPES[type(action).__name__], **{k: v for k, v in fields.items() if k != "player"}}


def check_view_size(widget):
    players = widget.state.players
    view = widget.view
    assert [len(view[key]) for key in ("names", "sticks", "hand_sizes", "scores", "sets")] == [players] * 5
    assert sorted(widget.bots) == list(range(1, players))
    assert len(view["hand"]) == len(widget.state.hands[0])


def play_through_the_page(widget, steps=800):
    """Play seat 0 by the page's intents (a greedy bot's choices) and let the bots move, to the end."""
    me = GreedyBot(seed=widget.record.seed)
    for _ in range(steps):
        check_view_size(widget)
        if widget.state.over:
            return
        if widget.view["bots_to_move"]:
            browser_sends(widget, {"type": "bot"})
        else:
            browser_sends(widget, intent_for(me.act(widget.state, 0)))
        assert widget.notice.get("kind") != "error", widget.notice
    raise AssertionError("the game did not end")


def test_the_widget_follows_players_changed_in_the_rule_editor_and_a_loaded_game():
    widget = ColorFoxGame(bots=1, seed=2)
    editor = widget.rule_editor()
    editor.controls["exchange_pick"].value = "opponent"
    editor.controls["players"].value = 4
    assert widget.state.players == 4 and widget.state.rules.exchange_pick == "opponent"
    play_through_the_page(widget)
    saved = play_game(Rules(players=3, exchange_pick="opponent"), seed=5)
    browser_sends(widget, {"type": "load", "text": saved.undo(len(saved.actions) // 2).to_json()})
    assert widget.state.players == 3
    play_through_the_page(widget)
    browser_sends(widget, {"type": "load", "text": play_game(Rules(players=2), seed=1).undo(9).to_json()})
    play_through_the_page(widget)


def a_widget_where(rules, seed_range, wanted):
    """A widget (seat 0 played by a greedy bot until then) at the first state where `wanted(state)` holds."""
    for seed in seed_range:
        widget = ColorFoxGame(rules, bot="GreedyBot", seed=seed)
        me = GreedyBot(seed=seed)
        while not widget.state.over and not wanted(widget.state):
            if model.to_move(widget.state) == 0:
                widget.play(me.act(widget.state, 0))
            else:
                widget.bot_move()
        if not widget.state.over:
            widget.refresh()
            return widget
    pytest.skip("the wanted moment never came")


def test_the_learner_offers_a_stick_and_sees_which_one_the_bot_hands_back():
    rules = Rules(players=2, exchange_pick="opponent")
    widget = a_widget_where(
        rules, range(80), lambda s: s.active == 0 and any(isinstance(a, model.Offer) for a in model.legal_actions(s))
    )
    offer = next(a for a in model.legal_actions(widget.state) if isinstance(a, model.Offer))
    before = widget.record
    browser_sends(widget, {"type": "exchange", "opponent": 1, "give": offer.give, "take": offer.give})
    assert widget.notice["kind"] == "error" and widget.record == before
    browser_sends(widget, {"type": "offer", "opponent": 1, "give": offer.give})
    assert widget.view["offer"] == {"player": 0, "opponent": 1, "give": offer.give}
    assert widget.view["to_move"] == 1 and widget.view["bots_to_move"] and widget.view["legal"] == []
    browser_sends(widget, {"type": "bot"})
    answer = widget.record.actions[-1]
    assert isinstance(answer, model.HandBack) and answer.player == 1
    assert f"hands back {answer.colour} to you" in widget.notice["text"]


def test_when_a_bot_offers_a_stick_the_learner_chooses_what_to_hand_back():
    rules = Rules(players=2, exchange_pick="opponent")
    widget = a_widget_where(rules, range(80), lambda s: s.offer is not None and s.offer.opponent == 0)
    give = widget.state.offer.give
    assert widget.view["to_move"] == 0 and not widget.view["bots_to_move"] and widget.view["legal"] == []
    browser_sends(widget, {"type": "bot"})
    assert isinstance(widget.record.actions[-1], model.Offer)
    choices = [a.colour for a in model.legal_actions(widget.state)]
    mine = dict(widget.view["sticks"][0])
    browser_sends(widget, {"type": "hand_back", "colour": give})
    assert widget.notice["kind"] == "error"
    browser_sends(widget, {"type": "hand_back", "colour": choices[-1]})
    assert widget.notice["kind"] == "info" and isinstance(widget.record.actions[-1], model.HandBack)
    assert widget.view["sticks"][0][choices[-1]] == mine[choices[-1]] - 1
    assert widget.view["sticks"][0][give] == mine[give] + 1


# What a learner must never read: a seat number, a card's colour codes, or a cell's coordinates.
UNPLAIN = re.compile(r"\b[Pp]layer \d|\bseat\b|\b[A-Z](/[A-Z]){3}\b|\(-?\d+, ?-?\d+\)|#\d")


def play_watching_words(widget, steps=800):
    """Play a whole game through the page (bots included), and collect every notice and event shown."""
    me = GreedyBot(seed=widget.record.seed)
    shown = set(widget.view["events"])
    for _ in range(steps):
        if widget.state.over:
            return shown
        action = None if widget.view["bots_to_move"] else me.act(widget.state, 0)
        browser_sends(widget, {"type": "bot"} if action is None else intent_for(action))
        shown.update(widget.view["events"] + [widget.notice.get("text", "")])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=2, exchange_pick="opponent", half_turn=True)])
def test_every_notice_and_event_of_whole_games_names_players_in_plain_words(rules):
    for seed in range(3):
        shown = play_watching_words(ColorFoxGame(rules, bots=rules.players - 1, seed=seed))
        assert not [text for text in shown if UNPLAIN.search(text)]
        assert any(text.startswith("You: lays a card") for text in shown)
        assert any(text.startswith("Bot 1: lays a card") for text in shown)


def test_a_refusal_names_the_learner_in_words():
    widget = table()
    browser_sends(widget, {"type": "pass"})
    assert widget.notice["kind"] == "error" and widget.notice["text"] == "You can place a card, so may not pass"


def test_the_card_placed_last_is_marked_with_who_placed_it():
    widget = table()
    assert widget.view["last_placed"] is None
    browser_sends(widget, place_intent(widget))
    mine = widget.record.actions[-1]
    assert widget.view["last_placed"] == {"x": mine.x, "y": mine.y, "by": "You"}
    me = GreedyBot(seed=1)
    for _ in range(200):
        if isinstance(widget.record.actions[-1], Place) and widget.record.actions[-1].player == 1:
            break
        action = None if widget.view["bots_to_move"] else me.act(widget.state, 0)
        browser_sends(widget, {"type": "bot"} if action is None else intent_for(action))
    bots = [a for a in widget.record.actions if isinstance(a, Place) and a.player == 1]
    assert widget.view["last_placed"] == {"x": bots[-1].x, "y": bots[-1].y, "by": "Bot 1"}
    assert widget.view["table"][-1]["x"] == bots[-1].x and widget.view["table"][-1]["y"] == bots[-1].y


def test_the_game_over_box_gives_every_score_and_the_winner():
    widget = ColorFoxGame(Rules(players=3), bots=2, seed=11)
    play_watching_words(widget)
    reason, points, verdict = widget.view["final"]
    assert widget.state.end_reason in reason
    for name, score in zip(["You", "Bot 1", "Bot 2"], model.scores(widget.state)):
        assert f"{name} {score} points" in points
    best = [["You", "Bot 1", "Bot 2"][p] for p in model.leaders(widget.state)]
    assert all(name in verdict for name in best) and ("tie" in verdict) == (len(best) > 1)


def test_a_tie_in_the_game_over_box_asks_for_a_rematch():
    widget = ColorFoxGame(Rules(players=2), bots=1, seed=11)
    play_watching_words(widget)
    even = dataclasses.replace(widget.state, sticks=(widget.state.sticks[0],) * 2)
    _reason, points, verdict = final_lines(even, ["You", "Bot 1"])
    assert verdict == "A tie between You and Bot 1: play once more to find the winner!"
    assert points.count(f" {model.scores(even)[0]} points") == 2


def test_the_sets_legend_says_dots_are_points_not_sticks():
    legend = table().view["sets_legend"]
    assert "1+2+3+4+5+6 = 21" in legend and "6 different colours" in legend and "not sticks" in legend
    square = ColorFoxGame(Rules(players=2, set_score="square", max_set_size=4), seed=1).view["sets_legend"]
    assert "4 different colours" in square and "scores 16 points" in square
