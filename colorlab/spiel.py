"""What every game's OpenSpiel game shares: its description, observers and frozen moments.

A game offered to OpenSpiel keeps its OpenSpiel classes in its own folder (``spiel.py``),
declared as the ``spiel`` part of its :class:`colorlab.games.Game`; :mod:`colorlab.openspiel`
registers them. They are built from this module's pieces, so that every game is offered alike:

- its name is ``python_colorlab_<game>`` and every rule is a game parameter, named as in
  the game's ``Rules``. OpenSpiel's game strings (``str(game)``, and so its saved games) split
  parameters at commas, so a list rule (Colorium's ``mission_ids``) is written there with
  ``;`` between its items, and read back with either;
- action numbers and observations come from the game's encoding, so OpenSpiel and
  PettingZoo number actions alike;
- chance is explicit. A model shuffles and rolls from a seed; here every random event is a
  chance node instead, and its outcome is put into the model's state before the model moves
  on, so the model's own code decides everything else;
- the returns share the win out at the end (they add up to 1), or, with the game parameter
  ``returns="score"``, give each player its score from 0 to 1; a solo game, which has no
  win to share, always gives its score;
- the data of a state is one frozen value (a :class:`Moment`), so a clone shares it instead
  of copying the model's state.

Examples
========

>>> from colorlab.games import find_game
>>> from colorlab.spiel import game_type
>>> import pyspiel
>>> described = game_type(find_game("colorium"), pyspiel.GameType.Information.PERFECT_INFORMATION)
>>> described.short_name, described.min_num_players, described.max_num_players
('python_colorlab_colorium', 1, 4)
"""

from __future__ import annotations

import dataclasses
from types import ModuleType

import numpy
import pyspiel

from colorlab.encoding import RESULTS, part_views, results
from colorlab.games import Game, find_game
from colorlab.rules import RulesBase

CHANCE, TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
ITEMS = ";"  # between the items of a list rule in a game's parameters (OpenSpiel's game strings split at commas)
GAME_OPTIONS = {"returns": "win"}  # the game parameters that are not rules, with their defaults


def spiel_parameters(rules: RulesBase) -> dict:
    """The rules as OpenSpiel game parameters: every rule, a list rule's items joined with ITEMS."""
    return {
        name: value.replace(",", ITEMS) if isinstance(value, str) else value for name, value in rules.to_dict().items()
    }


def rules_from(rules_type: type[RulesBase], params) -> RulesBase:
    """The rules that OpenSpiel game parameters name (a list rule's items joined with ITEMS or with commas); the
    parameters that are not rules (``returns``) are left out."""
    values = {name: value for name, value in dict(params or {}).items() if name not in GAME_OPTIONS}
    return rules_type.from_dict({name: value.replace(ITEMS, ",") if isinstance(value, str) else value
                                 for name, value in values.items()})  # fmt: skip


def returns_from(params) -> str:
    """What the players get at the end, as the game parameter ``returns`` says ("win" when not given)."""
    kind = dict(params or {}).get("returns", GAME_OPTIONS["returns"])
    if kind not in RESULTS:
        raise ValueError(f"returns = {kind!r} is not allowed: choose one of {', '.join(map(repr, RESULTS))}")
    return kind


def game_type(
    game: Game,
    information: pyspiel.GameType.Information,
    utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.CONSTANT_SUM,
) -> pyspiel.GameType:
    """OpenSpiel's description of a declared game: chance explicit, the win shared out at the end (or, with
    `utility` GENERAL_SUM, each player's score)."""
    low, high = (
        next(f.metadata[bound] for f in dataclasses.fields(game.rules_type) if f.name == "players")
        for bound in ("low", "high")
    )
    return pyspiel.GameType(
        short_name=f"python_colorlab_{game.name}",
        long_name=f"colorlab {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=int(low),
        max_num_players=int(high),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**spiel_parameters(game.rules_type()), **GAME_OPTIONS},
    )


def observation_parts(encoding: ModuleType, rules: RulesBase, array: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """Views of a flat observation array, one per part that the encoding's layout names."""
    return part_views(array, encoding.observation_layout(rules))


class Observer:
    """What one player sees, as the encoding's array and as text; the full history never shows."""

    def __init__(self, game: SpielGame, iig_obs_type, params):
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
        self.dict = observation_parts(game.encoding, game.rules, self.tensor)

    def set_from(self, state, player: int) -> None:
        """Fill the array with what `player` sees in `state` (refused for an information state: see `no_tensor`)."""
        if self.tensor is None:
            no_tensor(state.get_game())
        self.tensor[:] = state.seen_array(player, self.private)

    def string_from(self, state, player: int) -> str:
        """What `player` sees (or, with perfect recall, has seen so far), as text."""
        if self.perfect_recall:
            return state.seen_history(player, self.private)
        return state.seen_text(player, self.private)


def no_tensor(game: pyspiel.Game) -> None:
    """Refuse an information-state tensor, saying what to use instead (the history has no fixed size)."""
    raise ValueError(
        f"{game.get_type().long_name} offers no information_state_tensor: a player's history has no fixed size. "
        "Use observation_tensor() (what the player sees now, enough to play on) or information_state_string()."
    )


class SpielGame(pyspiel.Game):
    """What every game's OpenSpiel game shares: its numbers from the rules, observers from the encoding.

    A game's class gives its ``GAME_TYPE`` (see :func:`game_type`), which OpenSpiel registers.
    """

    GAME_TYPE: pyspiel.GameType

    def __init__(self, rules: RulesBase, encoding: ModuleType, chance_outcomes: int, length: int, returns: str = "win"):
        self.rules, self.encoding, self.returns_kind = rules, encoding, returns
        scored = returns == "score" or rules.players == 1  # a solo game has no win to share: it gives its score
        kind = self.GAME_TYPE
        if scored:
            declared = find_game(kind.short_name.removeprefix("python_colorlab_"))
            kind = game_type(declared, kind.information, pyspiel.GameType.Utility.GENERAL_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.action_count(rules),
            max_chance_outcomes=chance_outcomes,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None if scored else 1.0,
            max_game_length=length,
        )
        super().__init__(kind, info, {**spiel_parameters(rules), "returns": returns})

    def results(self, table) -> list[float]:
        """What each player gets at the end of this game (see :func:`colorlab.encoding.results`)."""
        return results(self.encoding, table, self.returns_kind)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An object that shows a state as one player sees it."""
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def legal_now(state: pyspiel.State, player: int, find) -> list[int]:
    """A player's legal numbers in the state's moment, found once (`find(moment)`) and kept until the moment changes:
    OpenSpiel asks for them, then the action applied is checked against them."""
    kept = getattr(state, "_legal", None)
    if kept is None or kept[0] is not state.now or kept[1] != player:
        kept = state._legal = (state.now, player, find(state.now))
    return kept[2]


class Moment:
    """Where a game stands for OpenSpiel: a frozen value that clones of a state share, never changed, only replaced."""

    def but(self, **changes):
        """A copy with these fields changed (``dataclasses.replace``, without its checks: a moment is made at every
        action of every playout)."""
        moment = object.__new__(type(self))
        object.__setattr__(moment, "__dict__", self.__dict__ | changes)
        return moment

    def __deepcopy__(self, memo):
        return self
