"""The question bank: original questions written for colorlab, stored as JSON files.

Every question asks for a number of colours from the palette. The bank lives in
``data/questions/*.json``; a teacher can add a file of their own in the same
format with :func:`load_questions`. Everything is checked when it is loaded.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

from colorlab.palette import Colour

BANK = Path(__file__).parent / "data" / "questions"
COLOURS = tuple(c.value for c in Colour)
FIELDS = {"id", "category", "text", "count", "answer", "explanation"}


@dataclasses.dataclass(frozen=True)
class Question:
    """One quiz question: its text, how many colours it asks for, the answer and why."""

    id: str
    category: str
    text: str
    count: int
    answer: tuple[str, ...]
    explanation: str


def parse_questions(text: str, source: str = "questions") -> list[Question]:
    """Read and check questions from JSON text (a {"questions": [...]} object)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{source}: not valid JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise ValueError(f'{source}: expected an object with a "questions" list')
    found = []
    for number, entry in enumerate(data["questions"], start=1):
        where = f"{source}, question {number}"
        if not isinstance(entry, dict) or set(entry) != FIELDS:
            raise ValueError(f"{where}: needs exactly the fields {sorted(FIELDS)}")
        for name in ("id", "category", "text", "explanation"):
            if not isinstance(entry[name], str) or not entry[name].strip():
                raise ValueError(f"{where}: {name} must be a non-empty text")
        answer = entry["answer"]
        if not isinstance(answer, list) or not all(isinstance(c, str) for c in answer):
            raise ValueError(f"{where} ({entry['id']}): answer must be a list of colour names")
        unknown = [c for c in answer if c not in COLOURS]
        if unknown:
            raise ValueError(f"{where} ({entry['id']}): {unknown} not in the palette ({', '.join(COLOURS)})")
        if len(set(answer)) != len(answer) or not 1 <= len(answer) <= 4:
            raise ValueError(f"{where} ({entry['id']}): 1 to 4 distinct colours, please")
        if isinstance(entry["count"], bool) or entry["count"] != len(answer):
            raise ValueError(f"{where} ({entry['id']}): count {entry['count']!r} differs from the "
                             f"{len(answer)} colour(s) in the answer")
        found.append(Question(entry["id"], entry["category"], entry["text"].strip(), entry["count"],
                              tuple(answer), entry["explanation"].strip()))
    return found


def check_unique(questions: list[Question]) -> list[Question]:
    """Refuse a bank in which two questions share an id."""
    seen = set()
    for question in questions:
        if question.id in seen:
            raise ValueError(f"two questions have the id {question.id!r}")
        seen.add(question.id)
    return questions


def load_questions(*paths: str | Path) -> list[Question]:
    """Load question files (a teacher's own, say), checking each; ids must be unique across them."""
    found = []
    for path in paths:
        path = Path(path)
        found += parse_questions(path.read_text(encoding="utf-8"), path.name)
    return check_unique(found)


@cache
def bank() -> tuple[Question, ...]:
    """Every question of the colorlab bank, in the order of its files."""
    return tuple(load_questions(*sorted(BANK.glob("*.json"))))


def question(id: str) -> Question:
    """Which question of the bank has this id?"""
    for entry in bank():
        if entry.id == id:
            return entry
    raise ValueError(f"there is no question {id!r} in the bank")
