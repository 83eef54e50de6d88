"""The rule editor: drawn from any Rules class, refuses bad rules visibly, never raises."""

from __future__ import annotations

import dataclasses

import ipywidgets
import pytest

from colorlab.colorform import Rules
from colorlab.rules import RuleError, RulesBase, rule
from colorlab.widgets import RuleEditor


class Recorder:
    """An on_apply that remembers its calls and answers like a game would."""

    def __init__(self, answer: str = "Applied to the running game."):
        self.calls: list[tuple[RulesBase, set[str]]] = []
        self.answer = answer

    def __call__(self, rules: RulesBase, changed: set[str]) -> str:
        self.calls.append((rules, changed))
        return self.answer


def descendants(widget):
    """Every widget inside `widget`, itself first."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def row_text(editor: RuleEditor, name: str) -> str:
    """The HTML text shown in the row of rule `name`."""
    control = editor.controls[name]
    row = next(child for child in editor.children if any(widget is control for widget in descendants(child)))
    return " ".join(w.value for w in descendants(row) if isinstance(w, ipywidgets.HTML))


def shows_error(editor: RuleEditor) -> bool:
    """Is the message area showing an error (not news)?"""
    return 'role="alert"' in editor.message_area.value and "⚠" in editor.message_area.value


def browser_sets(control: ipywidgets.Widget, value) -> None:
    """Send `value` to the control as the browser does: an update message on its comm."""
    data = {"method": "update", "state": {"value": value}, "buffer_paths": []}
    control._handle_msg({"content": {"data": data}, "buffers": []})


# Col-Or-Form's rules


def test_every_rule_has_a_control_of_its_kind_with_its_range():
    editor = RuleEditor(Rules())
    assert set(editor.controls) == {spec["name"] for spec in Rules.describe()}
    for spec in Rules.describe():
        control = editor.controls[spec["name"]]
        assert control.value == spec["default"]
        assert control.description == spec["label"]
        assert control.tooltip == spec["help"]
        if spec["choices"] is not None:
            assert isinstance(control, ipywidgets.Dropdown)
            assert tuple(value for _, value in control.options) == spec["choices"]
        elif spec["type"] == "bool":
            assert isinstance(control, ipywidgets.Checkbox)
        else:
            assert spec["type"] in ("int", "float")
            assert type(control) is ipywidgets.FloatText
            assert control.step == (1 if spec["type"] == "int" else 0.5)


def test_each_row_shows_its_help_and_whether_it_is_live():
    editor = RuleEditor(Rules())
    for spec in Rules.describe():
        text = row_text(editor, spec["name"])
        assert spec["help"].replace("'", "&#x27;") in text
        if spec["type"] == "int" and spec["choices"] is None:
            assert f"<b>Allowed:</b> a whole number from {spec['low']} to {spec['high']}." in text
        assert (">live<" in text) == spec["live"]
        assert (">new game<" in text) == (not spec["live"])


def test_an_editor_for_rules_chosen_before_a_game_shows_no_live_or_new_game_marks():
    editor = RuleEditor(Rules(), scopes=False)
    editor.controls["players"].value = 3
    text = " ".join(child.value for child in editor.children if isinstance(child, ipywidgets.HTML))
    rows = " ".join(row_text(editor, spec["name"]) for spec in Rules.describe())
    assert ">live<" not in rows + text and ">new game<" not in rows + text
    assert "changed from the default edition" in rows + text and editor.rules.players == 3


def test_changing_a_live_rule_calls_on_apply_with_the_rule_and_the_new_rules():
    on_apply = Recorder()
    editor = RuleEditor(Rules(), on_apply)
    editor.controls["matching"].value = "shape"
    assert on_apply.calls == [(Rules(matching="shape"), {"matching"})]
    assert editor.rules == Rules(matching="shape")
    assert editor.message == "Applied to the running game."
    assert not shows_error(editor)


def test_a_cross_field_clash_is_refused_and_the_control_goes_back():
    on_apply = Recorder()
    editor = RuleEditor(Rules(), on_apply)
    editor.controls["players"].value = 6
    editor.controls["hand_size"].value = 6
    assert editor.controls["hand_size"].value == 4
    assert editor.rules == Rules(players=6)
    assert on_apply.calls == [(Rules(players=6), {"players"})]
    with pytest.raises(RuleError) as refusal:
        Rules(players=6, hand_size=6)
    assert editor.message == f"Hand size 6 is not allowed: {refusal.value.allowed}. It stays 4."
    assert shows_error(editor)
    editor.controls["players"].value = 2
    editor.controls["hand_size"].value = 6
    editor.controls["players"].value = 6
    assert editor.rules == Rules(players=2, hand_size=6) and editor.controls["players"].value == 2
    assert editor.message == (
        "Hand size 6 is not allowed: with 6 players and a 9-card layout, at most 4 cards a hand. Nothing changed."
    )


@pytest.mark.parametrize(
    "name, typed, shown, kept, allowed",
    [
        ("seconds_to_show", -5, "-5", "10", "choose a number from 1.0 to 120.0"),
        ("hand_size", 99, "99", "4", "choose a whole number from 1 to 6"),
        ("hand_size", 2.5, "2.5", "4", "choose a whole number from 1 to 6"),
        ("players", 0.5, "0.5", "2", "choose a whole number from 2 to 6"),
    ],
)
def test_an_out_of_range_value_typed_in_the_page_is_refused_with_the_value_typed(
    monkeypatch, name, typed, shown, kept, allowed
):
    on_apply = Recorder()
    editor = RuleEditor(Rules(), on_apply)
    control = editor.controls[name]
    sent = []
    monkeypatch.setattr(control.comm, "send", lambda data=None, buffers=None, **_: sent.append(data))
    browser_sets(control, typed)
    label = next(spec["label"] for spec in Rules.describe() if spec["name"] == name)
    assert editor.message == f"{label} {shown} is not allowed: {allowed}. It stays {kept}."
    assert shows_error(editor) and not on_apply.calls
    assert editor.rules == Rules() and control.value == getattr(Rules(), name)
    assert {"method": "update", "state": {"value": getattr(Rules(), name)}, "buffer_paths": []} in sent


def test_a_whole_number_sent_as_a_float_by_the_page_is_applied_as_a_whole_number():
    on_apply = Recorder()
    editor = RuleEditor(Rules(), on_apply)
    browser_sets(editor.controls["hand_size"], 3.0)
    assert on_apply.calls == [(Rules(hand_size=3), {"hand_size"})]
    assert type(editor.rules.hand_size) is int


def test_a_refused_browser_edit_sends_the_kept_value_back(monkeypatch):
    editor = RuleEditor(Rules(players=6), Recorder())
    control = editor.controls["hand_size"]
    sent = []
    monkeypatch.setattr(control.comm, "send", lambda data=None, buffers=None, **_: sent.append(data))
    browser_sets(control, 6)
    assert control.value == 4 and editor.rules.hand_size == 4
    assert {"method": "update", "state": {"value": 4}, "buffer_paths": []} in sent
    assert shows_error(editor)


def test_when_on_apply_fails_its_message_is_shown_and_the_rules_stay():
    def refuse(rules, changed):
        raise RuntimeError("The table is full: finish this game first.")

    editor = RuleEditor(Rules(), refuse)
    editor.controls["players"].value = 3
    assert editor.controls["players"].value == 2
    assert editor.rules == Rules()
    assert editor.message == "The table is full: finish this game first."
    assert shows_error(editor)
    assert "default edition" in editor.differences_line.value


def test_messages_are_shown_as_text_not_markup():
    def refuse(rules, changed):
        raise ValueError("<b>no</b>")

    editor = RuleEditor(Rules(), refuse)
    editor.controls["rotations"].value = False
    assert "&lt;b&gt;no&lt;/b&gt;" in editor.message_area.value
    assert "<b>no</b>" not in editor.message_area.value


def test_the_differences_line_lists_the_changed_rules_and_marks_their_rows():
    editor = RuleEditor(Rules())
    assert "These are the rules of the default edition." in editor.differences_line.value
    editor.controls["players"].value = 3
    editor.controls["rotations"].value = False
    editor.controls["seconds_to_show"].value = 12.5
    line = editor.differences_line.value
    assert "Changed from the default edition:" in line
    assert "Players 2 → 3" in line
    assert "Turn task cards yes → no" in line
    assert "Seconds to show 10 → 12.5" in line
    for name in Rules.describe():
        changed = name["name"] in {"players", "rotations", "seconds_to_show"}
        assert ("• changed" in row_text(editor, name["name"])) == changed


def test_reset_applies_the_default_edition_in_one_call():
    on_apply = Recorder("Started a new game with these rules.")
    editor = RuleEditor(Rules(), on_apply)
    editor.controls["players"].value = 3
    editor.controls["rotations"].value = False
    on_apply.calls.clear()
    assert not editor.reset_button.disabled
    editor.reset_button.click()
    assert on_apply.calls == [(Rules(), {"players", "rotations"})]
    assert editor.rules == Rules()
    assert all(editor.controls[spec["name"]].value == spec["default"] for spec in Rules.describe())
    assert editor.message == "Started a new game with these rules."
    assert "These are the rules of the default edition." in editor.differences_line.value
    assert editor.reset_button.disabled


def test_a_failing_reset_keeps_the_rules_and_says_why():
    def refuse(rules, changed):
        if rules == Rules():
            raise RuntimeError("Not now.")
        return "ok"

    editor = RuleEditor(Rules(), refuse)
    editor.controls["players"].value = 3
    editor.reset_button.click()
    assert editor.rules == Rules(players=3)
    assert editor.controls["players"].value == 3
    assert editor.message == "Not now."
    assert shows_error(editor)


def test_set_rules_shows_new_rules_without_calling_on_apply():
    on_apply = Recorder()
    editor = RuleEditor(Rules(), on_apply)
    editor.set_rules(Rules.junior())
    assert on_apply.calls == []
    assert editor.rules == Rules.junior()
    assert editor.controls["variant"].value == "junior"
    assert editor.controls["hand_size"].value == 3
    assert "Game base → junior" in editor.differences_line.value
    editor.controls["players"].value = 3
    assert on_apply.calls == [(Rules.junior(players=3), {"players"})]


def test_set_rules_refuses_another_games_rules():
    with pytest.raises(TypeError, match="Picnic"):
        RuleEditor(Rules()).set_rules(Picnic())


def test_a_failing_callback_is_seen_by_the_warning_fixture(traitlets_warnings):
    button = ipywidgets.Button()
    button.on_click(lambda _: 1 / 0)
    button.click()
    seen = [record.exc_info[0] for record in traitlets_warnings]
    traitlets_warnings.clear()
    assert seen == [ZeroDivisionError]


# A game the editor has never heard of


@dataclasses.dataclass(frozen=True)
class Picnic(RulesBase):
    """A toy game's rules, to show that the editor needs only the field metadata."""

    guests: int = rule(4, "Guests", "How many people come.", low=1, high=12)
    baskets: int = rule(1, "Baskets", "Each basket feeds six.", low=1)
    hours: float = rule(2.0, "Hours", "How long it lasts.", low=0.5, high=8.0, live=True)
    rain_plan: bool = rule(False, "Rain plan", "Bring a tent?", live=True)
    dessert: str = rule("cake", "Dessert", "What comes last.", choices=("cake", "fruit"), live=True)
    seats: int = rule(6, "Seats per table", "Tables come in three sizes.", choices=(4, 6, 8))
    motto: str = rule("Eat well", "Motto", "Anything you like.")
    menu_file: str = rule("", "Menu file", "A file in the notebook's folder, named in code.", editable=False)
    stops: tuple = rule((), "Stops", "Places on the way, set in code.")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.guests > 6 * self.baskets:
            raise RuleError("guests", self.guests, f"at most {6 * self.baskets} with {self.baskets} basket(s)")


def test_a_toy_game_gets_a_control_per_rule():
    editor = RuleEditor(Picnic())
    controls = editor.controls
    assert all(type(controls[name]) is ipywidgets.FloatText for name in ("guests", "baskets", "hours"))
    assert "<b>Allowed:</b> a whole number of at least 1." in row_text(editor, "baskets")
    assert "<b>Allowed:</b> a number from 0.5 to 8." in row_text(editor, "hours")
    assert isinstance(controls["rain_plan"], ipywidgets.Checkbox)
    assert isinstance(controls["dessert"], ipywidgets.Dropdown)
    assert controls["seats"].options == (("4", 4), ("6", 6), ("8", 8))
    assert isinstance(controls["motto"], ipywidgets.Text)


def test_a_toy_game_changes_and_refusals_without_on_apply():
    editor = RuleEditor(Picnic(), title="Picnic rules")
    assert "Picnic rules" in editor.children[0].value
    editor.controls["guests"].value = 7
    assert editor.rules == Picnic() and editor.controls["guests"].value == 4
    assert editor.message == "Guests 7 is not allowed: at most 6 with 1 basket(s). It stays 4."
    editor.controls["baskets"].value = 2
    editor.controls["guests"].value = 7
    editor.controls["seats"].value = 8
    editor.controls["motto"].value = "Share"
    assert editor.rules == Picnic(guests=7, baskets=2, seats=8, motto="Share")
    assert editor.message == "Rules updated."
    assert "Seats per table 6 → 8" in editor.differences_line.value


def test_a_toy_game_reset_goes_through_on_apply():
    on_apply = Recorder()
    editor = RuleEditor(Picnic(baskets=2, guests=9, rain_plan=True), on_apply)
    editor.reset_button.click()
    assert on_apply.calls == [(Picnic(), {"baskets", "guests", "rain_plan"})]
    assert editor.controls["guests"].value == 4


@pytest.mark.parametrize("name, value", [("menu_file", "/etc/passwd"), ("stops", "('/dev/zero',)")])
def test_a_rule_kept_from_the_page_cannot_be_set_from_the_page(name, value):
    on_apply = Recorder()
    editor = RuleEditor(Picnic(menu_file="menu.json"), on_apply)
    control = editor.controls[name]
    assert control.disabled and "menu.json" in editor.controls["menu_file"].value
    browser_sets(control, value)
    data = {"method": "update", "state": {"disabled": False}, "buffer_paths": []}
    control._handle_msg({"content": {"data": data}, "buffers": []})
    browser_sets(control, value)
    assert editor.rules == Picnic(menu_file="menu.json") and not on_apply.calls
    editor.controls["rain_plan"].value = True
    assert editor.rules.menu_file == "menu.json" and control.disabled
    assert editor.controls["menu_file"].value == "menu.json" and editor.controls["stops"].value == "()"


def test_the_quiz_editor_never_takes_a_question_file_from_the_page():
    from colorlab.colourbrain.view import ColourbrainQuiz

    quiz = ColourbrainQuiz(names=["Foxes", "Owls"], seed=1)
    editor = quiz.rule_editor()
    browser_sets(editor.controls["question_file"], "/etc/passwd")
    assert editor.controls["question_file"].disabled
    assert quiz.state.rules.question_file == "" and editor.rules.question_file == ""
