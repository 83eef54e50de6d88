"""Colorium as an OpenSpiel game (the optional ``ai`` extra): ``import colorlab.openspiel`` registers it.

The four missions (one of each type, when the rules draw them at random) and every die of
every round are chance outcomes, each face equally likely.

Colorium's players draw at the same time; here they draw one after the other, from the
active player round the table, so a later drawer sees the earlier drawings of the round.
A drawing changes only the drawer's own board, so that knowledge matters only where boards
are compared (the row races and the "most" missions). Every board is open, so Colorium is
a game of perfect information for OpenSpiel: only the future dice are unknown, and they are
chance nodes.

Examples
========

>>> import pyspiel
>>> import colorlab.openspiel
>>> game = pyspiel.load_game("python_colorlab_colorium", {"players": 3})
>>> type(game).__name__, game.num_players()
('ColoriumSpielGame', 3)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 4)
"""

from __future__ import annotations

import dataclasses
import functools

import numpy
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from colorlab.colorium import encoding, model
from colorlab.colorium.game import GAME
from colorlab.colorium.missions import MISSIONS, TYPES
from colorlab.colorium.model import BONUSES
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import SHAPES
from colorlab.encoding import results
from colorlab.spiel import (
    CHANCE,
    TERMINAL,
    Moment,
    SpielGame,
    game_type,
    legal_now,
    no_tensor,
    returns_from,
    rules_from,
)


def game_length(rules: Rules) -> int:
    """How many decisions can a game take at most (OpenSpiel's max_game_length)?

    Count one player's decisions. Each round it is in, a player picks two dice and then draws
    once; the round it cannot draw, it picks and is out. A drawing of an uncut die shape covers
    at least `smallest` spaces (the smallest shape the rules roll: V has 3 cells). A drawing cut
    with scissors covers at least one, and each of the board's scissors bonuses cuts one drawing
    at most. So over the board's `spaces`, a player makes at most
    ``(spaces + cuts * (smallest - 1)) // smallest`` drawings (all its cut drawings of one cell,
    the rest uncut and smallest), each two decisions (the piece, then its space). That is at
    most `drawings` + 1 rounds of two picks. Each of the board's wild bonuses gives one wild
    space more, two decisions (the space, then its colour). The players' counts add up.

    >>> game_length(Rules())  # 8 x 8, two players: 22 drawings, 46 picks and 2 wild spaces each
    188
    """
    spaces = rules.width * rules.height
    smallest = min(len(SHAPES[letter]) for letter in rules.shapes)
    printed = BONUSES[: rules.width] if rules.bonuses else ()
    cuts, wilds = printed.count("scissors"), printed.count("wild")
    drawings = (spaces + cuts * (smallest - 1)) // smallest
    return rules.players * (2 * drawings + 2 * (drawings + 1) + 2 * wilds)


def mission_cards(kind: str) -> list[str]:
    """Which mission cards of this type may be drawn, in the order the model draws from?"""
    return [mission.id for mission in MISSIONS.values() if mission.type == kind]


@dataclasses.dataclass(frozen=True)
class ColoriumMoment(Moment):
    """Where a Colorium game stands for OpenSpiel.

    `missions`: the missions drawn so far; `table`: the model's state once they are
    all drawn; `rolled`: the dice rolled so far for the round that `table` begins
    (``None`` once the round's pool is in the table); `chosen`: the first number of a
    drawing or a wild space that the player to act has begun (nothing between moves).
    """

    missions: tuple[str, ...] = ()
    table: model.State | None = None
    rolled: tuple[int, ...] | None = ()
    chosen: tuple[int, ...] = ()


def set_out(rules: Rules, missions: tuple[str, ...]) -> ColoriumMoment:
    """The boards set out with these missions; the first round's dice are still to roll."""
    return ColoriumMoment(missions=missions, table=model.evolve(model.new_game(rules), missions=missions))


class ColoriumSpielGame(SpielGame):
    """Colorium for OpenSpiel: open boards, the missions and every die a chance node."""

    GAME_TYPE = game_type(GAME, pyspiel.GameType.Information.PERFECT_INFORMATION)

    def __init__(self, params=None):
        rules = rules_from(Rules, params)
        model.new_game(rules)  # refuses unknown mission ids with the rules' own error
        outcomes = max([len(encoding.FACES)] + [len(mission_cards(kind)) for kind in TYPES])
        super().__init__(
            rules, encoding, chance_outcomes=outcomes, length=game_length(rules), returns=returns_from(params)
        )
        drawn = rules.missions == "first" or rules.mission_ids
        self.first_moment = set_out(rules, model.new_game(rules).missions) if drawn else ColoriumMoment()

    def new_initial_state(self):
        """The moment before the missions are drawn."""
        return ColoriumSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Every board is open: each player sees the whole state (its history as text, with perfect recall)."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return HistoryObserver(iig_obs_type, params)
        return super().make_py_observer(iig_obs_type, params)


class HistoryObserver(IIGObserverForPublicInfoGame):
    """A player's history, as text only: an information-state tensor is refused with a reason."""

    def set_from(self, state, player: int) -> None:
        no_tensor(state.get_game())


class ColoriumSpielState(pyspiel.State):
    """One moment of a Colorium game, for OpenSpiel."""

    def __init__(self, game: ColoriumSpielGame):
        super().__init__(game)
        self.rules, self.returns_kind = game.rules, game.returns_kind
        self.now = game.first_moment
        self._player: tuple = (None, None)  # (a moment, who acts in it): the last asked

    def current_player(self) -> int:
        """Chance while missions are drawn or dice rolled, then who acts (from the active player round). (OpenSpiel
        asks several times an action: the answer is kept for the moment.)"""
        kept = self._player
        if kept[0] is not self.now:
            kept = self._player = (self.now, self._player_now())
        return kept[1]

    def _player_now(self) -> int:
        table = self.now.table
        if table is None or self.now.rolled is not None:
            return CHANCE
        if table.over:
            return TERMINAL
        acting = encoding.acting(table)
        if len(acting) == 1:
            return acting[0]
        return min(acting, key=lambda p: (p - table.active) % self.rules.players)

    def _legal_actions(self, player: int) -> list[int]:
        return legal_now(self, player, lambda now: encoding.legal_numbers(now.table, player, now.chosen))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each mission card of the type being drawn, or each face of the die being rolled, equally likely."""
        now = self.now
        if now.table is None:
            count = len(mission_cards(TYPES[len(now.missions)]))
            return [(i, 1 / count) for i in range(count)]
        return list(_die_outcomes(*self._die()))

    def _die(self) -> tuple[str, str]:
        """Which kind of die rolls next, with its faces: first the shape dice, then the colour dice?"""
        shapes = len(self.now.table.pool) // 2
        return ("shape", self.rules.shapes) if len(self.now.rolled) < shapes else ("colour", self.rules.colours)

    def _apply_action(self, action: int) -> None:
        now = self.now
        if now.table is None:
            missions = now.missions + (mission_cards(TYPES[len(now.missions)])[action],)
            self.now = set_out(self.rules, missions) if len(missions) == len(TYPES) else ColoriumMoment(missions)
        elif now.rolled is not None:
            self.now = self._roll(now, action)
        else:
            player = self.current_player()
            move = encoding.action_of(action, now.table, player, now.chosen, self._legal_actions(player))
            if move is None:  # the first half of a drawing or a wild space: the second comes next
                self.now = now.but(chosen=now.chosen + (action,))
                self._player = (self.now, player)  # who finishes the move: the one who began it
                return
            table = model.play(now.table, move)
            rolling = table.round != now.table.round and not table.over
            self.now = now.but(table=table, rolled=() if rolling else None, chosen=())

    def _roll(self, now: ColoriumMoment, face: int) -> ColoriumMoment:
        """One die rolls; once all have rolled, they are the round's pool instead of the model's seeded roll."""
        rolled = now.rolled + (face,)
        if len(rolled) < len(now.table.pool):
            return now.but(rolled=rolled)
        pool = tuple(sorted(encoding.FACES[i] for i in rolled))
        said = f"Round {now.table.round}: {model.dice_in_words(pool)}."  # as the model says its own roll
        table = model.evolve(now.table, pool=pool, events=now.table.events[:-1] + (said,))  # not the seeded roll
        return now.but(table=table, rolled=None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return encoding.action_name(action, self.rules)
        if self.now.table is None:
            return f"mission {mission_cards(TYPES[len(self.now.missions)])[action]}"
        return "die " + " ".join(encoding.FACES[action])

    def is_terminal(self) -> bool:
        return self.now.table is not None and self.now.table.over

    def returns(self) -> list[float]:
        """Each player's share of the win, or score (the game's ``returns``); 0 until the end."""
        table = self.now.table
        return (
            results(encoding, table, self.returns_kind)
            if table is not None and table.over
            else [0.0] * self.rules.players
        )

    def seen_array(self, player: int, private: bool = True) -> numpy.ndarray:
        """The encoding's observation for `player` (all zeros while missions are drawn; no pool while dice roll)."""
        table = self.now.table
        if table is None:
            return numpy.zeros(encoding.observation_shape(self.rules), numpy.float32)
        rolling = self.now.rolled is not None
        return encoding.observation(model.evolve(table, pool=()) if rolling else table, player, self.now.chosen)

    def seen_text(self, player: int, private: bool = True) -> str:
        """What `player` sees now (everything, boards are open), in words."""
        now = self.now
        if now.table is None:
            return f"player {player}; missions drawn: {', '.join(now.missions) or 'none yet'}"
        view = model.observation(now.table, player)
        boards = " | ".join("/".join(rows) for rows in view["boards"])
        pool = "rolling" if now.rolled is not None else " ".join(face for _, face in view["pool"])
        return (
            f"player {player}; round {view['round']}; {view['phase']}; missions: {', '.join(now.table.missions)}; "
            f"pool: {pool or '-'}; order: {view['order']}; picks: {view['picks']}; drawn: {view['drawn']}; "
            f"out: {view['out']}; bonuses: {view['bonuses']}; scores: {view['scores']}; boards: {boards}"
            + "".join(f"; chosen: {encoding.action_name(number, self.rules)}" for number in now.chosen)
        )

    def __str__(self) -> str:
        return self.seen_text(0)


@functools.cache
def _die_outcomes(kind: str, faces: str) -> tuple[tuple[int, float], ...]:
    """A die's chance outcomes: each of its faces (by its place in the pool's faces), equally likely."""
    return tuple((encoding.FACES.index((kind, face)), 1 / len(faces)) for face in faces)
