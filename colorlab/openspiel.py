"""colorlab's games as OpenSpiel games: ``import colorlab.openspiel`` registers them.

Every declared game with a ``spiel`` part (its OpenSpiel game class, in its folder's
``spiel.py``) is registered as ``python_colorlab_<game>``, with every rule of its
``Rules`` as a game parameter. What those classes share is in :mod:`colorlab.spiel`.

The games' own bots play there too, as ``pyspiel.Bot`` objects (OpenSpiel's
``evaluate_bots`` and examples take them): :func:`search_bot` gives the game's search bot,
its strongest, and :func:`bot` any bot the game declares by name.

Examples
========

>>> import pyspiel
>>> import colorlab.openspiel
>>> from colorlab.games import all_games
>>> offered = [game.name for game in all_games() if f"python_colorlab_{game.name}" in pyspiel.registered_names()]
>>> offered
['colorfox', 'colorium']
>>> board = pyspiel.load_game(f"python_colorlab_{offered[1]}", {"players": 2, "width": 6})
>>> board.num_players(), board.rules.width
(2, 6)
>>> import numpy
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> players = [search_bot(board, 0, playouts=20), bot(board, 1, "RandomBot")]
>>> evaluate_bots(board.new_initial_state(), players, numpy.random.RandomState(0))
[1.0, 0.0]
"""

from typing import Any

import pyspiel

from colorlab.games import Game, all_games, find_game


def register_games() -> None:
    """Make every declared game that has an OpenSpiel class loadable, as python_colorlab_<game>."""
    for game in all_games():
        if game.has("spiel"):
            spiel_game = game.part("spiel")
            pyspiel.register_game(spiel_game.GAME_TYPE, spiel_game)


class ModelBot(pyspiel.Bot):
    """One of a game's own bots, seated at `player` of an OpenSpiel game of colorlab's: it decides from the model's
    state as its player sees it, and answers with the action's numbers, one at each decision (a move of two numbers,
    such as a card and its cell, is chosen whole at its first decision and finished at the next)."""

    def __init__(self, game: pyspiel.Game, player: int, agent: Any):
        pyspiel.Bot.__init__(self)
        self.encoding, self.player, self.agent = game.encoding, player, agent
        self.plan: tuple[int, ...] = ()  # the numbers of the move the bot chose last

    def step(self, state: pyspiel.State) -> int:
        """The bot's action number at a decision of its player (refused, with the reason, at any other moment)."""
        if state.is_chance_node() or state.is_terminal() or state.current_player() != self.player:
            raise ValueError(f"{self.agent} plays player {self.player}, who has no decision to make now")
        chosen = state.now.chosen
        if chosen:
            if self.plan[: len(chosen)] != chosen or len(self.plan) <= len(chosen):
                raise ValueError(
                    f"{self.agent} finishes only the moves it began: player {self.player}'s move was begun elsewhere"
                )
            return self.plan[len(chosen)]
        action = self.agent.act(state.now.table, self.player)
        self.plan = self.encoding.numbers_of(action, state.now.table)
        return self.plan[0]

    def restart_at(self, state: pyspiel.State) -> None:
        """Forget the move chosen last: the bot decides from each state afresh."""
        self.plan = ()

    def inform_action(self, state: pyspiel.State, player: int, action: int) -> None:
        """Nothing to note: what happened is in the next state."""

    def __repr__(self) -> str:
        return f"ModelBot({self.agent!r}, player={self.player})"


def declared(game: pyspiel.Game) -> Game:
    """The colorlab game an OpenSpiel game of colorlab's plays; refuse any other game, saying which are offered."""
    name = game.get_type().short_name
    if not name.startswith("python_colorlab_"):
        offered = ", ".join(f"python_colorlab_{g.name}" for g in all_games() if g.has("spiel"))
        raise ValueError(f"{name} is not one of colorlab's games: the bots play {offered}")
    return find_game(name.removeprefix("python_colorlab_"))


def seated(game: pyspiel.Game, player: int) -> Game:
    """The colorlab game of `game`, once `player` is checked to be one of its players."""
    spec = declared(game)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players():
        raise ValueError(f"there is no player {player!r}: this game's players are 0 to {game.num_players() - 1}")
    return spec


def bot(game: pyspiel.Game, player: int, name: str | None = None, seed: int = 0) -> pyspiel.Bot:
    """One of the game's own bots by its name (``game``'s declared bots; the default bot when None), as a pyspiel.Bot
    at `player`."""
    spec = seated(game, player)
    return ModelBot(game, player, spec.make_bot(name or spec.default_bot, seed))


def search_bot(
    game: pyspiel.Game, player: int, seed: int = 0, playouts: int | None = None, seconds: float | None = None
) -> pyspiel.Bot:
    """The game's search bot (its strongest) as a pyspiel.Bot at `player`: its default budget of playouts, or the
    playouts or seconds given for each move."""
    searcher = seated(game, player).bots["SearchBot"]
    return ModelBot(game, player, searcher(seed=seed, playouts=playouts, seconds=seconds))


register_games()
