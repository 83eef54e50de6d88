"""The toy game's widget: the pile as a number and one button per legal take (Python holds every rule)."""

from __future__ import annotations

from typing import ClassVar

from colorlab.widgets.base import GameWidget, IntentFields
from tests.toy.model import Take, legal_counts

ESM = """
export default {
  render({ model, el }) {
    const draw = () => {
      const view = model.get("view");
      el.replaceChildren();
      const pile = document.createElement("p");
      pile.textContent = view.over ? `Player ${view.winner} took the last counter.` : `${view.pile} counters left`;
      el.append(pile);
      for (const count of view.takes) {
        const button = document.createElement("button");
        button.textContent = `Take ${count}`;
        button.onclick = () => model.set("intent", { type: "take", count, n: Date.now() }) || model.save_changes();
        el.append(button);
      }
    };
    model.on("change:view", draw);
    draw();
  },
};
"""


class ToyWidget(GameWidget):
    """Take counters from the pile, at a shared table (``seat=``) or against nobody in the notebook."""

    title = "Take the Last"
    game = "toy"
    _esm = ESM
    INTENTS: ClassVar[IntentFields] = {**GameWidget.INTENTS, "take": {"count": int}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.refresh()

    def snapshot(self, state) -> dict:
        yours = not state.over and state.to_move == self.you
        return {
            "pile": state.pile,
            "over": state.over,
            "winner": state.winner,
            "takes": legal_counts(state) if yours else [],
        }

    def handle(self, intent: dict) -> None:
        self.play(Take(self.you, intent["count"]))
