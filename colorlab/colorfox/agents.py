"""ColorFox bots, and a loop that plays bots against each other.

- :class:`RandomBot` places a random fitting card and makes random exchanges.
- :class:`GreedyBot` takes the placement that raises its own score most now (then
  the most sticks), and only exchanges when that raises its score.
- :class:`SetBuilder` places like the greedy bot but exchanges with care: it takes
  the colour that completes its sets and gives what helps the leader least.
- :class:`SearchBot` searches ahead (information-set MCTS, ``colorlab.search``) over
  many deals of the cards it cannot see: the other hands and the pile.

When the rules let the opponent pick the stick it hands over, a bot offers a
stick, and the bot of the opponent answers (:meth:`RandomBot.stick_to_hand_back`)
on its own move: the loop always asks the bot of the player to move.
"""

from __future__ import annotations

import math
import operator
import random
import statistics

from colorlab.agents import SeededAgent, play_out, seated_bots
from colorlab.colorfox.model import (
    COLOUR_NAMES,
    Done,
    Exchange,
    HandBack,
    Offer,
    Pass,
    Place,
    Position,
    State,
    evolve,
    exchange_of,
    exchange_terms,
    hand_backs,
    legal_actions,
    legal_exchanges,
    legal_places,
    legal_spots,
    observation,
    play,
    random_spot,
    scores,
    sticks_taken,
    to_move,
)
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import score_counts, score_sticks
from colorlab.record import GameRecord
from colorlab.search import SearchAgent, SearchGame, Tuning


def gain(state: State, player: int, more: dict[str, int]) -> int:
    """How much would a player's score change if its sticks changed by `more`?"""
    counts = state.sticks[player]
    after = tuple(n + more.get(name, 0) for name, n in zip(COLOUR_NAMES, counts))
    if type(sum(after)) is not int or min(after) < 0:  # let the full scoring refuse such counts
        return score_sticks(dict(zip(COLOUR_NAMES, after)), state.rules) - score_counts(counts, state.rules)
    return score_counts(after, state.rules) - score_counts(counts, state.rules)


def swap_gains(state: State) -> dict[tuple[str, str], int]:
    """How much would each swap, one stick given for one of another colour, change the active player's score?"""
    counts = state.sticks[state.active]
    before = score_counts(counts, state.rules)
    gains = {}
    for give, name in enumerate(COLOUR_NAMES):
        if counts[give]:
            for take, other in enumerate(COLOUR_NAMES):
                if take != give:
                    after = list(counts)
                    after[give], after[take] = after[give] - 1, after[take] + 1
                    gains[name, other] = score_counts(tuple(after), state.rules) - before
    return gains


def place_value(state: State, place: Place) -> tuple[int, int]:
    """What does a placement bring now: (score gained, sticks gained)?"""
    cell = (place.x, place.y)
    return cell_values(state, place.player, [cell])[cell]


def cell_values(state: State, player: int, cells) -> dict[Position, tuple[int, int]]:
    """What does a card on each of these cells bring the player now: (score gained, sticks gained)?

    What a placement brings depends on its cell only: any card that fits joins the same colours.
    """
    counts = state.sticks[player]
    before = score_counts(counts, state.rules)
    gains: dict[tuple[int, ...], int] = {}  # cells whose cards take the same sticks bring the same points
    values = {}
    for cell in cells:
        taken = sticks_taken(state, cell)
        if taken not in gains:
            gains[taken] = score_counts(tuple(map(operator.add, counts, taken)), state.rules) - before
        values[cell] = gains[taken], sum(taken)
    return values


def answers(state: State, offer: Offer) -> list[Exchange]:
    """Which exchanges could an offer become, one per stick the opponent might hand back?"""
    return [
        Exchange(offer.player, offer.opponent, offer.give, name)
        for name, n in zip(COLOUR_NAMES, state.sticks[offer.opponent])
        if n and name != offer.give
    ]


class RandomBot(SeededAgent):
    """Plays any fitting card and any exchange, at random."""

    def act(self, state: State, player: int):
        if state.offer is not None:
            return HandBack(player, self.stick_to_hand_back(state, player))
        if state.exchanges_left:
            options = exchange_terms(state)  # plain tuples: only the exchange chosen is made
            return exchange_of(state, self.rng.choice(options)) if options and self.rng.random() < 0.5 else Done(player)
        spot = random_spot(state, player, self.rng)
        return Pass(player) if spot is None else Place(player, *spot)

    def stick_to_hand_back(self, state: State, player: int) -> str:
        """Which of my sticks do I hand back for the stick I was offered?"""
        return self.rng.choice(hand_backs(state)).colour


class GreedyBot(RandomBot):
    """Takes what scores most now."""

    def act(self, state: State, player: int):
        if state.offer is not None:
            return HandBack(player, self.stick_to_hand_back(state, player))
        if state.exchanges_left:
            return self.best_exchange(state) or Done(player)
        places = legal_places(state, player)
        if not places:
            return Pass(player)
        best = max(place_value(state, place) for place in places)
        return self.rng.choice([place for place in places if place_value(state, place) == best])

    def exchange_value(self, state: State, exchange: Exchange) -> float:
        """How good is this exchange for me?"""
        return gain(state, exchange.player, {exchange.give: -1, exchange.take: 1})

    def move_value(self, state: State, move: Exchange | Offer) -> float:
        """How good is an exchange, or an offer on average over what the opponent may hand back?"""
        if isinstance(move, Offer):
            return statistics.fmean(self.exchange_value(state, e) for e in answers(state, move))
        return self.exchange_value(state, move)

    def best_exchange(self, state: State) -> Exchange | Offer | None:
        """Which exchange (or offer) helps most, if any helps at all?"""
        options = [(self.move_value(state, move), move) for move in legal_exchanges(state)]
        if not options:
            return None
        value, best = max(options, key=lambda pair: pair[0])
        return best if value > 0 else None

    def hand_back_value(self, state: State, exchange: Exchange) -> float:
        """How good is it for me (the opponent) to hand back `exchange.take` for `exchange.give`?"""
        return gain(state, exchange.opponent, {exchange.give: 1, exchange.take: -1})

    def stick_to_hand_back(self, state: State, player: int) -> str:
        return max(answers(state, state.offer), key=lambda e: self.hand_back_value(state, e)).take


class SetBuilder(GreedyBot):
    """Exchanges to complete its own sets while feeding the leader as little as possible."""

    def exchange_value(self, state: State, exchange: Exchange) -> float:
        mine = gain(state, exchange.player, {exchange.give: -1, exchange.take: 1})
        theirs = gain(state, exchange.opponent, {exchange.give: 1, exchange.take: -1})
        points = scores(state)
        leader = max(range(state.players), key=lambda p: (points[p], p != exchange.player))
        return mine - theirs * (1.0 if exchange.opponent == leader else 0.5)

    def hand_back_value(self, state: State, exchange: Exchange) -> float:
        mine = gain(state, exchange.opponent, {exchange.give: 1, exchange.take: -1})
        theirs = gain(state, exchange.player, {exchange.give: -1, exchange.take: 1})
        return mine - theirs


def next_action(state: State, agents: list):
    """What happens next at a table of bots? The bot of the player to move decides."""
    seat = to_move(state)
    return agents[seat].act(state, seat)


def play_game(
    rules: Rules = Rules(), agents: list | None = None, seed: int = 0, max_actions: int = 2_000
) -> GameRecord:
    """Play a whole game between bots (by default a GreedyBot at every seat) and return its record."""
    agents = agents or seated_bots([GreedyBot] * rules.players, seed)
    return play_out("colorfox", rules, agents, seed, next_action, max_actions)


def determinise(state: State, player: int, rng: random.Random) -> State:
    """Deal the cards `player` cannot see (the other hands and the pile) again, keeping every size."""
    unseen = [card for p, hand in enumerate(state.hands) if p != player for card in hand] + list(state.deck)
    unseen.sort(key=lambda card: card.number)  # forget where each unseen card lay before dealing again
    rng.shuffle(unseen)
    hands, dealt = [], 0
    for p, hand in enumerate(state.hands):
        if p == player:
            hands.append(hand)
        else:
            hands.append(tuple(unseen[dealt : dealt + len(hand)]))
            dealt += len(hand)
    return evolve(state, hands=tuple(hands), deck=tuple(unseen[dealt:]), seed=0)


def result(state: State) -> list[float]:
    """Each player's result between 0 and 1: mostly a share of the win, a little the lead in points."""
    points = scores(state)
    top = max(points)
    leaders = points.count(top)
    return [
        WIN_WEIGHT * (points[p] == top) / leaders
        + (1 - WIN_WEIGHT) * (0.5 + 0.5 * math.tanh((points[p] - max(points[:p] + points[p + 1 :])) / MARGIN_SCALE))
        for p in range(state.players)
    ]


def ranked_actions(state: State) -> list:
    """The moves of the player to decide, best first by what they bring now (the set builder's measures)."""
    moves = legal_actions(state)
    return sorted(moves, key=lambda move: move_worth(state, move), reverse=True)


def move_worth(state: State, move) -> tuple:
    """What does a move bring now, as the set builder sees it (placements: points, then sticks)?"""
    if isinstance(move, Place):
        return place_value(state, move)
    if isinstance(move, HandBack):
        offer = state.offer
        return SETS.hand_back_value(state, Exchange(offer.player, offer.opponent, offer.give, move.colour)), 0
    if isinstance(move, (Exchange, Offer)):
        return SETS.move_value(state, move), 0
    return 0, 0


def swap_value(state: State, gains: dict[tuple[str, str], int], terms: tuple) -> float:
    """What is an exchange (opponent, give, take) worth, or an offer (opponent, give) on average over what
    the opponent may hand back, as :meth:`GreedyBot.move_value` judges it, from the swap gains?"""
    if len(terms) == 3:
        return gains[terms[1], terms[2]]
    opponent, give = terms
    return statistics.fmean(
        gains[give, name] for name, n in zip(COLOUR_NAMES, state.sticks[opponent]) if n and name != give
    )


def playout_action(state: State, rng: random.Random):
    """The playout policy, the greedy bot's: a placement that scores most now, then takes the most sticks
    (judged once per cell, since what a card brings depends only on its cell), and exchanges that help."""
    if state.offer is not None:
        return rng.choice(hand_backs(state))
    if state.exchanges_left:
        gains = swap_gains(state)  # the greedy bot's move values, each swap scored once
        helpful = [terms for terms in exchange_terms(state) if swap_value(state, gains, terms) > 0]
        return exchange_of(state, rng.choice(helpful)) if helpful else Done(state.active)
    spots = legal_spots(state)
    if not spots:
        return Pass(state.active)
    worth = cell_values(state, state.active, {(x, y) for _, x, y, _ in spots})
    best = max(worth.values())
    return Place(state.active, *rng.choice([spot for spot in spots if worth[spot[1:3]] == best]))


SETS = SetBuilder()
WIN_WEIGHT = 0.8
MARGIN_SCALE = 8.0
SEARCH_GAME = SearchGame(
    to_move=to_move,
    actions=ranked_actions,
    play=play,
    is_over=lambda state: state.over,
    reward=result,
    determinise=determinise,
    playout_action=playout_action,
)


class SearchBot(SearchAgent):
    """Searches ahead over many possible deals of the cards it cannot see (information-set MCTS)."""

    game = SEARCH_GAME
    playouts_per_move = 400
    tuning = Tuning(widening=1.0, bias=1.0)

    def sight(self, state: State, player: int) -> dict:
        return observation(state, player)
