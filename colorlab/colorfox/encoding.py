"""ColorFox as numbers: action numbers and observation arrays for game-AI libraries.

Game-AI libraries (OpenSpiel, PettingZoo) want every action as a whole number from
0 to ``action_count(rules) - 1`` and every observation as a fixed-size array. This
module gives both, as pure functions over the model; it imports no such library.

Laying a card is two decisions, so that the numbers stay few (394 at most, with four
players): first the card, turned or not, then the cell, as a place in the list of open
cells. The open cells are the empty cells beside the cards on the table, in the order
they opened (:func:`open_cells`): a cell that opens takes the next number, and keeps its
place until an older open cell takes a card. A layout of n cards has at most 2n + 2 of
them, so 110 numbers hold every cell a card may ever take.
Between the two decisions the move is part chosen: the functions below take the numbers
chosen so far as `chosen` (empty at the start of a move), and the player who chose the
card is the one to choose its cell. Every other action is one number.

Action numbers, in blocks, smallest first (``player`` is never part of a number: it
is the player who acts):

- 0: :class:`Pass`; 1: :class:`Done`;
- 2 ..: :class:`HandBack` of one colour (6 numbers);
- then :class:`Offer` (opponent seat, colour given): 6 per seat;
- then :class:`Exchange` (opponent seat, colour given, colour taken): 36 per seat;
- then a card to lay (card number, half turned or not): 2 per card, 108 in all;
- then the cell to lay the chosen card on: a place in :func:`open_cells`, 110 numbers.

An observation is a flat float32 array, made of the parts that
:func:`observation_layout` names, in that order. Every number lies from 0 to 1: a card's
cell is shown as its place between the furthest cells a card can reach, and counts and
scores as shares of the most they can be (hand sizes and the pile of the 54 cards, sticks
of the sticks of a colour, exchanges of 3, scores of
:func:`~colorlab.colorfox.scoring.most_points`). The open cells are listed in the order
the cell numbers count them, and the card chosen part way through a move is marked. It is
made of what the model's :func:`~colorlab.colorfox.model.observation` shows one player, so
it holds that player's own hand and only the sizes of the other hands and of the pile: two
states that differ in the other hands or the pile's order give the same array.

Returns: at the end, the win is shared out. A sole winner gets 1, the players tied on
the most points get 1/k each (a shared win, or, under the rulebook's "play once
more", the even chance of each tied player in the rematch), everyone else 0.

Examples
========

>>> from colorlab.colorfox import Rules, new_game
>>> state = new_game(Rules(), seed=3)
>>> first = legal_numbers(state, 0)[0]
>>> action_name(first), action_of(first, state, 0) is None  # a card: the move waits for its cell
('choose card 12 to lay', True)
>>> cell = legal_numbers(state, 0, chosen=(first,))[0]
>>> laid = action_of(cell, state, 0, chosen=(first,))
>>> laid
Place(player=0, card=12, x=0, y=1, turned=False)
>>> numbers_of(laid, state) == (first, cell)
True
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import chain

import numpy

from colorlab.colorfox import model
from colorlab.colorfox.components import cards
from colorlab.colorfox.model import COLOUR_NAMES, Done, Exchange, HandBack, Offer, Pass, Place
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import most_points, score_counts
from colorlab.encoding import block_of, flat_shape, number_blocks, number_table, part_slices, scaled
from colorlab.rules import IllegalAction, NotYourTurn
from colorlab.state import keep_last

COLOURS = len(COLOUR_NAMES)
COLOUR_PLACE = {name: place for place, name in enumerate(COLOUR_NAMES)}
DECK = len(cards())
REACH = DECK - 1  # how far from the start card a card may ever lie
OPEN_CELLS = 2 * DECK + 2  # a layout of n cards touches at most 2n + 2 empty cells
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
        "card": DECK * 2,
        "cell": OPEN_CELLS,
    }
    return number_blocks(sizes)


@cache
def _table_for(players: int) -> tuple[tuple[str, int], ...]:
    return number_table(_blocks_for(players))


def action_count(rules: Rules = Rules()) -> int:
    """How many action numbers are there (0 up to this count, less one)?"""
    return len(_table_for(rules.players))


def open_cells(state) -> tuple[tuple[int, int], ...]:
    """The empty cells beside the table's cards, in the order cell numbers count them: the order they opened in.

    That is the model's own order of its frontier: a card laid takes its cell out, and the empty cells around it that
    were not open yet come last, in the order of the card's sides (top, right, bottom, left). So the numbers need no
    sorting, and a new cell never moves an older one's number: only a card laid on an older cell does. The order
    comes from the cards laid, in public, so it tells nothing hidden.

    >>> from colorlab.colorfox import Rules, model
    >>> open_cells(model.new_game(Rules(), seed=0))  # around the start card: top, right, bottom, left
    ((0, -1), (1, 0), (0, 1), (-1, 0))
    """
    return tuple(state.frontier)


def _one_number(action, rules: Rules) -> int:
    """The number of an action that is one decision (any action but a card laid)."""
    blocks = _blocks(rules)
    if isinstance(action, Exchange):
        return _terms_number((action.opponent, action.give, action.take), blocks)
    if isinstance(action, Offer):
        return _terms_number((action.opponent, action.give), blocks)
    if isinstance(action, HandBack):
        return blocks["hand_back"][0] + COLOUR_PLACE[action.colour]
    if isinstance(action, Done):
        return blocks["done"][0]
    if isinstance(action, Pass):
        return blocks["pass"][0]
    raise ValueError(f"{type(action).__name__} has no action number")


def _card_number(card: int, turned: bool, rules: Rules) -> int:
    return _blocks(rules)["card"][0] + (card - 1) * 2 + bool(turned)


def numbers_of(action, state) -> tuple[int, ...]:
    """Which numbers, in order, make up this action in this state (two for a card laid: the card, then its cell)?"""
    if type(action) is not Place:
        return (_one_number(action, state.rules),)
    cell = (action.x, action.y)
    if not 1 <= action.card <= DECK or cell not in state.frontier:
        raise ValueError(f"card {action.card!r} cannot go on cell {cell!r}: it is not an empty cell beside the table")
    return (
        _card_number(action.card, action.turned, state.rules),
        _blocks(state.rules)["cell"][0] + open_cells(state).index(cell),
    )


def _block_of(number: int, rules: Rules) -> tuple[str, int]:
    """Which kind of action is this number, and where in its block does it lie?"""
    return block_of(number, _table_for(rules.players))


def _one_action(kind: str, offset: int, player: int):
    """The action of a number that is one decision, from its block and its place in it."""
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


def _card_of(offset: int) -> tuple[int, bool]:
    """The card (by number) and its turn, from a place in the card block."""
    card, turned = divmod(offset, 2)
    return card + 1, bool(turned)


def action_name(number: int, rules: Rules = Rules(), state=None) -> str:
    """Say in a few words what this action number does (in `state`, if given: the open cell's place)."""
    kind, offset = _block_of(number, rules)
    if kind == "card":
        card, turned = _card_of(offset)
        return f"choose card {card}{' turned' * turned} to lay"
    if kind == "cell":
        cells = open_cells(state) if state is not None else []
        return f"lay it on open cell {offset}" + (f", at {cells[offset]}" if offset < len(cells) else "")
    return action_words(_one_action(kind, offset, 0))


def action_words(action) -> str:
    """Say in a few words what this action does."""
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


def legal_numbers(state, player: int, chosen: tuple[int, ...] = ()) -> list[int]:
    """Which action numbers may `player` choose now, smallest first? After a card (`chosen`), the cells it fits."""
    if state.over or player != model.to_move(state):
        return []
    if chosen:
        card, turned = chosen_card(chosen, state.rules)
        bit, start = model.card_bit(card, turned), _blocks(state.rules)["cell"][0]
        return [start + index for index, (_, _, fits) in enumerate(state.frontier.values()) if fits & bit]
    rules = state.rules
    if state.offer is None and not state.exchanges_left:  # a turn's start: lay a card that fits somewhere, or pass
        start, fits = _blocks(rules)["card"][0] - 2, model.fits_somewhere(state)  # card 1 upright: start + 2
        numbers = sorted(
            [start + 2 * number + turned for number, turned, bit in model.hand_bits(state, player) if fits & bit]
        )
        return numbers or [_blocks(rules)["pass"][0]]
    if state.offer is not None:  # a hand-back
        return sorted(_one_number(action, rules) for action in model.legal_actions(state))
    return _exchange_numbers(state, rules)


def _exchange_numbers(state, rules: Rules) -> list[int]:
    """The numbers of the exchanges (or offers) the active player may make, and of "no more exchanges", smallest
    first: from the model's terms of each, without making the actions."""
    blocks = _blocks(rules)
    return sorted([_terms_number(terms, blocks) for terms in model.exchange_terms(state)] + [blocks["done"][0]])


def _terms_number(terms: tuple, blocks: dict[str, tuple[int, int]]) -> int:
    """The number of an exchange by its terms, (opponent, give, take), or of an offer, (opponent, give)."""
    if len(terms) == 2:
        opponent, give = terms
        return blocks["offer"][0] + opponent * COLOURS + COLOUR_PLACE[give]
    opponent, give, take = terms
    return blocks["exchange"][0] + (opponent * COLOURS + COLOUR_PLACE[give]) * COLOURS + COLOUR_PLACE[take]


def chosen_card(chosen: tuple[int, ...], rules: Rules) -> tuple[int, bool]:
    """The card (and its turn) that the part of a move chosen so far names; refuse anything else."""
    found = _cards_by_number(rules.players).get(chosen[0]) if len(chosen) == 1 else None
    if found is None:
        raise ValueError(f"{chosen!r} is not part of a move: only a card to lay waits for more (its cell)")
    return found


@cache
def _cards_by_number(players: int) -> dict[int, tuple[int, bool]]:
    """Each card number's card and turn (looked up at every cell chosen, twice)."""
    start, size = _blocks_for(players)["card"]
    return {start + offset: _card_of(offset) for offset in range(size)}


def action_of(number: int, state, player: int, chosen: tuple[int, ...] = (), legal: list[int] | None = None):
    """Which legal action of `player` does this number complete? None when it begins a move that waits for more (a card
    to lay waits for its cell). Refuse a number that is not legal now, with the rule it breaks. (`legal`: the legal
    numbers now, when the caller has them already.)"""
    if legal is not None and number in legal:
        return _decided(number, state, player, chosen)
    kind, offset = _block_of(number, state.rules)
    if player not in acting(state):
        raise NotYourTurn(f"player {player} may not act now")
    if chosen:
        card, turned = chosen_card(chosen, state.rules)
        if kind != "cell":
            raise IllegalAction(f"player {player} chose card {card} to lay: the next number is the cell to lay it on")
        cells = open_cells(state)
        if offset >= len(cells):
            raise IllegalAction(f"there are {len(cells)} open cells now, numbered from 0: no open cell {offset}")
        action = Place(player, card, *cells[offset], turned)
    elif kind == "cell":
        raise IllegalAction("a cell number lays the card chosen just before it: choose a card first")
    elif kind == "card":
        card, turned = _card_of(offset)
        if number in legal_numbers(state, player):
            return None
        _refuse_card(state, player, card, turned)
    else:
        action = _one_action(kind, offset, player)
    if number not in legal_numbers(state, player, chosen):
        model.play(state, action)  # the model's refusal says which rule the action breaks
        raise IllegalAction(f"action number {number} is not one of player {player}'s choices now")
    return action


def _decided(number: int, state, player: int, chosen: tuple[int, ...]):
    """The action a legal number completes (None: a card, which waits for its cell)."""
    kind, offset = _block_of(number, state.rules)
    if kind == "cell":
        card, turned = chosen_card(chosen, state.rules)
        return Place(player, card, *open_cells(state)[offset], turned)
    return None if kind == "card" else _one_action(kind, offset, player)


def _refuse_card(state, player: int, card: int, turned: bool) -> None:
    """Say why `player` may not lay this card now: the model's reason, or that it fits on no open cell."""
    laying = any(type(action) is Place for action in model.legal_actions(state))
    if laying and any(held.number == card for held in state.hands[player]) and (state.rules.half_turn or not turned):
        raise model.ColoursDiffer(f"card {card}{' turned' * turned} matches the neighbours of no open cell")
    model.play(state, Place(player, card, *open_cells(state)[0], turned))  # the model's refusal gives the rule
    raise IllegalAction(f"player {player} may not lay card {card} now")


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
        "open cells": (OPEN_CELLS, 3),
        "chosen": (DECK, 2),
    }


def observation_bounds(rules: Rules = Rules()) -> tuple[float, float]:
    """The smallest and largest number an observation holds."""
    return 0.0, 1.0


@cache
def observation_shape(rules: Rules = Rules()) -> tuple[int, ...]:
    """How long is the flat observation array?"""
    return flat_shape(observation_layout(rules))


@cache
def _slices(rules: Rules) -> dict[str, slice]:
    """Where each part of the observation lies in the flat array (kept per rules: asked at every step)."""
    return part_slices(observation_layout(rules))


def observation(state, player: int, chosen: tuple[int, ...] = ()) -> numpy.ndarray:
    """What `player` may see, as a flat float32 array: its own cards, never the others' hands or the pile; the card
    `player` chose part way through its move, if any (`chosen`).

    It reads only what the model's :func:`~colorlab.colorfox.model.observation` shows that player (its own hand, the
    sizes of the others and of the pile, the table, the sticks, the scores, the offer), straight from the state: a
    learner looks at every step, and the model's view builds much more (every card's edges, the events). What the
    table shows everyone (:func:`_table_image`) is drawn once for each table, and the last state's observation is
    kept for the second decision of a move (only `chosen` differs)."""
    rules = state.rules
    flat = _seen(state, player).copy()
    if chosen:
        card, turned = chosen_card(chosen, rules)
        flat[_slices(rules)["chosen"].start + (card - 1) * 2 + turned] = 1
    return flat


@keep_last
def _seen(state, player: int) -> numpy.ndarray:
    """What `player` sees of this state, with no move begun (read only: the last one is kept)."""
    rules = state.rules
    at = _slices(rules)
    flat = numpy.zeros(observation_shape(rules), numpy.float32)
    cards_seen, open_seen = _table_image(state)
    flat[at["cards"]] = cards_seen
    flat[at["open cells"]] = open_seen
    cards_seen = flat[at["cards"]].reshape(DECK, len(CARD_FIELDS))
    held = [card.number - 1 for card in state.hands[player]]
    cards_seen[held, 0], cards_seen[held, 2] = 1, 0
    flat[at["you"].start + player] = flat[at["to move"].start + model.to_move(state)] = 1
    flat[at["active"].start + state.active] = 1
    flat[at["hand sizes"]] = [min(len(hand) / DECK, 1.0) for hand in state.hands]
    flat[at["sticks"]], flat[at["scores"]], flat[at["supply"]] = _stick_parts(state.sticks, state.supply, rules)
    flat[at["pile"].start] = scaled(len(state.deck), DECK)
    flat[at["exchanges left"].start] = scaled(state.exchanges_left, MOST_EXCHANGES)
    flat[at["over"].start] = state.over
    if state.offer is not None:
        flat[at["offer to"].start + state.offer.opponent] = 1
        flat[at["offer gives"].start + COLOUR_NAMES.index(state.offer.give)] = 1
    flat.flags.writeable = False
    return flat


_last_table: tuple = (None, None)  # (the table, its image): the last drawn, kept (every player sees it, move on move)


def _table_image(state) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The observation's "cards" part as the table alone shows it (every card unseen but those laid, with their
    places and turns), and its "open cells" part, both flat. Drawn once for each table: the one last asked is kept,
    and a table that is the kept one with one more card is drawn from it."""
    global _last_table
    kept, image = _last_table
    table = state.table
    if kept is table:
        return image
    if kept is not None and len(table) == len(kept) + 1 and kept.items() <= table.items():
        cards_seen = image[0].copy()
        laid = table.keys() - kept.keys()
    else:
        cards_seen = numpy.zeros(DECK * len(CARD_FIELDS), numpy.float32)
        cards_seen[2 :: len(CARD_FIELDS)] = 1  # unseen, unless in the hand or on the table
        laid = table.keys()
    for x, y in laid:
        card, turned = table[x, y]
        row = (card.number - 1) * len(CARD_FIELDS)
        cards_seen[row : row + len(CARD_FIELDS)] = (0, 1, 0, _place(x), _place(y), turned)
    cells = open_cells(state)
    open_seen = numpy.zeros((OPEN_CELLS, 3), numpy.float32)
    open_seen[: len(cells), 0] = 1
    open_seen[: len(cells), 1:] = (
        numpy.fromiter(chain.from_iterable(cells), numpy.float32, 2 * len(cells)).reshape(-1, 2) + REACH
    ) / (2 * REACH)
    image = (cards_seen, open_seen.ravel())
    _last_table = (table, image)
    return image


@lru_cache(maxsize=4096)
def _stick_parts(sticks: tuple, supply: tuple, rules: Rules) -> tuple[list[float], list[float], list[float]]:
    """The observation's "sticks", "scores" and "supply" parts (kept: they change only when sticks move)."""
    most, points = rules.sticks_per_colour, most_points(rules)
    return (
        [min(count / most, 1.0) for counts in sticks for count in counts],
        [min(score_counts(counts, rules) / points, 1.0) for counts in sticks],
        [min(count / most, 1.0) for count in supply],
    )


def _place(coordinate: int) -> float:
    """A cell's x or y as a place from 0 to 1 between the furthest cells a card can reach."""
    return (coordinate + REACH) / (2 * REACH)
