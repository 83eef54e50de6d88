"""Colourbrain at a shared table: each team a seat, answering at the same time, the room on a projector."""

from __future__ import annotations

from colorlab.colourbrain.model import COPIER, NextQuestion, State, observation
from colorlab.tables.games import TableGame


def waiting_for(state: State) -> list[int]:
    """Which teams must still lock an answer, or still copy a colour? (No team while a reveal waits for Next.)"""
    if state.step == "answering":
        return [team for team, answer in enumerate(state.answers) if answer is None]
    if state.step == "copying":
        return [
            team
            for team, (answer, copied) in enumerate(zip(state.answers, state.copied))
            if COPIER in answer and copied is None
        ]
    return []


def moment(state: State, team: int | None) -> tuple:
    """Another team's answer does not change the question a team is answering."""
    return (state.asked, state.step)


def table_rules(rules) -> None:
    """Refuse a teacher's question file: it lies in one folder, and the other kernels at the table could not read it."""
    if rules.question_file:
        raise ValueError(
            "question_file: a table asks the colorlab question bank, since a teacher's question "
            "file lies in one folder where the other devices' kernels cannot read it"
        )


TABLE = TableGame(
    name="colourbrain",
    seat_of=lambda action: getattr(action, "team", None),  # the quiz master's Next: no seat's
    room_actions=(NextQuestion,),
    waiting_for=waiting_for,
    view=observation,
    scores=lambda state: list(state.scores),
    moment=moment,
    table_rules=table_rules,
)
