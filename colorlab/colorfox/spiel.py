"""ColorFox as an OpenSpiel game (the optional ``ai`` extra): ``import colorlab.openspiel`` registers it.

The hands and the pile are hidden, so ColorFox is a game of imperfect information. The
deal (each card of each hand, then the start card) and every card drawn are chance
outcomes, each card of the unseen ones equally likely. A player's action that ends with
drawing waits for its card(s): the chance node picks them, they go to the front of the
pile, and then the model plays the action.

Examples
========

>>> import pyspiel
>>> import colorlab.openspiel
>>> game = pyspiel.load_game("python_colorlab_colorfox", {"players": 3})
>>> type(game).__name__, game.num_players(), game.get_parameters()["players"]
('ColorFoxSpielGame', 3, 3)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 54)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import random
import typing

import numpy
import pyspiel

from colorlab.colorfox import encoding, model
from colorlab.colorfox.components import card, cards
from colorlab.colorfox.game import GAME
from colorlab.colorfox.rules import Rules
from colorlab.encoding import results
from colorlab.spiel import (
    CHANCE,
    TERMINAL,
    Moment,
    SpielGame,
    game_type,
    legal_now,
    observation_parts,
    returns_from,
    rules_from,
)


def game_length(rules: Rules) -> int:
    """How many decisions can a game take at most (OpenSpiel's max_game_length)?

    Count the joins: each edge where a card laid touches a card already there joins a
    colour. Every card laid joins at least one, so at most `joins` cards are laid. Laying a
    card is two decisions (the card, its cell), and a card that joins k colours gives k - 1
    exchanges, each at most two decisions (an offer and its hand-back), a "no more
    exchanges" ending them early: so laying and exchanging take at most two decisions per
    join (per card laid, without exchanges). The joins are bounded twice. The layout of the
    54 cards has at most 2n - ceil(2 sqrt n) touching edges, n = 54 (the most a polyomino
    of n cells has). And every join but those of the last card takes a stick from the
    supply, or the game ends: at most the supply's sticks, plus the last card's 4.

    A pass that draws takes a card off the pile, which the deal leaves at 53 less the
    hands. A pass that draws nothing (the pile is empty, or under "end when all pass")
    ends the game once all the players have passed in turn, so between two cards laid
    there are at most ``players - 1`` of them, and ``players`` after the last.

    >>> game_length(Rules())  # 52 joins: 104 decisions laying and exchanging, 45 drawing passes, 54 passes
    203
    """
    cards = encoding.DECK
    joins = min(2 * cards - math.ceil(2 * math.sqrt(cards)), encoding.COLOURS * rules.sticks_per_colour + 4)
    laid = min(cards - 1, joins)
    laying = 2 * joins if rules.exchanges else 2 * laid
    drawing_passes = cards - 1 - rules.players * rules.hand if rules.passing == "draw a card" else 0
    return laying + drawing_passes + (rules.players - 1) * (laid + 1) + 1


class Happening(typing.NamedTuple):
    """One thing that happened in a ColorFox game: a card dealt or drawn, the start card, or an action."""

    kind: str  # "deal", "draw", "start" or "act"
    seat: int | None  # who got the card, or who acted
    card: int | None  # the card got or laid
    action: typing.Any = None  # the action taken (told in words only when asked: most playouts never tell)

    def told(self, player: int, private: bool) -> str:
        """What `player` saw of it: its own cards by number (unless `private` is off), others' as "a card"."""
        if self.kind == "start":
            return f"start card #{self.card}"
        if self.kind == "act":
            return f"player {self.seat}: {encoding.action_words(self.action)}"
        dealt = self.kind == "deal"
        if self.seat != player:
            return f"player {self.seat} {'gets' if dealt else 'draws'} a card"
        return f"you {'get' if dealt else 'draw'} {f'#{self.card}' if private else 'a card'}"


@dataclasses.dataclass(frozen=True)
class ColorFoxMoment(Moment):
    """Where a ColorFox game stands for OpenSpiel.

    `dealt`: the cards dealt so far (hand by hand, then the start card); `table`: the
    model's state once the deal is done; `waiting`: a player's action that waits for
    `drawing` cards off the pile, of which `drawn` have come; `log`: what happened so
    far, from which each player's information state is told; `chosen`: the card the player
    to move chose to lay, whose cell comes next (its number, or nothing between moves);
    `played`: the waiting action as the model played it, with the pile's top card(s) drawn,
    whose drawn cards the chance-chosen ones replace (never seen by any player).
    """

    dealt: tuple[int, ...] = ()
    table: model.State | None = None
    waiting: object = None
    drawing: int = 0
    drawn: tuple[int, ...] = ()
    log: tuple[Happening, ...] = ()
    chosen: tuple[int, ...] = ()
    played: model.State | None = None


@functools.cache
def start_seeds(dealt: int) -> dict[int, int]:
    """For each card, a seed whose new game lays it as the start card when `dealt` cards go to the hands.

    ``model.new_game`` takes its start card from its seeded shuffle; a game for a
    chance-chosen start card begins from such a seed, and then gets the chance-chosen
    hands and pile instead of the shuffled ones.
    """
    seeds, seed = {}, 0
    while len(seeds) < encoding.DECK:
        deck = list(cards())
        random.Random(f"{seed}/setup").shuffle(deck)
        seeds.setdefault(deck[dealt].number, seed)
        seed += 1
    return seeds


class ColorFoxSpielGame(SpielGame):
    """ColorFox for OpenSpiel: hands and pile hidden, the deal and every draw a chance node."""

    GAME_TYPE = game_type(GAME, pyspiel.GameType.Information.IMPERFECT_INFORMATION)

    def __init__(self, params=None):
        rules = rules_from(Rules, params)
        super().__init__(
            rules, encoding, chance_outcomes=encoding.DECK, length=game_length(rules), returns=returns_from(params)
        )

    def new_initial_state(self):
        """The moment before the deal."""
        return ColorFoxSpielState(self)


class ColorFoxSpielState(pyspiel.State):
    """One moment of a ColorFox game, for OpenSpiel."""

    def __init__(self, game: ColorFoxSpielGame):
        super().__init__(game)
        self.rules, self.returns_kind = game.rules, game.returns_kind
        self.now = ColorFoxMoment()
        self._player: tuple = (None, None)  # (a moment, who acts in it): the last asked

    def current_player(self) -> int:
        """Chance while dealing or drawing, then the player to move, then terminal. (OpenSpiel asks several times an
        action: the answer is kept for the moment.)"""
        kept = self._player
        if kept[0] is not self.now:
            kept = self._player = (self.now, self._player_now())
        return kept[1]

    def _player_now(self) -> int:
        now = self.now
        if now.table is None or now.waiting is not None:
            return CHANCE
        return TERMINAL if now.table.over else model.to_move(now.table)

    def _legal_actions(self, player: int) -> list[int]:
        return legal_now(self, player, lambda now: encoding.legal_numbers(now.table, player, now.chosen))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each unseen card is equally likely to come next (outcome: card number less one)."""
        now = self.now
        if now.table is None:
            dealt = set(now.dealt)
            outcomes = _outcomes(encoding.DECK - len(dealt))
            return [outcomes[index] for index in range(encoding.DECK) if index + 1 not in dealt]
        if not now.drawn:  # the pile, as it lies
            outcomes = _outcomes(len(now.table.deck))
            return [outcomes[held.number - 1] for held in now.table.deck]
        unseen = [number for number in map(_NUMBER, now.table.deck) if number not in now.drawn]
        outcomes = _outcomes(len(unseen))
        return [outcomes[number - 1] for number in unseen]

    def _apply_action(self, action: int) -> None:
        now = self.now
        if now.table is None:
            self.now = self._deal(now, action + 1)
        elif now.waiting is not None:
            self.now = self._draw(now, action + 1)
        else:
            self.now = self._act(now, action)

    def _deal(self, now: ColorFoxMoment, number: int) -> ColorFoxMoment:
        """Deal one card: the next card of a hand, or, once the hands are full, the start card."""
        hand, dealt = self.rules.hand, now.dealt + (number,)
        seat = len(now.dealt) // hand
        if seat < self.rules.players:
            return now.but(dealt=dealt, log=now.log + (Happening("deal", seat, number),))
        hands = tuple(tuple(card(n) for n in dealt[p * hand : (p + 1) * hand]) for p in range(self.rules.players))
        pile = tuple(c for c in cards() if c.number not in dealt)
        start = model.new_game(self.rules, start_seeds(len(now.dealt))[number])
        return dataclasses.replace(
            now,
            dealt=dealt,
            table=model.evolve(start, hands=hands, deck=pile),
            log=now.log + (Happening("start", None, number),),
        )

    def _act(self, now: ColorFoxMoment, number: int) -> ColorFoxMoment:
        """Play a player's action, or hold it back while the cards it draws are chosen by chance."""
        player = self.current_player()
        action = encoding.action_of(number, now.table, player, now.chosen, self._legal_actions(player))
        if action is None:  # a card to lay: its cell comes next
            return now.but(chosen=now.chosen + (number,))
        laid = action.card if type(action) is model.Place else None
        log = now.log + (Happening("act", player, laid, action),)
        after = model.play(now.table, action)
        drawing = len(now.table.deck) - len(after.deck)
        if drawing:
            return now.but(waiting=action, drawing=drawing, log=log, chosen=(), played=after)
        return now.but(table=after, log=log, chosen=())

    def _draw(self, now: ColorFoxMoment, number: int) -> ColorFoxMoment:
        """One card comes off the pile; once all have come, put them on top and play the waiting action."""
        drawn, log = now.drawn + (number,), now.log + (Happening("draw", now.table.active, number),)
        if len(drawn) < now.drawing:
            return now.but(drawn=drawn, log=log)
        return now.but(table=_with_drawn(now, drawn), waiting=None, drawing=0, drawn=(), log=log, played=None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"card #{action + 1}"
        return encoding.action_name(action, self.rules, self.now.table)

    def is_terminal(self) -> bool:
        return self.now.table is not None and self.now.table.over

    def returns(self) -> list[float]:
        """Each player's share of the win, or score (the game's ``returns``); 0 until the end."""
        table = self.now.table
        return results(encoding, table, self.returns_kind) if table is not None else [0.0] * self.rules.players

    def seen_array(self, player: int, private: bool = True) -> numpy.ndarray:
        """The encoding's observation for `player` (all zeros during the deal)."""
        if self.now.table is None:
            return numpy.zeros(encoding.observation_shape(self.rules), numpy.float32)
        seen = encoding.observation(self.now.table, player, self.own_choice(player, private))
        if not private:  # an onlooker of the seat: the player's own cards count as unseen too
            cards_seen = observation_parts(encoding, self.rules, seen)["cards"]
            cards_seen[:, 2] += cards_seen[:, 0]
            cards_seen[:, 0] = 0
        return seen

    def own_choice(self, player: int, private: bool = True) -> tuple[int, ...]:
        """The card `player` chose to lay and has not laid yet, if any: seen by that player alone."""
        now = self.now
        return now.chosen if private and now.chosen and model.to_move(now.table) == player else ()

    def choice_told(self, player: int, private: bool = True) -> str:
        """The card `player` chose to lay, in words ("" if none, or not its own)."""
        chosen = self.own_choice(player, private)
        return f"; you chose {encoding.action_name(chosen[0], self.rules).removeprefix('choose ')}" if chosen else ""

    def seen_text(self, player: int, private: bool = True) -> str:
        """What `player` sees now, in words."""
        now = self.now
        if now.table is None:
            mine = [f"#{h.card}" for h in now.log if h.seat == player and private]
            return f"player {player}; dealing; your cards: {' '.join(mine) or 'none yet'}"
        view = model.observation(now.table, player)
        table = " ".join(f"#{c['number']}{'v' if c['turned'] else ''}@{c['x']},{c['y']}" for c in view["table"])
        hand = " ".join(f"#{c['number']}" for c in view["hand"]) if private else "hidden"
        sticks = " | ".join(" ".join(f"{n}{name[0]}" for name, n in counts.items()) for counts in view["sticks"])
        offer = view["offer"]
        return (
            f"player {player}; to move {view['to_move']}; your hand: {hand or 'empty'}; "
            f"hands: {view['hand_sizes']}; pile: {view['deck']}; table: {table}; sticks: {sticks}; "
            f"supply: {list(view['supply'].values())}; exchanges left: {view['exchanges_left']}"
            + (f"; offer of {offer['give']} to player {offer['opponent']}" if offer else "")
            + (f"; waiting for {now.drawing} card(s) off the pile" if now.waiting is not None else "")
            + ("; over" if view["over"] else "")
            + self.choice_told(player, private)
        )

    def seen_history(self, player: int, private: bool = True) -> str:
        """Everything `player` has seen happen, in order (its information state)."""
        told = "; ".join(happening.told(player, private) for happening in self.now.log)
        return f"player {player}: {told}{self.choice_told(player, private)}"

    def resample_from_infostate(self, player: int, probability_sampler) -> ColorFoxSpielState:
        """A state `player` cannot tell from this one: the other hands and the pile dealt afresh.

        Each other player's past cards are told again to fit its new hand: every card
        it laid came to it before it laid it, and its new hand came in the rest.
        """
        rng = random.Random(probability_sampler())
        table, log = self.now.table, list(self.now.log)
        others = [p for p in range(self.rules.players) if p != player]
        kept = self.chosen_card(player)  # another player's card chosen to lay stays in its hand
        unseen = [c for p in others for c in table.hands[p] if c is not kept] + list(table.deck)
        rng.shuffle(unseen)
        hands = list(table.hands)
        for seat in others:
            size = len(hands[seat]) - (kept is not None and seat == model.to_move(table))
            hands[seat], unseen = tuple(unseen[:size]), unseen[size:]
            if kept is not None and seat == model.to_move(table):
                hands[seat] += (kept,)
            _retell(log, seat, [c.number for c in hands[seat]])
        state = self.clone()
        state.now = dataclasses.replace(
            self.now, table=model.evolve(table, hands=tuple(hands), deck=tuple(unseen)), log=tuple(log)
        )
        return state

    def chosen_card(self, player: int):
        """The card another player than `player` chose to lay and has not laid yet (None if there is none)."""
        now = self.now
        if not now.chosen or model.to_move(now.table) == player:
            return None
        number, _ = encoding.chosen_card(now.chosen, self.rules)
        return next(c for c in now.table.hands[model.to_move(now.table)] if c.number == number)

    def __str__(self) -> str:
        table = self.now.table
        if table is None:
            return f"dealing: {list(self.now.dealt)}"
        hands = " | ".join(" ".join(f"#{c.number}" for c in hand) for hand in table.hands)
        return f"hands: {hands}; pile: {[c.number for c in table.deck]}; {self.seen_text(model.to_move(table))}"


_NUMBER = operator.attrgetter("number")


@functools.cache
def _outcomes(unseen: int) -> tuple[tuple[int, float], ...]:
    """Every card's chance outcome, (card number less one, chance), when `unseen` cards are equally likely to come
    (made once for each count: the outcomes of a chance node are picked from them)."""
    return tuple((index, 1 / unseen) for index in range(encoding.DECK))


def _with_drawn(now: ColorFoxMoment, drawn: tuple[int, ...]) -> model.State:
    """The waiting action played with the chance-chosen cards drawn: the model's play of it, its drawn cards (the
    pile's top ones, at the end of the drawer's hand) replaced by them. That is the state the model reaches with those
    cards on top of the pile (its own draw puts them there), without playing the action again."""
    before, played, seat = now.table, now.played, now.table.active
    hand, count = played.hands[seat], len(drawn)
    numbers, pile = list(map(_NUMBER, before.deck)), before.deck
    for place in sorted((numbers.index(n) for n in drawn), reverse=True):  # each drawn card leaves its place
        pile = pile[:place] + pile[place + 1 :]
    if hand[-count:] != before.deck[:count] or len(played.deck) != len(pile):  # not a plain draw: play it again
        return model.play(model.evolve(before, deck=tuple(card(n) for n in drawn) + pile), now.waiting)
    hands = played.hands[:seat] + (hand[:-count] + tuple(card(n) for n in drawn),) + played.hands[seat + 1 :]
    return model.evolve(played, hands=hands, deck=pile)


def _retell(log: list[Happening], seat: int, hand: list[int]) -> None:
    """Tell again which card each deal and draw brought `seat`: each card it laid, before it laid it; then `hand`."""
    free = []
    for index, happening in enumerate(log):
        if happening.seat != seat or happening.kind == "start":
            continue
        if happening.kind in ("deal", "draw"):
            free.append(index)
        elif happening.card is not None:
            got = free.pop()
            log[got] = log[got]._replace(card=happening.card)
    for index, number in zip(free, hand):
        log[index] = log[index]._replace(card=number)
