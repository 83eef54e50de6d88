"""The shared core: the palette, rule dataclasses, game records and the agents' protocol."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
import math
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab import record as record_module
from colorlab.agents import Agent, SeededAgent
from colorlab.colorform import (
    Claim,
    ReactionBot,
    Rules,
    new_game,
    play,
    play_game,
    task_cards,
)
from colorlab.encoding import number_blocks
from colorlab.palette import (
    COLOUR_BLIND_SAFE,
    DEFAULT,
    INKS,
    PALETTES,
    Colour,
    colour,
    contrast,
    css_variables,
    glyph_inks,
    screen_colour,
)
from colorlab.record import (
    MAX_ACTIONS,
    MAX_BYTES,
    MAX_DEPTH,
    OLD_WIDGET_SEEDING,
    SEEDING,
    GameRecord,
    Mark,
    RecordError,
    strict_json,
)
from colorlab.rules import ChangeRules, RuleError, RulesBase, rule
from tests.helpers.examples import examples

HEX = re.compile(r"#[0-9a-fA-F]{6}")
FORMAT_NAME = "colorlab-record"


# The palette


def test_eleven_colours_with_unique_codes_and_glyphs():
    assert len(Colour) == 11
    codes = [c.code for c in Colour]
    glyphs = [c.glyph for c in Colour]
    assert len(set(codes)) == 11 and len(set(glyphs)) == 11
    assert all(len(code) == 1 and code.isupper() for code in codes)
    assert all(len(glyph) == 1 and not glyph.isalnum() for glyph in glyphs)


@pytest.mark.parametrize("name", ["default", "colour-blind-safe"])
def test_each_palette_paints_every_colour_differently(name):
    palette = PALETTES[name]
    assert set(palette) == set(Colour)
    assert all(HEX.fullmatch(palette[c]) for c in Colour)
    assert len({palette[c].lower() for c in Colour}) == 11


def test_colour_blind_safe_palette_is_not_the_default():
    assert PALETTES["default"] is DEFAULT and PALETTES["colour-blind-safe"] is COLOUR_BLIND_SAFE
    changed = [c for c in Colour if DEFAULT[c].lower() != COLOUR_BLIND_SAFE[c].lower()]
    assert len(changed) >= 6
    assert css_variables("default") != css_variables("colour-blind-safe")


@pytest.mark.parametrize("which", list(Colour))
def test_colour_reads_names_and_codes(which):
    name = which.value
    for text in (name, name.upper(), name.title(), f"  {name} ", which.code, which.code.lower(), which):
        assert colour(text) is which


@pytest.mark.parametrize("text", ["gray", "Gray", " GRAY ", "grey", "E"])
def test_gray_is_grey(text):
    assert colour(text) is Colour.GREY


@pytest.mark.parametrize("junk", ["", "x", "Z", "purplish", "blue-green", "reddd", "rouge", "3"])
def test_colour_refuses_junk_naming_it(junk):
    with pytest.raises(ValueError) as caught:
        colour(junk)
    assert repr(junk) in str(caught.value)


@pytest.mark.parametrize("junk", [None, 3, 2.5, ["red"]])
def test_colour_refuses_non_text(junk):
    with pytest.raises(ValueError) as caught:
        colour(junk)
    assert repr(junk) in str(caught.value)


@pytest.mark.parametrize("name", ["default", "colour-blind-safe"])
def test_css_variables_name_every_colour(name):
    variables = css_variables(name)
    assert set(variables) == {f"--colorlab-{c.value}" for c in Colour}
    for which in Colour:
        assert variables[f"--colorlab-{which.value}"] == PALETTES[name][which] == screen_colour(which, name)


@pytest.mark.parametrize("name", ["default", "colour-blind-safe"])
def test_every_glyph_ink_stands_out_from_its_colour_as_wcag_asks_of_text(name):
    inks = glyph_inks()[name]
    assert set(inks) == {c.value for c in Colour}
    for which in Colour:
        screen = screen_colour(which, name)
        assert inks[which.value] in INKS
        assert contrast(inks[which.value], screen) >= 4.5, which
        assert contrast(inks[which.value], screen) >= max(contrast(ink, screen) for ink in INKS)


def test_contrast_is_symmetric_and_runs_from_1_to_21():
    assert contrast("#1f5fbf", "#ffffff") == contrast("#ffffff", "#1f5fbf")
    assert contrast("#7b3fa0", "#7b3fa0") == 1
    assert contrast("#ffffff", "#000000") == 21


def test_every_game_widget_sends_the_glyph_inks_of_both_palettes():
    from colorlab.colorform.turner import TaskTurner
    from colorlab.colorform.view import ColorFormGame
    from colorlab.colorfox.view import ColorFoxGame
    from colorlab.colorium.view import ColoriumGame
    from colorlab.colourbrain.view import ColourbrainQuiz

    widgets = [
        ColorFormGame(bots=1, seed=1),
        ColorFoxGame(bots=1, seed=1),
        ColoriumGame(bots=1, seed=1),
        ColourbrainQuiz(seed=1),
        TaskTurner(5),
    ]
    for widget in widgets:
        assert widget.assets["inks"] == glyph_inks(), type(widget).__name__


@pytest.mark.processes
def test_importing_the_palette_loads_no_widget_or_maths_library():
    code = "import sys, colorlab.palette; print(sorted({'anywidget', 'ipywidgets', 'sympy'} & set(sys.modules)))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "[]"


def test_unknown_palette_is_refused():
    with pytest.raises(ValueError, match="sepia"):
        css_variables("sepia")
    with pytest.raises(ValueError, match="sepia"):
        screen_colour(Colour.RED, "sepia")


# Rules: a toy game's rules show what every game gets from RulesBase.


@dataclasses.dataclass(frozen=True)
class Toy(RulesBase):
    """A toy game's rules with one field of each kind."""

    players: int = rule(2, "Players", "How many play.", low=2, high=4)
    rounds: int = rule(1, "Rounds", "How many rounds are played.", low=0, high=9)
    speed: float = rule(1.0, "Speed", "How fast the toy runs.", low=0.5, high=2.0)
    hints: bool = rule(True, "Hints", "Are hints shown?")
    board: str = rule("square", "Board", "The shape of the board.", choices=("square", "hex"))


def test_toy_defaults_are_valid():
    toy = Toy()
    assert (toy.players, toy.rounds, toy.speed, toy.hints, toy.board) == (2, 1, 1.0, True, "square")
    assert toy.differences() == {}


def test_toy_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Toy().players = 3


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 2},
        {"players": 4},
        {"speed": 0.5},
        {"speed": 2.0},
        {"speed": 1.25},
        {"hints": False},
        {"board": "hex"},
        {"players": 3, "board": "hex", "hints": False},
    ],
)
def test_replace_accepts_allowed_values(changes):
    toy = dataclasses.replace(Toy(), **changes)
    assert all(getattr(toy, name) == value for name, value in changes.items())


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("players", 1, ["2", "4"]),
        ("players", 5, ["2", "4"]),
        ("players", 3.0, ["whole number"]),
        ("players", "3", ["whole number"]),
        ("players", True, ["whole number"]),
        ("rounds", True, ["whole number"]),
        ("rounds", False, ["whole number"]),
        ("speed", 0.49, ["0.5", "2.0"]),
        ("speed", 2.01, ["0.5", "2.0"]),
        ("speed", math.nan, ["number"]),
        ("speed", math.inf, ["number"]),
        ("speed", "fast", ["number"]),
        ("speed", False, ["number"]),
        ("hints", 1, ["True", "False"]),
        ("hints", "yes", ["True", "False"]),
        ("board", "circle", ["'square'", "'hex'"]),
        ("board", "Square", ["'square'", "'hex'"]),
        ("board", 1, ["'square'", "'hex'"]),
    ],
)
def test_replace_refuses_a_bad_value_naming_field_value_and_what_is_allowed(field, value, words):
    with pytest.raises(RuleError) as caught:
        dataclasses.replace(Toy(), **{field: value})
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.field == field
    assert error.value is value
    assert all(word in error.allowed for word in words)
    message = str(error)
    assert message.startswith(f"{field} = {value!r}")
    assert error.allowed in message


def test_describe_lists_every_field_with_editor_metadata():
    described = {entry["name"]: entry for entry in Toy.describe()}
    assert list(described) == ["players", "rounds", "speed", "hints", "board"]
    assert described["players"] == {
        "name": "players",
        "type": "int",
        "default": 2,
        "label": "Players",
        "help": "How many play.",
        "low": 2,
        "high": 4,
        "choices": None,
        "live": False,
        "editable": True,
    }
    assert described["speed"]["type"] == "float"
    assert (described["speed"]["low"], described["speed"]["high"]) == (0.5, 2.0)
    assert described["hints"]["type"] == "bool" and described["hints"]["label"] == "Hints"
    assert described["hints"]["low"] is described["hints"]["high"] is None
    assert described["board"]["type"] == "str"
    assert described["board"]["choices"] == ("square", "hex")
    assert described["board"]["help"] == "The shape of the board."


@pytest.mark.parametrize("toy", [Toy(), Toy(players=4, rounds=0, speed=0.5, hints=False, board="hex")])
def test_toy_survives_a_round_trip_through_json(toy):
    plain = json.loads(json.dumps(toy.to_dict()))
    assert Toy.from_dict(plain) == toy


def test_from_dict_fills_defaults_and_reads_whole_numbers_as_floats():
    toy = Toy.from_dict({"speed": 2})
    assert toy == Toy(speed=2.0) and type(toy.speed) is float
    assert Toy.from_dict({}) == Toy()


def test_from_dict_refuses_unknown_fields():
    with pytest.raises(RuleError) as caught:
        Toy.from_dict({"players": 3, "colours": 11})
    assert caught.value.field == "colours" and caught.value.value == 11
    assert "players" in caught.value.allowed and "board" in caught.value.allowed


@pytest.mark.parametrize("values", [None, [["players", 3]], "players=3", 3])
def test_from_dict_refuses_non_dicts(values):
    with pytest.raises(RuleError) as caught:
        Toy.from_dict(values)
    assert caught.value.value == values


@pytest.mark.parametrize(
    "values", [{"players": 9}, {"rounds": True}, {"speed": "1"}, {"speed": 10**400}, {"hints": 0}, {"board": None}]
)
def test_from_dict_refuses_bad_values(values):
    with pytest.raises(RuleError) as caught:
        Toy.from_dict(values)
    assert caught.value.field in values


def test_differences_name_each_changed_rule_with_default_and_value():
    toy = Toy(players=3, board="hex")
    assert toy.differences() == {"players": (2, 3), "board": ("square", "hex")}
    assert dataclasses.replace(toy, players=2, board="square").differences() == {}


# The real rules of Col-Or-Form


def test_every_colorform_rule_is_described_for_the_editor():
    described = Rules.describe()
    assert [entry["name"] for entry in described] == [f.name for f in dataclasses.fields(Rules)]
    for entry in described:
        assert isinstance(entry["label"], str) and entry["label"].strip()
        assert isinstance(entry["help"], str) and len(entry["help"]) > len(entry["label"])
        if entry["choices"] is not None:
            assert entry["default"] in entry["choices"]
        if entry["low"] is not None:
            assert entry["low"] <= entry["default"] <= entry["high"]


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=6, hand_size=4),
        Rules.junior(),
        Rules(matching="shape", rotations=False, mirror_images=True),
    ],
)
def test_colorform_rules_round_trip(rules):
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_junior_rules():
    junior = Rules.junior()
    assert junior.variant == "junior"
    assert (junior.hand_size, junior.tasks_per_player, junior.largest_task) == (3, 4, 4)
    assert set(junior.differences()) == {"variant", "hand_size", "tasks_per_player", "largest_task"}
    assert Rules.junior(players=6).players == 6
    start = new_game(Rules.junior(players=3), seed=3)
    piles = [pile + shown for pile, shown in zip(start.own_piles, start.revealed)]
    assert [len(pile) for pile in piles] == [4, 4, 4]
    assert all(card.size <= 4 for pile in piles for card in pile)


def test_too_many_hand_cards_for_the_deck_are_refused():
    # 36 figure cards, 9 on the layout: 27 can be dealt into hands.
    assert Rules(players=3, hand_size=6).hand_size == 6
    with pytest.raises(RuleError) as caught:
        Rules(players=6, hand_size=6)
    assert caught.value.field == "hand_size" and caught.value.value == 6
    with pytest.raises(RuleError) as caught:
        dataclasses.replace(Rules(hand_size=6), players=5)
    assert caught.value.field == "hand_size"


def test_junior_needs_enough_small_task_cards():
    with pytest.raises(RuleError) as caught:
        Rules.junior(players=6, largest_task=2)
    assert caught.value.field == "tasks_per_player"
    # Six task cards show two figures: enough for six piles of one, or three piles of two.
    assert sum(card.size <= 2 for card in task_cards()) == 6
    assert Rules.junior(players=6, largest_task=2, tasks_per_player=1)
    assert Rules.junior(players=3, largest_task=2, tasks_per_player=2)
    with pytest.raises(RuleError) as caught:
        Rules.junior(players=3, largest_task=2, tasks_per_player=3)
    assert caught.value.field == "tasks_per_player" and caught.value.value == 3


def test_rules_from_dict_refuses_overflowing_numbers():
    with pytest.raises(RuleError) as caught:
        Rules.from_dict({"seconds_to_show": 10**400})
    assert caught.value.field == "seconds_to_show"


# Game records

GAMES = [
    (Rules(players=3), 0),
    (Rules(players=3), 1),
    (Rules(players=3), 2),
    (Rules.junior(players=3), 0),
    (Rules(players=2, matching="colour", rotations=False), 5),
]


@functools.cache
def recorded(rules: Rules, seed: int) -> GameRecord:
    """Which record does a game of medium bots with these rules and seed leave?"""
    return play_game(rules, seed=seed)


def sample() -> GameRecord:
    return recorded(Rules(players=3), 1)


@pytest.mark.parametrize("rules, seed", GAMES)
def test_save_load_save_is_identical(rules, seed):
    record = recorded(rules, seed)
    assert record.actions
    text = record.to_json()
    again = GameRecord.from_json(text)
    assert again == record
    assert again.to_json() == text
    assert GameRecord.from_json(text.encode("utf-8")) == record
    assert GameRecord.from_dict(json.loads(text)) == record


@pytest.mark.parametrize("rules, seed", GAMES)
def test_replay_rebuilds_every_state(rules, seed):
    record = recorded(rules, seed)
    states = list(record.states())
    assert len(states) == len(record.actions) + 1
    state = new_game(rules, seed)
    assert states[0] == state
    for action, replayed in zip(record.actions, states[1:]):
        state = play(state, action)
        assert replayed == state
    assert record.final_state() == state == states[-1]
    assert state.over and not any(s.over for s in states[:-1])
    fresh = play_game(rules, seed=seed)
    assert fresh == record and fresh.final_state() == state


@pytest.mark.parametrize("rules, seed", GAMES[:2])
def test_a_played_record_keeps_its_last_state_and_a_record_with_other_actions_drops_it(rules, seed):
    played = play_game(rules, seed=seed)
    replayed = GameRecord(played.game, played.rules, played.seed, played.actions)
    assert played.final is not None and replayed.final is None and played == replayed
    assert played.final == replayed.final_state()
    assert played.undo(1).final is None and played.undo(1).then(played.actions[-1]).final is None
    assert played.loaded().final is played.final
    assert GameRecord.from_json(played.to_json()).final is None and "final" not in played.to_dict()


@pytest.mark.parametrize("rules, seed", GAMES[:2] + GAMES[3:4])
def test_undo_is_the_record_of_a_prefix(rules, seed):
    record = recorded(rules, seed)
    states = list(record.states())
    n = len(record.actions)
    for k in range(n + 1):
        shorter = record.undo(k)
        assert shorter == GameRecord(record.game, record.rules, record.seed, record.actions[: n - k])
        assert shorter.final_state() == states[n - k]
    assert record.undo() == record.undo(1)
    assert record.undo(1).then(record.actions[-1]) == record
    for steps in (-1, n + 1):
        with pytest.raises(ValueError):
            record.undo(steps)


def test_an_undo_marks_the_record_and_the_mark_is_saved():
    record = sample()
    n = len(record.actions)
    assert not record.practice and record.undo(0).marks == ()
    again = record.undo(2).then(record.actions[-2]).undo(1)
    assert again.marks == (Mark("undo", n, 2), Mark("undo", n - 1, 1))
    assert again.practice and again.marks[0].describe() == f"2 moves taken back at move {n}"
    loaded = GameRecord.from_json(again.to_json())
    assert loaded.marks == again.marks and loaded.to_json() == again.to_json()
    assert loaded.loaded().marks[-1] == Mark("loaded", n - 2)
    assert json.loads(again.to_json())["version"] == 3


def older_save(version: int) -> dict:
    """The sample record as a file of an older version holds it: no seeding or bots, and (version 1) no marks."""
    old = record_dict(version=version)
    for field in ("seeding", "bots") + (("marks",) if version == 1 else ()):
        del old[field]
    return old


def test_a_version_1_save_still_loads_without_marks():
    old = older_save(1)
    record = GameRecord.from_dict(old)
    assert record == sample() and record.marks == ()
    refused({**old, "marks": []}, "marks")
    new = record_dict()
    del new["marks"]
    refused(new, "marks")


@pytest.mark.parametrize("version", [1, 2])
def test_a_save_from_before_seeding_goes_on_as_the_widget_that_saved_it_seeded_its_bots(version):
    record = GameRecord.from_dict(older_save(version))
    assert record == sample() and record.seeding == OLD_WIDGET_SEEDING == "seed*7+seat" and record.bots == ()
    again = GameRecord.from_json(record.to_json())
    assert again.seeding == OLD_WIDGET_SEEDING and json.loads(record.to_json())["version"] == 3
    for field, value in (("seeding", SEEDING), ("bots", [])):
        refused({**older_save(version), field: value}, field)


def test_a_record_keeps_its_seeding_and_who_sat_where():
    assert sample().seeding == SEEDING == "seed/seat/step" and sample().bots == ()
    seated = dataclasses.replace(sample(), seeding=OLD_WIDGET_SEEDING, bots=(None, "ReactionBot (hard)", "ReactionBot"))
    again = GameRecord.from_json(seated.to_json())
    assert (again.seeding, again.bots) == (seated.seeding, seated.bots) and again == sample()
    assert again.undo(1).then(sample().actions[-1]).bots == seated.bots


@pytest.mark.parametrize(
    "field, value",
    [
        ("seeding", "seed*31+seat"),
        ("seeding", None),
        ("seeding", ["seed/seat/step"]),
        ("bots", None),
        ("bots", ["ReactionBot"]),
        ("bots", [None, None, None, None]),
        ("bots", [None, "GreedyBot", None]),
        ("bots", [None, 3, None]),
        ("bots", {"1": "ReactionBot"}),
    ],
)
def test_a_bad_seeding_or_seating_is_refused(field, value):
    refused(record_dict(**{field: value}), field)


@pytest.mark.parametrize(
    "marks",
    [
        None,
        {},
        "undo",
        [None],
        [{}],
        [{"kind": "undo", "step": 3}],
        [{"kind": "redo", "step": 3, "count": 1}],
        [{"kind": "undo", "step": 3, "count": 0}],
        [{"kind": "undo", "step": 3, "count": 4}],
        [{"kind": "loaded", "step": 3, "count": 1}],
        [{"kind": "undo", "step": -1, "count": 1}],
        [{"kind": "undo", "step": "3", "count": 1}],
        [{"kind": "undo", "step": True, "count": 1}],
        [{"kind": "loaded", "step": 10**5000, "count": 0}],
        [{"kind": ["undo"], "step": 3, "count": 1}],
        [{"kind": "loaded", "step": 3, "count": 0, "note": "fine"}],
        [{"kind": "loaded", "step": 1, "count": 0}] * (MAX_ACTIONS + 1),
    ],
)
def test_malformed_marks_are_refused(marks):
    refused(record_dict(marks=marks), "mark")


def test_save_refuses_to_overwrite_a_file_unless_asked(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("my own notes", encoding="utf-8")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        sample().save(path)
    assert path.read_text(encoding="utf-8") == "my own notes"
    sample().save(path, overwrite=True)
    assert GameRecord.load(path) == sample()


class FrozenClock(datetime.datetime):
    """A clock that always says the same millisecond, as two quick saves would see it."""

    @classmethod
    def now(cls, tz=None):
        return cls(2026, 1, 2, 3, 4, 5, 678_000)


def test_two_saves_in_the_same_millisecond_get_two_files(tmp_path, monkeypatch):
    monkeypatch.setattr(record_module.datetime, "datetime", FrozenClock)
    first, second = sample(), sample().undo(1)
    paths = [first.save_new(tmp_path), second.save_new(tmp_path), first.save_new(tmp_path)]
    assert len(set(paths)) == 3 and all(path.parent == tmp_path for path in paths)
    assert "20260102-030405-678" in paths[0].name
    assert GameRecord.load(paths[0]) == first and GameRecord.load(paths[1]) == second


def test_save_and_load_a_file(tmp_path):
    record = sample()
    first, second = tmp_path / "game.json", tmp_path / "again.json"
    record.save(first)
    loaded = GameRecord.load(first)
    assert loaded == record
    loaded.save(second)
    assert second.read_bytes() == first.read_bytes()
    assert GameRecord.load(str(first)) == record


def test_loading_a_missing_path_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "no such game.json")
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load("game\0.json")


def test_a_damaged_file_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(sample().to_json().encode("utf-8")[:-40])
    with pytest.raises(RecordError, match="JSON"):
        GameRecord.load(path)
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    with pytest.raises(RecordError, match="UTF-8"):
        GameRecord.load(path)


def record_dict(**changes) -> dict:
    """The sample record as plain values, with some top-level fields changed."""
    return {**json.loads(sample().to_json()), **changes}


def refused(data, match: str | None = None) -> RecordError:
    """Which RecordError does loading this dict raise? (Its JSON text must be refused too.)"""
    with pytest.raises(RecordError, match=match) as caught:
        GameRecord.from_dict(data)
    try:
        text = json.dumps(data)
    except ValueError:  # a number with too many digits to write as text
        return caught.value
    with pytest.raises(RecordError):
        GameRecord.from_json(text)
    return caught.value


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "{",
        "{}}",
        "[1, 2",
        "{'format': 1}",
        '{"seed": 1,}',
        "null",
        "true",
        "12",
        '"a record"',
        "[]",
        '{"a" 1}',
        "\ufeff{}",
    ],
)
def test_invalid_json_or_not_an_object_is_refused(text):
    with pytest.raises(RecordError):
        GameRecord.from_json(text)


def test_truncated_text_is_refused():
    text = sample().to_json()
    for cut in range(0, len(text), max(1, len(text) // 60)):
        with pytest.raises(RecordError):
            GameRecord.from_json(text[:cut])


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
def test_non_finite_numbers_are_refused(constant):
    with pytest.raises(RecordError):
        strict_json(f'{{"a": {constant}}}')
    text = sample().to_json()
    time = re.search(r'"time": [0-9.]+', text).group()
    with pytest.raises(RecordError):
        GameRecord.from_json(text.replace(time, f'"time": {constant}', 1))
    with pytest.raises(RecordError):
        GameRecord.from_json(text.replace('"seed": 1', f'"seed": {constant}', 1))


def test_duplicate_keys_are_refused():
    text = sample().to_json()
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_json('{"seed": 1, ' + text[1:])
    with pytest.raises(RecordError, match="player"):
        GameRecord.from_json(text.replace('"player": ', '"player": 0, "player": ', 1))
    with pytest.raises(RecordError):
        strict_json('{"a": 1, "a": 1}')


def test_nesting_deeper_than_the_limit_is_refused():
    limit = MAX_DEPTH
    assert strict_json("[" * limit + "]" * limit) is not None
    for depth in (limit + 1, 10_000, 100_000):
        with pytest.raises(RecordError, match="nested"):
            strict_json("[" * depth + "]" * depth)
        with pytest.raises(RecordError, match="nested"):
            GameRecord.from_json('{"a": ' * depth + "1" + "}" * depth)
    brackets_in_text = '{"a": "' + "[" * (limit + 5) + '"}'
    assert strict_json(brackets_in_text) == {"a": "[" * (limit + 5)}


def test_oversize_text_is_refused():
    text = sample().to_json()
    padded = text + " " * (MAX_BYTES - len(text))
    assert GameRecord.from_json(padded) == sample()
    for too_big in (padded + " ", (padded + " ").encode("utf-8")):
        with pytest.raises(RecordError, match="too large"):
            GameRecord.from_json(too_big)
    # The limit counts bytes, so text of fewer characters but more bytes is too large too.
    with pytest.raises(RecordError, match="too large"):
        strict_json('"' + "é" * (MAX_BYTES // 2) + '"')


def test_numbers_too_long_to_read_are_refused():
    with pytest.raises(RecordError):
        strict_json("1" * 5000)
    with pytest.raises(RecordError):
        GameRecord.from_json(sample().to_json().replace('"seed": 1', '"seed": ' + "9" * 5000, 1))


def test_non_utf8_bytes_are_refused():
    text = sample().to_json()
    for data in (b"\xff\xfe{}", text.encode("utf-16"), text.encode("utf-8").replace(b'"seed"', b'"s\xe9ed"')):
        with pytest.raises(RecordError, match="UTF-8"):
            GameRecord.from_json(data)


def test_unknown_or_missing_top_level_fields_are_refused():
    refused(record_dict(comment="a fine game"), "comment")
    for field in ("format", "version", "game", "rules", "seed", "actions", "marks", "seeding", "bots"):
        data = record_dict()
        del data[field]
        refused(data, field)


@pytest.mark.parametrize(
    "changes",
    [
        {"format": "colorlab-recording"},
        {"format": None},
        {"version": 4},
        {"version": 0},
        {"version": "1"},
        {"version": True},
        {"version": 1.0},
        {"version": 3.0},
        {"version": [3]},
    ],
)
def test_wrong_format_or_version_is_refused(changes):
    refused(record_dict(**changes), "version")


@pytest.mark.parametrize(
    "game",
    [
        "chess",
        "Colorform",
        "colorform ",
        "record",
        "rules",
        "symmetry",
        "palette",
        "widgets",
        "os",
        "../colorform",
        "colorlab.colorform",
        "",
        3,
        None,
    ],
)
def test_unknown_game_is_refused(game):
    refused(record_dict(game=game), "game")


@pytest.mark.parametrize("seed", [True, False, -1, 1.0, 1.5, "1", None, [1], 2**63, 10**30])
def test_bad_seeds_are_refused(seed):
    refused(record_dict(seed=seed), "seed")


@pytest.mark.parametrize("seed", [10**5000, -(10**5000)], ids=["huge", "huge negative"])
def test_seeds_too_long_to_print_are_refused(seed):
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_dict(record_dict(seed=seed))


def test_largest_seed_is_accepted():
    record = GameRecord.from_dict(record_dict(seed=2**63 - 1, actions=[]))
    assert record.seed == 2**63 - 1 and not record.final_state().over


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 7},
        {"colours": 11},
        {"variant": "expert"},
        {"rotations": "yes"},
        {"seconds_to_show": math.nan},
        {"seconds_to_show": 10**400},
        {"players": 6, "hand_size": 6},
    ],
)
def test_bad_rules_are_refused(changes):
    refused(record_dict(rules={**sample().rules.to_dict(), **changes}), "rules")


@pytest.mark.parametrize(
    "value", [10**5000, -(10**5000), [[]], {"a": {}}], ids=["huge", "huge negative", "list", "object"]
)
def test_rule_values_of_any_size_or_shape_are_refused_as_records(value):
    for name in ("players", "seconds_to_show", "matching", "rotations"):
        refused(record_dict(rules={**sample().rules.to_dict(), name: value}), "rules")
        changes = {"type": "rules", "changes": {name: value}}
        refused(record_dict(actions=[changes]), "action 0")


@pytest.mark.parametrize("source", [None, 3, ["{}"], {"format": FORMAT_NAME}])
def test_loading_something_that_is_not_text_or_a_path_is_refused(source):
    with pytest.raises(RecordError):
        GameRecord.from_json(source)
    with pytest.raises(RecordError):
        GameRecord.load(source)


@pytest.mark.parametrize("rules", [None, [], "base", 3])
def test_rules_that_are_not_a_mapping_are_refused(rules):
    refused(record_dict(rules=rules), "rules")


@pytest.mark.parametrize(
    "actions", [None, {}, {"0": {"type": "give up"}}, "give up", 3, [{"type": "give up"}] * (MAX_ACTIONS + 1)]
)
def test_actions_must_be_a_list_of_bounded_length(actions):
    refused(record_dict(actions=actions), "actions")


def claim_dict(**changes) -> dict:
    """The first claim of the sample game as plain values, with some fields changed."""
    first = record_dict()["actions"][0]
    return {**first["claims"][0], **changes}


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "give up",
        {},
        {"type": "resign"},
        {"type": None},
        {"kind": "give up"},
        {"type": "give up", "note": "tired"},
        {"type": "pass"},
        {"type": "pass", "player": "0"},
        {"type": "pass", "player": True},
        {"type": "stop"},
        {"type": "stop", "claims": {}},
        {"type": "stop", "claims": "all"},
        {"type": "stop", "claims": [None]},
        {"type": "stop", "claims": [], "extra": 1},
        claim_dict(extra=1),
        claim_dict(player="2"),
        claim_dict(player=2.0),
        claim_dict(player=None),
        claim_dict(task="2"),
        claim_dict(task=1.5),
        claim_dict(rotation=True),
        claim_dict(rotation="1"),
        claim_dict(mirrored=0),
        claim_dict(mirrored="false"),
        claim_dict(placements={"0": "blue square"}),
        claim_dict(placements=[[0]]),
        claim_dict(placements=[[0, "blue square", 1]]),
        claim_dict(placements=[["0", "blue square"]]),
        claim_dict(placements=[[0, "purple elephant"]]),
        claim_dict(placements=[[0, 7]]),
        claim_dict(placements=[[True, "blue square"]]),
        claim_dict(time="3"),
        claim_dict(time=None),
        claim_dict(time=10**400),
        claim_dict(seconds_shown=[2.5]),
        claim_dict(seconds_shown=False),
    ],
)
def test_malformed_actions_are_refused(action):
    error = refused(record_dict(actions=[action]), "action")
    assert "0" in str(error)


def test_an_action_illegal_on_replay_is_refused():
    start = new_game(sample().rules, sample().seed)
    shown = {card.number for card in start.revealed_tasks()}
    hidden = min(card.number for card in task_cards() if card.number not in shown)
    for claim in (
        claim_dict(task=hidden),
        claim_dict(task=len(task_cards()) + 1),
        claim_dict(player=3),
        claim_dict(player=-1),
        claim_dict(rotation=4),
        claim_dict(placements=[[9, "blue square"]]),
        claim_dict(time=-1.0),
    ):
        refused(record_dict(actions=[{"type": "stop", "claims": [claim]}]), "action 0 is illegal")
    refused(record_dict(actions=[{"type": "stop", "claims": []}]), "action 0 is illegal")
    refused(record_dict(actions=[{"type": "pass", "player": 0}]), "action 0 is illegal")
    later = record_dict()
    later["actions"].insert(1, later["actions"][0])
    refused(later, "action 1 is illegal")
    finished = sample()
    over = finished.then(finished.actions[-1])
    refused(over.to_dict(), f"action {len(over.actions) - 1} is illegal: the game is over")


def test_junior_records_refuse_base_game_actions():
    junior = recorded(Rules.junior(players=3), 0).to_dict()
    refused({**junior, "actions": [{"type": "stop", "claims": [claim_dict()]}]}, "illegal")
    refused({**junior, "actions": [{"type": "pass", "player": 1}]}, "illegal")


# Fuzzing: whatever a file holds, loading it gives a record or a RecordError, nothing else.

LEAVES = (
    st.none() | st.booleans() | st.integers() | st.integers(-(10**400), 10**400) | st.floats() | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
JSON_TEXT = st.text(alphabet='[]{}",:0123456789.eE-+ \\ntrufalsNIiy', max_size=80)


def loads_or_refuses(load, value) -> None:
    """Does loading `value` return a record or raise RecordError (and nothing else)?"""
    try:
        record = load(value)
    except RecordError:
        return
    assert isinstance(record, GameRecord)


def paths(value, prefix=()):
    """Which paths (tuples of keys and indices) lead to the parts of a plain value?"""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, prefix + (index,))


def replaced(value, path, new):
    """A copy of `value` with the part at `path` replaced by `new` (or removed when `new` is `REMOVE`)."""
    head, *rest = path
    copy = dict(value) if isinstance(value, dict) else list(value)
    if rest:
        copy[head] = replaced(value[head], rest, new)
    elif new is REMOVE:
        del copy[head]
    else:
        copy[head] = new
    return copy


REMOVE = object()
SAMPLE_PATHS = [path for path in paths(record_dict()) if path]


@settings(max_examples=examples(300), deadline=None)
@given(JSON_VALUES)
def test_fuzz_from_dict_with_any_value(value):
    loads_or_refuses(GameRecord.from_dict, value)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(SAMPLE_PATHS), JSON_VALUES | st.just(REMOVE))
def test_fuzz_from_dict_with_one_part_damaged(path, new):
    loads_or_refuses(GameRecord.from_dict, replaced(record_dict(), path, new))


@settings(max_examples=examples(300), deadline=None)
@given(st.text() | st.binary() | JSON_TEXT)
def test_fuzz_from_json_with_any_text(text):
    loads_or_refuses(GameRecord.from_json, text)


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_fuzz_from_json_with_a_damaged_file(data):
    text = sample().to_json()
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 8)))
    patch = data.draw(JSON_TEXT | st.text(max_size=4))
    damaged = text[:start] + patch + text[end:]
    loads_or_refuses(GameRecord.from_json, damaged)
    loads_or_refuses(GameRecord.from_json, damaged.encode("utf-8", "surrogatepass"))


# Every game's loader: structurally valid files whose values are wrong give only RecordError.

GAME_MODULES = {"colorform": colorform, "colorfox": colorfox, "colorium": colorium, "colourbrain": colourbrain}
WRONG_VALUES = JSON_VALUES | st.sampled_from([10**5000, 2**63, -1, "", "no-such-file.json", "/dev/zero", "../x"])


@functools.cache
def opening_of(game: str) -> dict:
    """The first dozen actions of a bots' game, as plain values (quick to replay)."""
    record = GAME_MODULES[game].play_game(seed=1)
    return json.loads(record.undo(max(0, len(record.actions) - 12)).to_json())


def rule_names(game: str) -> list[str]:
    return [spec["name"] for spec in GAME_MODULES[game].Rules.describe()]


@pytest.mark.parametrize("game", GAME_MODULES)
def test_a_bad_rule_value_in_a_save_is_a_record_error(game):
    data = opening_of(game)
    for name in rule_names(game):
        for value in (None, "no-such-file.json", -1, 10**5000, [1], {"a": 1}):
            loads_or_refuses(GameRecord.from_dict, {**data, "rules": {**data["rules"], name: value}})
            change = {"type": "rules", "changes": {name: value}}
            loads_or_refuses(GameRecord.from_dict, {**data, "actions": [change, *data["actions"]]})


@pytest.mark.parametrize("game", GAME_MODULES)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_fuzz_each_games_loader_with_one_value_wrong(game, data):
    record = opening_of(game)
    path = data.draw(st.sampled_from([path for path in paths(record) if path]))
    loads_or_refuses(GameRecord.from_dict, replaced(record, path, data.draw(WRONG_VALUES)))


@pytest.mark.parametrize("game", GAME_MODULES)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_fuzz_each_games_loader_with_wrong_rules(game, data):
    record = opening_of(game)
    name, value = data.draw(st.sampled_from(rule_names(game))), data.draw(WRONG_VALUES)
    at = data.draw(st.integers(0, len(record["actions"])))
    loads_or_refuses(GameRecord.from_dict, {**record, "rules": {**record["rules"], name: value}})
    actions = record["actions"][:at] + [{"type": "rules", "changes": {name: value}}] + record["actions"][at:]
    loads_or_refuses(GameRecord.from_dict, {**record, "actions": actions})


# Agents


def test_seeded_agent_refuses_an_unknown_level():
    with pytest.raises(ValueError, match="expert"):
        SeededAgent("expert")
    with pytest.raises(ValueError, match="Hard"):
        ReactionBot("Hard")


def test_agents_with_the_same_seed_draw_the_same_numbers():
    first, second = SeededAgent("easy", seed=42), SeededAgent("easy", seed=42)
    draws = [first.rng.random() for _ in range(20)]
    random.seed(7)  # the global source of chance must not matter
    assert [second.rng.random() for _ in range(20)] == draws
    other = SeededAgent("easy", seed=43)
    assert [other.rng.random() for _ in range(20)] != draws


def test_a_bot_is_an_agent_with_a_name():
    bot = ReactionBot("hard", seed=1)
    assert isinstance(bot, Agent)
    assert "hard" in bot.name and bot.level == "hard"
    assert SeededAgent(name="Ada").name == "Ada"


def test_bots_with_the_same_seeds_make_the_same_claims():
    state = new_game(Rules(players=3), seed=4)
    claims = [ReactionBot("medium", seed=9).act(state, seat) for seat in range(3)]
    assert [ReactionBot("medium", seed=9).act(state, seat) for seat in range(3)] == claims
    assert any(isinstance(claim, Claim) for claim in claims)


@pytest.mark.parametrize(
    "game, change, words",
    [
        (colorfox, {"half_turn": True}, 'Rules changed: "Half turn" is now on.'),
        (
            colorium,
            {"drop": "straight", "mirror_images": False},
            'Rules changed: "Drop rule" is now straight; "Mirror images" is now off.',
        ),
        (colourbrain, {"copier_back": True}, 'Rules changed: "Copier back (3+ teams)" is now on.'),
    ],
)
def test_a_rule_change_is_said_with_the_editors_labels(game, change, words):
    state = game.new_game(game.Rules(), 0)
    assert ChangeRules(change).apply(state).events == (words,)


@given(st.dictionaries(st.text(min_size=1, max_size=5), st.integers(0, 10_000), max_size=8))
def test_number_blocks_tile_the_numbers_in_order_without_gaps_or_overlaps(sizes):
    blocks = number_blocks(sizes)
    assert list(blocks) == list(sizes)
    numbers = [number for start, size in blocks.values() for number in range(start, start + size)]
    assert numbers == list(range(sum(sizes.values())))
    assert all(blocks[kind][1] == size for kind, size in sizes.items())
