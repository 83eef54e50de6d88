"""The Col-Or-Form table as a notebook widget: play against bots in real time.

You sit at seat 0. Each round waits for you to press Start (the "start"
intent): only then does the kernel's clock run and do the bots plan their STOP
calls, so nobody scores while you are still scrolling to the table. The bots
plan again whenever the table changes, and their plans never leave the kernel.
The kernel's clock decides: the page only pokes Python now and then ("tick"),
and Python lets the bots whose moment has come call STOP. When you call STOP, the kernel notes the
moment; bots whose moment falls within the same-moment window call with you,
and the model resolves the calls in time order. A claim the rules refuse is
refused before any bot may call. With ``bots_wait=True`` the bots only act when
you claim or skip ahead, which suits a first lesson or a projector; such a table has no clock and
no Start.

Skipping ahead never ends a round: nobody may give up on a task that can be
solved. When only your cards can solve a revealed task, the page greys out
"Skip ahead" (every hand lies face up, so saying so tells nothing hidden) and
a skip is refused.

At a shared table (``ColorFormGame(seat=seat)``) the table's clock decides, not
the kernel's: STOP! sends your solution at once as a call, stamped by the table;
the page shows who has called (not what) while the table settles the calls of
the same moment. There is no Start, no Skip ahead and no kernel clock at a
table; the junior variant is played turn by turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from colorlab.agents import ready
from colorlab.colorform.agents import ReactionBot
from colorlab.colorform.components import DESTINATIONS, SHAPE_PATHS
from colorlab.colorform.model import ChangeRules, Claim, Pass, State, Stop, can_solve, observation, play
from colorlab.colorform.picture import table_svg
from colorlab.colorform.rules import Rules
from colorlab.colorform.solver import solve
from colorlab.record import GameRecord
from colorlab.rules import GameOver, IllegalAction
from colorlab.widgets.base import (
    GameWidget,
    IntentError,
    IntentFields,
    new_game_record,
    palette_assets,
    widget_css,
    widget_esm,
)
from colorlab.widgets.words import YOU, with_names

if TYPE_CHECKING:
    from colorlab.tables import Seat

STATIC = Path(__file__).parent / "static"
LAPSE_GRACE = 2.0  # seconds past the showing time before a STOP with no solution shown is dropped
ONLY_YOUR_CARDS = "Only your cards can solve a task now: look again, or ask for a hint (h)."
PRESS_START = "Press Start first: the clock of this round has not started yet."
NO_TASK_FOR_YOU = "No revealed task can be solved with your cards right now."
AT_A_TABLE = {
    "start": "At a table there is no Start: the table's clock runs by itself.",
    "stop": "At a table, STOP! sends your solution at once: choose a task and put your cards first.",
    "skip": "At a table nobody skips ahead: the round goes on until someone calls STOP.",
}
CALL_IS_IN = "STOP! Your call is in: the table settles it with every other call of the same moment."
TURN_WORDS = ("Not turned", "Turned a quarter to the right", "Turned half way round", "Turned a quarter to the left")


def turn_words(rotation: int, mirrored: bool) -> str:
    """How is a task card turned, in words a learner reads?

    Examples
    ========
    >>> from colorlab.colorform.view import turn_words
    >>> turn_words(1, False), turn_words(0, True), turn_words(3, True)
    ('Turned a quarter to the right', 'Mirrored', 'Mirrored, then turned a quarter to the left')
    """
    if not mirrored:
        return TURN_WORDS[rotation]
    return "Mirrored" if rotation == 0 else "Mirrored, then " + TURN_WORDS[rotation].lower()


def points(score: int) -> str:
    """Say a score: 1 point, 33 points."""
    return f"{score} point{'' if abs(score) == 1 else 's'}"


def turn_cycles(rotation: int, mirrored: bool) -> str:
    """Which cycles of cells make up this turn of a task card, in cycle notation?"""
    destination = DESTINATIONS[rotation, mirrored]
    seen, cycles = set(), []
    for start in range(9):
        if start in seen or destination[start] == start:
            continue
        cycle, cell = [], start
        while cell not in seen:
            seen.add(cell)
            cycle.append(cell)
            cell = destination[cell]
        cycles.append("(" + " ".join(map(str, cycle)) + ")")
    return "".join(cycles) or "()"


class ColorFormGame(GameWidget):
    """Play Col-Or-Form against 1 to 3 bots (or more, up to 5) or at a shared table, seeing what your seat may see."""

    title = "Col-Or-Form"
    game = "colorform"
    REFUSED_AT_A_TABLE: ClassVar[Mapping[str, str]] = {**GameWidget.REFUSED_AT_A_TABLE, **AT_A_TABLE}
    _esm = widget_esm(STATIC / "view.js")
    _css = widget_css(STATIC / "view.css")

    INTENTS: ClassVar[IntentFields] = {
        **GameWidget.INTENTS,
        "claim": {"task": int, "rotation": int, "mirrored": bool, "placements": list},
        "stop": {},
        "tick": {},
        "start": {},
        "skip": {},
        "pass": {},
        "hint": {},
    }

    def __init__(
        self,
        rules: Rules | None = None,
        bots: int = 2,
        level: str = "medium",
        seed: int | None = None,
        bots_wait: bool = False,
        clock: Callable[[], float] = time.monotonic,
        *,
        seat: Seat | None = None,
        **kwargs,
    ):
        if level not in ReactionBot.levels:
            raise ValueError(f"level {level!r} is unknown; choose one of {', '.join(ReactionBot.levels)}")
        self.level, self.bots_wait, self.clock = level, bots_wait, clock
        self.phase, self.plans, self.hint, self.bots = 0, {}, None, {}
        self.started_round: int | None = None
        self._no_task_notice = None
        self.phase_began, self.stop_called = clock(), None
        super().__init__(
            lambda: new_game_record(self.game, rules or Rules(players=bots + 1), seed), seat=seat, **kwargs
        )
        self._make_bots()
        self._begin_phase()
        self.refresh()

    # --- what the page may see -------------------------------------------------------------

    def static_assets(self) -> dict:
        return {
            **palette_assets(),
            "shapes": SHAPE_PATHS,
            "destinations": {f"{k},{int(m)}": list(DESTINATIONS[k, m]) for k in range(4) for m in (0, 1)},
            "turns": {f"{k},{int(m)}": turn_words(k, m) for k in range(4) for m in (0, 1)},
        }

    def snapshot(self, state) -> dict:
        view = observation(state, self.you)
        names = self.names(state)
        view["events"] = [with_names(text, names, self.you) for text in view["events"]]
        live = self.cursor is None
        view.update(
            names=names,
            phase=self.phase,
            clock_running=live and self.has_clock() and not self.waits_for_start(),
            waiting_for_start=live and self.waits_for_start(),
            stopped=live and self.stop_called is not None,
            bots_wait=self.bots_wait,
            rules=state.rules.to_dict(),
            changed_rules=sorted(state.rules.differences()),
            hint=self.hint if live else None,
            only_you_can_solve=live and self.source.permits("skip") and only_you_can_solve(state, self.you),
            final_ranking=[
                f"{place}. {names[seat]}: {points(view['scores'][seat])}" for place, seat in view["ranking"]
            ],
        )
        return view

    def names(self, state: State) -> list[str]:
        """How does the table name the players ("You", "Bot 1 (medium)", ... or, at a table, its seats' names)?"""
        return self.source.seat_names(["You"] + [f"Bot {seat} ({self.level})" for seat in range(1, state.players)])

    def say(self, text: str, kind: str = "info") -> None:
        """Show a message inside the widget, naming the players rather than their seats."""
        super().say(with_names(text, self.names(self.state), self.you) if text else text, kind)

    def still_picture(self) -> str:
        return table_svg(self.snapshot(self.state), self.palette)

    # --- intents ---------------------------------------------------------------------------

    def handle(self, intent: dict) -> None:
        kind = intent["type"]
        if kind == "claim":
            self.claim(intent["task"], intent["rotation"], self._placements(intent["placements"]), intent["mirrored"])
        elif kind == "stop":
            self.call_stop()
        elif kind == "tick":
            self.tick()
        elif kind == "start":
            self.start()
        elif kind == "skip":
            self.skip()
        elif kind == "pass":
            self.pass_turn()
        elif kind == "hint":
            self.show_hint()

    @staticmethod
    def _placements(raw: list) -> dict:
        placements = {}
        for pair in raw:
            if not (isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int and isinstance(pair[1], str)):
                raise IntentError("placements must be [cell, figure name] pairs")
            if pair[0] in placements:
                raise IllegalAction(f"two cards are put on cell {pair[0]}")
            placements[pair[0]] = pair[1]
        return placements

    def has_clock(self) -> bool:
        """Does this table run on the kernel's clock now (not calm, not junior, not over, not a shared table)?"""
        # a shared table has no Start: its clock is the table's own
        return self.source.permits("start") and not (self.bots_wait or self.state.junior or self.state.over)

    def waits_for_start(self) -> bool:
        """Is the table waiting for you to press Start before this round's clock runs?"""
        return self.has_clock() and self.started_round != self.state.round

    def start(self) -> None:
        """Press Start: the clock of this round starts now, and the bots begin to look."""
        self._check_playing()
        self.source.check("start")
        if self.state.over:
            raise GameOver(f"the game is over ({self.state.end_reason})")
        if not self.has_clock():
            raise IllegalAction("this table has no clock: just play")
        if not self.waits_for_start():
            raise IllegalAction("the round has already started")
        self.started_round = self.state.round
        self._begin_phase()
        self.say(f"Round {self.state.round} has started: the clock is running.")

    def _check_started(self) -> None:
        if self.waits_for_start():
            raise IllegalAction(PRESS_START)

    def seconds_into_phase(self) -> float:
        """How long has the table looked as it does now, by the kernel's clock?"""
        return self.clock() - self.phase_began

    def call_stop(self) -> None:
        """Call STOP: the kernel notes the moment, and you have ``seconds_to_show`` to show a solution."""
        self._check_playing()
        self.source.check("stop")
        if self.state.junior:
            raise IllegalAction("in junior there is no STOP: solve your task card or pass")
        if self.stop_called is not None:
            raise IllegalAction("you have already called STOP: show your solution")
        self._check_started()
        if self._bots_call_if_due():
            self._report("Too late: a bot called STOP first. ")
            return
        self.stop_called = self.clock()
        self.say(f"STOP! Show your solution within {self.state.rules.seconds_to_show:g} s.")

    def claim(self, task: int, rotation: int = 0, placements: dict | None = None, mirrored: bool = False) -> None:
        """Show a solution for a task card (calling STOP now, unless you already did)."""
        state = self.state
        self._check_playing()
        if state.junior:
            self.play(Claim(self.you, task, rotation, placements or {}, mirrored))
            self._bots_take_turns()
            self._begin_phase()
            return
        if not self.source.permits("stop"):  # at a table the claim is the call, stamped by the table's clock
            self.play(Claim(self.you, task, rotation, placements or {}, mirrored))
            self.say(CALL_IS_IN)
            return
        self._check_started()
        now, pending = self.clock(), self.stop_called is not None
        called = self.stop_called if pending else now
        self.stop_called = None  # a claim ends your STOP, whether or not the rules accept it
        moment = 0.0 if self.bots_wait else called - self.phase_began
        mine = Claim(self.you, task, rotation, placements or {}, mirrored, round(moment, 3), round(now - called, 3))
        play(state, mine)  # an illegal claim is refused here, before any bot may call STOP
        if not pending and self._bots_call_if_due():
            self._report("Too late: a bot called STOP first. ")
            return
        self.play(Stop(self._same_moment([mine, *self.plans.values()])))
        self._begin_phase()
        self._report()

    def _same_moment(self, calls: list[Claim]) -> tuple[Claim, ...]:
        """The first STOP call and every call within the same-moment window after it."""
        first = min(call.time for call in calls)
        return tuple(call for call in calls if call.time - first <= self.state.rules.stop_window)

    def _report(self, before: str = "") -> None:
        """Tell the learner how the last STOP went, in the notice line (and when a new round waits for Start)."""
        events = " ".join(self.snapshot(self.state)["events"])
        if self.waits_for_start():
            events += " Press Start when you are ready."
        self.say(before + events, "error" if before or "You: wrong" in events else "info")

    def tick(self) -> None:
        """The page's poke: let the bots whose moment has come, by the kernel's clock, call STOP."""
        self._check_playing()
        if not self.has_clock() or self.waits_for_start():
            return
        lapsed = ""
        if self.stop_called is not None:
            if self.clock() - self.stop_called <= self.state.rules.seconds_to_show + LAPSE_GRACE:
                return
            self.stop_called, lapsed = None, "Your STOP ran out of time: no solution was shown. "
        if self._bots_call_if_due():
            self._report(lapsed)
        elif lapsed:
            self.say(lapsed.strip(), "error")

    def _bots_call_if_due(self) -> bool:
        """Let the bots call STOP if the first call's same-moment window has closed by now."""
        if self.bots_wait or not self.plans:
            return False
        first = min(call.time for call in self.plans.values())
        if self.seconds_into_phase() - first <= self.state.rules.stop_window:
            return False
        self.play(Stop(self._same_moment(list(self.plans.values()))))
        self._begin_phase()
        return True

    def skip(self) -> None:
        """Jump to the bots' next STOP; refused when only your cards can solve a task."""
        self._check_playing()
        self.source.check("skip")
        if self.state.over:
            raise GameOver(f"the game is over ({self.state.end_reason})")
        if self.state.junior:
            raise IllegalAction("in junior, pass your turn instead")
        if self.stop_called is not None:
            raise IllegalAction("you called STOP: show your solution first")
        self._check_started()
        if only_you_can_solve(self.state, self.you):
            raise IllegalAction(ONLY_YOUR_CARDS)
        self.play(Stop(self._same_moment(list(self.plans.values()))))
        self._begin_phase()
        self._report()

    def pass_turn(self) -> None:
        """Junior: put your task card under your pile; the bots then take their turns."""
        self._check_playing()
        self.play(Pass(self.you))
        self._bots_take_turns()
        self._begin_phase()

    def show_hint(self) -> None:
        """Find one solution for you, with the reason each figure fits."""
        self._check_playing()
        state = self.state
        hand = state.hands[self.you]
        options = [(s, t) for t in state.revealed_tasks() for s in solve(state.tops, hand, t, state.rules)[:1]]
        if not options:
            self.hint = None
            self.say(NO_TASK_FOR_YOU)
            self._no_task_notice = self.notice["seq"]
            return
        best, task = min(options, key=lambda pair: (pair[0].cards_used, pair[0].rotation))
        self.hint = {
            "task": task.number,
            "rotation": best.rotation,
            "mirrored": best.mirrored,
            "turn": turn_words(best.rotation, best.mirrored),
            "placements": [[cell, str(card)] for cell, card in sorted(best.placements.items())],
            "reasons": [str(m) for m in best.matches],
        }
        self.say(f"Hint: look at task {task.number}; the reasons are listed under the buttons.")

    # --- bookkeeping -----------------------------------------------------------------------

    def _check_playing(self) -> None:
        if self.cursor is not None:
            raise IllegalAction("you are looking at an earlier move: go to the latest move to play")

    def table_moved(self) -> None:
        """Another seat's move, or the table's STOP: a new situation, and (once shown) how a STOP went."""
        self._begin_phase()
        if self.view and self.record.actions and isinstance(self.record.actions[-1], Stop):
            self._report()

    def _make_bots(self) -> None:
        self.bots = self.bots_at(f"ReactionBot ({self.level})", range(1, self.record.rules.players))

    def _bot_at(self, seat: int) -> ReactionBot:
        """The bot at `seat`, ready to move now (its chance drawn for this step, as its seeding says)."""
        return ready(self.bots[seat], len(self.record.actions))

    def set_record(self, record: GameRecord) -> None:
        super().set_record(record)
        self.started_round = None
        self._make_bots()
        self._bots_take_turns()
        self._begin_phase()

    def rules_changed(self) -> None:
        self._begin_phase()

    def _begin_phase(self) -> None:
        """A new situation on the table: old hints go, and the bots plan their next STOP (once started)."""
        self.phase += 1
        self.hint, self.stop_called, self.phase_began = None, None, self.clock()
        if self.notice.get("seq") == self._no_task_notice:
            self.say("")
        state = self.state
        self.plans = {}
        if state.over or state.junior or self.waits_for_start():
            return
        for seat in self.bots:
            call = self._bot_at(seat).act(state, seat)
            if call is not None:
                self.plans[seat] = call

    def _bots_take_turns(self) -> None:
        while self.state.junior and not self.state.over and self.state.active in self.bots:
            seat = self.state.active
            self.play(self._bot_at(seat).act(self.state, seat) or Pass(seat))

    def undo_steps(self) -> int:
        for back, action in enumerate(reversed(self.record.actions), start=1):
            if _is_yours(action, self.you):
                return back
        return 0


def only_you_can_solve(state: State, you: int = YOU) -> bool:
    """Is the base round going on only because your cards can solve a task (no bot's can)?"""
    if state.over or state.junior:
        return False
    return not any(can_solve(state, seat) for seat in range(state.players) if seat != you)


def _is_yours(action, you: int = YOU) -> bool:
    """Was this action (at least partly) the learner's?"""
    if isinstance(action, Stop):
        return any(claim.player == you for claim in action.claims)
    if isinstance(action, (Claim, Pass)):
        return action.player == you
    return isinstance(action, ChangeRules)
