"""ColorFox's rules: one frozen dataclass, one field per rule or edition decision."""

from __future__ import annotations

import dataclasses

from colorlab.rules import RulesBase, rule

EXCHANGE_PICKS = ("active player", "opponent")
SET_SCORES = ("triangular", "linear", "square")
TIES = ("play once more", "shared win")
PASSING = ("draw a card", "end when all pass")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """The rules of one game of ColorFox (the colorlab edition by default).

    Where the rulebook speaks, its reading is the default and other readings are
    choices: a tie means "play once more" (``tie``), and a player who cannot place
    still draws a card at the end of the turn (``passing``). Where it is silent,
    the default is the edition's: the active player picks the stick taken in an
    exchange (``exchange_pick``).
    """

    players: int = rule(2, "Players", "How many people (or bots) play.", low=2, high=4)
    hand_size_two: int = rule(4, "Hand size (2 players)", "Cards in hand in a two-player game.", low=1, high=8)
    hand_size: int = rule(3, "Hand size (3+ players)", "Cards in hand with three or more players.", low=1, high=8)
    half_turn: bool = rule(
        False,
        "Half turn",
        "Variant: may a card be placed upside down (turned 180 degrees)? "
        "The rulebook keeps every card in the same orientation.",
        live=True,
    )
    exchanges: bool = rule(
        True,
        "Exchanges",
        "Does connecting 2, 3 or 4 colours at once give 1, 2 or 3 stick exchanges with an opponent?",
        live=True,
    )
    exchange_pick: str = rule(
        "active player",
        "Who picks the stick taken",
        "The rulebook does not say who chooses "
        "which of the opponent's sticks is taken in an exchange. 'active player': the player "
        "who exchanges names both sticks. 'opponent': the player who exchanges gives a stick "
        "and names the opponent; the opponent then chooses which of their sticks to hand back.",
        choices=EXCHANGE_PICKS,
        live=True,
    )
    passing: str = rule(
        "draw a card",
        "When no card fits",
        "A player whose cards fit nowhere passes. 'draw a card' "
        "(the rulebook): every turn ends with drawing a card, so a player who passes draws one and "
        "holds one card more; the game ends this way only when everyone has passed in turn with "
        "nothing left to draw. 'end when all pass': a pass draws nothing, and the game ends as soon "
        "as everyone has passed in turn, even with cards left in the pile.",
        choices=PASSING,
    )
    tie: str = rule(
        "play once more",
        "A tie",
        "What if two or more players have the most points? 'play once "
        "more' (the rulebook): the game has no winner and says that a rematch is due; the table "
        "plays one more game, and that game's winner wins. 'shared win': the tied players all win.",
        choices=TIES,
        live=True,
    )
    sticks_per_colour: int = rule(
        8, "Sticks per colour", "How many sticks of each colour lie in the supply.", low=1, high=20
    )
    max_set_size: int = rule(
        6,
        "Largest set",
        "At most this many sticks (of distinct colours) form one scoring set.",
        low=1,
        high=6,
        live=True,
    )
    set_score: str = rule(
        "triangular",
        "Set score",
        "A set of n sticks scores 1 + 2 + ... + n (triangular, the "
        "rulebook), n (linear) or n squared (square). Code may pass any function of n.",
        choices=SET_SCORES,
        live=True,
    )

    @property
    def hand(self) -> int:
        """How many cards does each player hold in this game?"""
        return self.hand_size_two if self.players == 2 else self.hand_size
