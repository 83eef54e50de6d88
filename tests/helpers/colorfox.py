"""ColorFox's invariants, as its model tests and the tables' workers check them after every action of a game."""

from __future__ import annotations

from collections import Counter

from colorlab.colorfox import model
from colorlab.colorfox.components import OPPOSITE, SIDES, STEP
from colorlab.colorfox.model import (
    COLOUR_NAMES,
    Exchange,
    HandBack,
    Offer,
    Pass,
    Place,
    connections,
    edges_of,
    legal_actions,
    rematch_due,
    to_move,
    winners,
)


def check_invariants(state):
    rules = state.rules
    numbers = (
        [card.number for card, _ in state.table.values()]
        + [card.number for hand in state.hands for card in hand]
        + [card.number for card in state.deck]
    )
    assert sorted(numbers) == list(range(1, 55)), "cards lost or duplicated"
    for colour in range(len(COLOUR_NAMES)):
        held = sum(sticks[colour] for sticks in state.sticks)
        assert held + state.supply[colour] == rules.sticks_per_colour, "sticks lost or made"
        assert state.supply[colour] >= 0 and all(sticks[colour] >= 0 for sticks in state.sticks)
    for (x, y), (card, turned) in state.table.items():
        edges = edges_of(card, turned)
        for side, name in enumerate(SIDES):
            dx, dy = STEP[name]
            if (x + dx, y + dy) in state.table:
                other, other_turned = state.table[(x + dx, y + dy)]
                facing = edges_of(other, other_turned)[SIDES.index(OPPOSITE[name])]
                assert edges[side] == facing, f"edge {name} of card at {(x, y)} does not match"
        assert turned is False or rules.half_turn
    if rules.passing == "end when all pass":
        assert all(len(hand) <= rules.hand for hand in state.hands)
    for cell in state.frontier:
        assert cell not in state.table
        assert any((cell[0] + dx, cell[1] + dy) in state.table for dx, dy in STEP.values())
    if state.over:
        tied = len(model.leaders(state)) > 1
        assert bool(rematch_due(state)) == (tied and rules.tie == "play once more")
        assert winners(state) == ([] if rematch_due(state) else model.leaders(state))
        assert legal_actions(state) == []
    if state.offer is not None:
        assert to_move(state) == state.offer.opponent != state.active
    assert all(action.player == to_move(state) for action in legal_actions(state))


def check_step(before, action, after):
    assert action in legal_actions(before), "a bot chose an action the model does not list"
    if before.rules.exchange_pick == "opponent":
        assert not isinstance(action, Exchange), "the active player picked the stick taken"
    if isinstance(action, Offer):
        assert after.sticks == before.sticks and after.offer == action and to_move(after) == action.opponent
    if isinstance(action, HandBack):
        offer = before.offer
        assert action.player == offer.opponent == to_move(before), "someone else chose for the opponent"
        give, take = COLOUR_NAMES.index(offer.give), COLOUR_NAMES.index(action.colour)
        assert after.sticks[offer.player][take] == before.sticks[offer.player][take] + 1
        assert after.sticks[offer.opponent][give] == before.sticks[offer.opponent][give] + 1
        assert after.offer is None
    if isinstance(action, Pass):
        drew = before.rules.passing == "draw a card" and bool(before.deck)
        assert len(after.deck) == len(before.deck) - drew
    if after.over and after.end_reason == "no one can place a card" and before.rules.passing == "draw a card":
        assert not after.deck, "the game ended by passing with cards left to draw"
    if isinstance(action, Place):
        joined = Counter(connections(before, (action.x, action.y)))
        supply = dict(zip(COLOUR_NAMES, before.supply))
        expected = sum(min(n, supply[colour]) for colour, n in joined.items())
        gained = sum(after.sticks[action.player]) - sum(before.sticks[action.player])
        assert gained == expected, "sticks taken differ from connections made while supply lasted"
        runs_out = any(n > supply[colour] for colour, n in joined.items())
        assert after.ending == runs_out or after.over == runs_out
    if isinstance(action, Exchange):
        assert [sum(s) for s in after.sticks] == [sum(s) for s in before.sticks], "an exchange changed a count"
    if before.ending and not after.exchanges_left:
        assert after.over
