"""The Colourbrain projector: one table's quiz shown large to the whole class.

Teams answer on their own devices (each a ``ColourbrainQuiz`` at its seat); the
projector is the room's screen (``store.watch(code)``): the question large, which
teams have locked an answer (never what), then the reveal with the explanation
and the points, the pot and the scoreboard.

By default the quiz itself moves on as soon as a question is scored, so that no
team ever waits for a screen. The projector does not: it keeps the reveal of each
scored question on show until the teacher presses Next, one reveal after another,
so no question's answer is skipped however fast the teams are. While a reveal is
on show it says, in one small line, which teams have already locked the next
question on their own screens.

With the rule `paced` the quiz waits for the teacher instead: Next is the quiz
master's :class:`NextQuestion`, played for the room (``store.advance``), and only
then do the teams' screens show the next question. The projector is opened on
the teacher's key-gated pages, so whoever presses its Next is the teacher. The
answer that reaches the goal waits for Next as well (the rule `winner_after_next`),
so the teams' screens name the winner only when the projector does.

On the class's projector page (:mod:`colorlab.classroom.projector`) it fills
the screen (``fill``): every word at least 32 px, for the back of a room.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import traitlets

from colorlab.colourbrain.model import NextQuestion, observation, winners
from colorlab.rules import IllegalAction
from colorlab.tables.store import StaleMove
from colorlab.widgets.base import GameWidget, IntentFields, check_table_game, palette_assets, widget_css, widget_esm

if TYPE_CHECKING:
    from colorlab.tables import Seat

STATIC = Path(__file__).parent / "static"
NOTHING_TO_MOVE_ON_FROM = "The teams are answering this question: Next comes after its answer is shown."


class ColourbrainProjector(GameWidget):
    """The room's screen of a Colourbrain table: question, locks, reveal (held until Next), pot and scores."""

    title = "Colourbrain projector"
    game = "colourbrain"
    WATCHABLE = True
    _esm = widget_esm(STATIC / "projector.js")
    _css = widget_css(STATIC / "view.css", STATIC / "projector.css")

    INTENTS: ClassVar[IntentFields] = {"sync": GameWidget.INTENTS["sync"], "next": {}}

    fill = traitlets.Bool(False).tag(sync=True)  # the whole screen of the class's projector page, every word large

    def __init__(self, watcher: Seat, **kwargs):
        check_table_game(watcher, self.game)
        if watcher.seat is not None:
            raise ValueError("the projector shows the whole room: give it store.watch(code), not a team's seat")
        self.moved_past = 0
        super().__init__(seat=watcher, **kwargs)
        self.moved_past = self.state.asked  # questions scored before the projector opened are not shown again
        self.refresh()

    def static_assets(self) -> dict:
        return palette_assets()

    def reveal_due(self):
        """The state just after the oldest scored question the teacher has not moved past (None: none waits)."""
        state = self.state
        if state.rules.paced:
            return state if state.step == "shown" or (state.over and state.asked > self.moved_past) else None
        if state.asked <= self.moved_past:
            return None
        return next(state for state in self.states if state.asked == self.moved_past + 1)

    def snapshot(self, state) -> dict:
        names = self.source.seat_names()
        scored = self.reveal_due()
        shown = scored or state
        view = {
            "names": names,
            "scores": list(shown.scores),
            "pot": shown.pot,
            "copiers": list(shown.copiers),
            "copier": state.rules.copier,
            "goal": state.rules.goal,
            "over": scored is None and state.over,
            "winners": [] if scored is not None else winners(state),
        }
        room = observation(state)
        if scored is not None:
            view["reveal"] = reveal_of(scored)
            view["ahead"] = (
                None if state.over or state.rules.paced else {"number": state.asked + 1, "answered": room["answered"]}
            )
            view["then"] = "the winner" if state.decided else "the next question"
            view["paced"] = state.rules.paced
        elif not state.over:
            view["question"] = {
                **room["question"],
                "number": state.asked + 1,
                "step": room["step"],
                "answered": room["answered"],
                "answers": room["answers"],
                "copied": room["copied"],
            }
        return view

    def handle(self, intent: dict) -> None:
        if self.reveal_due() is None:
            raise IllegalAction(NOTHING_TO_MOVE_ON_FROM)
        if not self.state.rules.paced:
            self.moved_past += 1
            return
        if self.state.step == "shown":
            self.move_the_quiz_on()
        self.moved_past = self.state.asked

    def move_the_quiz_on(self) -> None:
        """Play the quiz master's Next for the room; a Next already pressed on another screen is let be."""
        try:
            self.seat.store.advance(self.seat.code, NextQuestion(), seen=self.seen)
        except StaleMove:
            self.say("The quiz had already moved on: Next was pressed on another screen.")
        self.catch_up()


def reveal_of(scored) -> dict:
    """What the class sees once a question is scored: the question, its answer and why, each answer and its points."""
    last = scored.last
    question = scored.questions[last["question"]]
    return {
        "number": scored.asked,
        "text": question.text,
        "explanation": question.explanation,
        "solution": last["solution"],
        "answers": last["answers"],
        "points": last["points"],
        "copiers_returned": last["copiers_returned"],
    }
