"""The ColorFox table as a notebook widget: play against bots, one move at a time.

You sit at seat 0. Pick a card from your hand (turn it if the rules allow), and
the cells where it fits light up; click one to place it. After connecting two
or more colours you may exchange sticks. The bots then move one by one, at the
pace the page asks for, so that each move can be seen.
"""

from __future__ import annotations

import re
from pathlib import Path

from colorlab.colorfox.agents import GreedyBot, RandomBot, SetBuilder, next_action
from colorlab.colorfox.model import (COLOUR_NAMES, Done, Exchange, Pass, Place, legal_places,
                                     observation, stick_counts)
from colorlab.colorfox.picture import table_svg
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import best_sets, worth_of
from colorlab.rules import ChangeRules, IllegalAction, NotYourTurn
from colorlab.widgets.base import BotTable, GameWidget, palette_assets, widget_css, widget_esm

STATIC = Path(__file__).parent / "static"
YOU = 0
BOTS = {"random": RandomBot, "greedy": GreedyBot, "sets": SetBuilder}


class ColorFoxGame(BotTable):
    """Play ColorFox against 1 to 3 bots, seeing what seat 0 may see."""

    title = "ColorFox"
    game = "colorfox"
    BOTS = BOTS
    _esm = widget_esm(STATIC / "view.js")
    _css = widget_css(STATIC / "view.css")

    INTENTS = {
        **GameWidget.INTENTS,
        "place": {"card": int, "x": int, "y": int, "turned": bool},
        "exchange": {"opponent": int, "give": str, "take": str},
        "done": {},
        "pass": {},
        "bot": {},
    }

    def __init__(self, rules: Rules | None = None, bots: int = 1, bot: str = "sets",
                 seed: int | None = None, **kwargs):
        super().__init__(rules or Rules(players=bots + 1), bot, seed, **kwargs)

    def static_assets(self) -> dict:
        return {**palette_assets(), "colours": list(COLOUR_NAMES)}

    def snapshot(self, state) -> dict:
        view = observation(state, YOU)
        names = ["You"] + [f"Bot {seat} ({self.bot_kind})" for seat in range(1, state.players)]
        view["events"] = [re.sub(r"\bplayer (\d+)", lambda m: names[int(m[1])], text, flags=re.I)
                          for text in view["events"]]
        worth = worth_of(state.rules)
        view.update(
            names=names,
            rules=state.rules.to_dict(),
            sets=[[{"colours": group, "score": worth(len(group))}
                   for group in best_sets(stick_counts(state, p), state.rules.max_set_size)]
                  for p in range(state.players)],
            legal=[[p.card, p.x, p.y, p.turned] for p in legal_places(state, YOU)]
            if state.active == YOU and not state.exchanges_left and not state.over else [],
            bots_to_move=self.cursor is None and self.bot_seat(state) is not None,
        )
        return view

    def still_picture(self) -> str:
        return table_svg(self.snapshot(self.state), self.palette)

    # --- intents ---------------------------------------------------------------------------

    def handle(self, intent: dict) -> None:
        kind = intent["type"]
        if kind == "bot":
            self.bot_move()
            return
        if self.state.active != YOU:
            raise NotYourTurn("wait for the bots to move")
        if kind == "place":
            self.play(Place(YOU, intent["card"], intent["x"], intent["y"], intent["turned"]))
        elif kind == "exchange":
            self.exchange(intent["opponent"], intent["give"], intent["take"])
        elif kind == "done":
            self.play(Done(YOU))
        elif kind == "pass":
            self.play(Pass(YOU))
        self.say(" ".join(self.snapshot(self.state)["events"]))

    def exchange(self, opponent: int, give: str, take: str) -> None:
        """Exchange a stick with a bot (which picks what it hands back, if the rules say so)."""
        if self.state.rules.exchange_pick == "opponent" and 0 < opponent < self.state.players:
            take = self.bots[opponent].stick_to_give(self.state, opponent, YOU, give)
            if take is None:
                raise IllegalAction(f"player {opponent} has no other colour to hand back")
        self.play(Exchange(YOU, opponent, give, take))

    def bot_seat(self, state) -> int | None:
        return None if state.over or state.active == YOU else state.active

    def bot_action(self, state, seat: int):
        return next_action(state, [None] + [self.bots[p] for p in range(1, state.players)])

    def undo_steps(self) -> int:
        for back, action in enumerate(reversed(self.record.actions), start=1):
            if isinstance(action, ChangeRules) or (action.player == YOU and not isinstance(action, (Exchange, Done))):
                return back
        return 0
