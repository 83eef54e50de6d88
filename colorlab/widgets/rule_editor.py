"""A rule editor for any game: one row per rule, drawn from the Rules field metadata.

The editor knows no game. It reads ``type(rules).describe()`` and draws a
checkbox for a yes/no rule, a drop-down for a rule with choices and a number box
for a number, with the allowed range written under it. The number box itself has
no bounds: a bounded box would quietly pull 99 down to 6 (or, for whole numbers,
turn a typed 2.5 into 25) before Python sees it. So every number the learner
types reaches the Rules' own checks, and a refusal names the number typed. Every row shows its label, its help text and
whether the rule can change during a game ("live") or needs a new game. A rule
made with ``editable=False`` (such as a file path) is shown read-only: the page
never sets it, whatever it sends.

A learner's change becomes ``dataclasses.replace(rules, name=value)``. A value
the rules refuse (a :class:`~colorlab.rules.RuleError`) changes nothing: the
control goes back to the kept value and the reason, with the value typed and the
value kept, is shown inside the editor.
A valid change is handed to ``on_apply(new_rules, changed_names)``, which says
in a short text what it did with the rules; if it raises, the editor shows why
and keeps the previous rules.

Examples
========

>>> from colorlab.colorform import Rules
>>> from colorlab.widgets import RuleEditor
>>> editor = RuleEditor(Rules())
>>> editor.controls["players"].value = 5
>>> editor.rules.players, editor.message
(5, 'Rules updated.')
>>> editor.controls["hand_size"].value = 6
>>> editor.rules.hand_size
4
>>> print(editor.message)
Hand size 6 is not allowed: with 5 players and a 9-card layout, at most 5 cards a hand. It stays 4.
>>> editor.controls["hand_size"].value = 2.5
>>> print(editor.message)
Hand size 2.5 is not allowed: choose a whole number from 1 to 6. It stays 4.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import html
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets

from colorlab.rules import RuleError, RulesBase, span

Apply = Callable[[RulesBase, set[str]], str | None]

LABEL_WIDTH = "200px"
CONTROL_WIDTH = "360px"
HELP_INDENT = "204px"
FLOAT_STEP = 0.5

ERROR_STYLE = (
    "background:#fdecea; border:2px solid #b3261e; color:#5f1410; border-radius:6px; padding:6px 10px; margin:6px 0"
)
INFO_STYLE = (
    "background:#e8f0fe; border:1px solid #4a6fb5; color:#1a1a1a; border-radius:6px; padding:6px 10px; margin:6px 0"
)
BADGE_STYLE = "border-radius:4px; padding:0 6px; font-size:0.85em; white-space:nowrap"
LIVE_BADGE = (
    '<span style="{style}; background:#e3f1e4; color:#1b5e20; border:1px solid #1b5e20" '
    'title="Can change during a game">live</span>'
)
NEW_GAME_BADGE = (
    '<span style="{style}; background:#f1f1ef; color:#444; border:1px solid #777" '
    'title="Takes effect in a new game">new game</span>'
)
SCOPES_LEGEND = "<b>live</b>: can change during a game · <b>new game</b>: takes effect in a new game. "
LEGEND = (
    '<div style="font-size:0.9em; color:#444; margin-bottom:6px">'
    "{scopes}A <b>•</b> marks a rule changed from the default edition.</div>"
)


class RuleEditor(ipywidgets.VBox):
    """Edit a game's rules: refuse bad values with a reason, hand good ones to `on_apply`.

    `scopes=False` leaves out the "live" and "new game" marks, for rules chosen before a
    game starts (a table being opened), where every rule takes effect at once.
    """

    def __init__(self, rules: RulesBase, on_apply: Apply | None = None, title: str = "Rules", scopes: bool = True):
        self.on_apply = on_apply
        self.scopes = scopes
        self._rules = rules
        self._message = ""
        self._updating = False
        self._specs = {spec["name"]: spec for spec in type(rules).describe()}
        self.controls = {name: _control(spec, getattr(rules, name)) for name, spec in self._specs.items()}
        # Decided here, not by the controls' `disabled`, which the page could switch back on.
        self._read_only = {name for name, control in self.controls.items() if control.disabled}
        self._badges = {name: ipywidgets.HTML() for name in self._specs}
        self.differences_line = ipywidgets.HTML()
        self.message_area = ipywidgets.HTML()
        self.reset_button = ipywidgets.Button(
            description="Reset to the default edition",
            icon="undo",
            tooltip="Apply the default edition of every rule",
            layout=ipywidgets.Layout(width="auto", align_self="flex-start"),
        )
        rows = [self._row(name) for name in self._specs]
        heading = ipywidgets.HTML(f'<h3 style="margin:0 0 4px">{html.escape(title)}</h3>')
        legend = ipywidgets.HTML(LEGEND.format(scopes=SCOPES_LEGEND if scopes else ""))
        super().__init__(
            [heading, legend, *rows, self.differences_line, self.reset_button, self.message_area],
            layout=ipywidgets.Layout(width="100%", max_width="800px"),
        )
        for name, control in self.controls.items():
            if name not in self._read_only:
                control.observe(functools.partial(self._on_edit, name), names="value")
        self.reset_button.on_click(self._on_reset)
        self._show(rules)

    @property
    def rules(self) -> RulesBase:
        """The rules the editor holds now (the last ones applied)."""
        return self._rules

    @property
    def message(self) -> str:
        """The text of the last message shown (an error or a piece of news)."""
        return self._message

    def set_rules(self, rules: RulesBase) -> None:
        """Show these rules (e.g. of a loaded game) without calling `on_apply`."""
        if type(rules) is not type(self._rules):
            raise TypeError(f"this editor draws {type(self._rules).__name__}, not {type(rules).__name__}")
        self._rules = rules
        self._show(rules)
        self._say("")

    def _row(self, name: str) -> ipywidgets.VBox:
        """Lay out one rule: its control and badges, then its help text."""
        spec = self._specs[name]
        allowed = _allowed(spec)
        help_line = ipywidgets.HTML(
            f'<div style="font-size:0.85em; color:#444; line-height:1.35">'
            f"{html.escape(spec['help'])}"
            f"{f' <b>Allowed:</b> {html.escape(allowed)}.' if allowed else ''}</div>",
            layout=ipywidgets.Layout(margin=f"0 0 8px {HELP_INDENT}", max_width="560px"),
        )
        line = ipywidgets.HBox(
            [self.controls[name], self._badges[name]], layout=ipywidgets.Layout(align_items="center")
        )
        return ipywidgets.VBox([line, help_line])

    def _on_edit(self, name: str, change: dict) -> None:
        if self._updating:
            return
        self._safely(lambda: self._apply({name: _as_typed(self._specs[name], change["new"])}))

    def _on_reset(self, button: ipywidgets.Button) -> None:
        self._safely(lambda: self._apply({name: default for name, (default, _) in self._rules.differences().items()}))

    def _safely(self, action: Callable[[], None]) -> None:
        """Run a learner's action; on any error show why and go back to the kept rules."""
        try:
            action()
        except RuleError as refusal:
            self._show(self._rules)
            self._say(self._refusal(refusal), error=True)
        except Exception as error:  # a bug must reach the learner as a message too
            self._show(self._rules)
            self._say(str(error) or type(error).__name__, error=True)

    def _refusal(self, refusal: RuleError) -> str:
        """Say why a value was refused, in the rule's label, with the value typed and the value kept."""
        spec = self._specs.get(refusal.field)
        if spec is None:
            return str(refusal)
        kept = getattr(self._rules, refusal.field)
        # The refused value may be the kept one, made wrong by a change to another rule.
        outcome = "Nothing changed." if kept == refusal.value else f"It stays {_shown(kept)}."
        return f"{spec['label']} {_shown(refusal.value)} is not allowed: {refusal.allowed}. {outcome}"

    def _apply(self, changes: dict[str, Any]) -> None:
        """Make the changed rules, let `on_apply` use them, then keep and show them."""
        proposed = dataclasses.replace(self._rules, **changes)
        changed = {name for name in self._specs if getattr(proposed, name) != getattr(self._rules, name)}
        if not changed:
            return
        note = self.on_apply(proposed, changed) if self.on_apply is not None else None
        self._rules = proposed
        self._show(proposed)
        self._say(str(note) if note else "Rules updated.")

    def _show(self, rules: RulesBase) -> None:
        """Set every control, mark and the differences line to these rules."""
        changes = rules.differences()
        with self._quietly():
            for name, control in self.controls.items():
                value = getattr(rules, name)
                control.value = str(value) if name in self._read_only else value
                control.disabled = name in self._read_only
        for name, badge in self._badges.items():
            scope = (LIVE_BADGE if self._specs[name]["live"] else NEW_GAME_BADGE) if self.scopes else ""
            mark = (
                f' <b title="Changed from the default edition">• changed</b> '
                f"(default: {html.escape(_shown(changes[name][0]))})"
                if name in changes
                else ""
            )
            badge.value = scope.format(style=BADGE_STYLE) + mark
        if changes:
            said = ", ".join(
                f"{self._specs[name]['label']} {_shown(default)} → {_shown(now)}"
                for name, (default, now) in changes.items()
            )
            self.differences_line.value = f"<div><b>Changed from the default edition:</b> {html.escape(said)}</div>"
        else:
            self.differences_line.value = "<div>These are the rules of the default edition.</div>"
        self.reset_button.disabled = not changes

    @contextlib.contextmanager
    def _quietly(self) -> Iterator[None]:
        """Set controls from Python without treating it as a learner's change."""
        was_updating, self._updating = self._updating, True
        try:
            yield
        finally:
            self._updating = was_updating

    def _say(self, text: str, error: bool = False) -> None:
        """Show a message inside the editor: an error, a piece of news, or nothing."""
        self._message = text
        if not text:
            self.message_area.value = ""
        elif error:
            self.message_area.value = f'<div role="alert" style="{ERROR_STYLE}">⚠ {html.escape(text)}</div>'
        else:
            self.message_area.value = f'<div role="status" style="{INFO_STYLE}">ℹ {html.escape(text)}</div>'


def _control(spec: dict[str, Any], value: Any) -> ipywidgets.ValueWidget:
    """Which control fits this rule: a checkbox, a drop-down or a number box with its range?"""
    common = {
        "description": spec["label"],
        "tooltip": spec["help"],
        "style": {"description_width": LABEL_WIDTH},
        "layout": ipywidgets.Layout(width=CONTROL_WIDTH),
    }
    kind = spec["type"]
    if not spec.get("editable", True):
        return ipywidgets.Text(value=str(value), disabled=True, **common)
    if spec["choices"] is not None:
        return ipywidgets.Dropdown(
            options=[(_shown(choice), choice) for choice in spec["choices"]], value=value, **common
        )
    if kind == "bool":
        return ipywidgets.Checkbox(value=value, indent=True, **common)
    # Unbounded on purpose (see the module docstring); a whole-number rule also gets a
    # FloatText, since the page's IntText drops a typed "." and Python's would cut 2.5 to 2.
    if kind in ("int", "float"):
        return ipywidgets.FloatText(value=value, step=1 if kind == "int" else FLOAT_STEP, **common)
    if kind == "str":
        return ipywidgets.Text(value=value, continuous_update=False, **common)
    # A rule of another type (a tuple, say) is shown but cannot be typed in safely.
    return ipywidgets.Text(value=str(value), disabled=True, **common)


def _as_typed(spec: dict[str, Any], value: Any) -> Any:
    """Which value did the learner mean: 3 for a whole-number rule sent as 3.0, else the value sent?"""
    if spec["type"] == "int" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _allowed(spec: dict[str, Any]) -> str:
    """Which numbers does this rule allow, in words ("" for a rule that is not a number)?"""
    if spec["type"] not in ("int", "float") or spec["choices"] is not None:
        return ""
    word = "a whole number" if spec["type"] == "int" else "a number"
    return word + span(spec["low"], spec["high"], _shown)


def _shown(value: Any) -> str:
    """How does a learner read this rule value: yes/no, 10 rather than 10.0?"""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
