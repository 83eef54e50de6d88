"""The lesson helpers: exercise checkers say "Right!" or give the hint, and say which."""

from fractions import Fraction

import pytest

from colorlab.lessons import checker, same_answer

HINT = "count the corners"
NOT_YET = f"Not yet — hint: {HINT}\n"


@pytest.mark.parametrize(
    "expected, answer",
    [
        (4, 4),
        (4, 4.0),
        (Fraction(1, 3), Fraction(2, 6)),
        (Fraction(1, 3), 1 / 3),
        (Fraction(11, 36), 0.3055555555555556),
        ((0, 2, 6, 8), (0, 2, 6, 8)),
        ("(0 2 8 6)(1 5 7 3)", "(0 2 8 6)(1 5 7 3)"),
        (True, True),
    ],
)
def test_a_right_answer_is_praised(capsys, expected, answer):
    assert checker(expected, HINT)(answer) is True
    assert capsys.readouterr().out == "Right!\n"


@pytest.mark.parametrize(
    "expected, answer",
    [
        (4, None),
        (4, 3),
        (4, "4"),
        (1, True),
        (0, False),
        (True, 1),
        (Fraction(1, 3), 0.333),
        (Fraction(1, 3), 0.3333334),
        (Fraction(1, 3), "1/3"),
        (4, 4.000001),
        ((0, 2, 6, 8), [0, 2, 6, 8]),
    ],
)
def test_a_wrong_answer_gets_the_hint(capsys, expected, answer):
    assert checker(expected, HINT)(answer) is False
    assert capsys.readouterr().out == NOT_YET


def test_the_tolerance_is_only_for_a_float_against_a_fraction():
    assert same_answer(0.1 + 0.2, Fraction(3, 10))
    assert not same_answer(0.1 + 0.2, 0.3)
    assert not same_answer(Fraction(3, 10) + Fraction(1, 10**12), Fraction(3, 10))


def test_a_comparison_of_ones_own_decides(capsys):
    unordered = checker({0, 2, 6, 8}, HINT, same=lambda answer, expected: set(answer) == expected)
    assert unordered([8, 6, 2, 0]) and unordered((0, 2, 6, 8, 8))
    assert not unordered([0, 2, 6])
    assert capsys.readouterr().out == "Right!\nRight!\n" + NOT_YET


@pytest.mark.parametrize("answer", [None, 7, object()])
def test_an_answer_the_comparison_cannot_handle_is_not_right_yet(capsys, answer):
    unordered = checker({0, 2, 6, 8}, HINT, same=lambda answer, expected: set(answer) == expected)
    assert unordered(answer) is False
    assert capsys.readouterr().out == NOT_YET


def test_the_checker_may_be_asked_again():
    check = checker(Fraction(1, 2), HINT)
    assert [check(None), check(0.5), check(Fraction(1, 2)), check(1)] == [False, True, True, False]
