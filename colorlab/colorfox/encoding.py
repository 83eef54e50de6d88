"""ColorFox as numbers: action numbers and observation arrays for game-AI libraries.

Game-AI libraries (OpenSpiel, PettingZoo) want every action as a whole number from
0 to ``action_count(rules) - 1`` and every observation as a fixed-size array. This
module gives both, as pure functions over the model; it imports no such library.

Action numbers, in blocks, smallest first (``player`` is never part of a number: it
is the player who acts):

- 0: :class:`Pass`; 1: :class:`Done`;
- 2 ..: :class:`HandBack` of one colour (6 numbers);
- then :class:`Offer` (opponent seat, colour given): 6 per seat;
- then :class:`Exchange` (opponent seat, colour given, colour taken): 36 per seat;
- then :class:`Place` (card, half turned or not, cell): the cell is one of the cells
  no more than 53 steps (up, down, left, right) from the start card, since each card
  laid lies at most one step further out than the cards before it, and at most 53
  cards join the start card.

An observation is a flat float32 array, made of the parts that
:func:`observation_layout` names, in that order. Every number lies from 0 to 1: a card's
cell is shown as its place between the furthest cells a card can reach, and counts and
scores as shares of the most they can be (hand sizes and the pile of the 54 cards, sticks
of the sticks of a colour, exchanges of 3, scores of
:func:`~colorlab.colorfox.scoring.most_points`). It is built from the model's
:func:`~colorlab.colorfox.model.observation` for one player, so it shows that
player's own hand and only the sizes of the other hands and of the pile: two states
that differ in the other hands or the pile's order give the same array.

Returns: at the end, the win is shared out. A sole winner gets 1, the players tied on
the most points get 1/k each (a shared win, or, under the rulebook's "play once
more", the even chance of each tied player in the rematch), everyone else 0.
"""

from __future__ import annotations

from functools import cache

import numpy

from colorlab.colorfox import model
from colorlab.colorfox.components import cards
from colorlab.colorfox.model import COLOUR_NAMES, Done, Exchange, HandBack, Offer, Pass, Place
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import most_points
from colorlab.encoding import flat_shape, number_blocks, scaled
from colorlab.rules import IllegalAction, NotYourTurn

COLOURS = len(COLOUR_NAMES)
DECK = len(cards())
REACH = DECK - 1  # how far from the start card a card may ever lie
CELLS = tuple((x, y) for x in range(-REACH, REACH + 1) for y in range(-(REACH - abs(x)), REACH - abs(x) + 1))
CELL_NUMBER = {cell: number for number, cell in enumerate(CELLS)}
CARD_FIELDS = ("in your hand", "on the table", "unseen", "x", "y", "half turned")
MOST_EXCHANGES = 3  # a card joining 4 colours at once gives 3 exchanges


def _blocks(rules: Rules) -> dict[str, tuple[int, int]]:
    """Where does each kind of action start, and how many numbers does it take?"""
    return _blocks_for(rules.players)


@cache
def _blocks_for(players: int) -> dict[str, tuple[int, int]]:
    sizes = {
        "pass": 1,
        "done": 1,
        "hand_back": COLOURS,
        "offer": players * COLOURS,
        "exchange": players * COLOURS * COLOURS,
        "place": DECK * 2 * len(CELLS),
    }
    return number_blocks(sizes)


def action_count(rules: Rules = Rules()) -> int:
    """How many action numbers are there (0 up to this count, less one)?"""
    start, size = _blocks(rules)["place"]
    return start + size


def action_number(action, rules: Rules = Rules()) -> int:
    """Which number stands for this action?"""
    blocks = _blocks(rules)
    colour = COLOUR_NAMES.index
    if type(action) is Place:
        if (action.x, action.y) not in CELL_NUMBER or not 1 <= action.card <= DECK:
            raise ValueError(f"no card {action.card!r} can ever lie on cell {(action.x, action.y)!r}")
        offset = ((action.card - 1) * 2 + bool(action.turned)) * len(CELLS) + CELL_NUMBER[(action.x, action.y)]
        return blocks["place"][0] + offset
    if isinstance(action, Exchange):
        offset = (action.opponent * COLOURS + colour(action.give)) * COLOURS + colour(action.take)
        return blocks["exchange"][0] + offset
    if isinstance(action, Offer):
        return blocks["offer"][0] + action.opponent * COLOURS + colour(action.give)
    if isinstance(action, HandBack):
        return blocks["hand_back"][0] + colour(action.colour)
    if isinstance(action, Done):
        return blocks["done"][0]
    if isinstance(action, Pass):
        return blocks["pass"][0]
    raise ValueError(f"{type(action).__name__} has no action number")


def number_of(action, state) -> int:
    """Which number stands for this action in this state (as in any state of these rules)?"""
    return action_number(action, state.rules)


def decode(number: int, rules: Rules, player: int):
    """Which action of `player` does this number stand for, legal now or not?"""
    if (
        isinstance(number, bool)
        or not isinstance(number, (int, numpy.integer))
        or not 0 <= number < action_count(rules)
    ):
        raise ValueError(f"{number!r} is not an action number: they run from 0 to {action_count(rules) - 1}")
    number = int(number)
    kind, offset = next(
        (kind, number - start) for kind, (start, size) in _blocks(rules).items() if start <= number < start + size
    )
    if kind == "place":
        card_and_turn, cell = divmod(offset, len(CELLS))
        card, turned = divmod(card_and_turn, 2)
        return Place(player, card + 1, *CELLS[cell], bool(turned))
    if kind == "exchange":
        rest, take = divmod(offset, COLOURS)
        opponent, give = divmod(rest, COLOURS)
        return Exchange(player, opponent, COLOUR_NAMES[give], COLOUR_NAMES[take])
    if kind == "offer":
        opponent, give = divmod(offset, COLOURS)
        return Offer(player, opponent, COLOUR_NAMES[give])
    if kind == "hand_back":
        return HandBack(player, COLOUR_NAMES[offset])
    return Done(player) if kind == "done" else Pass(player)


def action_name(number: int, rules: Rules = Rules()) -> str:
    """Say in a few words what this action number does."""
    action = decode(number, rules, 0)
    if type(action) is Place:
        return f"lay card {action.card}{' turned' * action.turned} at ({action.x}, {action.y})"
    if isinstance(action, Exchange):
        return f"give {action.give} to player {action.opponent}, take {action.take}"
    if isinstance(action, Offer):
        return f"offer {action.give} to player {action.opponent}"
    if isinstance(action, HandBack):
        return f"hand back {action.colour}"
    return "no more exchanges" if isinstance(action, Done) else "pass"


def acting(state) -> list[int]:
    """Who may act now: the player to move, or nobody once the game is over?"""
    return [] if state.over else [model.to_move(state)]


def legal(state, player: int) -> list:
    """Which actions may `player` take now (none when it is not that player's decision)?"""
    return model.legal_actions(state) if player in acting(state) else []


def legal_numbers(state, player: int) -> list[int]:
    """Which action numbers may `player` choose now, smallest first?"""
    return sorted(action_number(action, state.rules) for action in legal(state, player))


def action_of(number: int, state, player: int):
    """Which legal action of `player` does this number stand for? Refuse a number that is not legal now."""
    action = decode(number, state.rules, player)
    if player not in acting(state):
        raise NotYourTurn(f"player {player} may not act now")
    if action not in legal(state, player):
        model.play(state, action)  # the model's refusal says which rule the action breaks
        raise IllegalAction(f"action number {number} is not one of player {player}'s choices now")
    return action


def returns(state) -> list[float]:
    """Each player's share of the win at the end: 1 for a sole winner, 1/k for k tied on top, else 0."""
    if not state.over:
        return [0.0] * state.players
    top = model.leaders(state)
    return [1 / len(top) if player in top else 0.0 for player in range(state.players)]


def scores(state) -> list[float]:
    """Each player's score from 0 to 1: a share of the most any player can score (:func:`most_points`)."""
    most = most_points(state.rules)
    return [scaled(points, most) for points in model.scores(state)]


@cache
def observation_layout(rules: Rules = Rules()) -> dict[str, tuple[int, ...]]:
    """Which parts make up an observation, in order, with their shapes?"""
    players = rules.players
    return {
        "cards": (DECK, len(CARD_FIELDS)),
        "you": (players,),
        "to move": (players,),
        "active": (players,),
        "hand sizes": (players,),
        "sticks": (players, COLOURS),
        "scores": (players,),
        "supply": (COLOURS,),
        "pile": (1,),
        "exchanges left": (1,),
        "offer to": (players,),
        "offer gives": (COLOURS,),
        "over": (1,),
    }


def observation_bounds(rules: Rules = Rules()) -> tuple[float, float]:
    """The smallest and largest number an observation holds."""
    return 0.0, 1.0


def observation_shape(rules: Rules = Rules()) -> tuple[int, ...]:
    """How long is the flat observation array?"""
    return flat_shape(observation_layout(rules))


def observation(state, player: int) -> numpy.ndarray:
    """What `player` may see, as a flat float32 array: its own cards, never the others' hands or the pile."""
    seen = model.observation(state, player)
    parts = observation_layout(state.rules)
    arrays = {name: numpy.zeros(shape, numpy.float32) for name, shape in parts.items()}
    for card in seen["hand"]:
        arrays["cards"][card["number"] - 1, 0] = 1
    for card in seen["table"]:
        place = ((card["x"] + REACH) / (2 * REACH), (card["y"] + REACH) / (2 * REACH))
        arrays["cards"][card["number"] - 1, 1:] = (1, 0, *place, card["turned"])
    arrays["cards"][:, 2] = 1 - arrays["cards"][:, 0] - arrays["cards"][:, 1]
    arrays["you"][player] = arrays["to move"][seen["to_move"]] = arrays["active"][seen["active"]] = 1
    sticks, points = state.rules.sticks_per_colour, most_points(state.rules)
    arrays["hand sizes"][:] = [scaled(size, DECK) for size in seen["hand_sizes"]]
    arrays["sticks"][:] = [[scaled(counts[name], sticks) for name in COLOUR_NAMES] for counts in seen["sticks"]]
    arrays["scores"][:] = [scaled(score, points) for score in seen["scores"]]
    arrays["supply"][:] = [scaled(seen["supply"][name], sticks) for name in COLOUR_NAMES]
    arrays["pile"][0] = scaled(seen["deck"], DECK)
    arrays["exchanges left"][0] = scaled(seen["exchanges_left"], MOST_EXCHANGES)
    arrays["over"][0] = seen["over"]
    if seen["offer"]:
        arrays["offer to"][seen["offer"]["opponent"]] = 1
        arrays["offer gives"][COLOUR_NAMES.index(seen["offer"]["give"])] = 1
    return numpy.concatenate([array.ravel() for array in arrays.values()])
