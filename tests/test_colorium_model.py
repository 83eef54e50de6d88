"""The Colorium engine: random games with invariants after every action, and refusals."""

import dataclasses
import random
import re

import pytest

from colorlab.colorium.agents import (
    GreedyBot,
    MissionBot,
    RandomBot,
    legal_picks,
    next_action,
    play_game,
    takeable_dice,
    to_move,
)
from colorlab.colorium.board import Board
from colorlab.colorium.missions import MISSIONS
from colorlab.colorium.model import (
    BONUSES,
    BadDraw,
    BadPick,
    Draw,
    Pick,
    PlayerOut,
    UnknownPlayer,
    Wild,
    WrongPhase,
    action_from_dict,
    action_to_dict,
    can_draw,
    dice_in_words,
    legal_choices,
    legal_draws,
    legal_wilds,
    new_game,
    play,
    score_parts,
    winners,
)
from colorlab.colorium.rules import Rules
from colorlab.record import GameRecord
from colorlab.rules import GameOver, IllegalAction, NotYourTurn
from tests.helpers.colorium import check_invariants, check_step

VARIANTS = [
    Rules(players=1),
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, drop="straight"),
    Rules(players=3, mirror_images=False),
    Rules(players=2, bonuses=False, row_rewards=False),
    Rules(players=2, width=6, height=6),
    Rules(players=2, width=10, height=5),
    Rules(players=2, cut_counts_as="part"),
    Rules(players=3, cut_counts_as="none", width=6, height=6),
]


def check_out_players_wait(state):
    """Every action of an out player, a wild space included, is refused and changes nothing."""
    for p in range(state.players):
        board = state.boards[p]
        empty = [(r, c) for r in range(board.height) for c in range(board.width) if board.colour(r, c) is None]
        if state.out[p] and empty and not state.over:
            snapshot = dataclasses.replace(state)
            for action in (Wild(p, empty[0], "R"), Draw(p, "O", "R", empty[:4]), Pick(p, 0)):
                with pytest.raises(PlayerOut):
                    play(state, action)
            assert state == snapshot


def play_checked(state, agents) -> list:
    """Play bots to the end of the game, checking every invariant after every action; return the actions."""
    check_invariants(state)
    actions = []
    while not state.over:
        assert len(actions) < 1000, "game did not end"
        action = next_action(state, agents)
        after = play(state, action)
        check_invariants(after)
        check_step(state, action, after)
        check_out_players_wait(after)
        state, actions = after, actions + [action]
    return actions


def variant_id(rules) -> str:
    return ",".join(f"{k}={v[1]}" for k, v in rules.differences().items()) or "default"


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_random_games_keep_every_invariant(rules):
    for seed in range(4):
        rng = random.Random(seed)
        agents = [rng.choice([RandomBot, GreedyBot])(seed=seed * 10 + p) for p in range(rules.players)]
        actions = play_checked(new_game(rules, seed), agents)
        record = GameRecord("colorium", rules, seed, tuple(actions))
        again = GameRecord.from_json(record.to_json())
        assert again == record and again.final_state() == record.final_state()


class BonusBot(RandomBot):
    """Fills wild spaces half the time it may, and otherwise draws spending as many bonuses as it can."""

    def act(self, state, player):
        wilds = legal_wilds(state, player)
        if state.phase == "draft":
            return super().act(state, player)
        if wilds and self.rng.random() < 0.5:
            return self.rng.choice(wilds)
        shape, colour = state.picks[player]
        draws = legal_draws(state, player)
        spent = [draw.cuts + (draw.shape != shape) + (draw.colour != colour) for draw in draws]
        return self.rng.choice([draw for draw, n in zip(draws, spent) if n == max(spent)])


def every_bonus_ready(state):
    """The same table, with every printed bonus of every player ready from the first round."""
    return dataclasses.replace(
        state, bonuses=tuple(tuple("ready" if mark == "locked" else mark for mark in row) for row in state.bonuses)
    )


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(players=3, drop="straight", cut_counts_as="part"),
        Rules(players=2, width=6, height=6, cut_counts_as="none"),
    ],
    ids=variant_id,
)
def test_random_games_using_several_bonuses_in_a_round_keep_every_invariant(rules):
    used = {"two cuts": 0, "wild": 0, "three or more bonuses in one round": 0}
    for seed in range(4):
        agents = [(BonusBot if p % 2 == 0 else RandomBot)(seed=seed * 10 + p) for p in range(rules.players)]
        actions = play_checked(every_bonus_ready(new_game(rules, seed)), agents)
        per_round = {}
        state = every_bonus_ready(new_game(rules, seed))
        for action in actions:
            after = play(state, action)
            if isinstance(action, (Draw, Wild)):
                key = (state.round, action.player)
                per_round[key] = per_round.get(key, 0) + sum(
                    old != new for old, new in zip(state.bonuses[action.player], after.bonuses[action.player])
                )
            used["two cuts"] += isinstance(action, Draw) and action.cuts == 2
            used["wild"] += isinstance(action, Wild)
            state = after
        used["three or more bonuses in one round"] += sum(n >= 3 for n in per_round.values())
    assert all(used.values()), used


def states_of_random_games(rules, seeds, bonuses_ready=False):
    """Every state of random games (every bonus ready from the start, when asked)."""
    for seed in seeds:
        state = new_game(rules, seed)
        state = every_bonus_ready(state) if bonuses_ready else state
        agents = [
            (BonusBot if bonuses_ready and p % 2 == 0 else RandomBot)(seed=seed * 10 + p) for p in range(rules.players)
        ]
        while not state.over:
            yield state
            state = play(state, next_action(state, agents))


@pytest.mark.parametrize(
    "rules, bonuses_ready",
    [(rules, False) for rules in VARIANTS]
    + [(Rules(players=2), True), (Rules(players=3, drop="straight", cut_counts_as="part"), True)],
)
def test_lazy_choices_are_the_listed_drawings_and_wild_spaces_and_the_random_bot_chooses_as_from_the_list(
    rules, bonuses_ready
):
    for n, state in enumerate(states_of_random_games(rules, range(3), bonuses_ready)):
        for player in range(state.players):
            listed = legal_draws(state, player) + legal_wilds(state, player)
            lazy = legal_choices(state, player)
            assert len(lazy) == len(listed) and list(lazy) == listed
            with pytest.raises(IndexError):
                lazy[len(listed)]
            assert [Pick(player, die) for die in takeable_dice(state, player)] == legal_picks(state, player)
        player = to_move(state)
        if state.phase == "draft":  # the picks listed are the picks play takes from the player to move
            assert legal_picks(state, player) == picks_play_takes(state, player)
        listed = (
            legal_picks(state, player)
            if state.phase == "draft"
            else legal_draws(state, player) + legal_wilds(state, player)
        )
        bot, rng = RandomBot(seed=n), random.Random(n)
        assert bot.act(state, player) == rng.choice(listed) and bot.rng.getstate() == rng.getstate()


def picks_play_takes(state, player) -> list[Pick]:
    """The picks `play` accepts from this player now, die by die."""
    taken = []
    for die in range(len(state.pool)):
        try:
            play(state, Pick(player, die))
        except IllegalAction:
            continue
        taken.append(Pick(player, die))
    return taken


def accepted(state, action) -> bool:
    """Does play take this action (rather than refuse it as a bad drawing)?"""
    try:
        play(state, action)
    except BadDraw:
        return False
    return True


def near_misses(draw: Draw, rules) -> list[Draw]:
    """The drawing moved a space each way, in every colour, and cut once: mostly illegal, some legal."""
    moved = [
        dataclasses.replace(draw, cells=tuple((r + dr, c + dc) for r, c in draw.cells))
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]
    return (
        moved
        + [dataclasses.replace(draw, colour=colour) for colour in rules.colours]
        + [dataclasses.replace(draw, cuts=1), dataclasses.replace(draw, shape=rules.shapes[0])]
    )


@pytest.mark.parametrize(
    "rules, bonuses_ready",
    [
        (Rules(players=2), False),
        (Rules(players=3, drop="straight"), False),
        (Rules(players=2), True),
        (Rules(players=3, mirror_images=False, cut_counts_as="part"), True),
    ],
)
def test_a_drawing_is_taken_exactly_when_it_is_listed_and_a_player_can_draw_exactly_when_one_is(rules, bonuses_ready):
    # play and can_draw answer drawings without bonuses quickly: the answers must be the lists'.
    for state in states_of_random_games(rules, range(3), bonuses_ready):
        for player in range(state.players):
            if state.phase != "draw" or state.drawn[player]:
                continue
            listed = legal_draws(state, player)
            assert can_draw(state, player) == bool(listed)
            legal, some = set(listed), listed[:: len(listed) // 6 + 1]
            misses = [miss for draw in some for miss in near_misses(draw, rules)]
            for draw in some + misses:
                assert accepted(state, draw) == (draw in legal)


def test_the_words_for_a_rounds_dice_name_every_die():
    pool = (("colour", "B"), ("colour", "R"), ("shape", "I"), ("shape", "L"))
    assert dice_in_words(pool) == "the shape dice show I and L, the colour dice blue and red"


@pytest.mark.parametrize("seat", [-1, 2, True, False, 1.0, "0", None, 10**9])
def test_a_seat_that_is_not_in_the_game_is_refused_and_changes_nothing(seat):
    state = new_game(Rules(players=2), seed=1)
    snapshot = dataclasses.replace(state)
    for action in (Pick(seat, 0), Draw(seat, "O", "R", ((6, 0), (6, 1), (7, 0), (7, 1))), Wild(seat, (7, 0), "R")):
        with pytest.raises(
            UnknownPlayer, match=f"^there is no player {re.escape(repr(seat))}; players are numbered 0 to 1$"
        ):
            play(state, action)
    assert state == snapshot


class Seat(int):
    """A whole number of another type: a seat all the same."""


def test_a_seat_given_as_a_whole_number_of_another_type_is_taken():
    state = new_game(Rules(players=2), seed=1)
    assert play(state, Pick(Seat(0), 0)) == play(state, Pick(0, 0))


def test_the_draft_goes_round_and_back_and_gives_one_die_of_each_kind():
    state = new_game(Rules(players=3), seed=1)
    assert state.order == (0, 1, 2, 2, 1, 0)
    with pytest.raises(NotYourTurn):
        play(state, Pick(1, 0))
    after = play(state, legal_picks(state, 0)[0])
    after = play(after, legal_picks(after, 1)[0])
    shape_die = next(p for p in legal_picks(after, 2) if after.pool[p.die][0] == "shape")
    after = play(after, shape_die)
    another_shape = next(i for i, (kind, _) in enumerate(after.pool) if kind == "shape")
    with pytest.raises(BadPick):
        play(after, Pick(2, another_shape))
    for _ in range(3):
        after = play(after, legal_picks(after, after.order[0])[0])
    assert all(shape and colour for shape, colour in after.picks)


def drawing_phase(seed=3, rules=Rules(players=2)):
    state = new_game(rules, seed)
    agents = [GreedyBot(seed=s) for s in range(rules.players)]
    while state.phase == "draft":
        state = play(state, next_action(state, agents))
    return state


def test_illegal_draws_are_refused_and_change_nothing():
    state = drawing_phase()
    shape, colour = state.picks[0]
    legal = legal_draws(state, 0)
    good = legal[0]
    other_colour = next(c for c in "RYGBPO" if c != colour)
    floating = tuple((r - 3, c) for r, c in good.cells)
    for action, error in [
        (dataclasses.replace(good, colour=other_colour), BadDraw),
        (dataclasses.replace(good, shape="O" if shape != "O" else "I"), BadDraw),
        (Draw(0, shape, colour, floating), BadDraw),
        (Pick(0, 0), WrongPhase),
        (Wild(0, (0, 0), "R"), BadDraw),
    ]:
        snapshot = dataclasses.replace(state)
        with pytest.raises(error):
            play(state, action)
        assert state == snapshot
    after = play(state, good)
    with pytest.raises(BadDraw):
        play(after, good)


def test_the_game_ends_when_nobody_can_draw_and_is_scored_in_parts():
    final = play_game(Rules(players=3), seed=5).final_state()
    assert final.over and all(final.out)
    parts = score_parts(final)
    assert all(set(p) == {"shapes", "colours", "rows", *final.missions} for p in parts)
    assert set(winners(final)) <= {0, 1, 2}


def test_mission_bots_play_whole_games():
    rules = Rules(players=2)
    record = play_game(rules, [MissionBot(seed=1), GreedyBot(seed=2)], seed=9)
    assert record.final_state().over
    with pytest.raises(GameOver):
        play(record.final_state(), Pick(0, 0))


def test_players_completing_a_row_in_the_same_round_share_its_reward():
    state = drawing_phase()
    board = Board.parse("\n".join(["." * 8] * 7 + ["RRRR...."]))
    state = dataclasses.replace(state, boards=(board, board), picks=(("I", "Y"), ("I", "Y")))
    cells = ((7, 4), (7, 5), (7, 6), (7, 7))
    state = play(state, Draw(0, "I", "Y", cells))
    assert state.row_points == ((), ())
    state = play(state, Draw(1, "I", "Y", cells))
    assert state.row_points == (((1, 3),), ((1, 3),))
    assert dict(state.rows_taken)[1] == 1


def test_a_row_completed_on_one_board_only_scores_for_that_player_and_only_once():
    state = drawing_phase()
    empty, almost = Board.empty(), Board.parse("\n".join(["." * 8] * 5 + ["RRRR...."] + ["BBBBBBBB"] * 2))
    state = dataclasses.replace(
        state, boards=(empty, almost), picks=(("I", "Y"), ("I", "Y")), row_points=((), ((1, 3),)), rows_taken=((1, 1),)
    )
    state = play(state, Draw(0, "I", "Y", ((7, 0), (7, 1), (7, 2), (7, 3))))
    state = play(state, Draw(1, "I", "Y", ((5, 4), (5, 5), (5, 6), (5, 7))))
    assert state.row_points == ((), ((1, 3), (3, 5)))
    assert state.rows_taken == ((1, 1), (3, 1))


def test_a_wild_bonus_fills_any_empty_space_once():
    state = drawing_phase()
    marks = list(state.bonuses[0])
    marks[BONUSES.index("wild")] = "ready"
    state = dataclasses.replace(state, bonuses=(tuple(marks), state.bonuses[1]))
    after = play(state, Wild(0, (0, 0), "G"))
    assert after.boards[0].colour(0, 0) == "G" and "G" in after.used_colours[0]
    assert after.bonuses[0][BONUSES.index("wild")] == "used"
    with pytest.raises(BadDraw):
        play(after, Wild(0, (0, 1), "G"))


@pytest.mark.parametrize("colour", ["RY", "", "X", 3])
def test_a_wild_space_in_what_is_not_one_colour_is_refused_as_a_drawing(colour):
    state = with_ready(drawing_phase(), 0, "wild")
    with pytest.raises(BadDraw, match="not a colour of this game"):
        play(state, Wild(0, (0, 0), colour))


def test_a_colour_bonus_changes_the_colour_and_is_spent():
    state = drawing_phase()
    marks = list(state.bonuses[0])
    marks[BONUSES.index("colour")] = "ready"
    state = dataclasses.replace(state, bonuses=(tuple(marks), state.bonuses[1]))
    _shape, colour = state.picks[0]
    other = next(c for c in "RYGBPO" if c != colour)
    draw = next(d for d in legal_draws(state, 0) if d.colour == other and not d.cuts)
    after = play(state, draw)
    assert after.bonuses[0][BONUSES.index("colour")] == "used"
    assert other in after.used_colours[0]


def test_a_learners_own_mission_can_be_played():
    from colorlab.colorium.missions import MISSIONS, Mission, add_mission, each

    def pillars(board):
        return 2 * sum(len({row[c] for row in board.rows}) == 1 and board.rows[0][c] != "." for c in range(board.width))

    mine = Mission(
        id="mine-pillars",
        type="lines",
        title="Pillars",
        text="2 points per full one-colour column.",
        score=each(pillars),
    )
    try:
        add_mission(mine)
        rules = Rules(players=2, mission_ids="mine-pillars, areas-2")
        final = play_game(rules, seed=4).final_state()
        assert final.missions == ("mine-pillars", "areas-2")
        assert [parts["mine-pillars"] for parts in score_parts(final)] == mine.score(list(final.boards))
        with pytest.raises(Exception, match="unknown mission"):
            new_game(Rules(mission_ids="nobody"), 1)
    finally:
        MISSIONS.pop("mine-pillars", None)


def with_ready(state, player, *names):
    """The state with these printed bonuses (by name, each column once) ready for the player."""
    marks = list(state.bonuses[player])
    for name in names:
        marks[next(c for c, b in enumerate(BONUSES) if b == name and marks[c] != "ready")] = "ready"
    return dataclasses.replace(state, bonuses=_with(state.bonuses, player, tuple(marks)))


def _with(items, index, value):
    return items[:index] + (value,) + items[index + 1 :]


def test_an_out_player_waits_and_cannot_fill_a_wild_space():
    state = drawing_phase(rules=Rules(players=3))
    no_room = Board.parse("\n".join([".R.R.R.R"] + ["RRRRRRRR"] * 7))  # only single spaces left
    state = with_ready(
        dataclasses.replace(state, boards=_with(state.boards, 0, no_room), picks=_with(state.picks, 0, ("L", "B"))),
        0,
        "wild",
    )
    state = play(state, legal_draws(state, 1)[0])
    assert state.out[0] and not state.over and state.phase == "draw"
    assert legal_wilds(state, 0) == [] and legal_draws(state, 0) == []
    snapshot = dataclasses.replace(state)
    with pytest.raises(PlayerOut, match="out"):
        play(state, Wild(0, (0, 0), "G"))
    assert state == snapshot and state.bonuses[0][BONUSES.index("wild")] == "ready"


def test_every_ready_bonus_can_be_used_in_the_same_round_two_scissors_included():
    state = drawing_phase()
    state = dataclasses.replace(state, boards=(Board.empty(), state.boards[1]), picks=(("L", "R"), state.picks[1]))
    state = with_ready(state, 0, *BONUSES)
    assert any(d.cuts == 2 for d in legal_draws(state, 0))
    state = play(state, Wild(0, (7, 0), "G"))
    state = play(state, Wild(0, (7, 1), "Y"))
    state = play(state, Draw(0, "O", "B", ((7, 2),), cuts=2))  # the square, cut twice: one space
    assert state.boards[0].rows[-1] == "GYB....."
    used = sorted(BONUSES[c] for c, mark in enumerate(state.bonuses[0]) if mark == "used")
    assert used == ["colour", "scissors", "scissors", "shape", "wild", "wild"]
    ready = sorted(BONUSES[c] for c, mark in enumerate(state.bonuses[0]) if mark == "ready")
    assert ready == ["colour", "shape"], "a second colour or shape bonus is kept for later"


def test_two_cuts_must_make_a_part_that_one_cut_cannot_and_need_two_scissors():
    state = drawing_phase()
    state = dataclasses.replace(state, boards=(Board.empty(), state.boards[1]), picks=(("O", "R"), state.picks[1]))
    one_scissors = with_ready(state, 0, "scissors")
    two_scissors = with_ready(one_scissors, 0, "scissors")
    domino, space = ((7, 0), (7, 1)), ((7, 0),)
    for before, action in [
        (one_scissors, Draw(0, "O", "R", space, cuts=2)),
        (one_scissors, Draw(0, "O", "R", space, cuts=1)),
        (two_scissors, Draw(0, "O", "R", domino, cuts=2)),
        (two_scissors, Draw(0, "O", "R", space, cuts=3)),
        (two_scissors, Draw(0, "O", "R", domino, cuts=True)),
    ]:
        with pytest.raises(BadDraw):
            play(before, action)
    assert play(two_scissors, Draw(0, "O", "R", space, cuts=2)).boards[0].colour(7, 0) == "R"
    assert play(two_scissors, Draw(0, "O", "R", domino, cuts=1)).bonuses[0].count("ready") == 1


@pytest.mark.parametrize(
    "counts_as, shape, mission_points, shape_points",
    [("die", "L", [1, 0], 5), ("part", "V", [0, 1], 5), ("none", None, [0, 0], 0)],
)
def test_a_cut_part_counts_for_shape_missions_and_the_all_shapes_points_as_the_rule_says(
    counts_as, shape, mission_points, shape_points
):
    rules = Rules(players=2, cut_counts_as=counts_as, mission_ids="shapes-3, shapes-4")  # T, L, S and I, O, V
    state = drawing_phase(rules=rules)
    four_shapes = Board(Board.empty().rows, drawn=("I", "O", "T", "S"))
    state = dataclasses.replace(
        state,
        boards=(four_shapes, Board.empty()),
        picks=(("L", "R"), state.picks[1]),
        used_shapes=(frozenset("IOTS"), frozenset()),
    )
    state = with_ready(state, 0, "scissors")
    after = play(state, Draw(0, "L", "R", ((6, 0), (7, 0), (7, 1)), cuts=1))  # an L cut down to a V
    added = (shape,) if shape else ()
    assert after.boards[0].drawn == four_shapes.drawn + added and after.used_shapes[0] == set("IOTS" + "".join(added))
    mission_before = [MISSIONS[m].score(list(state.boards))[0] for m in ("shapes-3", "shapes-4")]
    mission_after = [MISSIONS[m].score(list(after.boards))[0] for m in ("shapes-3", "shapes-4")]
    assert [a - b for a, b in zip(mission_after, mission_before)] == mission_points
    assert score_parts(after)[0]["shapes"] == shape_points


def test_a_drawing_saved_before_two_cuts_existed_still_loads():
    old = {"type": "draw", "player": 0, "shape": "O", "colour": "R", "cells": [[7, 0], [7, 1]], "cut": True}
    assert action_from_dict(old) == Draw(0, "O", "R", ((7, 0), (7, 1)), cuts=1)
    assert action_to_dict(action_from_dict(old))["cuts"] == 1
    with pytest.raises(ValueError):
        action_from_dict({**old, "cut": 1})
