"""The Colorium engine: random games with invariants after every action, and refusals."""

import dataclasses
import random

import pytest

from colorlab.colorium.agents import GreedyBot, MissionBot, RandomBot, legal_picks, next_action, play_game
from colorlab.colorium.board import EMPTY, Board
from colorlab.colorium.model import (BONUSES, BadDraw, BadPick, Draw, Pick, Wild, WrongPhase, legal_draws,
                                     new_game, play, score_parts, scores, winners)
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import scissors
from colorlab.record import GameRecord
from colorlab.rules import GameOver, NotYourTurn
from tests.test_colorium_shapes import reference_placements

VARIANTS = [Rules(players=1), Rules(players=2), Rules(players=3), Rules(players=4),
            Rules(players=2, drop="straight"), Rules(players=3, mirror_images=False),
            Rules(players=2, bonuses=False, row_rewards=False), Rules(players=2, width=6, height=6),
            Rules(players=2, width=10, height=5)]
ORDER = {"none": 0, "locked": 0, "earned": 1, "ready": 2, "used": 3}


def supported(board: Board, cells) -> bool:
    """Does at least one cell stand on the bottom row or on a filled space?"""
    return any(r == board.height - 1 or board.colour(r + 1, c) is not None for r, c in cells)


def check_invariants(state):
    for p, board in enumerate(state.boards):
        filled = sum(char != EMPTY for row in board.rows for char in row)
        assert state.used_shapes[p] == set(board.drawn)
        assert state.used_colours[p] >= {char for row in board.rows for char in row if char != EMPTY}
        assert filled >= len(board.drawn), "a drawing left no mark"
        assert all(mark in ORDER for mark in state.bonuses[p])
    if state.phase == "draft":
        dice = len(state.pool) + sum((s is not None) + (c is not None) for s, c in state.picks)
        assert dice == 2 * sum(not out for out in state.out), "dice lost or doubled"
    for p, (shape, colour) in enumerate(state.picks):
        assert shape is None or shape in state.rules.shapes
        assert colour is None or colour in state.rules.colours
    if state.over:
        assert all(state.out) and winners(state)
    assert scores(state) == [sum(parts.values()) for parts in score_parts(state)]


def check_step(before, action, after):
    for p in range(before.players):
        for column, (old, new) in enumerate(zip(before.bonuses[p], after.bonuses[p])):
            assert ORDER[new] >= ORDER[old], f"the bonus of column {column} of player {p} went back"
            assert (old == "none") == (new == "none") == (column >= len(BONUSES)), "a bonus beyond the printed row"
    if isinstance(action, Draw):
        board = before.boards[action.player]
        assert all(board.colour(r, c) is None for r, c in action.cells), "a drawing overlaps"
        assert supported(board, action.cells), "a drawing floats"
        pieces = scissors(action.shape) if action.cut else [action.shape]
        reachable = {cells for piece in pieces for _, cells in reference_placements(board, piece, before.rules)}
        assert frozenset(action.cells) in reachable, "a drawing is not a resting place under the drop rule"
        used = sum(old != new and new == "used" for old, new in zip(before.bonuses[action.player],
                                                                    after.bonuses[action.player]))
        shape, colour = before.picks[action.player]
        assert used == (action.shape != shape) + (action.colour != colour) + action.cut
    if isinstance(action, Pick):
        assert len(after.pool) in (len(before.pool) - 1, len(after.pool))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()) or "default")
def test_random_games_keep_every_invariant(rules):
    for seed in range(4):
        rng = random.Random(seed)
        agents = [rng.choice([RandomBot, GreedyBot])(seed=seed * 10 + p) for p in range(rules.players)]
        state = new_game(rules, seed)
        check_invariants(state)
        actions = []
        while not state.over:
            assert len(actions) < 1000, "game did not end"
            action = next_action(state, agents)
            after = play(state, action)
            check_invariants(after)
            check_step(state, action, after)
            state, actions = after, actions + [action]
        record = GameRecord("colorium", rules, seed, tuple(actions))
        again = GameRecord.from_json(record.to_json())
        assert again == record and again.final_state().boards == state.boards


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
    for action, error in [(dataclasses.replace(good, colour=other_colour), BadDraw),
                          (dataclasses.replace(good, shape="O" if shape != "O" else "I"), BadDraw),
                          (Draw(0, shape, colour, floating), BadDraw),
                          (Pick(0, 0), WrongPhase),
                          (Wild(0, (0, 0), "R"), BadDraw)]:
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


def test_a_colour_bonus_changes_the_colour_and_is_spent():
    state = drawing_phase()
    marks = list(state.bonuses[0])
    marks[BONUSES.index("colour")] = "ready"
    state = dataclasses.replace(state, bonuses=(tuple(marks), state.bonuses[1]))
    shape, colour = state.picks[0]
    other = next(c for c in "RYGBPO" if c != colour)
    draw = next(d for d in legal_draws(state, 0) if d.colour == other and not d.cut)
    after = play(state, draw)
    assert after.bonuses[0][BONUSES.index("colour")] == "used"
    assert other in after.used_colours[0]


def test_a_learners_own_mission_can_be_played():
    from colorlab.colorium.missions import MISSIONS, Mission, add_mission, each

    def pillars(board):
        return 2 * sum(len({row[c] for row in board.rows}) == 1 and board.rows[0][c] != "." for c in range(board.width))

    mine = Mission(id="mine-pillars", type="lines", title="Pillars", text="2 points per full one-colour column.",
                   score=each(pillars))
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
