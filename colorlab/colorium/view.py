"""The Colorium table as a notebook widget: draft dice and draw shapes against bots.

You sit at seat 0. In the draft, take a die when your turn comes. In the
drawing phase a ghost of your shape sits on one of its legal resting places:
move it with the arrow keys or the pointer, turn it with the buttons or the
keys r and m, and draw it with a click or Enter. Only legal resting places are
ever offered: Python lists them, the page just moves among them.

At a shared table (``ColoriumGame(seat=seat)``) you sit in that seat, the other
seats are learners or the table's bots, and their picks and drawings reach the page by themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from colorlab.colorium.model import (
    BONUSES,
    COLOUR_NAMES,
    ROW_REWARDS,
    Draw,
    Pick,
    Wild,
    drawing_colours,
    legal_wilds,
    observation,
    pieces,
)
from colorlab.colorium.picture import table_svg
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import orientations, placements
from colorlab.rules import IllegalAction
from colorlab.symmetry import normalise
from colorlab.widgets.base import (
    BotTable,
    GameWidget,
    IntentError,
    IntentFields,
    palette_assets,
    widget_css,
    widget_esm,
)

if TYPE_CHECKING:
    from colorlab.tables import Seat

STATIC = Path(__file__).parent / "static"
BONUS_WORDS = {
    "colour": "colour: draw in any colour",
    "shape": "shape: draw any shape",
    "scissors": "✂ cut: cut your shape and draw one part",
    "wild": "★ wild: fill any one empty space",
}


def legend(rules: Rules) -> dict[str, str]:
    """What do the numbers beside the board and the tags above it mean, under these rules?"""
    first, second = next(points for _, points in sorted(ROW_REWARDS.items(), reverse=True) if len(points) > 1)
    rows = (
        (
            f"Row races (numbers right of the board): the first player to fill that whole row scores the first "
            f"number, the second player the second; {first}/{second} means {first} points for the first, "
            f"{second} for the second. ✓ shows the points you won."
        )
        if rules.row_rewards
        else ""
    )
    bonuses = (
        (
            f"Bonus tags (above the board): fill a whole column to win the bonus above it, to use once from "
            f"the next round on. {'; '.join(BONUS_WORDS[name] for name in dict.fromkeys(BONUSES))}. "
            f"Yellow: won, ready next round; green: ready now; crossed out: used."
        )
        if rules.bonuses
        else ""
    )
    return {"rows": rows, "bonuses": bonuses}


def turns_of(shape, mirror_images: bool) -> dict:
    """For each orientation of a shape: which orientation a quarter turn, and a mirror, lead to."""
    images = orientations(shape, mirror_images)
    index = {image: i for i, image in enumerate(images)}
    turn = [index[normalise({(c, -r) for r, c in image})] for image in images]
    mirror = [index.get(normalise({(r, -c) for r, c in image}), i) for i, image in enumerate(images)]
    return {"turn": turn, "mirror": mirror}


class ColoriumGame(BotTable):
    """Play Colorium against 1 to 3 bots (or at a shared table), seeing every board (boards are public)."""

    title = "Colorium"
    game = "colorium"
    _esm = widget_esm(STATIC / "view.js")
    _css = widget_css(STATIC / "view.css")

    INTENTS: ClassVar[IntentFields] = {
        **GameWidget.INTENTS,
        "pick": {"die": int},
        "draw": {"shape": str, "colour": str, "cells": list, "cuts": int},
        "wild": {"row": int, "col": int, "colour": str},
        "bot": {},
    }

    def __init__(
        self,
        rules: Rules | None = None,
        bots: int = 1,
        bot: str = "MissionBot",
        seed: int | None = None,
        *,
        seat: Seat | None = None,
        **kwargs,
    ):
        super().__init__(rules, bots, bot, seed, seat=seat, **kwargs)

    def static_assets(self) -> dict:
        return {
            **palette_assets(),
            "names": COLOUR_NAMES,
            "bonuses": list(BONUSES),
            "rows": {str(row): list(points) for row, points in ROW_REWARDS.items()},
        }

    # --- what the page may see -------------------------------------------------------------

    def my_options(self, state) -> list[dict]:
        """Every way your seat may draw now: shape (or a cut part), colours, and resting places per orientation."""
        you = self.you
        if state.phase != "draw" or state.drawn[you]:
            return []
        board, rules, colours = state.boards[you], state.rules, drawing_colours(state, you)
        options = []
        for letter, cuts, piece in pieces(state, you):
            found = placements(board, piece, rules)
            if not found:
                continue
            spots = [[] for _ in orientations(piece, rules.mirror_images)]
            for place in found:
                spots[place.orientation].append([list(cell) for cell in sorted(place.cells)])
            options.append(
                {
                    "shape": letter,
                    "cuts": cuts,
                    "size": len(found[0].cells),
                    "colours": colours,
                    "spots": spots,
                    **self.moves_of(piece, rules.mirror_images),
                }
            )
        return options

    @staticmethod
    def moves_of(piece, mirror_images: bool) -> dict:
        """The turn table of a piece, and its mirror table only when the rules allow mirror images."""
        moves = turns_of(piece, mirror_images)
        return moves if mirror_images else {"turn": moves["turn"]}

    def snapshot(self, state) -> dict:
        live, you = self.cursor is None, self.you
        return {
            **observation(state, you),
            "names": self.player_names(state),
            "options": self.my_options(state) if live else [],
            "wild_colours": list(state.rules.colours) if live and legal_wilds(state, you) else [],
            "my_pick": live and state.phase == "draft" and state.order[0] == you,
            "bots_to_move": live and not state.over and self.bot_seat(state) is not None,
            "events": [self.said(text, state) for text in state.events],
            "legend": legend(state.rules),
            "can_mirror": state.rules.mirror_images,
            "rules": state.rules.to_dict(),
        }

    def still_picture(self) -> str:
        return table_svg(self.snapshot(self.state), self.palette)

    # --- intents ---------------------------------------------------------------------------

    def handle(self, intent: dict) -> None:
        kind = intent["type"]
        if kind == "bot":
            self.bot_move()
            return
        try:
            self.carry_out(intent)
        except IllegalAction as refusal:
            raise type(refusal)(self.said(str(refusal), self.state)) from None
        self.say(" ".join(self.snapshot(self.state)["events"]))

    def carry_out(self, intent: dict) -> None:
        """Play the learner's pick, drawing or wild space."""
        kind, you = intent["type"], self.you
        if kind == "pick":
            self.play(Pick(you, intent["die"]))
        elif kind == "draw":
            cells = intent["cells"]
            if not all(isinstance(c, list) and len(c) == 2 and all(type(v) is int for v in c) for c in cells):
                raise IntentError("cells must be [row, column] pairs of whole numbers")
            self.play(Draw(you, intent["shape"], intent["colour"], tuple(tuple(c) for c in cells), intent["cuts"]))
        elif kind == "wild":
            self.play(Wild(you, (intent["row"], intent["col"]), intent["colour"]))

    def bot_seat(self, state) -> int | None:
        if state.over:
            return None
        if state.phase == "draft":
            return state.order[0] if state.order[0] in self.bots else None
        return next((seat for seat in sorted(self.bots) if not state.drawn[seat]), None)

    def undo_steps(self) -> int:
        for back, action in enumerate(reversed(self.record.actions), start=1):
            if getattr(action, "player", self.you) == self.you:
                return back
        return 0
