"""Turn one Col-Or-Form task card by hand, and see each turn as a group element.

The card starts as printed. ⟳ turns it a quarter clockwise, ⟲ a quarter
anticlockwise, and ⇋ (when mirror images are allowed) mirrors it left to right
as it lies now. Whatever the presses, the card ends up in one of the positions
"mirror it (or not), then turn it k quarters clockwise": the traits
``rotation`` (k, from 0 to 3) and ``mirrored`` hold that position, and
``element`` the same group element in cycle notation. The page only reports the
presses; Python works out where they lead.

Mirroring the card as it lies now, after k quarter turns, lands it where mirroring
first and then turning k quarters *anticlockwise* would: M R^k = R^-k M, the
rule that makes D4 a non-commutative group.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import traitlets

from colorlab.colorform.components import DESTINATIONS, SHAPE_PATHS, TaskCard, task_card
from colorlab.colorform.view import turn_cycles
from colorlab.palette import PALETTES
from colorlab.rules import IllegalAction
from colorlab.widgets.base import (
    GuardedWidget,
    IntentError,
    IntentFields,
    palette_assets,
    widget_css,
    widget_esm,
)

STATIC = Path(__file__).parent / "static"

QUARTER_TURNS = (
    "the identity: every cell stays put",
    "a quarter turn clockwise",
    "a half turn",
    "three quarter turns clockwise (a quarter turn anticlockwise)",
)

# A mirror image of a 3x3 card keeps the cells on one line through the centre where they are.
MIRROR_LINES = {
    frozenset({1, 4, 7}): "the upright middle line",
    frozenset({3, 4, 5}): "the level middle line",
    frozenset({0, 4, 8}): "the diagonal from top left to bottom right",
    frozenset({2, 4, 6}): "the diagonal from top right to bottom left",
}


def turn_words(rotation: int, mirrored: bool) -> str:
    """How does one say this position of a task card (mirrored first, then turned) in words?

    Examples
    ========

    >>> from colorlab.colorform.turner import turn_words
    >>> turn_words(0, False)
    'the identity: every cell stays put'
    >>> turn_words(1, False)
    'a quarter turn clockwise'
    >>> turn_words(1, True)
    'a mirror image in the diagonal from top right to bottom left (mirror left to right, then turn 1 quarter clockwise)'
    """
    if not mirrored:
        return QUARTER_TURNS[rotation]
    destination = DESTINATIONS[rotation, mirrored]
    line = MIRROR_LINES[frozenset(cell for cell in range(9) if destination[cell] == cell)]
    then = f", then turn {rotation} quarter{'s' if rotation > 1 else ''} clockwise" if rotation else ""
    return f"a mirror image in {line} (mirror left to right{then})"


def _card(task: TaskCard | int) -> TaskCard:
    """Which task card is meant: the card itself, or its number?"""
    return task if isinstance(task, TaskCard) else task_card(task)


class TaskTurner(GuardedWidget):
    """One task card that the learner turns (and mirrors, if allowed) with buttons or keys r, l, m.

    Examples
    ========

    >>> from colorlab.colorform.turner import TaskTurner
    >>> turner = TaskTurner(12, mirrors=True)
    >>> turner.turn()
    >>> turner.rotation, turner.element
    (1, '(0 2 8 6)(1 5 7 3)')
    >>> turner.mirror()
    >>> turner.rotation, turner.mirrored, turner.element
    (3, True, '(1 3)(2 6)(5 7)')
    """

    _esm = widget_esm(STATIC / "turner.js")
    _css = widget_css(STATIC / "turner.css")

    rotation = traitlets.Int(0).tag(sync=True)
    mirrored = traitlets.Bool(False).tag(sync=True)
    element = traitlets.Unicode("()").tag(sync=True)

    INTENTS: ClassVar[IntentFields] = {"turn": {"quarter_turns": int}, "mirror": {}, "reset": {}}
    TURNS_PER_PRESS = range(-3, 4)

    def __init__(self, task: TaskCard | int, mirrors: bool = False, **kwargs: Any):
        self.card = _card(task)
        self.mirrors = bool(mirrors)
        super().__init__(**kwargs)
        self.assets = self.static_assets()
        self.element = turn_cycles(self.rotation, self.mirrored)

    def static_assets(self) -> dict:
        """What fixed drawing data does the page need: the card, the shapes, and every position's names?"""
        positions = [(k, m) for m in ((False, True) if self.mirrors else (False,)) for k in range(4)]
        return {
            **palette_assets(),
            "shapes": SHAPE_PATHS,
            "mirrors": self.mirrors,
            "card": {
                "number": self.card.number,
                "size": self.card.size,
                "cells": [None if fig is None else str(fig) for fig in self.card.cells],
            },
            "destinations": {f"{k},{int(m)}": list(DESTINATIONS[k, m]) for k, m in positions},
            "words": {f"{k},{int(m)}": turn_words(k, m) for k, m in positions},
        }

    @property
    def destinations(self) -> tuple[int, ...]:
        """Where has each cell of the printed card gone?"""
        return DESTINATIONS[self.rotation, self.mirrored]

    @property
    def cells(self) -> tuple:
        """The card's grid as it lies now."""
        grid = [None] * 9
        for cell, place in enumerate(self.destinations):
            grid[place] = self.card.cells[cell]
        return tuple(grid)

    def __repr__(self) -> str:
        return (
            f"TaskTurner(task card {self.card.number}, mirrors={self.mirrors}: "
            f"rotation={self.rotation}, mirrored={self.mirrored}, element={self.element!r})"
        )

    # --- the notebook's side ---------------------------------------------------------------

    def turn(self, quarter_turns: int = 1) -> None:
        """Turn the card as it lies by this many quarters clockwise (negative: anticlockwise)."""
        if isinstance(quarter_turns, bool) or not isinstance(quarter_turns, int):
            raise ValueError(f"quarter_turns must be a whole number, not {quarter_turns!r}")
        self._move((self.rotation + quarter_turns) % 4, self.mirrored)

    def mirror(self) -> None:
        """Mirror the card as it lies, left to right (when mirror images are allowed)."""
        if not self.mirrors:
            raise IllegalAction("this card may not be mirrored: make the turner with mirrors=True")
        self._move(-self.rotation % 4, not self.mirrored)

    def reset(self) -> None:
        """Put the card back as printed."""
        self._move(0, False)

    def _move(self, rotation: int, mirrored: bool) -> None:
        with self.hold_sync():
            self.rotation, self.mirrored = rotation, mirrored

    @traitlets.validate("rotation")
    def _valid_rotation(self, proposal: dict) -> int:
        value = proposal["value"]
        if isinstance(value, bool) or value not in range(4):
            raise traitlets.TraitError(f"rotation must be 0, 1, 2 or 3 quarter turns, not {value!r}")
        return value

    @traitlets.validate("mirrored")
    def _valid_mirrored(self, proposal: dict) -> bool:
        if proposal["value"] and not self.mirrors:
            raise traitlets.TraitError("this card may not be mirrored: make the turner with mirrors=True")
        return proposal["value"]

    @traitlets.validate("palette")
    def _valid_palette(self, proposal: dict) -> str:
        if proposal["value"] not in PALETTES:
            raise traitlets.TraitError(f"palette must be one of {', '.join(PALETTES)}, not {proposal['value']!r}")
        return proposal["value"]

    @traitlets.observe("rotation", "mirrored")
    def _on_position(self, change: dict) -> None:
        self.element = turn_cycles(self.rotation, self.mirrored)

    # --- the browser's side ----------------------------------------------------------------

    def dispatch(self, intent: dict) -> None:
        kind = intent["type"]
        if kind == "turn":
            if intent["quarter_turns"] not in self.TURNS_PER_PRESS:
                raise IntentError(f"a press turns the card -3 to 3 quarters, not {intent['quarter_turns']}")
            self.turn(intent["quarter_turns"])
        elif kind == "mirror":
            self.mirror()
        else:
            self.reset()
        self.say("")
