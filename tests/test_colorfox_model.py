"""The ColorFox engine: many random games with invariants after every action, and refusals."""

import dataclasses
import random
import statistics
from collections import Counter

import pytest

from colorlab.colorfox import agents as fox_agents
from colorlab.colorfox import model
from colorlab.colorfox.agents import GreedyBot, RandomBot, SetBuilder, next_action, play_game
from colorlab.colorfox.components import cards
from colorlab.colorfox.model import (
    COLOUR_NAMES,
    CanStillPlay,
    CardNotInHand,
    CellTaken,
    ColoursDiffer,
    Done,
    Exchange,
    ExchangesPending,
    HandBack,
    NoExchange,
    NotConnected,
    Pass,
    Place,
    TurnNotAllowed,
    UnknownPlayer,
    connections,
    fits,
    legal_exchanges,
    legal_places,
    new_game,
    play,
    rematch_due,
    scores,
    to_move,
    winners,
)
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import score_sticks
from colorlab.record import GameRecord
from colorlab.rules import ChangeRules, GameOver, NotYourTurn
from tests.helpers.colorfox import check_invariants, check_step

VARIANTS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, half_turn=True),
    Rules(players=3, exchanges=False),
    Rules(players=4, exchange_pick="opponent"),
    Rules(players=3, sticks_per_colour=3),
    Rules(players=2, set_score="square", max_set_size=4),
    Rules(players=2, exchange_pick="opponent", sticks_per_colour=3),
    Rules(players=3, passing="end when all pass", tie="shared win"),
    Rules(players=2, sticks_per_colour=20),
    Rules(players=3, sticks_per_colour=20, passing="end when all pass"),
]
BOTS = [RandomBot, GreedyBot, SetBuilder]


def check_only_the_player_to_move_may_act(state):
    """Every other player's action is refused and changes nothing."""
    for other in range(state.players):
        if other != to_move(state) and not state.over:
            for action in (Pass(other), Done(other), HandBack(other, "red")):
                refused(state, action, (NotYourTurn, NoExchange))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_random_games_keep_every_invariant(rules):
    for seed in range(10):
        rng = random.Random(seed)
        agents = [rng.choice(BOTS)(seed=seed * 10 + seat) for seat in range(rules.players)]
        state = new_game(rules, seed)
        check_invariants(state)
        actions = []
        while not state.over:
            assert len(actions) < 600, "game did not end"
            action = next_action(state, agents)
            after = play(state, action)
            check_invariants(after)
            check_step(state, action, after)
            check_only_the_player_to_move_may_act(after)
            state, actions = after, actions + [action]
        record = GameRecord("colorfox", rules, seed, tuple(actions))
        again = GameRecord.from_json(record.to_json())
        assert again == record and again.to_json() == record.to_json()
        assert again.final_state().sticks == state.sticks


def test_the_start_card_and_the_hands():
    for players, size in ((2, 4), (3, 3), (4, 3)):
        state = new_game(Rules(players=players), seed=1)
        assert [len(hand) for hand in state.hands] == [size] * players
        assert list(state.table) == [(0, 0)] and len(state.deck) == 54 - 1 - size * players
        assert set(state.frontier) == {(0, -1), (1, 0), (0, 1), (-1, 0)}


def test_a_placement_connects_every_touching_edge_and_pays_sticks():
    state = new_game(Rules(players=2), seed=3)
    place = legal_places(state)[0]
    joined = connections(state, (place.x, place.y))
    after = play(state, place)
    assert sorted(n for n in after.sticks[0]) != sorted(n for n in state.sticks[0]) or not joined
    assert sum(after.sticks[0]) == len(joined)


def state_with_exchange(rules=Rules(players=3)):
    """Play bot games until the active player has an exchange to make."""
    for seed in range(200):
        state = new_game(rules, seed)
        agents = [GreedyBot(seed=s) for s in range(rules.players)]
        while not state.over:
            if state.exchanges_left and legal_exchanges(state):
                return state
            state = play(state, next_action(state, agents))
    pytest.skip("no exchange came up")


def test_exchanges_swap_one_stick_each_and_keep_counts():
    state = state_with_exchange()
    choice = legal_exchanges(state)[0]
    after = play(state, choice)
    give, take = COLOUR_NAMES.index(choice.give), COLOUR_NAMES.index(choice.take)
    assert after.sticks[choice.player][give] == state.sticks[choice.player][give] - 1
    assert after.sticks[choice.player][take] == state.sticks[choice.player][take] + 1
    assert after.sticks[choice.opponent][give] == state.sticks[choice.opponent][give] + 1


def refused(state, action, error):
    snapshot = dataclasses.replace(state)
    with pytest.raises(error):
        play(state, action)
    assert state == snapshot


def test_illegal_placements_are_refused_with_the_reason():
    state = new_game(Rules(players=2), seed=5)
    hand = state.hands[0]
    other = state.hands[1][0]
    fitting = legal_places(state)
    refused(state, Place(0, other.number, 0, -1), CardNotInHand)
    refused(state, Place(0, hand[0].number, 0, 0), CellTaken)
    refused(state, Place(0, hand[0].number, 5, 5), NotConnected)
    refused(state, Place(0, hand[0].number, 0, -1, turned=True), TurnNotAllowed)
    refused(state, Place(1, state.hands[1][0].number, 0, -1), NotYourTurn)
    refused(state, Place(7, hand[0].number, 0, -1), UnknownPlayer)
    misfit = next(
        Place(0, c.number, x, y) for c in hand for (x, y) in state.frontier if Place(0, c.number, x, y) not in fitting
    )
    refused(state, misfit, ColoursDiffer)
    if fitting:
        refused(state, Pass(0), CanStillPlay)
    refused(state, Exchange(0, 1, "red", "blue"), NoExchange)
    refused(state, Done(0), NoExchange)


def test_illegal_exchanges_are_refused_with_the_reason():
    state = state_with_exchange()
    me = state.active
    other = (me + 1) % state.players
    empty = next((c for i, c in enumerate(COLOUR_NAMES) if not state.sticks[me][i]), None)
    refused(state, legal_places(state)[0] if legal_places(state) else Pass(me), ExchangesPending)
    refused(state, Exchange(me, me, "red", "blue"), NoExchange)
    refused(state, Exchange(me, other, "red", "red"), NoExchange)
    refused(state, Exchange(me, other, "pink", "red"), NoExchange)
    if empty:
        refused(state, Exchange(me, other, empty, next(c for c in COLOUR_NAMES if c != empty)), NoExchange)


def test_the_game_ends_when_a_connected_colour_has_no_stick_left():
    ended = [play_game(Rules(players=p, sticks_per_colour=2), seed=s).final_state() for p in (2, 3) for s in range(10)]
    assert any(state.end_reason == "a colour's sticks ran out" for state in ended)
    for state in ended:
        assert state.over
        if state.end_reason == "a colour's sticks ran out":
            assert 0 in state.supply
        with pytest.raises(GameOver):
            play(state, Pass(state.active))


def test_live_rules_change_mid_game_and_others_are_refused():
    state = new_game(Rules(players=2), seed=2)
    after = play(state, ChangeRules({"half_turn": True}))
    assert after.rules.half_turn and len(legal_places(after)) >= len(legal_places(state))
    with pytest.raises(Exception, match="cannot change during a game"):
        play(state, ChangeRules({"players": 3}))


def test_scores_use_the_best_split_and_a_tie_can_be_shared():
    state = play_game(Rules(players=2, tie="shared win"), seed=4).final_state()
    assert scores(state) == [model.score_sticks(model.stick_counts(state, p), state.rules) for p in range(2)]
    tied = dataclasses.replace(state, sticks=(state.sticks[0], state.sticks[0]))
    assert winners(tied) == [0, 1] and rematch_due(tied) == []


def test_the_deck_has_54_cards():
    assert len(cards()) == 54


def test_ema_takes_the_last_green_stick_and_the_next_green_connection_ends_the_game():
    """The rulebook's example: the last green stick is taken; the next green connection ends the game."""
    green = COLOUR_NAMES.index("green")
    agents = [GreedyBot(seed=s) for s in range(2)]
    state = new_game(Rules(players=2), seed=8)
    while True:
        greens = [p for p in legal_places(state) if connections(state, (p.x, p.y)) == ["green"]]
        if greens and not state.exchanges_left:
            break
        state = play(state, next_action(state, agents))
    supply = list(state.supply)
    supply[green] = 1
    state = play(dataclasses.replace(state, supply=tuple(supply)), greens[0])
    assert state.supply[green] == 0 and not state.over and not state.ending
    while not state.over:
        action = next_action(state, agents)
        joins_green = isinstance(action, Place) and "green" in connections(state, (action.x, action.y))
        held = state.sticks[state.active][green]
        state = play(state, action)
        if joins_green:
            assert state.over or state.exchanges_left
            assert state.ending and state.sticks[action.player][green] == held
            break


def states_of_random_games(rules, seeds):
    """Every state of bot games, for checking what the model works out fast against a fresh count."""
    for seed in seeds:
        record = play_game(rules, [RandomBot(seed=seed * 10 + seat) for seat in range(rules.players)], seed=seed)
        yield from record.states()


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, half_turn=True)], ids=["upright", "half turn"])
def test_each_frontier_cell_keeps_the_cards_of_the_deck_that_fit_it(rules):
    for state in states_of_random_games(rules, range(6)):
        for cell, (_, _, fitting) in state.frontier.items():
            fresh = sum(
                model.card_bit(card.number, turned)
                for card in cards()
                for turned in (False, True)
                if fits(state, card, cell, turned)
            )
            assert fitting == fresh, f"cell {cell}"


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, half_turn=True)], ids=["upright", "half turn"])
def test_legal_spots_are_every_fitting_card_cell_by_cell_in_hand_order(rules):
    turns = (False, True) if rules.half_turn else (False,)
    for state in states_of_random_games(rules, range(6)):
        for player in range(state.players):
            fresh = [
                (card.number, x, y, turned)
                for (x, y) in state.frontier
                for card in state.hands[player]
                for turned in turns
                if fits(state, card, (x, y), turned)
            ]
            assert model.legal_spots(state, player) == fresh


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, half_turn=True)], ids=["upright", "half turn"])
def test_random_spot_draws_what_a_choice_among_every_spot_draws(rules):
    for seed, state in enumerate(states_of_random_games(rules, range(6))):
        fast, slow = random.Random(seed), random.Random(seed)
        spots = model.legal_spots(state)
        assert model.random_spot(state, state.active, fast) == (slow.choice(spots) if spots else None)
        assert fast.getstate() == slow.getstate(), "the two draws used chance differently"


def test_a_placement_tells_what_it_joined_and_what_it_took():
    for state in states_of_random_games(Rules(sticks_per_colour=2), range(10)):
        if state.over or state.exchanges_left or state.offer:
            continue
        for place in legal_places(state)[:3]:
            joined = connections(state, (place.x, place.y))
            supply = dict(zip(COLOUR_NAMES, state.supply))
            taken = []
            for colour in joined:
                if supply[colour]:
                    supply[colour] -= 1
                    taken.append(colour)
            after = play(state, place)
            assert after.events[0] == (
                f"Player {place.player}: lays a card that matches {model.in_words(joined)}; "
                f"takes {model.in_words(taken) or 'no stick'}."
            )
            short = sorted({colour for colour in joined if joined.count(colour) > taken.count(colour)})
            warning = f"No {', '.join(short)} stick is left: the game ends after this turn."
            assert (warning in after.events) == bool(short)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3, half_turn=True), Rules(exchange_pick="opponent")],
    ids=["upright", "half turn", "opponent picks"],
)
def test_the_random_bot_draws_as_a_choice_among_every_legal_action_would(rules):
    def listed_choice(state, player, rng):
        """The random bot's rule with every action listed: stop exchanging one time in two, else choose."""
        if state.offer is not None:
            return HandBack(player, rng.choice(model.hand_backs(state)).colour)
        if state.exchanges_left:
            options = legal_exchanges(state)
            return rng.choice(options) if options and rng.random() < 0.5 else Done(player)
        places = legal_places(state, player)
        return rng.choice(places) if places else Pass(player)

    for seed, state in enumerate(states_of_random_games(rules, range(8))):
        if state.over:
            continue
        bot, rng = RandomBot(seed=seed), random.Random(seed)
        assert bot.act(state, to_move(state)) == listed_choice(state, to_move(state), rng)
        assert bot.rng.getstate() == rng.getstate()


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=3, exchange_pick="opponent"),
        Rules(set_score="square"),
        Rules(players=3, sticks_per_colour=2),
    ],
    ids=["default", "opponent picks", "square", "few sticks"],
)
def test_the_search_playout_policy_judges_every_move_as_the_greedy_bot_does(rules):
    def fresh_gain(state, player, more):
        """How a player's score changes with `more` sticks, scored afresh by name."""
        counts = model.stick_counts(state, player)
        after = {colour: n + more.get(colour, 0) for colour, n in counts.items()}
        return score_sticks(after, state.rules) - score_sticks(counts, state.rules)

    def place_worth(state, place):
        """The greedy bot's measure of a placement, from its connections and the supply."""
        more, supply = Counter(), dict(zip(COLOUR_NAMES, state.supply))
        for colour in connections(state, (place.x, place.y)):
            if supply[colour] > more[colour]:
                more[colour] += 1
        return fresh_gain(state, place.player, dict(more)), sum(more.values())

    def exchange_worth(state, move):
        """The greedy bot's measure of an exchange, or of an offer on average over the sticks handed back."""
        takes = (
            [move.take]
            if isinstance(move, Exchange)
            else [colour for colour, n in model.stick_counts(state, move.opponent).items() if n and colour != move.give]
        )
        return statistics.fmean(fresh_gain(state, move.player, {move.give: -1, take: 1}) for take in takes)

    def listed_policy(state, rng):
        """The playout policy with every action listed and judged afresh."""
        if state.offer is not None:
            return rng.choice(model.hand_backs(state))
        if state.exchanges_left:
            helpful = [move for move in legal_exchanges(state) if exchange_worth(state, move) > 0]
            return rng.choice(helpful) if helpful else Done(state.active)
        places = legal_places(state)
        if not places:
            return Pass(state.active)
        best = max(place_worth(state, place) for place in places)
        return rng.choice([place for place in places if place_worth(state, place) == best])

    for seed, state in enumerate(states_of_random_games(rules, range(6))):
        if state.over:
            continue
        fast, slow = random.Random(seed), random.Random(seed)
        assert fox_agents.playout_action(state, fast) == listed_policy(state, slow)
        assert fast.getstate() == slow.getstate()
        for place in legal_places(state)[:4]:
            assert fox_agents.place_value(state, place) == place_worth(state, place)
