"""ColorFox and Colorium as numbers (the shared encoding) and as OpenSpiel games."""

import ast
import collections
import dataclasses
import importlib
import itertools
import random
import re
from pathlib import Path

import numpy
import pytest

from colorlab import colorfox, colorium
from colorlab.colorfox import encoding as colorfox_encoding
from colorlab.colorfox import model as colorfox_model
from colorlab.colorfox import scoring as colorfox_scoring
from colorlab.colorium import encoding as colorium_encoding
from colorlab.colorium import missions as colorium_missions
from colorlab.colorium import model as colorium_model
from colorlab.rules import IllegalAction

COLORFOX_VARIANTS = [
    colorfox.Rules(),
    colorfox.Rules(players=3, half_turn=True),
    colorfox.Rules(players=4, exchange_pick="opponent"),
    colorfox.Rules(players=3, passing="end when all pass", tie="shared win", sticks_per_colour=3),
]
COLORIUM_VARIANTS = [
    colorium.Rules(),
    colorium.Rules(players=1),
    colorium.Rules(players=3, drop="straight", mirror_images=False),
    colorium.Rules(players=4, width=5, height=6, shapes="ITLV", colours="RYGB"),
]
GAMES = [(colorfox_model, colorfox_encoding, rules) for rules in COLORFOX_VARIANTS] + [
    (colorium_model, colorium_encoding, rules) for rules in COLORIUM_VARIANTS
]
GAME_IDS = [f"colorfox-{n}" for n in range(len(COLORFOX_VARIANTS))] + [
    f"colorium-{n}" for n in range(len(COLORIUM_VARIANTS))
]


def random_game(model, encoding, rules, seed):
    """Yield every state of one game played by choosing random action numbers, then the last state."""
    rng = random.Random(seed)
    state = model.new_game(rules, seed)
    while not state.over:
        yield state
        state = model.play(state, random_move(encoding, state, rng.choice(encoding.acting(state)), rng))
    yield state


def random_move(encoding, state, player, rng):
    """The action that random legal numbers make for `player`, number by number (a move may take two)."""
    chosen = ()
    while True:
        number = rng.choice(encoding.legal_numbers(state, player, chosen))
        action = encoding.action_of(number, state, player, chosen)
        if action is not None:
            assert encoding.numbers_of(action, state) == chosen + (number,)
            return action
        chosen += (number,)


def model_choices(model, state, player):
    """Every action the model itself accepts from `player` now, pick by pick for Colorium's pool."""
    if model is colorfox_model:
        return colorfox_model.legal_actions(state) if player == colorfox_model.to_move(state) else []
    if state.phase == "draft":
        return [
            colorium_model.Pick(player, die)
            for die in range(len(state.pool))
            if _accepts(state, colorium_model.Pick(player, die))
        ]
    return colorium_model.legal_draws(state, player) + colorium_model.legal_wilds(state, player)


def _accepts(state, action):
    try:
        colorium_model.play(state, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("model, encoding, rules", GAMES, ids=GAME_IDS)
def test_action_numbers_name_every_legal_action_once(model, encoding, rules):
    count = encoding.action_count(rules)
    for seed in range(3):
        for state in random_game(model, encoding, rules, seed):
            for player in range(rules.players):
                moves = every_move(encoding, state, player, count)
                for numbers, action in moves.items():
                    model.play(state, action)
                    assert encoding.numbers_of(action, state) == numbers
                expected = [a for a in model_choices(model, state, player) if not _wild_after_drawing(state, a)]
                if player not in encoding.acting(state) or state.over:
                    assert expected == [] or state.over
                assert set(moves) == {encoding.numbers_of(a, state) for a in expected}  # alike dice: one pick per face


def every_move(encoding, state, player, count, chosen=()):
    """Every move `player` can make now through the legal numbers, by its numbers; each begun move can be finished."""
    numbers = encoding.legal_numbers(state, player, chosen)
    assert numbers == sorted(set(numbers)) and all(0 <= n < count for n in numbers)
    assert numbers or not chosen, f"{chosen} begins a move that nothing finishes"
    moves = {}
    for number in numbers:
        action = encoding.action_of(number, state, player, chosen)
        if action is None:
            moves.update(every_move(encoding, state, player, count, chosen + (number,)))
        else:
            moves[chosen + (number,)] = action
    return moves


@pytest.mark.parametrize(
    "encoding, rules",
    [
        (colorfox_encoding, colorfox.Rules(players=4)),
        (colorium_encoding, colorium.Rules(players=4, width=12, height=12)),
        (colorium_encoding, colorium.Rules()),
    ],
    ids=["colorfox-4-players", "colorium-largest-board", "colorium-default"],
)
def test_the_largest_games_have_at_most_a_thousand_action_numbers(encoding, rules):
    assert encoding.action_count(rules) <= 1000


def _wild_after_drawing(state, action):
    """The model lets a player who has drawn fill a wild space; the encoding offers it before the drawing."""
    return isinstance(action, colorium_model.Wild) and state.drawn[action.player]


@pytest.mark.parametrize("model, encoding, rules", GAMES, ids=GAME_IDS)
def test_observation_has_a_fixed_shape_and_returns_share_the_win(model, encoding, rules):
    shape = encoding.observation_shape(rules)
    for seed in range(2):
        for state in random_game(model, encoding, rules, seed):
            for player in range(rules.players):
                seen = encoding.observation(state, player)
                assert seen.dtype == numpy.float32 and seen.shape == shape
        top = colorfox_model.leaders(state) if model is colorfox_model else colorium_model.winners(state)
        assert encoding.returns(state) == [1 / len(top) if p in top else 0 for p in range(rules.players)]
        assert sum(encoding.returns(state)) == pytest.approx(1)


@pytest.mark.parametrize("model, encoding, rules", GAMES[:1] + GAMES[-1:], ids=[GAME_IDS[0], GAME_IDS[-1]])
def test_an_observation_is_the_callers_own_to_change(model, encoding, rules):
    """The last state's observation is kept for the next ask; a learner that changes the array it was given (say, to
    normalise it in place) changes nothing kept, and a move begun shows only in the array asked with it."""
    state, player, begun = next(
        (state, player, number)
        for state in random_game(model, encoding, rules, 3)
        for player in encoding.acting(state)[:1]
        for number in encoding.legal_numbers(state, player)
        if encoding.action_of(number, state, player) is None  # a move that waits for its second number
    )
    first = encoding.observation(state, player)
    kept = first.copy()
    first[:] = 0.5
    assert numpy.array_equal(encoding.observation(state, player), kept)
    assert not numpy.array_equal(encoding.observation(state, player, (begun,)), kept)
    assert numpy.array_equal(encoding.observation(state, player), kept)


def test_a_colorfox_observation_hides_the_other_hands_and_the_pile():
    rules = colorfox.Rules(players=3)
    for state in list(random_game(colorfox_model, colorfox_encoding, rules, 4))[::5]:
        unseen = [card for hand in state.hands[1:] for card in hand] + list(state.deck)
        random.Random(0).shuffle(unseen)
        sizes = [len(hand) for hand in state.hands[1:]]
        twin = colorfox_model.evolve(
            state,
            hands=(state.hands[0], tuple(unseen[: sizes[0]]), tuple(unseen[sizes[0] : sum(sizes)])),
            deck=tuple(unseen[sum(sizes) :]),
        )
        assert twin.hands != state.hands
        assert numpy.array_equal(colorfox_encoding.observation(twin, 0), colorfox_encoding.observation(state, 0))
        assert not numpy.array_equal(colorfox_encoding.observation(twin, 1), colorfox_encoding.observation(state, 1))


def test_a_colorium_observation_shows_the_boards_but_not_the_seed():
    state = list(random_game(colorium_model, colorium_encoding, colorium.Rules(), 2))[30]
    twin = dataclasses.replace(state, seed=state.seed + 1)
    assert numpy.array_equal(colorium_encoding.observation(twin, 0), colorium_encoding.observation(state, 0))
    board = (
        state.boards[1].filled([(0, 0)], "R") if state.boards[1].colour(0, 0) is None else colorium_model.Board.empty()
    )
    other = dataclasses.replace(state, boards=(state.boards[0], board))
    assert not numpy.array_equal(colorium_encoding.observation(other, 0), colorium_encoding.observation(state, 0))


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


def test_a_colorfox_card_waits_for_its_cell_and_a_number_out_of_step_is_refused():
    rules = colorfox.Rules()
    state = colorfox_model.new_game(rules, 0)
    start, cells = colorfox_encoding.legal_numbers(state, 0)[0], colorfox_encoding.open_cells(state)
    count = colorfox_encoding.action_count(rules)
    cell_numbers = range(count - colorfox_encoding.OPEN_CELLS, count)
    with pytest.raises(IllegalAction, match="choose a card first"):
        colorfox_encoding.action_of(cell_numbers[0], state, 0)
    assert colorfox_encoding.action_of(start, state, 0) is None
    with pytest.raises(IllegalAction, match="the next number is the cell"):
        colorfox_encoding.action_of(start, state, 0, chosen=(start,))
    with pytest.raises(IllegalAction, match=f"there are {len(cells)} open cells"):
        colorfox_encoding.action_of(cell_numbers[len(cells)], state, 0, chosen=(start,))
    fitting = colorfox_encoding.legal_numbers(state, 0, chosen=(start,))
    misfit = next(n for n in cell_numbers[: len(cells)] if n not in fitting)
    with pytest.raises(colorfox_model.ColoursDiffer):
        colorfox_encoding.action_of(misfit, state, 0, chosen=(start,))
    with pytest.raises(ValueError, match="not part of a move"):
        colorfox_encoding.legal_numbers(state, 0, chosen=(fitting[0],))
    other_card = next(
        colorfox_encoding.numbers_of(colorfox_model.Place(1, card.number, *cells[0], False), state)[0]
        for card in state.hands[1]
    )
    with pytest.raises(colorfox_model.CardNotInHand):
        colorfox_encoding.action_of(other_card, state, 0)


@pytest.mark.parametrize("rules", COLORFOX_VARIANTS, ids=[f"colorfox-{n}" for n in range(len(COLORFOX_VARIANTS))])
def test_colorfox_open_cells_keep_their_numbers_until_an_older_cell_is_filled(rules):
    """Cell numbers count the open cells in the order they opened: a laid card's cell leaves the list, the empty cells
    around it that were not open join its end (top, right, bottom, left), and every other cell keeps its order."""
    sides = [colorfox.components.STEP[side] for side in colorfox.components.SIDES]
    for seed in range(6):
        states = list(random_game(colorfox_model, colorfox_encoding, rules, seed))
        assert colorfox_encoding.open_cells(states[0]) == tuple((dx, dy) for dx, dy in sides)
        for before, after in itertools.pairwise(states):
            laid = [cell for cell in after.table if cell not in before.table]
            if not laid:
                assert colorfox_encoding.open_cells(after) == colorfox_encoding.open_cells(before)
                continue
            (x, y), old = laid[0], colorfox_encoding.open_cells(before)
            opened = [(x + dx, y + dy) for dx, dy in sides]
            opened = [cell for cell in opened if cell not in after.table and cell not in old]
            assert colorfox_encoding.open_cells(after) == tuple(c for c in old if c != (x, y)) + tuple(opened)
            assert set(colorfox_encoding.open_cells(after)) == {
                (cx + dx, cy + dy) for cx, cy in after.table for dx, dy in sides
            } - set(after.table)


def test_a_colorium_drawing_waits_for_its_space_and_a_wild_space_for_its_colour():
    rules = colorium.Rules()
    state = next(s for s in random_game(colorium_model, colorium_encoding, rules, 5) if s.phase == "draw")
    player = colorium_encoding.acting(state)[0]
    piece = colorium_encoding.legal_numbers(state, player)[0]
    assert colorium_encoding.action_name(piece).startswith("draw ")
    assert colorium_encoding.action_of(piece, state, player) is None
    with pytest.raises(IllegalAction, match="the next number is the space"):
        colorium_encoding.action_of(piece, state, player, chosen=(piece,))
    space = colorium_encoding.legal_numbers(state, player, chosen=(piece,))[0]
    drawing = colorium_encoding.action_of(space, state, player, chosen=(piece,))
    assert isinstance(drawing, colorium_model.Draw) and colorium_encoding.numbers_of(drawing, state) == (piece, space)
    colour = colorium_encoding.action_count(rules) - 1
    with pytest.raises(IllegalAction, match="choose the space first"):
        colorium_encoding.action_of(colour, state, player)
    with pytest.raises(colorium_model.BadDraw, match="no ready wild bonus"):
        colorium_encoding.action_of(space, state, player)
    column = colorium_model.BONUSES.index("wild")
    wild = colorium_model.evolve(
        state, bonuses=tuple(marks[:column] + ("ready",) + marks[column + 1 :] for marks in state.bonuses)
    )
    assert "wild" in colorium_model.ready_bonuses(wild, player)
    empty = colorium_encoding.legal_numbers(wild, player)[-1]
    assert colorium_encoding.action_of(empty, wild, player) is None
    filled = colorium_encoding.action_of(colour, wild, player, chosen=(empty,))
    assert isinstance(filled, colorium_model.Wild) and colorium_encoding.numbers_of(filled, wild) == (empty, colour)


# OpenSpiel ---------------------------------------------------------------------------------------------


@pytest.fixture
def pyspiel():
    """OpenSpiel, with colorlab's games registered; the test is skipped when the optional 'ai' extra is missing."""
    module = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional 'ai' extra (make test installs it)")
    importlib.import_module("colorlab.openspiel")
    return module


COLORFOX, COLORIUM = "python_colorlab_colorfox", "python_colorlab_colorium"


def chance_step(state, rng):
    """Apply a chance outcome drawn with its probability."""
    outcomes, chances = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(outcomes, p=chances)))


@pytest.mark.parametrize(
    "name, params",
    [
        (COLORFOX, {}),
        (COLORFOX, {"players": 3, "half_turn": True}),
        (COLORFOX, {"players": 4, "exchange_pick": "opponent"}),
        (COLORIUM, {}),
        (COLORIUM, {"players": 3, "drop": "straight"}),
        (COLORIUM, {"players": 4, "width": 5, "height": 5}),
    ],
)
def test_openspiels_own_random_simulation_test_passes(pyspiel, name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", [COLORFOX, COLORIUM])
def test_every_chance_node_gives_outcomes_that_sum_to_one(pyspiel, name):
    rng = numpy.random.RandomState(0)
    state, seen = pyspiel.load_game(name, {"players": 3}).new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1) and all(p > 0 for _, p in outcomes)
            assert len({o for o, _ in outcomes}) == len(outcomes)
            seen += 1
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen > 10


def dealt(game, cards):
    """A ColorFox game just after dealing these cards (hands in seat order, then the start card)."""
    state = game.new_initial_state()
    for number in cards:
        state.apply_action(number - 1)
    return state


def test_openspiel_colorfox_deals_the_rules_hands_and_hides_them(pyspiel):
    game = pyspiel.load_game(COLORFOX, {"players": 3})
    state = dealt(game, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert [[c.number for c in hand] for hand in state.now.table.hands] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert state.now.table.table[(0, 0)][0].number == 10 and len(state.now.table.deck) == 44
    twin = dealt(game, [1, 2, 3, 11, 12, 13, 14, 15, 16, 10])
    for look in ("observation_string", "observation_tensor", "information_state_string"):
        assert getattr(state, look)(0) == getattr(twin, look)(0), look
        assert getattr(state, look)(1) != getattr(twin, look)(1), look
    assert "#4" not in state.observation_string(0) and "#1" in state.observation_string(0)


def test_an_onlookers_colorfox_observation_shows_no_hand(pyspiel):
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(COLORFOX)
    state, twin = dealt(game, range(1, 10)), dealt(game, [11, 12, 13, 14, 5, 6, 7, 8, 9])
    for perfect_recall in (False, True):
        public = make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=perfect_recall, private_info=pyspiel.PrivateInfoType.NONE)
        )
        assert public.string_from(state, 0) == public.string_from(twin, 0)
        assert "#1" not in public.string_from(state, 0)
        if not perfect_recall:
            public.set_from(state, 0)
            seen = public.tensor.copy()
            public.set_from(twin, 0)
            assert numpy.array_equal(seen, public.tensor)


def test_openspiel_colorfox_draws_are_chance_nodes_over_the_unseen_cards(pyspiel):
    game = pyspiel.load_game(COLORFOX)
    state = dealt(game, range(1, 10))
    state.apply_action(state.legal_actions()[0])  # the card to lay
    assert state.current_player() == 0 and "you chose card" in state.information_state_string(0)
    assert "chose" not in state.information_state_string(1) + state.observation_string(1)
    state.apply_action(state.legal_actions()[0])  # its cell
    assert state.is_chance_node()
    assert sorted(o + 1 for o, _ in state.chance_outcomes()) == list(range(10, 55))
    state.apply_action(53)
    assert 54 in [c.number for c in state.now.table.hands[0]] and "you draw #54" in state.information_state_string(0)
    assert "#54" not in state.information_state_string(1) + state.observation_string(1)


def test_rules_parameters_reach_the_model(pyspiel):
    upright, turning = pyspiel.load_game(COLORFOX), pyspiel.load_game(COLORFOX, {"half_turn": True})
    turned = {colorfox_encoding.action_name(n) for n in dealt(turning, range(1, 10)).legal_actions()}
    assert any("turned" in name for name in turned)
    assert not any("turned" in colorfox_encoding.action_name(n) for n in dealt(upright, range(1, 10)).legal_actions())
    small = pyspiel.load_game(COLORIUM, {"width": 5, "height": 6, "players": 3})
    assert small.num_players() == 3 and small.observation_tensor_shape() == [
        colorium_encoding.observation_shape(colorium.Rules(width=5, height=6, players=3))[0]
    ]
    first = pyspiel.load_game(COLORIUM, {"missions": "first"}).new_initial_state()
    assert first.is_chance_node() and first.now.table.missions == ("lines-1", "colours-1", "shapes-1", "areas-1")
    with pytest.raises(Exception, match="players = 7 is not allowed"):
        pyspiel.load_game(COLORFOX, {"players": 7})
    with pytest.raises(Exception, match="unknown mission"):
        pyspiel.load_game(COLORIUM, {"mission_ids": "no-such-mission"})


def other_value(spec: dataclasses.Field):
    """A value of this rule other than its default (every kind of rule the games have)."""
    default, meta = spec.default, spec.metadata
    if meta.get("choices"):
        return next(choice for choice in meta["choices"] if choice != default)
    if isinstance(default, bool):
        return not default
    if isinstance(default, int):
        return default + 1 if default + 1 <= meta["high"] else default - 1
    assert spec.name == "mission_ids", f"no other value known for {spec.name}"
    return "lines-2, shapes-3,areas-1"  # commas, with and without spaces, as a learner may type them


def partly_played(game, seed: int = 3, actions: int = 7):
    """A state some chance outcomes and actions into the game (random, seeded)."""
    rng, state = numpy.random.RandomState(seed), game.new_initial_state()
    while actions and not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            actions -= 1
    return state


@pytest.mark.parametrize(
    "name, rules_type", [(COLORFOX, colorfox.Rules), (COLORIUM, colorium.Rules)], ids=["colorfox", "colorium"]
)
def test_every_rule_survives_the_game_string_and_a_saved_game(pyspiel, name, rules_type):
    for spec in dataclasses.fields(rules_type):
        value = other_value(spec)
        game = pyspiel.load_game(name, {spec.name: value})
        assert getattr(game.rules, spec.name) == value, spec.name
        again = pyspiel.load_game(str(game))
        assert again.rules == game.rules, f"{spec.name}: {game!s}"
        state = partly_played(game)
        loaded_game, loaded_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert loaded_game.rules == game.rules and loaded_state.history() == state.history(), spec.name
        assert str(loaded_state) == str(state), spec.name


def test_a_mission_id_that_a_game_string_could_not_hold_is_refused(pyspiel):
    listed = pyspiel.load_game(COLORIUM, {"mission_ids": "lines-2;shapes-3"})  # as a game string lists them
    assert partly_played(listed, actions=0).now.table.missions == ("lines-2", "shapes-3")
    with pytest.raises(ValueError, match="may not hold"):
        colorium.add_mission(dataclasses.replace(colorium_missions.MISSIONS["lines-1"], id="lines,again"))


def test_openspiel_colorium_missions_and_dice_are_chance_outcomes(pyspiel):
    state = pyspiel.load_game(COLORIUM).new_initial_state()
    for _kind in ("lines", "colours", "shapes", "areas"):
        assert len(state.chance_outcomes()) == 4
        state.apply_action(3)
    assert state.now.table.missions == ("lines-4", "colours-4", "shapes-4", "areas-4")
    for face in ("I", "I", "B", "B"):
        state.apply_action(colorium_encoding.FACES.index(("shape" if face == "I" else "colour", face)))
    assert state.now.table.pool == (("colour", "B"), ("colour", "B"), ("shape", "I"), ("shape", "I"))
    assert [line for line in state.now.table.events if "dice" in line] == [
        "Round 1: the shape dice show I and I, the colour dice blue and blue."
    ]
    assert state.legal_actions() == sorted(colorium_encoding.FACES.index(face) for face in set(state.now.table.pool))


def play_against_random(game, bot, seed):
    """Play one whole game: the bot in seat 0, random players elsewhere; return the returns."""
    rng = numpy.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state.returns()


def test_openspiels_mcts_bot_plays_a_whole_game_of_colorium(pyspiel):
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(COLORIUM)
    rollouts = mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=8, evaluator=rollouts, random_state=numpy.random.RandomState(2))
    assert sum(play_against_random(game, bot, 0)) == pytest.approx(1)


def test_openspiels_information_set_mcts_bot_plays_a_whole_game_of_colorfox(pyspiel):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(COLORFOX, {"players": 3})
    rollouts = mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, rollouts, 2.0, 10, random_state=numpy.random.RandomState(3))
    assert sum(play_against_random(game, bot, 0)) == pytest.approx(1)


def test_a_resampled_colorfox_state_looks_the_same_to_the_player(pyspiel):
    game, rng = pyspiel.load_game(COLORFOX, {"players": 3}), numpy.random.RandomState(5)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        chance_step(state, rng)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.now.table.hands != state.now.table.hands
    for look in ("observation_string", "observation_tensor", "information_state_string"):
        assert getattr(other, look)(player) == getattr(state, look)(player), look
    for seat in range(3):  # every player's past cards were told again to fit its new hand
        history = other.information_state_string(seat)
        assert all(f"#{c.number}" in history for c in other.now.table.hands[seat])


def test_the_examples_of_the_openspiel_guide_run(pyspiel, capsys):
    guide = (Path(__file__).parent.parent / "docs" / "openspiel.md").read_text(encoding="utf-8")
    examples = re.findall(r"```python\n(.*?)```", guide, re.DOTALL)
    assert len(examples) == 3
    namespace = {}
    for example in examples:
        exec(example, namespace)
    for line in capsys.readouterr().out.splitlines():
        assert sum(ast.literal_eval(line)) == pytest.approx(1)


@pytest.mark.parametrize(
    "name, params",
    [
        (COLORFOX, {}),
        (COLORFOX, {"players": 4, "exchange_pick": "opponent"}),
        (COLORIUM, {"players": 1}),
        (COLORIUM, {"players": 3}),
        (COLORIUM, {"players": 4, "width": 5, "height": 5}),
    ],
)
def test_the_search_bot_acts_at_every_decision_openspiel_asks_of_it(pyspiel, name, params):
    """OpenSpiel asks the players of a Colorium round's drawings in its own order (from the active player round the
    table), not the model's: the bot answers each of them, in every phase, with a legal number."""
    from colorlab.openspiel import search_bot

    game = pyspiel.load_game(name, params)
    bots = [search_bot(game, player, seed=player, playouts=8) for player in range(game.num_players())]
    rng, state, asked = numpy.random.RandomState(5), game.new_initial_state(), collections.Counter()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        player = state.current_player()
        table = state.now.table
        asked[(getattr(table, "phase", "turn"), player == getattr(table, "active", player))] += 1
        action = bots[player].step(state)
        assert action in state.legal_actions(player)
        state.apply_action(action)
    assert all(0 <= value <= 1 for value in state.returns())
    if game.num_players() > 1:  # a solo game has no win to share: it gives its score
        assert sum(state.returns()) == pytest.approx(1.0)
    if name == COLORIUM and game.num_players() > 1:
        assert asked[("draw", False)] > 0, "no drawing was asked of a player other than the active one"


@pytest.mark.parametrize("name", [COLORFOX, COLORIUM])
def test_every_bot_of_a_game_plays_whole_games_in_openspiels_evaluate_bots(pyspiel, name):
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from colorlab.games import find_game
    from colorlab.openspiel import bot

    game = pyspiel.load_game(name, {"players": 3})
    names = [n for n in find_game(name.removeprefix("python_colorlab_")).bots if not n.startswith("SearchBot")]
    for first in names:
        bots = [bot(game, player, n, seed=player) for player, n in enumerate([first, *names][:3])]
        returns = evaluate_bots(game.new_initial_state(), bots, numpy.random.RandomState(len(first)))
        assert sum(returns) == pytest.approx(1.0) and all(0 <= value <= 1 for value in returns), first


def test_a_bot_refuses_a_moment_that_is_not_its_players_decision_and_a_game_not_ours(pyspiel):
    from colorlab.openspiel import bot, search_bot

    game = pyspiel.load_game(COLORFOX)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="has no decision to make now"):
        bot(game, 0, "GreedyBot").step(state)  # a chance node: the deal
    while state.is_chance_node():
        chance_step(state, numpy.random.RandomState(0))
    waiting = 1 - state.current_player()
    with pytest.raises(ValueError, match=f"plays player {waiting}, who has no decision"):
        search_bot(game, waiting, playouts=4).step(state)
    with pytest.raises(ValueError, match="there is no player 2"):
        bot(game, 2)
    with pytest.raises(ValueError, match="not one of colorlab's games"):
        search_bot(pyspiel.load_game("tic_tac_toe"), 0)
    with pytest.raises(ValueError, match="has no bot called 'Nobody'"):
        bot(game, 0, "Nobody")


def played_out(game, seed: int):
    """A whole game of random legal moves (random chance outcomes as dealt), seeded."""
    rng, state = numpy.random.RandomState(seed), game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    ("name", "params", "scores"),
    [
        (
            COLORFOX,
            {"players": 3},
            lambda table: [s / colorfox_scoring.most_points(table.rules) for s in colorfox_model.scores(table)],
        ),
        (COLORIUM, {"players": 2}, lambda table: [min(s / 100, 1.0) for s in colorium_model.scores(table)]),
    ],
    ids=["colorfox", "colorium"],
)
def test_returns_are_the_win_by_default_or_each_players_score_from_0_to_1(pyspiel, name, params, scores):
    won = pyspiel.load_game(name, params)
    scored = pyspiel.load_game(name, {**params, "returns": "score"})
    assert won.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert scored.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert pyspiel.load_game(str(scored)).returns_kind == "score"
    spread = set()
    for seed in range(4):
        winning, scoring = played_out(won, seed), played_out(scored, seed)
        assert winning.history() == scoring.history()
        assert sum(winning.returns()) == pytest.approx(1.0) and max(winning.returns()) > 0
        assert scoring.returns() == pytest.approx(scores(scoring.now.table))
        assert all(0 <= value <= 1 for value in scoring.returns())
        spread |= set(scoring.returns())
    assert len(spread) > 2, "the scores do not tell the games apart"
    with pytest.raises(Exception, match="returns = 'points' is not allowed"):
        pyspiel.load_game(name, {"returns": "points"})


def test_a_solo_colorium_game_returns_its_score_not_a_win_always_had(pyspiel):
    solo = pyspiel.load_game(COLORIUM, {"players": 1})
    returns = [played_out(solo, seed).returns()[0] for seed in range(6)]
    assert all(0 < value < 1 for value in returns) and len(set(returns)) > 1, returns
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "games"),
    [
        (colorium.Rules(), 10_000),
        (colorium.Rules(players=1), 2_000),
        (colorium.Rules(players=4, width=5, height=5), 2_000),
        (colorium.Rules(players=3, shapes="ITLV", width=4, height=6), 2_000),
        (colorium.Rules(players=2, shapes="IOTLS", bonuses=False), 2_000),
    ],
    ids=["default", "solo", "four-on-5x5", "ITLV-4x6", "no-bonuses"],
)
def test_colorium_max_game_length_is_never_passed_and_is_tight(pyspiel, rules, games):
    """The bound (colorium/spiel.py's game_length, from the board's spaces, the smallest shape and the bonuses) holds
    for the longest of many random games, and is within about twice it: the old bound was over four times."""
    from colorlab.agents import seated_bots

    bound = pyspiel.load_game(COLORIUM, rules.to_dict()).max_game_length()
    longest = max(
        decisions(colorium.play_game(rules, seated_bots([colorium.RandomBot] * rules.players, seed), seed).actions)
        for seed in range(games)
    )
    assert longest <= bound < 2.5 * longest, (longest, bound)


def decisions(actions) -> int:
    """How many OpenSpiel decisions these model actions take: two for a card laid, a drawing or a wild space."""
    two = (colorfox_model.Place, colorium_model.Draw, colorium_model.Wild)
    return len(actions) + sum(isinstance(action, two) for action in actions)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "games", "tight"),
    [
        (colorfox.Rules(), 10_000, True),
        (colorfox.Rules(passing="end when all pass"), 2_000, True),
        (colorfox.Rules(exchanges=False, sticks_per_colour=20), 2_000, True),
        (colorfox.Rules(players=3), 2_000, False),
        (colorfox.Rules(players=4, half_turn=True), 2_000, False),
        (colorfox.Rules(players=3, sticks_per_colour=3, exchange_pick="opponent"), 2_000, False),
    ],
    ids=["default", "end-when-all-pass", "no-exchanges", "three", "four-turning", "three-few-sticks"],
)
def test_colorfox_max_game_length_is_never_passed_and_is_tight_for_two(pyspiel, rules, games, tight):
    """The bound (colorfox/spiel.py's game_length, from the joins the layout and the sticks allow, the pile and the
    passes) holds for the longest of many random games; for two players it is within 2.5 times it (the old bound was
    over five times). With more players it must allow a run of passes between any two cards laid, which random games
    seldom come near."""
    from colorlab.agents import seated_bots

    bound = pyspiel.load_game(COLORFOX, rules.to_dict()).max_game_length()
    longest = max(
        decisions(colorfox.play_game(rules, seated_bots([colorfox.RandomBot] * rules.players, seed), seed).actions)
        for seed in range(games)
    )
    assert longest <= bound, (longest, bound)
    assert bound < (2.5 if tight else 4) * longest, (longest, bound)


def colorfox_observation_from_the_models_view(state, player, chosen=()):
    """The ColorFox observation built only from the model's own view of the table for `player` (model.observation)."""
    enc, seen = colorfox_encoding, colorfox_model.observation(state, player)
    rules, reach = state.rules, colorfox_encoding.REACH
    parts = {name: numpy.zeros(shape, numpy.float32) for name, shape in enc.observation_layout(rules).items()}
    parts["cards"][:, 2] = 1
    for card in seen["hand"]:
        parts["cards"][card["number"] - 1, :3] = (1, 0, 0)
    for card in seen["table"]:
        place = ((card["x"] + reach) / (2 * reach), (card["y"] + reach) / (2 * reach))
        parts["cards"][card["number"] - 1] = (0, 1, 0, *place, card["turned"])
    parts["you"][player] = parts["to move"][seen["to_move"]] = parts["active"][seen["active"]] = 1
    sticks, points, colours = rules.sticks_per_colour, colorfox_scoring.most_points(rules), colorfox_model.COLOUR_NAMES
    parts["hand sizes"][:] = [min(size / enc.DECK, 1) for size in seen["hand_sizes"]]
    parts["sticks"][:] = [[min(counts[name] / sticks, 1) for name in colours] for counts in seen["sticks"]]
    parts["scores"][:] = [min(score / points, 1) for score in seen["scores"]]
    parts["supply"][:] = [min(seen["supply"][name] / sticks, 1) for name in colours]
    parts["pile"][0], parts["exchanges left"][0] = seen["deck"] / enc.DECK, seen["exchanges_left"] / 3
    parts["over"][0] = seen["over"]
    if seen["offer"]:
        parts["offer to"][seen["offer"]["opponent"]] = parts["offer gives"][colours.index(seen["offer"]["give"])] = 1
    open_now, laid = [], set()  # the open cells in the order they opened, from the cards in the order they were laid
    for c in seen["table"]:
        cell = (c["x"], c["y"])
        laid.add(cell)
        open_now = [free for free in open_now if free != cell]
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):  # top, right, bottom, left
            if (c["x"] + dx, c["y"] + dy) not in laid and (c["x"] + dx, c["y"] + dy) not in open_now:
                open_now.append((c["x"] + dx, c["y"] + dy))
    for index, (x, y) in enumerate(open_now):
        parts["open cells"][index] = (1, (x + reach) / (2 * reach), (y + reach) / (2 * reach))
    if chosen:
        card, turned = enc.chosen_card(chosen, rules)
        parts["chosen"][card - 1, int(turned)] = 1
    return numpy.concatenate([part.ravel() for part in parts.values()])


def colorium_observation_from_the_models_view(state, player, chosen=()):
    """The Colorium observation built only from the model's own view of the game (model.observation), part by part."""
    enc, seen, rules = colorium_encoding, colorium_model.observation(state, player), state.rules
    parts = {name: numpy.zeros(shape, numpy.float32) for name, shape in enc.observation_layout(rules).items()}
    spaces, rows = rules.width * rules.height, sorted(colorium_model.ROW_REWARDS)
    for p in range(state.players):
        for r, row in enumerate(seen["boards"][p]):
            for c, code in enumerate(row):
                if code in enc.CODES:
                    parts["boards"][p, r, c, enc.CODES.index(code)] = 1
        for letter, count in collections.Counter(seen["drawn_shapes"][p]).items():
            parts["shapes drawn"][p, enc.LETTERS.index(letter)] = min(count / spaces, 1)
        for kind, face in zip(("shape", "colour"), seen["picks"][p]):
            if face:
                parts["picked"][p, enc.FACES.index((kind, face))] = 1
        for c, mark in enumerate(seen["bonuses"][p]):
            parts["bonuses"][p, c, enc.MARKS.index(mark)] = 1
        for row, points in seen["row_points"][p]:
            parts["row points"][p, rows.index(row)] = min(points / enc.MOST_ROW_POINTS, 1)
    parts["drawn"][:], parts["out"][:] = seen["drawn"], seen["out"]
    parts["scores"][:] = [min(score / enc.SCORE_SCALE, 1) for score in seen["scores"]]
    for kind, face in seen["pool"]:
        parts["pool"][enc.FACES.index((kind, face))] += 1 / state.players
    for turn, seat in enumerate(seen["order"]):
        parts["order"][turn, seat] = 1
    parts["you"][player] = parts["active"][seen["active"]] = parts["phase"][enc.PHASES.index(seen["phase"])] = 1
    parts["round"][0] = min(seen["round"] / (spaces + 1), 1)
    for mission in seen["missions"]:
        if mission["id"] in enc.EDITION_MISSIONS:
            parts["missions"][enc.EDITION_MISSIONS.index(mission["id"])] = 1
    if chosen:
        kind, offset = enc._block_of(chosen[0], rules)
        if kind == "drawing":
            piece, colour = divmod(offset, len(enc.CODES))
            parts["chosen piece"][piece] = parts["chosen colour"][colour] = 1
        else:
            parts["chosen space"].flat[offset] = 1
    return numpy.concatenate([part.ravel() for part in parts.values()])


@pytest.mark.parametrize("model, encoding, rules", GAMES, ids=GAME_IDS)
def test_an_observation_holds_exactly_what_the_models_view_shows_the_player(model, encoding, rules):
    """The encodings read the state straight for speed; built from the model's own view instead (which never shows
    another ColorFox hand or the pile), it is the same array at every state of whole games, for every player, with a
    move begun (a ColorFox card, a Colorium drawing or wild space) as well as without."""
    from_view = (
        colorfox_observation_from_the_models_view
        if model is colorfox_model
        else colorium_observation_from_the_models_view
    )
    rng, begun = random.Random(4), 0
    for seed in range(3):
        for state in random_game(model, encoding, rules, seed):
            for player in range(rules.players):
                chosen = ()
                if player in encoding.acting(state) and rng.random() < 0.5:
                    first = rng.choice(encoding.legal_numbers(state, player))
                    if encoding.action_of(first, state, player) is None:  # the first of a move's two numbers
                        chosen, begun = (first,), begun + 1
                assert numpy.allclose(encoding.observation(state, player, chosen), from_view(state, player, chosen))
    assert begun > 5


@pytest.mark.parametrize(
    "params", [{}, {"players": 3, "passing": "end when all pass"}, {"players": 4, "exchange_pick": "opponent"}]
)
def test_colorfox_cards_drawn_by_chance_give_the_state_the_model_reaches_with_them_on_top(pyspiel, params):
    """A drawing action is played once; the chance-chosen cards then take the place of the model's own draw. The
    result is the state the model reaches when it plays the action again with those cards on top of the pile."""
    from colorlab.colorfox import spiel as colorfox_spiel

    game, rng = pyspiel.load_game(COLORFOX, params), numpy.random.RandomState(5)
    draws = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            now = state.now
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=chances)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            if now.waiting is not None and state.now.waiting is None:
                drawn = now.drawn + (state.history()[-1] + 1,)
                pile = tuple(colorfox.components.card(n) for n in drawn)
                pile += tuple(c for c in now.table.deck if c.number not in drawn)
                replayed = colorfox_model.play(colorfox_model.evolve(now.table, deck=pile), now.waiting)
                assert state.now.table == replayed == colorfox_spiel._with_drawn(now, drawn)
                draws += 1
    assert draws > 20
