"""The Col-Or-Form engine: rules on hand-made tables, and many random games with invariants."""

import dataclasses
import random

import pytest

from colorlab.colorform import (
    Claim,
    GiveUp,
    Pass,
    ReactionBot,
    Rules,
    Stop,
    figure,
    new_game,
    next_action,
    play,
    play_game,
    ranking,
    scores,
    solve,
    why_not,
    winners,
)
from colorlab.colorform.components import TaskCard, task_cards
from colorlab.colorform.solver import solvable
from colorlab.colorform.model import (
    BadStop,
    BlankCell,
    CardNotInHand,
    CellTaken,
    OffLayout,
    TaskNotAvailable,
    TurnNotAllowed,
    UnknownCard,
    UnknownPlayer,
)
from colorlab.record import GameRecord
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, RuleError

FILLER = figure("yellow heart")


def card(number, **cells):
    """A made-up task card (the number of a real one) with figures on cells c0..c8."""
    return TaskCard(number, tuple(figure(cells[f"c{i}"]) if f"c{i}" in cells else None for i in range(9)))


def table(layout=None, hands=((), ()), revealed=((), ()), rules=Rules(rotations=False), **changes):
    """A two-player state with the given layout tops, hands and revealed tasks."""
    state = new_game(rules, seed=0)
    tops = [figure(layout.get(cell, "yellow heart")) if layout else FILLER for cell in range(9)]
    return dataclasses.replace(
        state, layout=tuple((top,) for top in tops),
        hands=tuple(tuple(figure(c) for c in hand) for hand in hands),
        revealed=tuple(tuple(cards) for cards in revealed), **changes)


# Player 0 fixes task 1 by putting a blue moon on cell 0; that spoils task 2,
# which the red circle at cell 0 fitted by colour.
TASK_A = card(1, c0="blue square")
TASK_B = card(2, c0="red triangle")
TASK_C = card(3, c4="green star")


def race():
    return table({0: "red circle"}, hands=(("blue moon",), ("purple star",)),
                 revealed=((TASK_A, TASK_C), (TASK_B,)))


def test_a_correct_claim_scores_and_its_cards_stay_on_the_layout():
    after = play(race(), Claim(0, 1, placements={0: "blue moon"}, time=1.0))
    assert scores(after)[0] == 1
    assert after.won[0] == ((TASK_A, False),)
    assert after.layout[0][-1] == figure("blue moon") and len(after.layout[0]) == 2
    assert figure("blue moon") not in after.hands[0]


def test_a_wrong_claim_goes_face_up_and_costs_its_figures():
    state = race()
    after = play(state, Claim(1, 3, time=1.0))
    assert after.won[1] == ((TASK_C, True),) and scores(after)[1] == -1
    assert after.layout == state.layout and after.hands == state.hands


def test_a_later_claim_spoiled_by_an_earlier_solution_goes_back_without_penalty():
    after = play(race(), Stop((Claim(0, 1, placements={0: "blue moon"}, time=1.0),
                               Claim(1, 2, time=1.2))))
    assert scores(after) == [1, 0]
    assert after.won[1] == ()
    assert TASK_B in after.revealed_tasks() or TASK_B in after.task_pile


def test_the_same_two_claims_in_the_other_order_both_score():
    after = play(race(), Stop((Claim(0, 1, placements={0: "blue moon"}, time=1.2),
                               Claim(1, 2, time=1.0))))
    assert scores(after) == [1, 1]


def test_a_later_claim_is_penalised_when_the_layout_did_not_change():
    state = table({0: "red circle"}, hands=((), ()), revealed=((TASK_B,), (TASK_C,)))
    after = play(state, Stop((Claim(0, 2, time=1.0), Claim(1, 3, time=1.1))))
    assert scores(after) == [1, -1]


def test_a_claim_on_a_task_just_taken_is_void():
    state = table({0: "red circle"}, hands=((), ()), revealed=((TASK_B, TASK_C), ()))
    after = play(state, Stop((Claim(0, 2, time=1.0), Claim(1, 2, time=1.1))))
    assert scores(after) == [1, 0] and after.won[1] == ()


def test_a_solution_shown_too_slowly_counts_as_wrong():
    state = table({0: "red circle"}, revealed=((TASK_B,), ()))
    assert scores(play(state, Claim(0, 2, seconds_shown=9.5))) == [1, 0]
    assert scores(play(state, Claim(0, 2, seconds_shown=10.5))) == [-1, 0]


@pytest.mark.parametrize("action, error", [
    (Claim(0, 1, placements={0: "purple star"}), CardNotInHand),
    (Claim(0, 1, placements=[(0, "blue moon"), (0, "blue moon")]), CellTaken),
    (Claim(0, 1, placements={9: "blue moon"}), OffLayout),
    (Claim(0, 1, placements={4: "blue moon"}), BlankCell),
    (Claim(0, 4), TaskNotAvailable),
    (Claim(0, 31), UnknownCard),
    (Claim(2, 1), UnknownPlayer),
    (Claim(0, 1, rotation=1), TurnNotAllowed),
    (Claim(0, 1, rotation=7), TurnNotAllowed),
    (Claim(0, 1, mirrored=True), TurnNotAllowed),
    (Claim(0, 1, time=float("nan")), BadStop),
    (Stop(()), BadStop),
    (Stop((Claim(0, 1, time=1.0), Claim(1, 2, time=2.0))), BadStop),
    (Stop((Claim(0, 1, time=1.0), Claim(0, 3, time=1.1))), BadStop),
    (Pass(0), IllegalAction),
    ("stop!", IllegalAction),
])
def test_illegal_actions_are_refused_and_change_nothing(action, error):
    state = race()
    snapshot = dataclasses.replace(state)
    with pytest.raises(error):
        play(state, action)
    assert state == snapshot


def test_unknown_figures_are_refused_when_the_claim_is_made():
    with pytest.raises(UnknownCard, match="pink"):
        Claim(0, 1, placements={0: "pink star"})


def test_a_task_already_won_cannot_be_claimed_again():
    after = play(race(), Claim(0, 1, placements={0: "blue moon"}))
    with pytest.raises(TaskNotAvailable):
        play(after, Claim(1, 1))


def test_a_round_with_nothing_solvable_ends_by_itself():
    state = table({0: "red circle"}, hands=((), ()), revealed=((TASK_B,), (TASK_C,)),
                  task_pile=tuple(task_cards()[10:20]))
    after = play(state, Claim(0, 2))
    assert after.round == state.round + 1 or after.over
    assert TASK_C in after.task_pile or after.over
    assert all(len(hand) == 4 for hand in after.hands)


def test_new_round_gathers_the_under_cards_when_the_pile_is_short():
    state = race()
    under = [figure(name) for name in ("black moon", "green circle", "red moon", "green star", "purple circle")]
    layout = ((*under, state.layout[0][0]),) + state.layout[1:]
    state = dataclasses.replace(state, layout=layout, figure_pile=(figure("black heart"),),
                                task_pile=tuple(task_cards()[10:20]))
    after = play(state, GiveUp())
    assert after.layout[0] == (state.layout[0][-1],)
    assert [len(hand) for hand in after.hands] == [4, 4]
    held = [c for hand in after.hands for c in hand] + list(after.figure_pile)
    assert sorted(held) == sorted([*under, figure("black heart"), *state.hands[0], *state.hands[1]])


def test_the_game_ends_after_the_round_in_which_the_task_pile_ran_out():
    state = dataclasses.replace(race(), task_pile=(), last_round=True)
    after = play(state, GiveUp())
    assert after.over and after.end_reason == "the task pile ran out"
    with pytest.raises(GameOver):
        play(after, GiveUp())


@pytest.mark.parametrize("limit", [1, 15])
def test_giving_up_on_tasks_never_ends_the_game(limit):
    state = new_game(Rules(unsolvable_rounds=limit), seed=0)
    for _ in range(40):
        state = play(state, GiveUp())
        assert not state.over, state.end_reason
    assert state.round == 41
    assert len(state.task_pile) + len(state.revealed_tasks()) == 30


@pytest.mark.parametrize("limit", [1, 4, 15])
def test_a_table_where_nobody_can_solve_anything_ends_after_unsolvable_rounds(limit):
    nothing_fits = Rules(matching="shape and colour", rotations=False, unsolvable_rounds=limit)
    state = new_game(nothing_fits, seed=3)
    assert state.over and state.round == limit
    assert state.end_reason == f"nobody could solve a revealed task for {limit} round{'s' * (limit > 1)} in a row"
    assert not any(solvable(state.tops, hand, task, nothing_fits) for task in state.task_pile for hand in state.hands)


def test_unsolvable_rounds_is_a_rule_the_editor_draws_and_a_game_can_change():
    described = {entry["name"]: entry for entry in Rules.describe()}["unsolvable_rounds"]
    assert described["default"] == 15 and described["live"] and "giving up does not count" in described["help"]
    for bad in (0, 31, 2.5):
        with pytest.raises(RuleError, match="unsolvable_rounds"):
            Rules(unsolvable_rounds=bad)
    state = play(new_game(Rules(), seed=0), ChangeRules({"unsolvable_rounds": 3}))
    assert state.rules.unsolvable_rounds == 3 and not state.over


def test_a_rule_change_starts_the_count_of_unsolvable_rounds_again():
    strict = Rules.junior(players=2, matching="shape and colour", rotations=False, unsolvable_rounds=2)
    start = new_game(strict, seed=3)
    assert start.solvable_round == 0, "a deal where nobody can solve anything"
    state = start
    for seat in (0, 1, 0, 1):
        state = play(state, Pass(seat))
    assert state.over and state.round == 2
    state = start
    for action in (Pass(0), Pass(1), Pass(0), ChangeRules({"stop_window": 1.0}), Pass(1)):
        state = play(state, action)
    assert not state.over


def test_bots_never_give_up_on_a_task_one_of_them_can_solve():
    for rules in (Rules(players=2), Rules(players=4, rotations=False), Rules(players=3, matching="colour")):
        for seed in range(10):
            assert not any(isinstance(action, GiveUp) for action in play_game(rules, seed=seed).actions)


def test_ties_go_to_fewer_cards_then_are_shared():
    three, one, two = card(1, c0="red star", c1="red moon", c2="red heart"), card(2, c0="red star"), \
        card(3, c0="red star", c1="red moon")
    state = dataclasses.replace(race(), over=True, won=(((three, False),), ((one, False), (two, False))))
    assert scores(state) == [3, 3] and winners(state) == [0]
    assert ranking(state) == [(1, 0), (2, 1)]
    other_three = card(4, c0="blue star", c1="blue moon", c2="blue heart")
    state = dataclasses.replace(state, won=(((three, False),), ((other_three, False),)))
    assert winners(state) == [0, 1] and ranking(state) == [(1, 0), (1, 1)]


# --- FIKOLO JUNIOR -----------------------------------------------------------------------

def test_junior_deals_hands_of_three_and_piles_of_four_without_five_figure_cards():
    state = new_game(Rules.junior(players=3), seed=4)
    assert [len(hand) for hand in state.hands] == [3, 3, 3]
    assert [len(pile) + len(shown) for pile, shown in zip(state.own_piles, state.revealed)] == [4, 4, 4]
    assert state.active == 0 and len(state.revealed[0]) == 1
    assert all(card.size <= 4 for pile in state.own_piles for card in pile)


def test_junior_turns_pass_to_the_left_and_refuse_other_players():
    state = new_game(Rules.junior(players=3), seed=4)
    with pytest.raises(NotYourTurn):
        play(state, Pass(1))
    top = state.revealed[0][0]
    after = play(state, Pass(0))
    assert after.active == 1 and after.own_piles[0][-1] == top


def test_junior_solved_card_leaves_and_the_hand_is_refilled():
    state = new_game(Rules.junior(players=2), seed=11)
    for _ in range(40):
        task = state.revealed[state.active][0]
        found = solve(state.tops, state.hands[state.active], task, state.rules)
        if found and found[0].placements:
            break
        state = play(state, Pass(state.active))
    else:
        pytest.skip("no hand-card solution came up")
    seat, best = state.active, found[0]
    after = play(state, Claim(seat, task.number, best.rotation, best.placements))
    assert (task, False) in after.won[seat]
    assert len(after.hands[seat]) == 3


def test_junior_ends_after_the_round_of_the_first_finisher():
    for seed in range(30):
        record = play_game(Rules.junior(players=3), seed=seed)
        states = list(record.states())
        final = states[-1]
        if final.end_reason.startswith("a player"):
            break
    assert final.finished and winners(final) == sorted(final.finished)
    assert all(not final.own_piles[p] for p in final.finished)
    turns = [s.active for s in states[:-1]]
    assert turns[-1] == max(p for p in range(3) if states[-2].own_piles[p] or states[-2].revealed[p])


# --- Random games with invariants after every action ----------------------------------------

VARIANTS = [
    Rules(players=2), Rules(players=3), Rules(players=4),
    Rules(players=4, rotations=False), Rules(players=3, matching="shape and colour"),
    Rules(players=2, mirror_images=True), Rules(players=4, largest_task=3, hand_size=3),
    Rules(players=3, tasks_per_player=3, matching="colour"),
    Rules.junior(players=2), Rules.junior(players=4), Rules.junior(players=6, largest_task=3, tasks_per_player=2),
    Rules.junior(players=3, rotations=False),
    Rules(players=3, matching="colour", unsolvable_rounds=1), Rules(players=2, rotations=False, unsolvable_rounds=30),
    Rules.junior(players=2, unsolvable_rounds=2),
]


def check_nothing_could_go_on(state):
    """A game ended for want of solutions: with 15 rounds or more, no task left in play can be solved."""
    if state.rules.unsolvable_rounds < 15:
        return
    tops, rules = state.tops, state.rules
    if rules.variant == "base":
        assert not any(solvable(tops, hand, task, rules) for task in state.task_pile for hand in state.hands)
    else:
        assert not any(solvable(tops, state.hands[p], task, rules) for p, pile in enumerate(state.own_piles)
                       for task in pile)


def check_invariants(state):
    rules = state.rules
    figures = list(state.figure_pile) + [c for stack in state.layout for c in stack] + \
        [c for hand in state.hands for c in hand]
    assert sorted(figures) == list(range(36)), "figure cards lost or duplicated"
    tasks = list(state.task_pile) + state.revealed_tasks() + [c for pile in state.own_piles for c in pile] + \
        [c for won in state.won for c, _ in won] + list(state.box)
    assert sorted(t.number for t in tasks) == list(range(1, 31)), "task cards lost or duplicated"
    assert all(stack for stack in state.layout)
    assert all(len(hand) <= rules.hand_size for hand in state.hands)
    assert all(t.size <= rules.largest_task for t in tasks if t not in state.box)
    if rules.variant == "base":
        assert all(len(shown) <= rules.tasks_per_player for shown in state.revealed)
        assert scores(state) == [sum(-c.size if up else c.size for c, up in won) for won in state.won]
        if not state.over:
            assert any(solve(state.tops, hand, task, rules) for task in state.revealed_tasks()
                       for hand in state.hands), "a round goes on although nobody can solve anything"
    else:
        assert not state.task_pile
        assert all(not up for won in state.won for _, up in won)
        if not state.over:
            assert [bool(shown) for shown in state.revealed] == [p == state.active for p in range(rules.players)]
    if state.over:
        assert not state.revealed_tasks() and winners(state)
        if state.end_reason.startswith("nobody could solve"):
            check_nothing_could_go_on(state)


def check_step(before, action, after):
    """Every card that entered a victory pile was claimed by its owner in this action."""
    claims = action.claims if isinstance(action, Stop) else (action,) if isinstance(action, Claim) else ()
    for player in range(before.players):
        for task, face_up in after.won[player][len(before.won[player]):]:
            claim = next(c for c in claims if c.player == player and c.task == task.number)
            if face_up:
                assert why_not(before.tops, task, claim.rotation, dict(claim.placements), claim.mirrored,
                               before.rules) or claim.seconds_shown > before.rules.seconds_to_show
            else:
                for cell, placed in claim.placements:
                    assert placed in before.hands[player] and placed in after.layout[cell] or \
                        len(after.layout[cell]) == 1


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_random_games_keep_every_invariant(rules):
    for seed in range(12):
        levels = random.Random(seed).choices(["easy", "medium", "hard"], k=rules.players)
        agents = [ReactionBot(level, seed=seed * 10 + seat) for seat, level in enumerate(levels)]
        state = new_game(rules, seed)
        check_invariants(state)
        actions = []
        while not state.over:
            assert len(actions) < 500, "game did not end"
            action = next_action(state, agents)
            after = play(state, action)
            check_invariants(after)
            check_step(state, action, after)
            state = after
            actions.append(action)
        record = GameRecord("colorform", rules, seed, tuple(actions))
        again = GameRecord.from_json(record.to_json())
        assert again == record and again.to_json() == record.to_json()
        assert again.final_state() == state


def test_bot_games_are_reproducible_from_the_seed():
    first, second = play_game(Rules(players=4), seed=7), play_game(Rules(players=4), seed=7)
    assert first == second
    assert play_game(Rules(players=4), seed=8) != first


def test_every_base_game_ends_by_the_pile_or_after_unsolvable_rounds():
    reasons = {play_game(Rules(players=p, matching=m), seed=s).final_state().end_reason
               for p in (2, 3, 4) for m in ("shape or colour", "colour") for s in range(20)}
    assert reasons <= {"the task pile ran out", "nobody could solve a revealed task for 15 rounds in a row"}
    assert "the task pile ran out" in reasons
