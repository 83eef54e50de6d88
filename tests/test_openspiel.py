"""ColorFox and Colorium as numbers (the shared encoding) and as OpenSpiel games."""

import dataclasses
import random

import numpy
import pytest

from colorlab.colorfox import encoding as fox_encoding
from colorlab.colorfox import model as fox
from colorlab.colorfox.rules import Rules as FoxRules
from colorlab.colorium import encoding as ium_encoding
from colorlab.colorium import model as ium
from colorlab.colorium.rules import Rules as IumRules
from colorlab.rules import IllegalAction

FOX_VARIANTS = [FoxRules(), FoxRules(players=3, half_turn=True), FoxRules(players=4, exchange_pick="opponent"),
                FoxRules(players=3, passing="end when all pass", tie="shared win", sticks_per_colour=3)]
IUM_VARIANTS = [IumRules(), IumRules(players=1), IumRules(players=3, drop="straight", mirror_images=False),
                IumRules(players=4, width=5, height=6, shapes="ITLV", colours="RYGB")]
GAMES = [(fox, fox_encoding, rules) for rules in FOX_VARIANTS] + \
        [(ium, ium_encoding, rules) for rules in IUM_VARIANTS]
GAME_IDS = [f"colorfox-{n}" for n in range(len(FOX_VARIANTS))] + [f"colorium-{n}" for n in range(len(IUM_VARIANTS))]


def random_game(model, encoding, rules, seed):
    """Yield every state of one game played by choosing random action numbers, then the last state."""
    rng = random.Random(seed)
    state = model.new_game(rules, seed)
    while not state.over:
        yield state
        player = rng.choice(encoding.acting(state))
        state = model.play(state, encoding.action_of(rng.choice(encoding.legal_numbers(state, player)), state, player))
    yield state


def model_choices(model, state, player):
    """Every action the model itself accepts from `player` now, pick by pick for Colorium's pool."""
    if model is fox:
        return fox.legal_actions(state) if player == fox.to_move(state) else []
    if state.phase == "draft":
        return [ium.Pick(player, die) for die in range(len(state.pool)) if _accepts(state, ium.Pick(player, die))]
    return ium.legal_draws(state, player) + ium.legal_wilds(state, player)


def _accepts(state, action):
    try:
        ium.play(state, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("model, encoding, rules", GAMES, ids=GAME_IDS)
def test_action_numbers_name_every_legal_action_once(model, encoding, rules):
    count = encoding.action_count(rules)
    for seed in range(3):
        for state in random_game(model, encoding, rules, seed):
            for player in range(rules.players):
                numbers = encoding.legal_numbers(state, player)
                assert numbers == sorted(set(numbers)) and all(0 <= n < count for n in numbers)
                for number in numbers:
                    action = encoding.action_of(number, state, player)
                    model.play(state, action)
                    assert encoding.action_number(action, rules, *_pool(model, state)) == number
                if player in encoding.acting(state) and not state.over:
                    expected = {encoding.action_number(a, rules, *_pool(model, state))
                                for a in model_choices(model, state, player) if not _wild_after_drawing(state, a)}
                    assert set(numbers) == expected
                else:
                    assert numbers == []


def _pool(model, state):
    return (state.pool,) if model is ium else ()


def _wild_after_drawing(state, action):
    """The model lets a player who has drawn fill a wild space; the encoding offers it before the drawing."""
    return isinstance(action, ium.Wild) and state.drawn[action.player]


@pytest.mark.parametrize("model, encoding, rules", GAMES, ids=GAME_IDS)
def test_observation_has_a_fixed_shape_and_returns_share_the_win(model, encoding, rules):
    shape = encoding.observation_shape(rules)
    for seed in range(2):
        for state in random_game(model, encoding, rules, seed):
            for player in range(rules.players):
                seen = encoding.observation(state, player)
                assert seen.dtype == numpy.float32 and seen.shape == shape
        top = fox.leaders(state) if model is fox else ium.winners(state)
        assert encoding.returns(state) == [1 / len(top) if p in top else 0 for p in range(rules.players)]
        assert sum(encoding.returns(state)) == pytest.approx(1)


def test_a_colorfox_observation_hides_the_other_hands_and_the_pile():
    rules = FoxRules(players=3)
    for state in list(random_game(fox, fox_encoding, rules, 4))[::5]:
        unseen = [card for hand in state.hands[1:] for card in hand] + list(state.deck)
        random.Random(0).shuffle(unseen)
        sizes = [len(hand) for hand in state.hands[1:]]
        twin = fox.evolve(state, hands=(state.hands[0], tuple(unseen[:sizes[0]]),
                                        tuple(unseen[sizes[0]:sum(sizes)])), deck=tuple(unseen[sum(sizes):]))
        assert twin.hands != state.hands
        assert numpy.array_equal(fox_encoding.observation(twin, 0), fox_encoding.observation(state, 0))
        assert not numpy.array_equal(fox_encoding.observation(twin, 1), fox_encoding.observation(state, 1))


def test_a_colorium_observation_shows_the_boards_but_not_the_seed():
    state = list(random_game(ium, ium_encoding, IumRules(), 2))[30]
    twin = dataclasses.replace(state, seed=state.seed + 1)
    assert numpy.array_equal(ium_encoding.observation(twin, 0), ium_encoding.observation(state, 0))
    board = state.boards[1].filled([(0, 0)], "R") if state.boards[1].colour(0, 0) is None else ium.Board.empty()
    other = dataclasses.replace(state, boards=(state.boards[0], board))
    assert not numpy.array_equal(ium_encoding.observation(other, 0), ium_encoding.observation(state, 0))


@pytest.mark.parametrize("model, encoding, rules", GAMES[:1] + GAMES[-4:-3], ids=["colorfox", "colorium"])
def test_a_number_that_is_not_legal_now_is_refused_with_a_reason(model, encoding, rules):
    state = model.new_game(rules, 0)
    player = encoding.acting(state)[0]
    legal = set(encoding.legal_numbers(state, player))
    illegal = next(n for n in range(encoding.action_count(rules)) if n not in legal)
    with pytest.raises(IllegalAction):
        encoding.action_of(illegal, state, player)
    with pytest.raises(IllegalAction):
        encoding.action_of(min(legal), state, (player + 1) % rules.players)
    with pytest.raises(ValueError, match="not an action number"):
        encoding.action_of(encoding.action_count(rules), state, player)
