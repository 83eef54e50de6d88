"""Col-Or-Form's invariants, as its model tests and the tables' workers check them after every action of a game."""

from __future__ import annotations

import re

from colorlab.colorform import Claim, Stop, scores, solve, why_not, winners
from colorlab.colorform.components import task_card
from colorlab.colorform.solver import solvable


def check_nothing_could_go_on(state):
    """A game ended for want of solutions: with 15 rounds or more, no task left in play can be solved."""
    if state.rules.unsolvable_rounds < 15:
        return
    tops, rules = state.tops, state.rules
    if rules.variant == "base":
        assert not any(solvable(tops, hand, task, rules) for task in state.task_pile for hand in state.hands)
    else:
        assert not any(
            solvable(tops, state.hands[p], task, rules) for p, pile in enumerate(state.own_piles) for task in pile
        )


def check_invariants(state):
    rules = state.rules
    figures = (
        list(state.figure_pile)
        + [c for stack in state.layout for c in stack]
        + [c for hand in state.hands for c in hand]
    )
    assert sorted(figures) == list(range(36)), "figure cards lost or duplicated"
    tasks = (
        list(state.task_pile)
        + state.revealed_tasks()
        + [c for pile in state.own_piles for c in pile]
        + [c for won in state.won for c, _ in won]
        + list(state.box)
    )
    assert sorted(t.number for t in tasks) == list(range(1, 31)), "task cards lost or duplicated"
    assert all(stack for stack in state.layout)
    assert all(len(hand) <= rules.hand_size for hand in state.hands)
    assert all(t.size <= rules.largest_task for t in tasks if t not in state.box)
    if rules.variant == "base":
        assert all(len(shown) <= rules.tasks_per_player for shown in state.revealed)
        assert scores(state) == [sum(-c.size if up else c.size for c, up in won) for won in state.won]
        if not state.over:
            assert any(
                solve(state.tops, hand, task, rules) for task in state.revealed_tasks() for hand in state.hands
            ), "a round goes on although nobody can solve anything"
    else:
        assert not state.task_pile
        assert all(not up for won in state.won for _, up in won)
        if not state.over:
            assert [bool(shown) for shown in state.revealed] == [p == state.active for p in range(rules.players)]
    if state.over:
        assert not state.revealed_tasks() and winners(state)
        if state.end_reason.startswith("nobody could solve"):
            check_nothing_could_go_on(state)


def claims_of(action):
    return action.claims if isinstance(action, Stop) else (action,) if isinstance(action, Claim) else ()


UNSOLVED_AT_ROUND_END = re.compile(r"Round (\d+) ends: no one can solve task\(s\) ([\d, ]+)\.")


def hands_after_claims(before, action, after):
    """Which hands did the players hold once the claims of this action were resolved?"""
    hands = [list(hand) for hand in before.hands]
    for claim in claims_of(action):
        task = next(task for task in before.revealed_tasks() if task.number == claim.task)
        if (task, False) in after.won[claim.player][len(before.won[claim.player]) :]:
            for _, placed in claim.placements:
                hands[claim.player].remove(placed)
    return hands


def check_round_ends_only_when_nobody_can_solve(after, before=None, action=None):
    """Every base round that ended on the way to `after` left only tasks that nobody could solve.

    The events name the tasks each round left. The first round to end had the
    hands left after this action's claims; a round dealt and ended in the same
    action had the refilled hands. The layout's tops do not change on the way.
    """
    if after.junior:
        return
    taken = [] if before is None else [won for wins, old in zip(after.won, before.won) for won, _ in wins[len(old) :]]
    if before is not None and (after.round > before.round or after.over):
        left = {task.number for task in before.revealed_tasks() if task not in taken}
        named = next(
            (
                match
                for match in map(UNSOLVED_AT_ROUND_END.match, after.events)
                if match and int(match[1]) == before.round
            ),
            None,
        )
        assert left == (set() if named is None else {int(n) for n in named[2].split(", ")}), (
            "a round ended with tasks left that the events do not name"
        )
    for match in filter(None, map(UNSOLVED_AT_ROUND_END.match, after.events)):
        ended_now = before is not None and int(match[1]) == before.round
        hands = hands_after_claims(before, action, after) if ended_now else after.hands
        tasks = [task_card(int(number)) for number in match[2].split(", ")]
        assert not any(solvable(after.tops, hand, task, after.rules) for task in tasks for hand in hands), (
            f"round {match[1]} ended although someone could still solve one of its tasks"
        )


def check_step(before, action, after):
    """Every card that entered a victory pile was claimed by its owner in this action."""
    check_round_ends_only_when_nobody_can_solve(after, before, action)
    claims = claims_of(action)
    for player in range(before.players):
        for task, face_up in after.won[player][len(before.won[player]) :]:
            claim = next(c for c in claims if c.player == player and c.task == task.number)
            if face_up:
                assert (
                    why_not(before.tops, task, claim.rotation, dict(claim.placements), claim.mirrored, before.rules)
                    or claim.seconds_shown > before.rules.seconds_to_show
                )
            else:
                for cell, placed in claim.placements:
                    from_hand = placed in before.hands[player] and placed in after.layout[cell]
                    assert from_hand or len(after.layout[cell]) == 1
