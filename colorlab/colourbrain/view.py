"""Colourbrain as a quiz for a classroom projector (or solo against bots).

In class mode every team is human and the screen is passed round (hot seat):
the team whose turn it is picks its colours (mouse, or number keys 1-9, 0 and
-), locks them, and the screen hides them again. When all teams have locked,
the answers are revealed; teams that played the Colour-Copier pick a colour to
copy; then the solution, its explanation and the points appear. In solo mode
you are team 0 and bots answer for the other teams.

The number of teams can change (a new game from the rule editor, a loaded
save). `names` may name more teams than play at first; teams beyond the names
given are called "Team 3", "Team 4", ...

Undo takes back a whole question, and only between questions: while the
teams are answering, no team may take back another team's locked answer.

With the rule `paced` the reveal stays until the quiz master's Next: on this
screen (hot seat or solo) the Next button plays it; at a shared table the
teacher's projector does, and a team's screen shows the answer until then.

At a shared table (``ColourbrainQuiz(seat=seat)``) the widget is one team's
screen: the team answers and copies for itself, the other teams' locked answers
stay hidden until the reveal, and their moves reach the page by themselves. A
watcher's seat (``store.watch(code)``) shows the room's view: who has answered,
the reveal and the points, with nothing to answer.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from colorlab.agents import ready
from colorlab.colourbrain.agents import QuizBot
from colorlab.colourbrain.model import COPIER, Answer, Copy, NextQuestion, can_copy, observation
from colorlab.colourbrain.rules import Rules
from colorlab.record import GameRecord
from colorlab.rules import IllegalAction
from colorlab.widgets.base import (
    GameWidget,
    IntentError,
    IntentFields,
    new_game_record,
    palette_assets,
    widget_css,
    widget_esm,
)

if TYPE_CHECKING:
    from colorlab.tables import Seat

STATIC = Path(__file__).parent / "static"
YOUR_TEAM = "Your team"
QUIZ_MASTERS_NEXT = "The quiz master moves the quiz on from the projector: wait for the next question."
UNDO_WAITS = (
    "Undo has to wait: the teams are still answering this question, and nobody may take back "
    "another team's answer. After the answer is shown, Undo takes back the whole question."
)


class ColourbrainQuiz(GameWidget):
    """A quiz-master screen: teams answer in turn, secretly; then the reveal, the copier and the points."""

    title = "Colourbrain"
    game = "colourbrain"
    WATCHABLE = True
    YOUR_SEAT = None  # in this kernel the screen is passed round the teams: it shows what the room may see
    REFUSED_AT_A_TABLE: ClassVar[Mapping[str, str]] = {**GameWidget.REFUSED_AT_A_TABLE, "next": QUIZ_MASTERS_NEXT}
    _esm = widget_esm(STATIC / "view.js")
    _css = widget_css(STATIC / "view.css")

    INTENTS: ClassVar[IntentFields] = {
        **GameWidget.INTENTS,
        "answer": {"team": int, "colours": list, "copier": bool},
        "copy": {"team": int, "colour": str},
        "next": {},
    }

    def __init__(
        self,
        rules: Rules | None = None,
        names: list[str] | None = None,
        solo: bool = False,
        level: str = "medium",
        seed: int | None = None,
        *,
        seat: Seat | None = None,
        **kwargs,
    ):
        if level not in QuizBot.levels:
            raise ValueError(f"level {level!r} is unknown; choose one of {', '.join(QuizBot.levels)}")
        self.names = list(names or [])
        self.solo, self.level = solo, level
        super().__init__(lambda: self._first_record(rules, seed), seat=seat, **kwargs)
        self._make_bots()
        self.refresh()

    def _first_record(self, rules: Rules | None, seed: int | None) -> GameRecord:
        """The record of a quiz in this kernel, with these rules (or the defaults); names given must name every team."""
        rules = rules or Rules()
        if self.names and len(self.names) < rules.teams:
            raise ValueError(f"{rules.teams} teams need {rules.teams} names, not {len(self.names)}")
        return new_game_record(self.game, rules, seed)

    def static_assets(self) -> dict:
        return palette_assets()

    def team_names(self, teams: int) -> list[str]:
        """What is each of `teams` teams called: the names given (at a table: its seats'), then "Team 3", ...?"""
        return self.source.seat_names([self.names[t] if t < len(self.names) else f"Team {t + 1}" for t in range(teams)])

    def humans(self, state) -> list[int]:
        """Which teams answer at this screen: those here no bot plays (at a table: its own team; a watcher: none)?"""
        return [team for team in self.source.seats_here(range(state.teams)) if team not in self.bots]

    def snapshot(self, state) -> dict:
        view = observation(state, self.you)
        humans = self.humans(state)
        names = self.team_names(state.teams)
        called = self.source.seat_names(names, you=YOUR_TEAM)
        view["names"] = names
        view["events"] = [
            re.sub(r"\bteam (\d+)", lambda m: called[int(m[1])], text, flags=re.I) for text in view["events"]
        ]
        view["humans"] = humans
        view["at_keyboard"] = next((t for t in humans if state.step == "answering" and state.answers[t] is None), None)
        view["copy_options"] = {
            str(t): can_copy(state, t)
            for t in self.source.seats_here(range(state.teams))
            if state.step == "copying" and state.answers[t] and COPIER in state.answers[t] and state.copied[t] is None
        }
        view["undo_waits"] = question_under_way(state)
        view["paced"] = state.rules.paced
        view["decided"] = state.decided
        view["copier"] = state.rules.copier
        view["can_move_on"] = state.step == "shown" and self.source.permits("next")
        if state.last:
            question = state.questions[state.last["question"]]
            view["last"] = {
                **state.last,
                "number": state.asked,
                "text": question.text,
                "explanation": question.explanation,
            }
        return view

    def still_picture(self) -> str:
        view = self.snapshot(self.state)
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{score}</td></tr>"
            for name, score in zip(view["names"], view["scores"])
        )
        question = view["question"]
        asked = (
            f"{html.escape(question['text'])} ({question['count']} colour(s))" if question else "the answer is on show"
        )
        return (
            f'<div class="colorlab-still"><p><strong>Colourbrain</strong>: {asked}</p>'
            f"<table>{rows}</table><p>Pot: {view['pot']}</p></div>"
        )

    def handle(self, intent: dict) -> None:
        if intent["type"] == "next":
            self.next_question()
            return
        state = self.state
        team = intent["team"]
        humans = self.humans(state)
        if team not in humans:
            names = self.team_names(state.teams)
            if 0 <= team < len(names) and team not in self.source.seats_here(range(len(names))):
                raise IllegalAction(f"this screen answers only for your own team; {names[team]} answers at its own")
            raise IllegalAction(f"{names[team] if 0 <= team < len(names) else f'team {team}'} is not at this screen")
        if intent["type"] == "answer":
            colours = intent["colours"]
            if not all(isinstance(c, str) for c in colours):
                raise IntentError("colours must be colour names")
            self.play(Answer(team, tuple(colours), intent["copier"]))
        else:
            self.play(Copy(team, intent["colour"]))
        self._bots_move()
        self.say(" ".join(self.snapshot(self.state)["events"]))

    def next_question(self) -> None:
        """The quiz master's Next on this screen (a paced quiz); at a table the teacher's projector plays it."""
        self.source.check("next")
        self.play(NextQuestion())
        self._bots_move()
        self.say(" ".join(self.snapshot(self.state)["events"]))

    def _make_bots(self) -> None:
        self.bots = self.bots_at(f"QuizBot ({self.level})", range(1, self.record.rules.teams)) if self.solo else {}

    def _bots_move(self) -> None:
        """Let the bots answer (and copy) whenever it is their move."""
        moved = True
        while moved and not self.state.over:
            moved = False
            for team, bot in self.bots.items():
                action = ready(bot, len(self.record.actions)).act(self.state, team)
                if action is not None:
                    self.play(action)
                    moved = True
                    break

    def set_record(self, record: GameRecord) -> None:
        super().set_record(record)
        self._make_bots()

    def undo(self) -> None:
        """Take back the last question (every team's answer); refused while teams are answering one."""
        if question_under_way(self.state):
            raise IllegalAction(UNDO_WAITS)
        super().undo()

    def undo_steps(self) -> int:
        """How many actions since the last moment no answer was locked (a whole question, or a rule change)?

        A reveal waiting for the quiz master's Next is no such moment: undo takes back its question too.
        """
        for back, state in enumerate(reversed(self.states[:-1]), start=1):
            if not question_under_way(state) and state.step != "shown":
                return back
        return 0


def question_under_way(state) -> bool:
    """Has some team locked an answer to the question being asked (so undo must wait)?"""
    return not state.over and any(answer is not None for answer in state.answers)
