"""The question bank: original questions written for colorlab, stored as JSON files.

Every question asks for a number of colours from the palette. The bank lives in
``data/questions/*.json``; a teacher can add a file of their own in the same
format with :func:`load_questions`. Everything is checked when it is loaded.

Each bank question names its ``subject`` (what it asks about, such as "lobster
(cooked)"), and no subject is asked twice. A question about one country, or whose
answer depends on the country, names it in ``country``.

A teacher's question file is read only from one folder: the notebook's current
folder, or the folder set with :func:`allow_folder` (or the environment variable
``COLORLAB_QUESTION_FOLDER``). Only a plain file of at most 1 MB inside that
folder is read, so a saved game cannot make the kernel read any other file.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from functools import cache
from pathlib import Path

from colorlab.palette import Colour

BANK = Path(__file__).parent / "data" / "questions"
COLOURS = tuple(c.value for c in Colour)
FIELDS = {"id", "category", "text", "count", "answer", "explanation"}
OPTIONAL_FIELDS = {"subject", "country"}
FOLDER_VARIABLE = "COLORLAB_QUESTION_FOLDER"
MAX_FILE_BYTES = 1_000_000
REFUSED = (
    "question files are read only from the notebook's folder, or from the folder a teacher "
    "chose with colourbrain.questions.allow_folder"
)

_chosen_folder: Path | None = None


@dataclasses.dataclass(frozen=True)
class Question:
    """One quiz question: its text, how many colours it asks for, the answer and why."""

    id: str
    category: str
    text: str
    count: int
    answer: tuple[str, ...]
    explanation: str
    subject: str = ""
    country: str = ""


def parse_questions(text: str, source: str = "questions") -> list[Question]:
    """Read and check questions from JSON text (a {"questions": [...]} object)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{source}: not valid JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:
        raise ValueError(f"{source}: lists or objects nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise ValueError(f'{source}: expected an object with a "questions" list')
    return [
        parse_question(entry, f"{source}, question {number}") for number, entry in enumerate(data["questions"], start=1)
    ]


def parse_question(entry: object, where: str) -> Question:
    """Check one question entry and build it."""
    if not isinstance(entry, dict) or not FIELDS <= set(entry) <= FIELDS | OPTIONAL_FIELDS:
        raise ValueError(
            f"{where}: needs the fields {sorted(FIELDS)} and may also have {sorted(OPTIONAL_FIELDS)}, no others"
        )
    for name in ["id", "category", "text", "explanation"] + sorted(OPTIONAL_FIELDS & set(entry)):
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
        raise ValueError(
            f"{where} ({entry['id']}): count {entry['count']!r} differs from the {len(answer)} colour(s) in the answer"
        )
    return Question(
        entry["id"],
        entry["category"],
        entry["text"].strip(),
        entry["count"],
        tuple(answer),
        entry["explanation"].strip(),
        normal_subject(entry.get("subject", "")),
        entry.get("country", "").strip(),
    )


def normal_subject(subject: str) -> str:
    """Write a subject the one way two equal subjects compare: lower case, single spaces."""
    return " ".join(subject.casefold().split())


def check_unique(questions: list[Question]) -> list[Question]:
    """Refuse questions in which two share an id, or two name the same subject."""
    ids, subjects = set(), set()
    for question in questions:
        if question.id in ids:
            raise ValueError(f"two questions have the id {question.id!r}")
        if question.subject in subjects:
            raise ValueError(
                f"two questions ask about the subject {question.subject!r} (the second is {question.id!r})"
            )
        ids.add(question.id)
        if question.subject:
            subjects.add(question.subject)
    return questions


def check_subjects(questions: list[Question]) -> list[Question]:
    """Refuse a bank question that does not name its subject."""
    for question in questions:
        if not question.subject:
            raise ValueError(f"bank question {question.id!r} has no subject")
    return questions


def allow_folder(folder: str | Path | None) -> None:
    """Read teachers' question files from this folder from now on (None: the notebook's folder again)."""
    global _chosen_folder
    _chosen_folder = None if folder is None else Path(folder).expanduser()


def question_folder() -> Path:
    """Which folder may teachers' question files come from (allow_folder, the variable, or here)?"""
    return (_chosen_folder or Path(os.environ.get(FOLDER_VARIABLE) or Path.cwd())).resolve()


def inside_folder(path: str | Path) -> Path:
    """Where, inside the question folder, is this file (links and .. followed)? Refuse anything outside."""
    folder = question_folder()
    try:
        target = (folder / path).resolve()
    except (OSError, ValueError, TypeError, RuntimeError):
        raise ValueError(REFUSED) from None
    if not target.is_relative_to(folder):
        raise ValueError(REFUSED)
    return target


def read_teacher_file(path: str | Path) -> str:
    """Read a teacher's question file: a plain file of at most 1 MB inside the question folder."""
    target, label = inside_folder(path), repr(str(path))
    try:
        found = os.stat(target)
    except (OSError, ValueError):
        raise ValueError(f"{label}: there is no such file in the question folder") from None
    check_plain_file(found, label)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(target, flags)
    except OSError:
        raise ValueError(f"{label}: cannot be opened") from None
    with os.fdopen(descriptor, "rb") as file:
        opened = os.fstat(file.fileno())
        if (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino):
            raise ValueError(f"{label}: the file changed while it was being opened")
        check_plain_file(opened, label)
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:  # the file grew after it was checked
        raise ValueError(too_large(label))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{label}: not UTF-8 text") from None


def check_plain_file(found: os.stat_result, label: str) -> None:
    """Refuse anything but a plain file (a device or a pipe could hang or flood the kernel) of at most 1 MB."""
    if not stat.S_ISREG(found.st_mode):
        raise ValueError(f"{label}: not a plain file")
    if found.st_size > MAX_FILE_BYTES:
        raise ValueError(too_large(label))


def too_large(label: str) -> str:
    """What to say about a question file over the size limit."""
    return f"{label}: larger than {MAX_FILE_BYTES // 1_000_000} MB, too big for a question file"


def load_questions(*paths: str | Path) -> list[Question]:
    """Load a teacher's question files from the question folder, checking each; ids and subjects must be unique."""
    found = []
    for path in paths:
        found += parse_questions(read_teacher_file(path), Path(path).name)
    return check_unique(found)


@cache
def bank() -> tuple[Question, ...]:
    """Every question of the colorlab bank, in the order of its files."""
    found = []
    for path in sorted(BANK.glob("*.json")):
        found += parse_questions(path.read_text(encoding="utf-8"), path.name)
    return tuple(check_subjects(check_unique(found)))


def question(id: str) -> Question:
    """Which question of the bank has this id?"""
    for entry in bank():
        if entry.id == id:
            return entry
    raise ValueError(f"there is no question {id!r} in the bank")
