"""Widgets shared by every game: the rule editor, and the base of the game views."""

from colorlab.widgets.lab import VariantLab
from colorlab.widgets.rule_editor import RuleEditor

__all__ = ["RuleEditor", "VariantLab"]
