"""The ColorFox table as a notebook widget: play against bots, one move at a time.

You sit at seat 0. Pick a card from your hand (turn it if the rules allow), and
the cells where it fits light up; click one to place it. After connecting two
or more colours you may exchange sticks; when the rules let the opponent pick,
you offer a stick and the bot chooses what it hands back (and when a bot offers
you a stick, you choose). The bots move one by one, at the pace the page asks
for, so that each move can be seen.

At a shared table (``ColorFoxGame(seat=seat)``) you sit in that seat, the other
seats are learners or the table's bots, and their moves reach the page by themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from colorlab.colorfox.model import (
    COLOUR_NAMES,
    Done,
    Exchange,
    HandBack,
    Offer,
    Pass,
    Place,
    in_words,
    legal_places,
    observation,
    rematch_due,
    scores,
    stick_counts,
    to_move,
    winners,
)
from colorlab.colorfox.picture import table_svg
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import best_sets, worth_of
from colorlab.rules import ChangeRules, IllegalAction, NotYourTurn
from colorlab.widgets.base import BotTable, GameWidget, IntentFields, palette_assets, widget_css, widget_esm

if TYPE_CHECKING:
    from colorlab.tables import Seat

STATIC = Path(__file__).parent / "static"


def final_lines(state, speakers: list[str]) -> list[str]:
    """What does the game-over box say: why it ended, every score, and the winner (or the tie to replay)?"""
    if not state.over:
        return []
    points = scores(state)
    tied, won = rematch_due(state), winners(state)
    verdict = (
        f"A tie between {in_words([speakers[p] for p in tied])}: play once more to find the winner!"
        if tied
        else f"{'Winners' if len(won) > 1 else 'Winner'}: {in_words([speakers[p] for p in won])}."
    )
    return [
        f"Game over: {state.end_reason}.",
        "Scores: " + ", ".join(f"{speakers[p]} {points[p]} points" for p in range(state.players)) + ".",
        verdict,
    ]


def sets_legend(rules: Rules) -> str:
    """What do the triangles of dots mean under these rules?"""
    n, worth = rules.max_set_size, worth_of(rules)
    how = f"{'+'.join(map(str, range(1, n + 1)))} = {worth(n)}" if rules.set_score == "triangular" else str(worth(n))
    return (
        f"Each triangle is one set of sticks of different colours, one row of dots per stick, so the dots are "
        f"not sticks: a set of {n} different colours is {n} sticks and scores {how} points."
    )


class ColorFoxGame(BotTable):
    """Play ColorFox against 1 to 3 bots (or at a shared table), seeing what your seat may see."""

    title = "ColorFox"
    game = "colorfox"
    _esm = widget_esm(STATIC / "view.js")
    _css = widget_css(STATIC / "view.css")

    INTENTS: ClassVar[IntentFields] = {
        **GameWidget.INTENTS,
        "place": {"card": int, "x": int, "y": int, "turned": bool},
        "exchange": {"opponent": int, "give": str, "take": str},
        "offer": {"opponent": int, "give": str},
        "hand_back": {"colour": str},
        "done": {},
        "pass": {},
        "bot": {},
    }

    def __init__(
        self,
        rules: Rules | None = None,
        bots: int = 1,
        bot: str = "SetBuilder",
        seed: int | None = None,
        *,
        seat: Seat | None = None,
        **kwargs,
    ):
        super().__init__(rules, bots, bot, seed, seat=seat, **kwargs)

    def static_assets(self) -> dict:
        return {**palette_assets(), "colours": list(COLOUR_NAMES)}

    def snapshot(self, state) -> dict:
        you = self.you
        view = observation(state, you)
        speakers = self.speakers(state)
        names = self.player_names(state)
        view["events"] = [self.said(text, state) for text in view["events"]]
        worth = worth_of(state.rules)
        view.update(
            names=names,
            last_placed=self.last_placed(state),
            final=final_lines(state, speakers),
            sets_legend=sets_legend(state.rules),
            rules=state.rules.to_dict(),
            sets=[
                [
                    {"colours": group, "score": worth(len(group))}
                    for group in best_sets(stick_counts(state, p), state.rules.max_set_size)
                ]
                for p in range(state.players)
            ],
            legal=[[p.card, p.x, p.y, p.turned] for p in legal_places(state, you)]
            if to_move(state) == you and not state.exchanges_left and not state.offer and not state.over
            else [],
            bots_to_move=self.cursor is None and self.bot_seat(state) is not None,
        )
        return view

    def last_placed(self, state) -> dict | None:
        """Where does the card placed last (up to this state) lie, and who placed it? None: only the start card."""
        index = next((i for i in range(len(self.states) - 1, -1, -1) if self.states[i] is state), 0)
        for action in reversed(self.record.actions[:index]):
            if type(action) is Place:
                return {"x": action.x, "y": action.y, "by": self.speakers(state)[action.player]}
        return None

    def still_picture(self) -> str:
        return table_svg(self.snapshot(self.state), self.palette)

    # --- intents ---------------------------------------------------------------------------

    def handle(self, intent: dict) -> None:
        kind = intent["type"]
        if kind == "bot":
            answering_me = self.state.offer is not None and self.state.offer.player == self.you
            self.bot_move()
            if answering_me:
                self.say(self.news())
            return
        mover = to_move(self.state)
        if mover != self.you:
            raise NotYourTurn(
                "wait for the bots to move"
                if mover in self.bots
                else f"wait for your turn: {self.speakers(self.state)[mover]} is to move"
            )
        try:
            self.play(self.action_of(intent))
        except IllegalAction as refusal:
            raise type(refusal)(self.said(str(refusal), self.state)) from None
        self.say(self.news())

    def action_of(self, intent: dict):
        """Which model action does the learner's intent ask for?"""
        kind, you = intent["type"], self.you
        if kind == "place":
            return Place(you, intent["card"], intent["x"], intent["y"], intent["turned"])
        if kind == "exchange":
            return Exchange(you, intent["opponent"], intent["give"], intent["take"])
        if kind == "offer":
            return Offer(you, intent["opponent"], intent["give"])
        if kind == "hand_back":
            return HandBack(you, intent["colour"])
        return Done(you) if kind == "done" else Pass(you)

    def news(self) -> str:
        """What just happened, in words with the players' names?"""
        return " ".join(self.snapshot(self.state)["events"])

    def bot_seat(self, state) -> int | None:
        return None if state.over or to_move(state) not in self.bots else to_move(state)

    def undo_steps(self) -> int:
        for back, action in enumerate(reversed(self.record.actions), start=1):
            if isinstance(action, ChangeRules) or (
                action.player == self.you and not isinstance(action, (Exchange, Offer, HandBack, Done))
            ):
                return back
        return 0
