"""Colourbrain's question bank (one subject per question, no rulebook examples, no country over a
quarter of a category) and the safety of teachers' question files."""

import json
import os
import threading
import time
from collections import Counter, defaultdict

import pytest

from colorlab.colourbrain import Rules, new_game, questions
from colorlab.colourbrain.questions import bank, load_questions, parse_questions
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.record import GameRecord, RecordError
from colorlab.rules import RuleError

QUIZ = {
    "questions": [
        {
            "id": "s-1",
            "category": "test",
            "subject": "grass",
            "text": "Grass",
            "count": 1,
            "answer": ["green"],
            "explanation": "Chlorophyll.",
        },
        {
            "id": "s-2",
            "category": "test",
            "subject": "snow",
            "text": "Snow",
            "count": 1,
            "answer": ["white"],
            "explanation": "Ice crystals.",
        },
    ]
}

# The rulebook's own examples: Braun, Charlie Brown of the Peanuts, the ripe and the very ripe banana.
RULEBOOK_EXAMPLES = ("banana", "charlie", "snoopy", "peanuts comic", "braun")

# Things whose colours differ from country to country: a question about one must say where.
DEPENDS_ON_COUNTRY = (
    "traffic light",
    "zebra crossing",
    "taxi",
    "tape",
    "ruled",
    "connect four",
    "school bus",
    "speed limit",
    "postbox",
    "mailbox",
    "motorway",
    "pedestrian crossing",
    "ambulance",
)


def countries_over_a_quarter(bank_questions) -> dict[str, tuple[str, int, int]]:
    """Which categories are more than a quarter about one country: {category: (country, count, size)}?"""
    by_category = defaultdict(list)
    for question in bank_questions:
        by_category[question.category].append(question)
    over = {}
    for category, members in by_category.items():
        counts = Counter(q.country for q in members if q.country)
        if counts:
            country, count = counts.most_common(1)[0]
            if 4 * count > len(members):
                over[category] = (country, count, len(members))
    return over


@pytest.fixture
def fresh_bank(tmp_path, monkeypatch):
    """Point the bank loader at an empty folder of our own (and forget the real bank meanwhile)."""
    folder = tmp_path / "bank"
    folder.mkdir()
    monkeypatch.setattr(questions, "BANK", folder)
    bank.cache_clear()
    yield folder
    bank.cache_clear()


@pytest.fixture
def classroom(tmp_path, monkeypatch):
    """A notebook folder with a valid question file, and a secret valid question file beside it."""
    folder = tmp_path / "classroom"
    folder.mkdir()
    (folder / "quiz.json").write_text(json.dumps(QUIZ))
    (tmp_path / "secret.json").write_text(json.dumps(QUIZ))
    monkeypatch.chdir(folder)
    monkeypatch.delenv(questions.FOLDER_VARIABLE, raising=False)
    questions.allow_folder(None)
    yield folder
    questions.allow_folder(None)


def refusal(path) -> str:
    with pytest.raises(ValueError) as caught:
        load_questions(path)
    return str(caught.value)


# --- the bank --------------------------------------------------------------------------------


def test_every_bank_question_names_its_own_subject():
    subjects = [q.subject for q in bank()]
    assert all(subjects), [q.id for q in bank() if not q.subject]
    assert all(s == " ".join(s.casefold().split()) for s in subjects)
    assert [s for s, n in Counter(subjects).items() if n > 1] == []


def test_the_bank_loader_refuses_a_repeated_subject(fresh_bank):
    twice = {
        "questions": [
            dict(QUIZ["questions"][0], subject="Lobster (cooked)"),
            dict(QUIZ["questions"][1], subject="lobster  (COOKED)"),
        ]
    }
    (fresh_bank / "a.json").write_text(json.dumps(twice))
    with pytest.raises(ValueError, match="subject 'lobster \\(cooked\\)'"):
        bank()


def test_the_bank_loader_refuses_a_question_without_a_subject(fresh_bank):
    entry = {k: v for k, v in QUIZ["questions"][0].items() if k != "subject"}
    (fresh_bank / "a.json").write_text(json.dumps({"questions": [entry]}))
    with pytest.raises(ValueError, match="no subject"):
        bank()


def test_a_teachers_file_may_leave_out_subjects_but_may_not_repeat_one(classroom):
    plain = {"questions": [{k: v for k, v in q.items() if k != "subject"} for q in QUIZ["questions"]]}
    assert [q.subject for q in parse_questions(json.dumps(plain))] == ["", ""]
    twice = {"questions": [dict(q, subject="grass") for q in QUIZ["questions"]]}
    (classroom / "twice.json").write_text(json.dumps(twice))
    with pytest.raises(ValueError, match="subject"):
        load_questions("twice.json")


def test_the_bank_keeps_330_questions_in_ten_balanced_categories():
    sizes = Counter(q.category for q in bank())
    assert len(bank()) >= 330
    assert len(sizes) == 10 and min(sizes.values()) >= 15, sizes


def test_no_question_is_one_of_the_rulebooks_examples():
    for question in bank():
        words = f"{question.text} {question.subject} {question.explanation}".casefold()
        assert not [example for example in RULEBOOK_EXAMPLES if example in words], question.id


def test_no_category_is_more_than_a_quarter_about_one_country():
    assert countries_over_a_quarter(bank()) == {}


def test_the_quarter_check_finds_a_category_that_is_mostly_one_country():
    some = parse_questions(
        json.dumps(
            {
                "questions": [
                    dict(QUIZ["questions"][0], id=f"c-{n}", subject=f"thing {n}", country="France" if n < 2 else "Peru")
                    for n in range(5)
                ]
            }
        )
    )
    assert countries_over_a_quarter(some) == {"test": ("Peru", 3, 5)}


def test_answers_that_depend_on_the_country_say_which_country():
    for question in bank():
        text = question.text.casefold()
        if question.category == "objects" and any(thing in text for thing in DEPENDS_ON_COUNTRY):
            assert question.country, question.id


def test_the_autumn_leaves_and_the_malevich_questions_are_right_and_unambiguous():
    leaves = next(q for q in bank() if q.subject == "autumn leaves")
    assert "anthocyanin" in leaves.explanation and "carotenoid" in leaves.explanation
    painting = next(q for q in bank() if "malevich" in q.text.casefold())
    assert "Black Square" in painting.text and "1915" in painting.text


# --- teachers' question files ------------------------------------------------------------------


def test_a_file_in_the_notebooks_folder_is_read(classroom):
    assert [q.id for q in load_questions("quiz.json")] == ["s-1", "s-2"]
    assert [q.id for q in load_questions(classroom / "quiz.json")] == ["s-1", "s-2"]


def test_a_path_outside_the_folder_is_refused_the_same_whether_or_not_it_exists(classroom, tmp_path):
    told = {
        refusal(tmp_path / "secret.json"),
        refusal(tmp_path / "no-such-file.json"),
        refusal("../secret.json"),
        refusal("../no-such-file.json"),
        refusal("/etc/passwd"),
        refusal("/etc/no-such-file"),
        refusal("/dev/zero"),
    }
    assert len(told) == 1
    assert "folder" in told.pop()


def test_a_link_pointing_outside_the_folder_is_refused_like_any_outside_path(classroom, tmp_path):
    (classroom / "link.json").symlink_to(tmp_path / "secret.json")
    (classroom / "zero.json").symlink_to("/dev/zero")
    assert refusal("link.json") == refusal("zero.json") == refusal(tmp_path / "secret.json")


def test_a_pipe_in_the_folder_is_refused_at_once_and_never_waited_on(classroom):
    os.mkfifo(classroom / "pipe.json")
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(refusal("pipe.json")), daemon=True)
    start = time.monotonic()
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():  # release a reader stuck waiting for a writer before failing
        os.close(os.open(classroom / "pipe.json", os.O_WRONLY | os.O_NONBLOCK))
    assert outcome and "not a plain file" in outcome[0]
    assert time.monotonic() - start < 1


def test_a_file_over_one_megabyte_is_refused(classroom):
    text = json.dumps(QUIZ)
    (classroom / "full.json").write_text(text + " " * (questions.MAX_FILE_BYTES - len(text)))
    (classroom / "over.json").write_text(text + " " * (questions.MAX_FILE_BYTES + 1 - len(text)))
    assert len(load_questions("full.json")) == 2
    assert "too big" in refusal("over.json")
    assert questions.MAX_FILE_BYTES == 1_000_000


def test_a_file_nested_too_deeply_is_refused_with_a_reason(classroom):
    (classroom / "deep.json").write_text("[" * 100_000)
    assert "nested too deeply" in refusal("deep.json")


def test_a_teacher_chooses_another_folder_by_function_or_by_environment(classroom, tmp_path, monkeypatch):
    other = tmp_path / "quizzes"
    other.mkdir()
    (other / "mine.json").write_text(json.dumps(QUIZ))
    questions.allow_folder(other)
    assert len(load_questions("mine.json")) == 2
    assert "folder" in refusal(classroom / "quiz.json")
    questions.allow_folder(None)
    monkeypatch.setenv(questions.FOLDER_VARIABLE, str(other))
    assert len(load_questions(other / "mine.json")) == 2
    assert "folder" in refusal(tmp_path / "secret.json")


def without(path: str, message: str) -> str:
    return message.replace(repr(path), "PATH").replace(path, "PATH")


def test_a_new_quiz_refuses_an_outside_file_with_the_same_words_whether_or_not_it_exists(classroom):
    told = []
    for path in ("/etc/passwd", "/etc/no-such-file", "/dev/zero"):
        with pytest.raises(RuleError) as caught:
            new_game(Rules(question_file=path))
        told.append(without(path, str(caught.value)))
    assert len(set(told)) == 1 and "folder" in told[0]


def test_a_loaded_save_naming_a_server_file_is_refused_with_the_same_words(classroom):
    told, noticed = [], []
    for path in ("/etc/passwd", "/etc/no-such-file"):
        text = GameRecord("colourbrain", Rules(question_file=path), 0).to_json()
        with pytest.raises((RecordError, RuleError)) as caught:
            GameRecord.from_json(text)
        told.append(without(path, str(caught.value)))
        quiz = ColourbrainQuiz(seed=1)
        quiz.act({"type": "load", "text": text})
        noticed.append(without(path, quiz.notice["text"]))
    assert len(set(told)) == 1 and "folder" in told[0]
    assert len(set(noticed)) == 1 and "folder" in noticed[0]
