"""The Col-Or-Form engine: rules on hand-made tables, and many random games with invariants."""

import dataclasses
import json
import random

import pytest

from colorlab import colorform
from colorlab.colorform import (
    Claim,
    Pass,
    ReactionBot,
    Rules,
    Stop,
    figure,
    model,
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
from colorlab.colorform.agents import MissedSolution
from colorlab.colorform.components import TaskCard, task_card, task_cards
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
from colorlab.colorform.solver import solvable
from colorlab.record import GameRecord, RecordError
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, RuleError
from tests.helpers.colorform import check_invariants, check_round_ends_only_when_nobody_can_solve, check_step

FILLER = figure("yellow heart")


def card(number, **cells):
    """A made-up task card (the number of a real one) with figures on cells c0..c8."""
    return TaskCard(number, tuple(figure(cells[f"c{i}"]) if f"c{i}" in cells else None for i in range(9)))


def table(layout=None, hands=((), ()), revealed=((), ()), rules=Rules(rotations=False), **changes):
    """A two-player state with the given layout tops, hands and revealed tasks."""
    state = new_game(rules, seed=0)
    tops = [figure(layout.get(cell, "yellow heart")) if layout else FILLER for cell in range(9)]
    return dataclasses.replace(
        state,
        layout=tuple((top,) for top in tops),
        hands=tuple(tuple(figure(c) for c in hand) for hand in hands),
        revealed=tuple(tuple(cards) for cards in revealed),
        **changes,
    )


# Player 0 fixes task 1 by putting a blue moon on cell 0; that spoils task 2,
# which the red circle at cell 0 fitted by colour.
TASK_A = card(1, c0="blue square")
TASK_B = card(2, c0="red triangle")
TASK_C = card(3, c4="green star")


def race():
    return table({0: "red circle"}, hands=(("blue moon",), ("purple star",)), revealed=((TASK_A, TASK_C), (TASK_B,)))


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
    after = play(race(), Stop((Claim(0, 1, placements={0: "blue moon"}, time=1.0), Claim(1, 2, time=1.2))))
    assert scores(after) == [1, 0]
    assert after.won[1] == ()
    assert TASK_B in after.revealed_tasks() or TASK_B in after.task_pile


def test_the_same_two_claims_in_the_other_order_both_score():
    after = play(race(), Stop((Claim(0, 1, placements={0: "blue moon"}, time=1.2), Claim(1, 2, time=1.0))))
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


@pytest.mark.parametrize(
    "action, error",
    [
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
    ],
)
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
    state = table(
        {0: "red circle"}, hands=((), ()), revealed=((TASK_B,), (TASK_C,)), task_pile=tuple(task_cards()[10:20])
    )
    after = play(state, Claim(0, 2))
    assert after.round == state.round + 1 or after.over
    assert TASK_C in after.task_pile or after.over
    assert all(len(hand) == 4 for hand in after.hands)


def test_new_round_gathers_the_under_cards_when_the_pile_is_short():
    state = table({0: "red circle"}, hands=(("blue moon",), ("purple star",)), revealed=((TASK_B,), ()))
    under = [figure(name) for name in ("black moon", "green circle", "red moon", "green star", "purple circle")]
    layout = ((*under, state.layout[0][0]),) + state.layout[1:]
    state = dataclasses.replace(
        state, layout=layout, figure_pile=(figure("black heart"),), task_pile=tuple(task_cards()[10:20])
    )
    after = play(state, Claim(0, 2))
    assert after.round > state.round
    assert after.layout[0] == (state.layout[0][-1],)
    assert [len(hand) for hand in after.hands] == [4, 4]
    held = [c for hand in after.hands for c in hand] + list(after.figure_pile)
    assert sorted(held) == sorted([*under, figure("black heart"), *state.hands[0], *state.hands[1]])


def test_the_game_ends_after_the_round_in_which_the_task_pile_ran_out():
    state = table({0: "red circle"}, revealed=((TASK_B, TASK_C), ()), task_pile=(), last_round=True)
    after = play(state, Claim(0, 2))
    assert after.over and after.end_reason == "the task pile ran out"
    assert "no one can solve task(s) 3" in " ".join(after.events)
    with pytest.raises(GameOver):
        play(after, Claim(1, 3))


def test_while_a_revealed_task_can_be_solved_no_action_ends_the_round():
    state = race()
    assert not hasattr(colorform, "GiveUp") and not hasattr(model, "GiveUp")
    with pytest.raises(ValueError, match="gives up on a round"):
        model.action_from_dict({"type": "give up"})
    for action in ("give up", None, ChangeRules({"stop_window": 1.0}), Claim(1, 3)):
        try:
            after = play(state, action)
        except IllegalAction:
            continue
        assert after.round == state.round and {TASK_A, TASK_B} <= set(after.revealed_tasks())


def test_an_old_save_that_gives_up_on_a_round_is_refused_with_a_clear_message():
    saved = json.loads(play_game(Rules(players=3), seed=1).to_json())
    saved["actions"].insert(1, {"type": "give up"})
    with pytest.raises(RecordError, match="action 1 is malformed: it gives up on a round, which older colorlab"):
        GameRecord.from_json(json.dumps(saved))


def test_a_round_ending_with_tasks_nobody_can_solve_any_more_does_not_count_as_unsolvable():
    record = play_game(Rules(players=3, unsolvable_rounds=1), seed=1)
    states = list(record.states())
    left_unsolved = [state for state in states if any("no one can solve" in event for event in state.events)]
    assert left_unsolved and not left_unsolved[0].over
    assert states[-1].end_reason == "the task pile ran out"


class Silent:
    """An agent that never calls STOP."""

    name = "silent"

    def act(self, state, player):
        return None


def test_a_table_of_bots_that_miss_a_solution_is_an_error_not_an_end_of_round():
    with pytest.raises(MissedSolution, match=r"but player 0 \(silent\), player 1 \(silent\) can solve"):
        next_action(race(), [Silent(), Silent()])
    only_seat_one = table({0: "red circle"}, hands=((), ("red star",)), revealed=((card(4, c0="blue star"),), ()))
    with pytest.raises(MissedSolution, match=r"but player 1 \(silent\) can solve"):
        next_action(only_seat_one, [ReactionBot("hard"), Silent()])
    nothing_fits = table(revealed=((TASK_C,), ()))
    with pytest.raises(ValueError, match="not reached by play"):
        next_action(nothing_fits, [ReactionBot("hard"), ReactionBot("hard")])


@pytest.mark.parametrize("limit", [1, 4, 15])
def test_a_table_where_nobody_can_solve_anything_ends_after_unsolvable_rounds(limit):
    nothing_fits = Rules(matching="shape and colour", rotations=False, unsolvable_rounds=limit)
    state = new_game(nothing_fits, seed=3)
    assert state.over and state.round == limit
    assert state.end_reason == f"nobody could solve a revealed task for {limit} round{'s' * (limit > 1)} in a row"
    assert not any(solvable(state.tops, hand, task, nothing_fits) for task in state.task_pile for hand in state.hands)


def test_unsolvable_rounds_is_a_rule_the_editor_draws_and_a_game_can_change():
    described = {entry["name"]: entry for entry in Rules.describe()}["unsolvable_rounds"]
    assert described["default"] == 15 and described["live"] and "never ends while anyone can" in described["help"]
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


def test_bots_always_call_stop_while_one_of_them_can_solve_a_task():
    for rules in (Rules(players=2), Rules(players=4, rotations=False), Rules(players=3, matching="colour")):
        for seed in range(10):
            assert all(isinstance(action, Stop) for action in play_game(rules, seed=seed).actions)


def test_ties_go_to_fewer_cards_then_are_shared():
    three, one, two = (
        card(1, c0="red star", c1="red moon", c2="red heart"),
        card(2, c0="red star"),
        card(3, c0="red star", c1="red moon"),
    )
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
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, rotations=False),
    Rules(players=3, matching="shape and colour"),
    Rules(players=2, mirror_images=True),
    Rules(players=4, largest_task=3, hand_size=3),
    Rules(players=3, tasks_per_player=3, matching="colour"),
    Rules.junior(players=2),
    Rules.junior(players=4),
    Rules.junior(players=6, largest_task=3, tasks_per_player=2),
    Rules.junior(players=3, rotations=False),
    Rules(players=3, matching="colour", unsolvable_rounds=1),
    Rules(players=2, rotations=False, unsolvable_rounds=30),
    Rules.junior(players=2, unsolvable_rounds=2),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_random_games_keep_every_invariant(rules):
    for seed in range(12):
        levels = random.Random(seed).choices(["easy", "medium", "hard"], k=rules.players)
        agents = [ReactionBot(level, seed=seed * 10 + seat) for seat, level in enumerate(levels)]
        state = new_game(rules, seed)
        check_invariants(state)
        check_round_ends_only_when_nobody_can_solve(state)
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
    reasons = {
        play_game(Rules(players=p, matching=m), seed=s).final_state().end_reason
        for p in (2, 3, 4)
        for m in ("shape or colour", "colour")
        for s in range(20)
    }
    assert reasons <= {"the task pile ran out", "nobody could solve a revealed task for 15 rounds in a row"}
    assert "the task pile ran out" in reasons


def states_of_bot_games(rules, seeds):
    """Every state of some bot games (the bots' levels mixed), as play reached it."""
    for seed in seeds:
        agents = [
            ReactionBot(("easy", "medium", "hard")[(seed + seat) % 3], seed=seed * 10 + seat)
            for seat in range(rules.players)
        ]
        state = new_game(rules, seed)
        yield state
        while not state.over:
            state = play(state, next_action(state, agents))
            yield state


def hopeful_pair_by_pair(tops, tasks, hand, rules):
    """A hand's hopeful turns worked out figure by figure, without bits: each pair the layout does not fit
    fits some card of the hand, and there are no more such pairs than cards."""
    from colorlab.colorform.solver import ACCEPTS

    accepts = ACCEPTS[rules.matching]
    found = []
    for task in tasks:
        for rotation, mirrored, placed in task.images[rules.rotations, rules.mirror_images]:
            missing = [want for cell, want in placed if not accepts[want] >> tops[cell] & 1]
            if len(missing) <= len(hand) and all(any(accepts[want] >> card & 1 for card in hand) for want in missing):
                found.append((task, rotation, mirrored, placed, len(missing)))
    return tuple(found)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_what_a_state_keeps_is_what_it_would_work_out_afresh(rules):
    from colorlab.colorform.solver import cover, fitting_bits

    for state in states_of_bot_games(rules, range(6)):
        fresh = dataclasses.replace(state)  # nothing kept: worked out from the fields alone
        tops = tuple(stack[-1] for stack in state.layout)
        assert state.tops == fresh.tops == tops
        assert state.fitting == fresh.fitting == fitting_bits(tops, rules.matching)
        slowly = tuple(hopeful_pair_by_pair(tops, state.revealed_tasks(), hand, rules) for hand in state.hands)
        assert state.hopeful == fresh.hopeful == slowly
        for player, hand in enumerate(state.hands):
            some_way = any(cover(tops, hand, placed, rules) is not None for _, _, _, placed, _ in state.hopeful[player])
            assert model.can_solve(state, player) == some_way


def claim_outcome(check, state, claim):
    """The task a claim check returns, or the error it raises (its class and message)."""
    try:
        return check(state, claim).number
    except IllegalAction as error:
        return type(error), str(error)


def odd_claim(rng, state):
    """A claim that may break any of the rules a claim is checked against."""
    player = rng.choice([0, 1, state.players - 1, state.players, -1, True, 1.0])
    hand = state.hands[player] if type(player) is int and 0 <= player < state.players else ()
    tasks = [task.number for task in state.revealed_tasks()] or [1]
    cards = list(hand) + [figure("red star"), figure("blue moon")]
    placements = tuple(
        (rng.choice([0, 1, 4, 7, 8, 8, 9, -1, True]), rng.choice(cards)) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))
    )
    return Claim.of_figures(
        player,
        rng.choice(tasks + [31, 0, "1", 2.0]),
        rng.choice([0, 1, 2, 3, 3, 4, True, 1.0, -1]),
        dict(placements),
        rng.choice([False, False, True, 1]),
        rng.choice([0.5, 2.0, 0, -1.0, float("nan"), True]),
        rng.choice([2.5, 4.0, 0.0, 50.0, float("inf"), 3]),
    )


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(players=3, mirror_images=True), Rules(rotations=False), Rules.junior(players=3)], ids=str
)
def test_a_checked_claim_fits_exactly_when_why_not_finds_no_fault(rules):
    rng = random.Random(14)
    for state in states_of_bot_games(rules, range(4)):
        if state.over:
            continue
        right = [
            Claim(player, task.number, rotation, placements, mirrored, time=1.5, seconds_shown=4.0)
            for player, hand in enumerate(state.hands)
            if not state.junior or player == state.active
            for task, rotation, mirrored, placements in colorform.solver.table_ways(
                state.tops, hand, state.revealed_tasks(), rules
            )
        ]
        for claim in right:  # the claims bots make pass the checks
            assert model._check_claim(state, claim).number == claim.task
        for claim in [odd_claim(rng, state) for _ in range(20)] + right:
            checked = claim_outcome(model._check_claim, state, claim)
            if isinstance(checked, int):  # a well-formed claim: does it fit? As why_not says, figure by figure
                task = task_card(checked)
                assert model._fits(state, task, claim) == (
                    not why_not(state.tops, task, claim.rotation, dict(claim.placements), claim.mirrored, rules)
                )


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bot_claims_the_quickest_way_that_works_as_a_full_search_finds_it(level):
    from colorlab.colorform.agents import EXTRA_CARD_SECONDS, LEVELS, reaction_seconds
    from colorlab.colorform.solver import cover

    ease = LEVELS[level].most_cards
    bot = ReactionBot(level, seed=3)
    for rules in (Rules(), Rules(players=3, mirror_images=True, hand_size=6), Rules(matching="shape and colour")):
        for state in states_of_bot_games(rules, range(3)):
            for player, hand in enumerate(state.hands):
                ways = []
                for order, (task, rotation, mirrored, placed, cards) in enumerate(state.hopeful[player]):
                    seconds = reaction_seconds(task.size, rotation, cards, mirrored)
                    seconds += EXTRA_CARD_SECONDS * (cards - ease) if cards > ease else 0
                    placements = cover(state.tops, hand, placed, rules)
                    if placements is not None:
                        ways.append((cards > ease, seconds, order, task, rotation, mirrored, placements))
                expected = min(ways, key=lambda way: way[:3])[1:] if ways else None
                found = bot._quickest(state, player)
                assert (found is None) == (expected is None)
                if found is not None:
                    assert found == expected[:1] + expected[2:]


def test_a_claim_made_of_figures_equals_the_same_claim_made_the_usual_way():
    for state in states_of_bot_games(Rules(players=3, mirror_images=True), range(3)):
        for player, hand in enumerate(state.hands):
            for task, rotation, mirrored, placements in colorform.solver.table_ways(
                state.tops, hand, state.revealed_tasks(), state.rules
            ):
                quick = Claim.of_figures(player, task.number, rotation, placements, mirrored, 2.5, 3.0)
                usual = Claim(player, task.number, rotation, placements, mirrored, time=2.5, seconds_shown=3.0)
                assert quick == usual and hash(quick) == hash(usual) and repr(quick) == repr(usual)


def test_the_seconds_table_holds_what_the_reaction_time_model_says():
    from colorlab.colorform.agents import EXTRA_CARD_SECONDS, reaction_seconds, seconds_table

    for ease in (1, 2, 6):
        table = seconds_table(reaction_seconds, ease)
        for (figures, quarter_turns, cards, mirrored), seconds in table.items():
            expected = reaction_seconds(figures, quarter_turns, cards, mirrored)
            if cards > ease:
                expected += EXTRA_CARD_SECONDS * (cards - ease)
            assert seconds == expected
    assert {seconds for way, seconds in seconds_table(lambda *way: 33.0, 2).items() if way[2] <= 2} == {33.0}
