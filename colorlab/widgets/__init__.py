"""Widgets shared by every game: the rule editor, and the base of the game views."""

from colorlab.widgets.rule_editor import RuleEditor

__all__ = ["RuleEditor"]
