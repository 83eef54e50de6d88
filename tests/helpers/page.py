"""What the tests send as the page would, and what they catch of the kernel's answers."""

from __future__ import annotations

import concurrent.futures
import itertools

SEQ = itertools.count(1)


def browser_sends(widget, intent):
    """Deliver a message the way the page does: a state update of the intent trait.

    The page numbers its intents, so that the same click twice is still a change.
    """
    if isinstance(intent, dict):
        intent = {**intent, "seq": next(SEQ)}
    widget.set_state({"intent": intent})


def downloads(widget, intent) -> list[dict]:
    """The messages the kernel sends the page while it handles one intent from the browser."""
    sent = []
    widget.send = lambda content, buffers=None: sent.append(content)
    browser_sends(widget, intent)
    del widget.send
    return sent


class Gated(concurrent.futures.Executor):
    """An executor whose tasks run only when the test says so, one at a time."""

    def __init__(self):
        self.waiting: list[tuple[concurrent.futures.Future, tuple]] = []

    def submit(self, fn, /, *args, **kwargs):
        future = concurrent.futures.Future()
        self.waiting.append((future, (fn, args, kwargs)))
        return future

    def finish_next(self) -> None:
        """Run the next task that was not cancelled (telling the cancelled ones on the way, as a pool does)."""
        while self.waiting:
            future, (fn, args, kwargs) = self.waiting.pop(0)
            if future.set_running_or_notify_cancel():
                future.set_result(fn(*args, **kwargs))
                return
