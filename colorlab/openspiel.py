"""ColorFox and Colorium as OpenSpiel games: ``import colorlab.openspiel`` registers them.

Examples
========

>>> import colorlab.openspiel
>>> import pyspiel
>>> game = pyspiel.load_game("python_colorlab_colorfox", {"players": 3})
>>> game.num_players(), game.get_parameters()["players"]
(3, 3)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 54)

Every rule is a game parameter, named as in the game's ``Rules``. Action numbers and
observations come from the games' encodings (:mod:`colorlab.colorfox.encoding`,
:mod:`colorlab.colorium.encoding`), so OpenSpiel and PettingZoo number actions alike.

Chance is explicit. The model shuffles from a seed; here every random event is a
chance node instead, and its outcome is put into the model's state before the model
moves on, so the model's own code decides everything else:

- ColorFox: the deal (each card of each hand, then the start card) and every card
  drawn are chance outcomes, each card of the unseen ones equally likely. A player's
  action that ends with drawing waits for its card(s): the chance node picks them,
  they go to the front of the pile, and then the model plays the action.
- Colorium: the four missions (one of each type, when the rules draw them at random)
  and every die of every round are chance outcomes, each face equally likely.

Colorium's players draw at the same time; here they draw one after the other, from
the active player round the table, so a later drawer sees the earlier drawings of
the round. A drawing changes only the drawer's own board, so that knowledge matters
only where boards are compared (the row races and the "most" missions). Every board
is open, so Colorium is a game of perfect information for OpenSpiel: only the
future dice are unknown, and they are chance nodes.

The data of a state is one frozen value (a :class:`Moment`), so a clone shares it
instead of copying the model's state.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import typing

import numpy
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from colorlab.colorfox import encoding as fox_encoding
from colorlab.colorfox import model as fox
from colorlab.colorfox.components import card, cards
from colorlab.colorfox.rules import Rules as FoxRules
from colorlab.colorium import encoding as ium_encoding
from colorlab.colorium import model as ium
from colorlab.colorium.missions import MISSIONS, TYPES
from colorlab.colorium.rules import Rules as IumRules

CHANCE, TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL


def game_type(name: str, rules_type: type, information) -> pyspiel.GameType:
    """OpenSpiel's description of a colorlab game: chance explicit, the win shared out at the end."""
    low, high = (next(f.metadata[bound] for f in dataclasses.fields(rules_type) if f.name == "players")
                 for bound in ("low", "high"))
    return pyspiel.GameType(
        short_name=f"python_colorlab_{name}", long_name=f"colorlab {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information, utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=int(low), max_num_players=int(high),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=rules_type().to_dict())


def game_info(encoding, rules, chance_outcomes: int, length: int) -> pyspiel.GameInfo:
    """OpenSpiel's numbers for one set of rules: actions, players, returns (sum 1) and game length."""
    return pyspiel.GameInfo(num_distinct_actions=encoding.action_count(rules), max_chance_outcomes=chance_outcomes,
                            num_players=rules.players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                            max_game_length=length)


def parts(encoding, rules, array: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """Views of a flat observation array, one per part that the encoding's layout names."""
    views, start = {}, 0
    for name, shape in encoding.observation_layout(rules).items():
        size = int(numpy.prod(shape))
        views[name] = array[start:start + size].reshape(shape)
        start += size
    return views


class Observer:
    """What one player sees, as the encoding's array and as text; the full history never shows."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        secret = game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if secret and iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's secrets is not offered")
        self.tensor, self.dict = None, {}
        if self.perfect_recall:
            return  # an information state is offered as text only: the history has no fixed size
        self.tensor = numpy.zeros(game.encoding.observation_shape(game.rules), numpy.float32)
        self.dict = parts(game.encoding, game.rules, self.tensor)

    def set_from(self, state, player: int) -> None:
        """Fill the array with what `player` sees in `state`."""
        if self.tensor is not None:
            self.tensor[:] = state.seen_array(player, self.private)

    def string_from(self, state, player: int) -> str:
        """What `player` sees (or, with perfect recall, has seen so far), as text."""
        if self.perfect_recall:
            return state.seen_history(player, self.private)
        return state.seen_text(player, self.private)


class ColorlabGame(pyspiel.Game):
    """What both games share: rules from the parameters, observers from the encoding."""

    encoding = None

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An object that shows a state as one player sees it."""
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class Moment:
    """A frozen value that clones share: it is never changed, only replaced."""

    def __deepcopy__(self, memo):
        return self


# ColorFox ---------------------------------------------------------------------------------------------

FOX_TYPE = game_type("colorfox", FoxRules, pyspiel.GameType.Information.IMPERFECT_INFORMATION)


def fox_game_length(rules: FoxRules) -> int:
    """How many decisions can a game take at most?

    At most 53 cards are laid, each followed by up to 3 exchanges (an offer and a
    hand-back each) and a "no more exchanges"; a pass that draws takes a card off the
    pile (53 at most); passes that draw nothing end the game once every player has
    passed in a row, so each of the 54 stretches between cards laid holds fewer than
    one pass per player.
    """
    cards = fox_encoding.DECK - 1
    return cards * 7 + cards + rules.players * (cards + 1)


class Happening(typing.NamedTuple):
    """One thing that happened in a ColorFox game: a card dealt or drawn, the start card, or an action."""

    kind: str  # "deal", "draw", "start" or "act"
    seat: int | None  # who got the card, or who acted
    card: int | None  # the card got or laid
    text: str = ""  # an action, in words

    def told(self, player: int, private: bool) -> str:
        """What `player` saw of it: its own cards by number (unless `private` is off), others' as "a card"."""
        if self.kind == "start":
            return f"start card #{self.card}"
        if self.kind == "act":
            return f"player {self.seat}: {self.text}"
        dealt = self.kind == "deal"
        if self.seat != player:
            return f"player {self.seat} {'gets' if dealt else 'draws'} a card"
        return f"you {'get' if dealt else 'draw'} {f'#{self.card}' if private else 'a card'}"


@dataclasses.dataclass(frozen=True)
class FoxMoment(Moment):
    """Where a ColorFox game stands for OpenSpiel.

    `dealt`: the cards dealt so far (hand by hand, then the start card); `table`: the
    model's state once the deal is done; `waiting`: a player's action that waits for
    `drawing` cards off the pile, of which `drawn` have come; `log`: what happened so
    far, from which each player's information state is told.
    """

    dealt: tuple[int, ...] = ()
    table: fox.State | None = None
    waiting: object = None
    drawing: int = 0
    drawn: tuple[int, ...] = ()
    log: tuple[Happening, ...] = ()


@functools.cache
def start_seeds(dealt: int) -> dict[int, int]:
    """For each card, a seed whose new game lays it as the start card when `dealt` cards go to the hands.

    ``fox.new_game`` takes its start card from its seeded shuffle; a game for a
    chance-chosen start card begins from such a seed, and then gets the chance-chosen
    hands and pile instead of the shuffled ones.
    """
    seeds, seed = {}, 0
    while len(seeds) < fox_encoding.DECK:
        deck = list(cards())
        random.Random(f"{seed}/setup").shuffle(deck)
        seeds.setdefault(deck[dealt].number, seed)
        seed += 1
    return seeds


class ColorFoxGame(ColorlabGame):
    """ColorFox for OpenSpiel: hands and pile hidden, the deal and every draw a chance node."""

    encoding = fox_encoding

    def __init__(self, params=None):
        self.rules = FoxRules.from_dict(dict(params or {}))
        info = game_info(fox_encoding, self.rules, fox_encoding.DECK, fox_game_length(self.rules))
        super().__init__(FOX_TYPE, info, self.rules.to_dict())

    def new_initial_state(self):
        """The moment before the deal."""
        return ColorFoxState(self)


class ColorFoxState(pyspiel.State):
    """One moment of a ColorFox game, for OpenSpiel."""

    def __init__(self, game: ColorFoxGame):
        super().__init__(game)
        self.rules = game.rules
        self.now = FoxMoment()

    def current_player(self) -> int:
        """Chance while dealing or drawing, then the player to move, then terminal."""
        now = self.now
        if now.table is None or now.waiting is not None:
            return CHANCE
        return TERMINAL if now.table.over else fox.to_move(now.table)

    def _legal_actions(self, player: int) -> list[int]:
        return fox_encoding.legal_numbers(self.now.table, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each unseen card is equally likely to come next (outcome: card number less one)."""
        now = self.now
        if now.table is None:
            unseen = [n for n in range(1, fox_encoding.DECK + 1) if n not in now.dealt]
        else:
            unseen = [c.number for c in now.table.deck if c.number not in now.drawn]
        return [(number - 1, 1 / len(unseen)) for number in unseen]

    def _apply_action(self, action: int) -> None:
        now = self.now
        if now.table is None:
            self.now = self._deal(now, action + 1)
        elif now.waiting is not None:
            self.now = self._draw(now, action + 1)
        else:
            self.now = self._act(now, action)

    def _deal(self, now: FoxMoment, number: int) -> FoxMoment:
        """Deal one card: the next card of a hand, or, once the hands are full, the start card."""
        hand, dealt = self.rules.hand, now.dealt + (number,)
        seat = len(now.dealt) // hand
        if seat < self.rules.players:
            return dataclasses.replace(now, dealt=dealt, log=now.log + (Happening("deal", seat, number),))
        hands = tuple(tuple(card(n) for n in dealt[p * hand:(p + 1) * hand]) for p in range(self.rules.players))
        pile = tuple(c for c in cards() if c.number not in dealt)
        start = fox.new_game(self.rules, start_seeds(len(now.dealt))[number])
        return dataclasses.replace(now, dealt=dealt, table=fox.evolve(start, hands=hands, deck=pile),
                                   log=now.log + (Happening("start", None, number),))

    def _act(self, now: FoxMoment, number: int) -> FoxMoment:
        """Play a player's action, or hold it back while the cards it draws are chosen by chance."""
        player = self.current_player()
        action = fox_encoding.action_of(number, now.table, player)
        laid = action.card if type(action) is fox.Place else None
        log = now.log + (Happening("act", player, laid, fox_encoding.action_name(number, self.rules)),)
        after = fox.play(now.table, action)
        drawing = len(now.table.deck) - len(after.deck)
        if drawing:
            return dataclasses.replace(now, waiting=action, drawing=drawing, log=log)
        return dataclasses.replace(now, table=after, log=log)

    def _draw(self, now: FoxMoment, number: int) -> FoxMoment:
        """One card comes off the pile; once all have come, put them on top and play the waiting action."""
        drawn, log = now.drawn + (number,), now.log + (Happening("draw", now.table.active, number),)
        if len(drawn) < now.drawing:
            return dataclasses.replace(now, drawn=drawn, log=log)
        pile = tuple(card(n) for n in drawn) + tuple(c for c in now.table.deck if c.number not in drawn)
        table = fox.play(fox.evolve(now.table, deck=pile), now.waiting)
        return dataclasses.replace(now, table=table, waiting=None, drawing=0, drawn=(), log=log)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"card #{action + 1}"
        return fox_encoding.action_name(action, self.rules)

    def is_terminal(self) -> bool:
        return self.now.table is not None and self.now.table.over

    def returns(self) -> list[float]:
        """Each player's share of the win (0 until the end)."""
        table = self.now.table
        return fox_encoding.returns(table) if table is not None else [0.0] * self.rules.players

    def seen_array(self, player: int, private: bool = True) -> numpy.ndarray:
        """The encoding's observation for `player` (all zeros during the deal)."""
        if self.now.table is None:
            return numpy.zeros(fox_encoding.observation_shape(self.rules), numpy.float32)
        seen = fox_encoding.observation(self.now.table, player)
        if not private:  # an onlooker of the seat: the player's own cards count as unseen too
            cards_seen = parts(fox_encoding, self.rules, seen)["cards"]
            cards_seen[:, 2] += cards_seen[:, 0]
            cards_seen[:, 0] = 0
        return seen

    def seen_text(self, player: int, private: bool = True) -> str:
        """What `player` sees now, in words."""
        now = self.now
        if now.table is None:
            mine = [f"#{h.card}" for h in now.log if h.seat == player and private]
            return f"player {player}; dealing; your cards: {' '.join(mine) or 'none yet'}"
        view = fox.observation(now.table, player)
        table = " ".join(f"#{c['number']}{'v' if c['turned'] else ''}@{c['x']},{c['y']}" for c in view["table"])
        hand = " ".join(f"#{c['number']}" for c in view["hand"]) if private else "hidden"
        sticks = " | ".join(" ".join(f"{n}{name[0]}" for name, n in counts.items()) for counts in view["sticks"])
        offer = view["offer"]
        return (f"player {player}; to move {view['to_move']}; your hand: {hand or 'empty'}; "
                f"hands: {view['hand_sizes']}; pile: {view['deck']}; table: {table}; sticks: {sticks}; "
                f"supply: {list(view['supply'].values())}; exchanges left: {view['exchanges_left']}"
                + (f"; offer of {offer['give']} to player {offer['opponent']}" if offer else "")
                + (f"; waiting for {now.drawing} card(s) off the pile" if now.waiting is not None else "")
                + ("; over" if view["over"] else ""))

    def seen_history(self, player: int, private: bool = True) -> str:
        """Everything `player` has seen happen, in order (its information state)."""
        return f"player {player}: " + "; ".join(happening.told(player, private) for happening in self.now.log)

    def resample_from_infostate(self, player: int, probability_sampler) -> ColorFoxState:
        """A state `player` cannot tell from this one: the other hands and the pile dealt afresh.

        Each other player's past cards are told again to fit its new hand: every card
        it laid came to it before it laid it, and its new hand came in the rest.
        """
        rng = random.Random(probability_sampler())
        table, log = self.now.table, list(self.now.log)
        others = [p for p in range(self.rules.players) if p != player]
        unseen = [c for p in others for c in table.hands[p]] + list(table.deck)
        rng.shuffle(unseen)
        hands = list(table.hands)
        for seat in others:
            hands[seat], unseen = tuple(unseen[:len(hands[seat])]), unseen[len(hands[seat]):]
            _retell(log, seat, [c.number for c in hands[seat]])
        state = self.clone()
        state.now = dataclasses.replace(self.now, table=fox.evolve(table, hands=tuple(hands), deck=tuple(unseen)),
                                        log=tuple(log))
        return state

    def __str__(self) -> str:
        table = self.now.table
        if table is None:
            return f"dealing: {list(self.now.dealt)}"
        hands = " | ".join(" ".join(f"#{c.number}" for c in hand) for hand in table.hands)
        return f"hands: {hands}; pile: {[c.number for c in table.deck]}; {self.seen_text(fox.to_move(table))}"


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


# Colorium ---------------------------------------------------------------------------------------------

IUM_TYPE = game_type("colorium", IumRules, pyspiel.GameType.Information.PERFECT_INFORMATION)


def ium_game_length(rules: IumRules) -> int:
    """How many decisions can a game take at most?

    Every round each player still in fills at least one space, so a game has at most
    one round per space and a last round in which nobody can draw; a round asks each
    player for two picks and a drawing, and each player uses at most two wild spaces.
    """
    rounds = rules.width * rules.height + 1
    return rounds * 3 * rules.players + 2 * rules.players


def mission_cards(kind: str) -> list[str]:
    """Which mission cards of this type may be drawn, in the order the model draws from?"""
    return [mission.id for mission in MISSIONS.values() if mission.type == kind]


@dataclasses.dataclass(frozen=True)
class IumMoment(Moment):
    """Where a Colorium game stands for OpenSpiel.

    `missions`: the missions drawn so far; `table`: the model's state once they are
    all drawn; `rolled`: the dice rolled so far for the round that `table` begins
    (``None`` once the round's pool is in the table).
    """

    missions: tuple[str, ...] = ()
    table: ium.State | None = None
    rolled: tuple[int, ...] | None = ()


def set_out(rules: IumRules, missions: tuple[str, ...]) -> IumMoment:
    """The boards set out with these missions; the first round's dice are still to roll."""
    return IumMoment(missions=missions, table=ium.evolve(ium.new_game(rules), missions=missions))


class ColoriumGame(ColorlabGame):
    """Colorium for OpenSpiel: open boards, the missions and every die a chance node."""

    encoding = ium_encoding

    def __init__(self, params=None):
        self.rules = IumRules.from_dict(dict(params or {}))
        ium.new_game(self.rules)  # refuses unknown mission ids with the rules' own error
        outcomes = max([len(ium_encoding.FACES)] + [len(mission_cards(kind)) for kind in TYPES])
        info = game_info(ium_encoding, self.rules, outcomes, ium_game_length(self.rules))
        super().__init__(IUM_TYPE, info, self.rules.to_dict())
        drawn = self.rules.missions == "first" or self.rules.mission_ids
        self.first_moment = set_out(self.rules, ium.new_game(self.rules).missions) if drawn else IumMoment()

    def new_initial_state(self):
        """The moment before the missions are drawn."""
        return ColoriumState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Every board is open: each player sees the whole state (its history, with perfect recall)."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return IIGObserverForPublicInfoGame(iig_obs_type, params)
        return super().make_py_observer(iig_obs_type, params)


class ColoriumState(pyspiel.State):
    """One moment of a Colorium game, for OpenSpiel."""

    def __init__(self, game: ColoriumGame):
        super().__init__(game)
        self.rules = game.rules
        self.now = game.first_moment

    def current_player(self) -> int:
        """Chance while missions are drawn or dice rolled, then who acts (from the active player round)."""
        table = self.now.table
        if table is None or self.now.rolled is not None:
            return CHANCE
        if table.over:
            return TERMINAL
        return min(ium_encoding.acting(table), key=lambda p: (p - table.active) % self.rules.players)

    def _legal_actions(self, player: int) -> list[int]:
        return ium_encoding.legal_numbers(self.now.table, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each mission card of the type being drawn, or each face of the die being rolled, equally likely."""
        now = self.now
        if now.table is None:
            count = len(mission_cards(TYPES[len(now.missions)]))
            return [(i, 1 / count) for i in range(count)]
        kind, faces = self._die()
        return [(ium_encoding.FACES.index((kind, face)), 1 / len(faces)) for face in faces]

    def _die(self) -> tuple[str, str]:
        """Which kind of die rolls next, with its faces: first the shape dice, then the colour dice?"""
        shapes = len(self.now.table.pool) // 2
        return ("shape", self.rules.shapes) if len(self.now.rolled) < shapes else ("colour", self.rules.colours)

    def _apply_action(self, action: int) -> None:
        now = self.now
        if now.table is None:
            missions = now.missions + (mission_cards(TYPES[len(now.missions)])[action],)
            self.now = set_out(self.rules, missions) if len(missions) == len(TYPES) else IumMoment(missions=missions)
        elif now.rolled is not None:
            self.now = self._roll(now, action)
        else:
            table = ium.play(now.table, ium_encoding.action_of(action, now.table, self.current_player()))
            rolling = table.round != now.table.round and not table.over
            self.now = dataclasses.replace(now, table=table, rolled=() if rolling else None)

    def _roll(self, now: IumMoment, face: int) -> IumMoment:
        """One die rolls; once all have rolled, they are the round's pool instead of the model's seeded roll."""
        rolled = now.rolled + (face,)
        if len(rolled) < len(now.table.pool):
            return dataclasses.replace(now, rolled=rolled)
        pool = tuple(sorted(ium_encoding.FACES[i] for i in rolled))
        shapes = ium.in_words([face for kind, face in pool if kind == "shape"])
        colours = ium.in_words([ium.colour_name(face) for kind, face in pool if kind == "colour"])
        said = f"Round {now.table.round}: the shape dice show {shapes}, the colour dice {colours}."
        table = ium.evolve(now.table, pool=pool, events=now.table.events[:-1] + (said,))  # in place of the seeded roll
        return dataclasses.replace(now, table=table, rolled=None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return ium_encoding.action_name(action, self.rules)
        if self.now.table is None:
            return f"mission {mission_cards(TYPES[len(self.now.missions)])[action]}"
        return "die " + " ".join(ium_encoding.FACES[action])

    def is_terminal(self) -> bool:
        return self.now.table is not None and self.now.table.over

    def returns(self) -> list[float]:
        """Each player's share of the win (0 until the end)."""
        table = self.now.table
        return ium_encoding.returns(table) if table is not None and table.over else [0.0] * self.rules.players

    def seen_array(self, player: int, private: bool = True) -> numpy.ndarray:
        """The encoding's observation for `player` (all zeros while missions are drawn; no pool while dice roll)."""
        table = self.now.table
        if table is None:
            return numpy.zeros(ium_encoding.observation_shape(self.rules), numpy.float32)
        rolling = self.now.rolled is not None
        return ium_encoding.observation(ium.evolve(table, pool=()) if rolling else table, player)

    def seen_text(self, player: int, private: bool = True) -> str:
        """What `player` sees now (everything, boards are open), in words."""
        now = self.now
        if now.table is None:
            return f"player {player}; missions drawn: {', '.join(now.missions) or 'none yet'}"
        view = ium.observation(now.table, player)
        boards = " | ".join("/".join(rows) for rows in view["boards"])
        pool = "rolling" if now.rolled is not None else " ".join(face for _, face in view["pool"])
        return (f"player {player}; round {view['round']}; {view['phase']}; missions: {', '.join(now.table.missions)}; "
                f"pool: {pool or '-'}; order: {view['order']}; picks: {view['picks']}; drawn: {view['drawn']}; "
                f"out: {view['out']}; bonuses: {view['bonuses']}; scores: {view['scores']}; boards: {boards}")

    def __str__(self) -> str:
        return self.seen_text(0)


pyspiel.register_game(FOX_TYPE, ColorFoxGame)
pyspiel.register_game(IUM_TYPE, ColoriumGame)
