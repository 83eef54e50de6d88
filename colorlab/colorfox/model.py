"""ColorFox as a state and pure transitions.

``new_game(rules, seed)`` deals the hands and lays the start card;
``play(state, action)`` returns the next state or raises an
:class:`~colorlab.rules.IllegalAction` subclass naming the broken rule.
``to_move(state)`` says whose decision it is and ``legal_actions(state)`` lists
what that player may do.

A turn is one :class:`Place` (or a :class:`Pass` when no card of the hand fits
anywhere), then, after connecting 2, 3 or 4 colours at once, up to 1, 2 or 3
exchanges, which the player may stop early with :class:`Done`. Then the player
draws and the next player moves.

Who picks the stick taken in an exchange is a rule (``exchange_pick``). When
the active player picks, an exchange is one :class:`Exchange`. When the
opponent picks, the active player makes an :class:`Offer` (a stick given, an
opponent named); the game then waits for that opponent, and only that
opponent, to answer with a :class:`HandBack` choosing which of their own
sticks goes back. Stick counts are public, so nothing hidden is shown.

Cells are (x, y) with y growing downward; the start card lies at (0, 0). To
keep the search for legal places fast, every empty cell next to the table
keeps what its neighbours ask of it, packed in one integer: three bits a side
for the colour wanted, and a mask of the sides that touch a card; and, worked
out once per such demand, the set of cards of the deck that fit it, laid
either way, as bits of one integer (:func:`fitting_cards`). A hand is the same
kind of set, so whether a cell takes any card of the hand is one ``&``.

Two ends follow rules with the rulebook's reading by default. A tie (``tie``):
the rulebook says to play once more, so a tied game has no winner and
:func:`rematch_due` names the tied players; or the tie is a shared win. A table
where no card fits (``passing``): every turn ends with drawing a card, passes
included, so the game ends this way only when everyone has passed in turn with
the pile empty; or it ends as soon as everyone has passed in turn.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
import random
import typing

from colorlab.colorfox.components import COLOURS, OPPOSITE, SIDES, STEP, Card, cards, half_turn
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import score_counts, score_sticks
from colorlab.record import read_action
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, check_seat
from colorlab.state import evolve, evolve_with

COLOUR_NAMES = tuple(colour.value for colour in COLOURS)  # the order of sticks in every count
INDEX = {colour: i for i, colour in enumerate(COLOURS)}
Position = tuple[int, int]
# For each side of a card: its number, the step to the neighbour there, and where the neighbour's facing
# side sits in a packed demand (its three bits, and the shift to them).
NEIGHBOURS = tuple(
    (side, STEP[name], 7 << 3 * SIDES.index(OPPOSITE[name]), 3 * SIDES.index(OPPOSITE[name]))
    for side, name in enumerate(SIDES)
)
# Which sides of a cell touch a card, for each mask a cell's demand can have (three bits a side).
TOUCHING = {
    sum(7 << 3 * side for side in sides): sides
    for count in range(1, 5)
    for sides in itertools.combinations(range(4), count)
}


class UnknownPlayer(IllegalAction):
    """A seat number that is not in the game."""


class CardNotInHand(IllegalAction):
    """A card the player does not hold."""


class CellTaken(IllegalAction):
    """A cell that already holds a card."""


class NotConnected(IllegalAction):
    """A cell with no card beside it."""


class ColoursDiffer(IllegalAction):
    """A card whose edge does not have its neighbour's colour."""


class TurnNotAllowed(IllegalAction):
    """A half-turned card when the rules keep every card upright."""


class NoExchange(IllegalAction):
    """An exchange that is not due, or names sticks a player does not have."""


class CanStillPlay(IllegalAction):
    """A pass by a player who could place a card."""


class ExchangesPending(IllegalAction):
    """A card placed or a pass while the player still has exchanges to make or decline."""


class NotYourPick(NoExchange):
    """An exchange in which the wrong player chooses the stick taken, under the ``exchange_pick`` rule."""


class OfferPending(NotYourTurn):
    """Any action but the named opponent's hand-back while an exchange offer waits for it."""


class Place(typing.NamedTuple):
    """Put card `card` (by number) from the hand on cell (x, y), half turned if allowed.

    A named tuple rather than a frozen dataclass: listing every legal placement
    makes many of them, and a tuple is several times quicker to make.
    """

    player: int
    card: int
    x: int
    y: int
    turned: bool = False


@dataclasses.dataclass(frozen=True)
class Exchange:
    """Give one stick of colour `give` to `opponent` and take one of colour `take` back."""

    player: int
    opponent: int
    give: str
    take: str


@dataclasses.dataclass(frozen=True)
class Offer:
    """Give one stick of colour `give` to `opponent`, who then chooses which stick to hand back."""

    player: int
    opponent: int
    give: str


@dataclasses.dataclass(frozen=True)
class HandBack:
    """Answer an exchange offer: hand one stick of colour `colour` back to the player who offered."""

    player: int
    colour: str


@dataclasses.dataclass(frozen=True)
class Done:
    """Make no more exchanges this turn."""

    player: int


@dataclasses.dataclass(frozen=True)
class Pass:
    """No card in the hand fits anywhere: the turn passes."""

    player: int


Action = Place | Exchange | Offer | HandBack | Done | Pass | ChangeRules


def card_code(edges: tuple) -> int:
    """Pack four edge colours (top, right, bottom, left) into one integer, three bits a side."""
    return sum(INDEX[colour] << (3 * side) for side, colour in enumerate(edges))


_LAID: dict[tuple[int, bool], tuple[int, tuple[int, ...]]] = {}


def laid(card: Card, turned: bool) -> tuple[int, tuple[int, ...]]:
    """A card as laid, for the hot loops: its packed code and its four edge colour numbers."""
    key = (card.number, turned)
    found = _LAID.get(key)
    if found is None:
        edges = edges_of(card, turned)
        found = _LAID[key] = card_code(edges), tuple(INDEX[colour] for colour in edges)
    return found


def card_bit(number: int, turned: bool) -> int:
    """One card as laid, as one bit of a set of cards: bit 2 * number, plus 1 when half turned."""
    return 1 << (2 * number + turned)


@functools.cache
def fitting_cards() -> dict[int, int]:
    """Which cards of the deck fit each demand a cell can make? Demand ``mask << 12 | wanted`` -> card bits.

    Cards are counted laid either way, and known by number as in :func:`laid`; a demand that no card
    meets is left out.
    """
    table: dict[int, int] = {}
    for mask in TOUCHING:
        for card in cards():
            for turned in (False, True):
                demand = mask << 12 | laid(card, turned)[0] & mask
                table[demand] = table.get(demand, 0) | card_bit(card.number, turned)
    return table


@dataclasses.dataclass(frozen=True)
class State:
    """The table, the hands, the piles and the sticks at one moment."""

    rules: Rules
    seed: int
    table: dict  # Position -> (Card, turned)
    frontier: dict  # empty Position next to the table -> (mask, wanted, fitting cards), in the order they opened
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    supply: tuple[int, ...]
    sticks: tuple[tuple[int, ...], ...]
    active: int = 0
    exchanges_left: int = 0
    passes: int = 0  # passes in a row that drew no card
    offer: Offer | None = None
    ending: bool = False
    over: bool = False
    end_reason: str = ""
    events: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players


def edges_of(card: Card, turned: bool) -> tuple:
    """Which colours does a card show on its top, right, bottom and left edges as laid?"""
    return half_turn(card.edges) if turned else card.edges


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """Shuffle, deal the hands and lay the start card."""
    deck = list(cards())
    random.Random(f"{seed}/setup").shuffle(deck)
    size = rules.hand
    hands = tuple(tuple(deck[p * size : (p + 1) * size]) for p in range(rules.players))
    deck = deck[rules.players * size :]
    start = deck.pop(0)
    empty = tuple((0,) * len(COLOURS) for _ in range(rules.players))
    state = State(
        rules=rules,
        seed=seed,
        table={},
        frontier={},
        hands=hands,
        deck=tuple(deck),
        supply=(rules.sticks_per_colour,) * len(COLOURS),
        sticks=empty,
    )
    table, frontier = _lay(state, (0, 0), start, False)
    return evolve(state, table=table, frontier=frontier, events=("The start card lies in the middle of the table.",))


def _lay(state: State, cell: Position, card: Card, turned: bool) -> tuple[dict, dict]:
    """Put a card on a cell: the table gains it, its empty neighbours learn what it asks. The frontier keeps its cells
    in the order they opened (a new one comes last), which is the order the encoding numbers them in."""
    table = {**state.table, cell: (card, turned)}
    frontier = state.frontier.copy()
    frontier.pop(cell, None)
    colours = laid(card, turned)[1]
    fits = fitting_cards()
    x, y = cell
    for side, (dx, dy), facing, shift in NEIGHBOURS:
        beside = (x + dx, y + dy)
        if beside in table:
            continue
        mask, wanted, _ = frontier.get(beside, (0, 0, 0))
        mask, wanted = mask | facing, wanted | colours[side] << shift
        frontier[beside] = (mask, wanted, fits.get(mask << 12 | wanted, 0))
    return table, frontier


def connections(state: State, cell: Position) -> list[str]:
    """Which colours would a card on this cell connect, one per touching edge?"""
    return [COLOUR_NAMES[colour] for colour in _joined(*state.frontier[cell][:2])]


def sticks_taken(state: State, cell: Position) -> tuple[int, ...]:
    """How many sticks of each colour (in colour order) would a card on this cell take from the supply now?"""
    taken = [0] * len(COLOURS)
    for colour in _taken(state.supply, _joined(*state.frontier[cell][:2])):
        taken[colour] += 1
    return tuple(taken)


@functools.lru_cache(maxsize=1 << 15)
def _joined(mask: int, wanted: int) -> tuple[int, ...]:
    """The colour numbers a card laid on a cell with this demand joins, one per touching edge (kept: there are at
    most 15 masks of touching sides and 6 colours a side)."""
    return tuple([wanted >> 3 * side & 7 for side in TOUCHING[mask]])


def _taken(supply: tuple[int, ...], joined: tuple[int, ...]) -> list[int]:
    """Which of the joined colours the supply still gives a stick of, in order (a colour it runs out of gives none)."""
    left, taken = list(supply), []
    for colour in joined:
        if left[colour]:
            left[colour] -= 1
            taken.append(colour)
    return taken


def fits(state: State, card: Card, cell: Position, turned: bool = False) -> bool:
    """Does this card, laid this way, match every neighbour of this empty cell?"""
    if cell not in state.frontier:
        return False
    mask, wanted, _ = state.frontier[cell]
    return laid(card, turned)[0] & mask == wanted


def hand_bits(state: State, player: int) -> list[tuple[int, bool, int]]:
    """The player's cards as each may be laid, in hand order: (card number, turned, card bit).

    The bit is :func:`card_bit`'s, worked out in place: this runs at every move of every playout.
    """
    if state.rules.half_turn:
        return [
            (card.number, turned, 1 << 2 * card.number + turned)
            for card in state.hands[player]
            for turned in (False, True)
        ]
    return [(card.number, False, 1 << 2 * card.number) for card in state.hands[player]]


def legal_spots(state: State, player: int | None = None) -> list[tuple[int, int, int, bool]]:
    """Which (card number, x, y, turned) may the player lay now? (Plain tuples: the fast form.)"""
    bits = hand_bits(state, state.active if player is None else player)
    held = sum([bit for _, _, bit in bits])
    return [
        (number, x, y, turned)
        for (x, y), (_, _, fits_here) in state.frontier.items()
        if fits_here & held
        for number, turned, bit in bits
        if fits_here & bit
    ]


_FITS = operator.itemgetter(2)  # the cards that fit an open cell, from its (mask, wanted, fits) in the frontier


def fits_somewhere(state: State) -> int:
    """Which cards of the deck, laid either way, fit on some empty cell now (as :func:`card_bit`'s bits)?"""
    return functools.reduce(operator.or_, map(_FITS, state.frontier.values()), 0)


def random_spot(state: State, player: int, rng: random.Random) -> tuple[int, int, int, bool] | None:
    """Which spot does ``rng.choice(legal_spots(state, player))`` pick? None when no card fits.

    The same spot, drawn with the same use of `rng`, but without listing every spot: the
    spots of each cell are counted from its set of fitting cards, and only the cell drawn
    is listed.
    """
    bits = hand_bits(state, player)
    held = sum([bit for _, _, bit in bits])
    cells = [
        (cell, fit, fit.bit_count()) for cell, (_, _, fits_here) in state.frontier.items() if (fit := fits_here & held)
    ]
    if not cells:
        return None
    index = rng.choice(range(sum([count for _, _, count in cells])))
    for (x, y), fit, count in cells:
        if index < count:
            return [(number, x, y, turned) for number, turned, bit in bits if fit & bit][index]
        index -= count


def legal_places(state: State, player: int | None = None) -> list[Place]:
    """Which placements may the active player (or `player`) make now?"""
    player = state.active if player is None else player
    return [Place(player, *spot) for spot in legal_spots(state, player)]


def to_move(state: State) -> int:
    """Whose decision is it: the active player's, or the opponent's who must answer an offer?"""
    return state.active if state.offer is None else state.offer.opponent


def exchange_terms(state: State) -> list[tuple]:
    """Which exchanges may the active player make now, as plain tuples (the fast form)?

    (opponent, give, take) for an exchange; (opponent, give) for an offer, when the opponent picks.
    """
    if not state.exchanges_left or state.offer is not None or state.over:
        return []
    me, mine = state.active, state.sticks[state.active]
    held = [
        (other, [name for name, n in zip(COLOUR_NAMES, state.sticks[other]) if n])
        for other in range(state.players)
        if other != me
    ]
    gives = [name for name, n in zip(COLOUR_NAMES, mine) if n]
    if state.rules.exchange_pick == "opponent":
        return [(other, give) for other, theirs in held for give in gives if any(take != give for take in theirs)]
    return [(other, give, take) for other, theirs in held for give in gives for take in theirs if take != give]


def exchange_of(state: State, terms: tuple) -> Exchange | Offer:
    """The active player's exchange (or offer, when the opponent picks) with these terms."""
    kind = Offer if state.rules.exchange_pick == "opponent" else Exchange
    return kind(state.active, *terms)


def legal_exchanges(state: State) -> list[Exchange | Offer]:
    """Which exchanges (or, when the opponent picks, offers) may the active player make now?"""
    return [exchange_of(state, terms) for terms in exchange_terms(state)]


def hand_backs(state: State) -> list[HandBack]:
    """Which sticks may the opponent named in the waiting offer hand back?"""
    if state.offer is None:
        return []
    offer = state.offer
    return [
        HandBack(offer.opponent, name)
        for name, n in zip(COLOUR_NAMES, state.sticks[offer.opponent])
        if n and name != offer.give
    ]


def legal_actions(state: State) -> list[Action]:
    """What may the player to move do now (rule changes aside)? Nobody else may act."""
    if state.over:
        return []
    if state.offer is not None:
        return hand_backs(state)
    if state.exchanges_left:
        return legal_exchanges(state) + [Done(state.active)]
    return legal_places(state) or [Pass(state.active)]


def play(state: State, action: Action) -> State:
    """Apply one action and return the new state; refuse an illegal one with a reason."""
    if state.over:
        raise GameOver(f"the game is over ({state.end_reason})")
    if type(action) is Place and type(action.player) is int and action.player == state.active and state.offer is None:
        return _place(state, action)  # the most common action: every check below would pass
    if isinstance(action, ChangeRules):
        return action.apply(state)
    player = check_seat(getattr(action, "player", None), state.players, UnknownPlayer)
    if state.offer is not None:
        return _answer(state, action)
    if isinstance(action, HandBack):
        raise NoExchange(f"no one is waiting for player {player} to hand back a stick")
    if player != state.active:
        raise NotYourTurn(f"it is player {state.active}'s turn, not player {player}'s")
    if type(action) is Place:
        return _place(state, action)
    if isinstance(action, Exchange):
        return _exchange(state, action)
    if isinstance(action, Offer):
        return _offer(state, action)
    if isinstance(action, Done):
        if not state.exchanges_left:
            raise NoExchange("there are no exchanges to decline")
        return _end_turn(state, (f"Player {player}: no more exchanges.",))
    if isinstance(action, Pass):
        return _pass(state, action)
    raise IllegalAction(f"{type(action).__name__} is not a ColorFox action")


def _place(state: State, action: Place) -> State:
    if state.exchanges_left:
        raise ExchangesPending(f"player {action.player} has {state.exchanges_left} exchange(s) to make or decline")
    player, turned = action.player, action.turned
    hand = state.hands[player]
    for index, card in enumerate(hand):
        if card.number == action.card:
            slot = index
            break
    else:
        raise CardNotInHand(f"player {player} does not hold card {action.card!r}")
    if not isinstance(turned, bool) or (turned and not state.rules.half_turn):
        raise TurnNotAllowed("these rules keep every card upright (no half turn)")
    cell = (action.x, action.y)
    if type(action.x) is not int or type(action.y) is not int:
        raise NotConnected(f"cell {cell!r} is not a pair of whole numbers")
    if cell in state.table:
        raise CellTaken(f"cell {cell} already holds card {state.table[cell][0].number}")
    demand = state.frontier.get(cell)
    if demand is None:
        raise NotConnected(f"cell {cell} touches no card on the table")
    mask, wanted, _ = demand
    if laid(card, turned)[0] & mask != wanted:
        raise ColoursDiffer(
            f"card {card.number} does not match its neighbours at {cell} (they ask for "
            f"{', '.join(connections(state, cell))})"
        )
    joined = _joined(mask, wanted)
    table, frontier = _lay(state, cell, card, turned)
    supply, mine, taken = list(state.supply), list(state.sticks[player]), _taken(state.supply, joined)
    for colour in taken:
        supply[colour] -= 1
        mine[colour] += 1
    sticks = _with(state.sticks, player, tuple(mine))
    rest = hand[:slot] + hand[slot + 1 :]
    exchanges = len(joined) - 1 if state.rules.exchanges and len(joined) > 1 else 0
    events = _laying_events(player, joined, tuple(taken))
    ending = len(taken) < len(joined)
    if exchanges and _exchange_possible(sticks, player):
        return evolve(
            state,
            table=table,
            frontier=frontier,
            supply=tuple(supply),
            sticks=sticks,
            hands=_with(state.hands, player, rest),
            passes=0,
            ending=ending,
            exchanges_left=exchanges,
            events=events + (f"Player {player}: may make {exchanges} exchange(s).",),
        )
    return _end_turn(
        state,
        events,
        rest,
        {
            "table": table,
            "frontier": frontier,
            "supply": tuple(supply),
            "sticks": sticks,
            "passes": 0,
            "ending": ending,
        },
    )


@functools.cache
def _laying_events(player: int, joined: tuple[int, ...], taken: tuple[int, ...]) -> tuple[str, ...]:
    """What happened when a player laid a card joining these colours and took these sticks?

    Kept once worked out: the same few texts come back in every game.
    """
    names = [COLOUR_NAMES[index] for index in taken]
    events = (
        f"Player {player}: lays a card that matches {in_words([COLOUR_NAMES[i] for i in joined])}; "
        f"takes {in_words(names) or 'no stick'}.",
    )
    missing = sorted({COLOUR_NAMES[index] for index in joined if joined.count(index) > taken.count(index)})
    if missing:
        events += (f"No {', '.join(missing)} stick is left: the game ends after this turn.",)
    return events


def in_words(items: list[str]) -> str:
    """Say a list as a learner would: "red, blue and green"."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]])) if items else ""


def _exchange_possible(sticks: tuple[tuple[int, ...], ...], active: int) -> bool:
    """Do the active player and some opponent both hold a stick?"""
    return any(sticks[active]) and any(any(theirs) for p, theirs in enumerate(sticks) if p != active)


def _check_due(state: State, kind: str) -> None:
    """Refuse an exchange that is not due, or not of the kind the ``exchange_pick`` rule asks for."""
    if not state.exchanges_left:
        raise NoExchange("no exchange is due: exchanges come after connecting 2 or more colours at once")
    if kind == "offer" and state.rules.exchange_pick != "opponent":
        raise NotYourPick("with these rules you choose the stick you take: make an exchange, not an offer")
    if kind == "exchange" and state.rules.exchange_pick == "opponent":
        raise NotYourPick("with these rules the opponent chooses which stick to hand back: offer a stick instead")


def _check_offer(state: State, player: int, opponent, give) -> None:
    """Refuse an exchange that names no opponent, or gives a stick the player lacks."""
    if (
        isinstance(opponent, bool)
        or not isinstance(opponent, int)
        or not 0 <= opponent < state.players
        or opponent == player
    ):
        raise NoExchange(f"player {opponent!r} is not an opponent")
    if give not in COLOUR_NAMES:
        raise NoExchange(f"sticks come in {', '.join(COLOUR_NAMES)}")
    if not state.sticks[player][COLOUR_NAMES.index(give)]:
        raise NoExchange(f"player {player} has no {give} stick to give")


def _exchange(state: State, action: Exchange) -> State:
    _check_due(state, "exchange")
    _check_offer(state, action.player, action.opponent, action.give)
    if action.take not in COLOUR_NAMES:
        raise NoExchange(f"sticks come in {', '.join(COLOUR_NAMES)}")
    if action.give == action.take:
        raise NoExchange("giving and taking the same colour changes nothing")
    if not state.sticks[action.opponent][COLOUR_NAMES.index(action.take)]:
        raise NoExchange(f"player {action.opponent} has no {action.take} stick to give back")
    events = (f"Player {action.player}: gives {action.give} to player {action.opponent}, takes {action.take}.",)
    return _swap(state, action.player, action.opponent, action.give, action.take, events)


def _offer(state: State, action: Offer) -> State:
    _check_due(state, "offer")
    _check_offer(state, action.player, action.opponent, action.give)
    if not any(n for name, n in zip(COLOUR_NAMES, state.sticks[action.opponent]) if name != action.give):
        raise NoExchange(f"player {action.opponent} has no stick of another colour to hand back")
    events = (
        f"Player {action.player}: offers {action.give} to player {action.opponent}, who chooses a stick to hand back.",
    )
    return evolve(state, offer=action, events=events)


def _answer(state: State, action: Action) -> State:
    """Let only the opponent named in the waiting offer act, by handing a stick back."""
    offer = state.offer
    if action.player != offer.opponent or not isinstance(action, HandBack):
        raise OfferPending(
            f"player {offer.opponent} must first choose which stick to hand back to player {offer.player}"
        )
    if (
        action.colour not in COLOUR_NAMES
        or action.colour == offer.give
        or not state.sticks[action.player][COLOUR_NAMES.index(action.colour)]
    ):
        choices = ", ".join(back.colour for back in hand_backs(state))
        raise NoExchange(f"player {action.player} may hand back one of: {choices}")
    events = (f"Player {action.player}: hands back {action.colour} to player {offer.player} (who gave {offer.give}).",)
    return _swap(evolve(state, offer=None), offer.player, offer.opponent, offer.give, action.colour, events)


def _swap(state: State, player: int, opponent: int, give: str, take: str, events: tuple[str, ...]) -> State:
    """Move one `give` stick from player to opponent and one `take` stick back; one exchange is used."""
    give, take = COLOUR_NAMES.index(give), COLOUR_NAMES.index(take)
    mine, theirs = list(state.sticks[player]), list(state.sticks[opponent])
    mine[give], mine[take], theirs[give], theirs[take] = (
        mine[give] - 1,
        mine[take] + 1,
        theirs[give] + 1,
        theirs[take] - 1,
    )
    sticks = _with(_with(state.sticks, player, tuple(mine)), opponent, tuple(theirs))
    left = state.exchanges_left - 1
    state = evolve(state, sticks=sticks, exchanges_left=left, events=events)
    if left and _exchange_possible(sticks, player):
        return state
    return _end_turn(state, events)


def _pass(state: State, action: Pass) -> State:
    if state.exchanges_left:
        raise ExchangesPending(f"player {action.player} has exchanges to make or decline")
    if legal_places(state):
        raise CanStillPlay(f"player {action.player} can place a card, so may not pass")
    draws = state.rules.passing == "draw a card" and bool(state.deck)
    passes = 0 if draws else state.passes + 1
    events = (f"Player {action.player}: no card fits, passes" + (" and draws a card." if draws else "."),)
    if passes >= state.players:
        return _finish(evolve(state, passes=passes), "no one can place a card", events)
    return _end_turn(evolve(state, passes=passes), events)


def _end_turn(state: State, events: tuple[str, ...], hand: tuple | None = None, changes: dict | None = None) -> State:
    """Draw at the end of the turn, then end the game or hand the turn on.

    A placement, the most common turn, passes the active player's new hand and the other fields it
    changed (a fresh dict, completed here) rather than a state of their own: one state is made, not two.
    """
    seat, deck = state.active, state.deck
    hand = state.hands[seat] if hand is None else hand
    changes = {} if changes is None else changes
    drawn = 1 if state.rules.passing == "draw a card" else max(0, state.rules.hand - len(hand))
    changes["hands"], changes["deck"] = _with(state.hands, seat, hand + deck[:drawn]), deck[drawn:]
    changes["exchanges_left"] = 0
    if changes.get("ending", state.ending):
        return _finish(evolve_with(state, changes), "a colour's sticks ran out", events)
    changes["active"], changes["events"] = (seat + 1) % state.players, events
    return evolve_with(state, changes)


def _finish(state: State, reason: str, events: tuple[str, ...]) -> State:
    """End the game, and say so; say too when a tie means playing once more."""
    state = evolve(state, over=True, end_reason=reason, events=events + (f"The game is over: {reason}.",))
    tied = rematch_due(state)
    if tied:
        names = " and ".join(f"player {p}" for p in tied)
        state = evolve(state, events=state.events + (f"A tie between {names}: play once more to find the winner.",))
    return state


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def stick_counts(state: State, player: int) -> dict[str, int]:
    """How many sticks of each colour does a player hold?"""
    return dict(zip(COLOUR_NAMES, state.sticks[player]))


def scores(state: State, worth=None) -> list[int]:
    """What does each player score with the best split of its sticks into sets?"""
    if worth is None:
        return [score_counts(sticks, state.rules) for sticks in state.sticks]
    return [score_sticks(stick_counts(state, p), state.rules, worth) for p in range(state.players)]


def leaders(state: State) -> list[int]:
    """Who has the most points now?"""
    points = scores(state)
    return [p for p, score in enumerate(points) if score == max(points)]


def winners(state: State) -> list[int]:
    """Who won? Empty until the game is over, and after a tie that means playing once more."""
    if not state.over or rematch_due(state):
        return []
    return leaders(state)


def rematch_due(state: State) -> list[int]:
    """Which tied players must play once more (the rulebook's reading of a tie)? Empty otherwise."""
    if not state.over or state.rules.tie != "play once more":
        return []
    top = leaders(state)
    return top if len(top) > 1 else []


@functools.cache
def edge_names(number: int, turned: bool) -> tuple[str, ...]:
    """The colours card `number` shows on its top, right, bottom and left edges as laid, by name (kept: asked at every
    look)."""
    return tuple(colour.value for colour in edges_of(cards()[number - 1], turned))


def observation(state: State, player: int) -> dict:
    """What may `player` see, as plain JSON values? Not the other hands, the deck order or the seed. The table's cards
    come in the order they were laid."""
    return {
        "game": "colorfox",
        "you": player,
        "active": state.active,
        "to_move": to_move(state),
        "offer": dataclasses.asdict(state.offer) if state.offer else None,
        "table": [
            {
                "x": x,
                "y": y,
                "number": card.number,
                "turned": turned,
                "edges": list(edge_names(card.number, turned)),
            }
            for (x, y), (card, turned) in state.table.items()
        ],
        "hand": [{"number": c.number, "edges": list(edge_names(c.number, False))} for c in state.hands[player]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "deck": len(state.deck),
        "supply": dict(zip(COLOUR_NAMES, state.supply)),
        "sticks": [stick_counts(state, p) for p in range(state.players)],
        "scores": scores(state),
        "exchanges_left": state.exchanges_left,
        "over": state.over,
        "end_reason": state.end_reason,
        "winners": winners(state),
        "rematch_due": rematch_due(state),
        "events": list(state.events),
    }


def action_to_dict(action: Action) -> dict:
    """Which plain JSON values describe this action?"""
    if isinstance(action, ChangeRules):
        return action.to_dict()
    kind = {Place: "place", Exchange: "exchange", Offer: "offer", HandBack: "hand_back", Done: "done", Pass: "pass"}[
        type(action)
    ]
    fields = action._asdict() if isinstance(action, Place) else dataclasses.asdict(action)
    return {"type": kind, **fields}


_FIELDS = {
    "place": (Place, {"player": int, "card": int, "x": int, "y": int, "turned": bool}),
    "exchange": (Exchange, {"player": int, "opponent": int, "give": str, "take": str}),
    "offer": (Offer, {"player": int, "opponent": int, "give": str}),
    "hand_back": (HandBack, {"player": int, "colour": str}),
    "done": (Done, {"player": int}),
    "pass": (Pass, {"player": int}),
}


def action_from_dict(data: dict) -> Action:
    """Read an action written by :func:`action_to_dict`, refusing anything malformed."""
    kind, values = read_action(data, _FIELDS)
    return kind(**values)


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game."""
    return {
        "scores": scores(final),
        "winners": winners(final),
        "rounds": len(final.table) - 1,
        "actions": actions,
        "end": final.end_reason,
        "cards placed": len(final.table) - 1,
        "sticks left": sum(final.supply),
        "rematch due": bool(rematch_due(final)),
    }
