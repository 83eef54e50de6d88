"""One seeding rule for every bot colorlab seats: the same game seed and seat give the same bot wherever it plays.

The bot at a seat draws the chance of its move at step k from (game seed, seat, k) alone
(``colorlab.agents``): in ``play_game``, in an experiment, at a shared table, in a widget. A bot
with a seed of its own runs on, draw after draw; a game saved before records named their seeding
goes on with the bots the widget that saved it had.
"""

from __future__ import annotations

import functools
import json
import random
import statistics

import pytest

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.agents import FreshBot, SeatChance, bot_seed, ready, seat_bot, seat_bots, seated_bots
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox.view import ColorFoxGame
from colorlab.colorium.view import ColoriumGame
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.experiments import play_chunk
from colorlab.games import find_game
from colorlab.record import OLD_WIDGET_SEEDING, SEEDING, GameRecord
from colorlab.tables import TableStore
from tests.helpers.page import browser_sends


def draws(chance: SeatChance) -> list:
    """A few draws of every kind random.Random offers, from where the chance stands."""
    return [
        chance.random(),
        chance.getrandbits(20),
        chance.choice(range(1000)),
        chance.gauss(0.0, 1.0),
        chance.sample(range(50), 3),
        chance.randrange(7),
    ]


# --- a seat's chance ---------------------------------------------------------------------------


def test_a_steps_draws_depend_on_the_seed_the_seat_and_the_step_alone():
    chance = SeatChance(5, 1)
    chance.at(7)
    first = draws(chance)
    for step in (3, 8, 7, 0):  # whatever was drawn, and wherever, before
        chance.at(step)
        draws(chance)
    chance.at(7)
    assert draws(chance) == first
    again = SeatChance(5, 1)
    again.at(7)
    assert draws(again) == first
    for seed, seat, step in [(6, 1, 7), (5, 0, 7), (5, 1, 6), (5, 1, 8)]:
        other = SeatChance(seed, seat)
        other.at(step)
        assert draws(other) != first


def test_a_seats_draws_look_uniform_step_after_step():
    chance = SeatChance(3, 0)
    counts, numbers = [0] * 7, []
    for step in range(7000):
        chance.at(step)
        counts[chance.choice(range(7))] += 1
        numbers.append(chance.random())
    assert sum((count - 1000) ** 2 / 1000 for count in counts) < 22.5  # chi-square, 6 degrees: p = 0.001
    assert abs(statistics.fmean(numbers) - 0.5) < 0.01 and min(numbers) >= 0 and max(numbers) < 1


def test_a_seats_normal_numbers_have_the_mean_and_spread_asked_for():
    chance = SeatChance(4, 2)
    numbers = [chance.gauss(1.0, 0.25) for _ in range(20_000)]
    assert abs(statistics.fmean(numbers) - 1.0) < 0.01 and abs(statistics.stdev(numbers) - 0.25) < 0.01


def test_choice_is_random_randoms_choice_on_the_same_stream():
    for n in (1, 2, 3, 7, 8, 1000, 2**40 + 1):
        quick, plain = SeatChance(9, 1), SeatChance(9, 1)
        assert [quick.choice(range(n)) for _ in range(50)] == [random.Random.choice(plain, range(n)) for _ in range(50)]
    with pytest.raises(IndexError):
        SeatChance().choice([])


def test_bits_of_any_width_and_the_state_round_trip():
    chance = SeatChance(2, 0)
    assert chance.getrandbits(0) == 0
    assert all(chance.getrandbits(k) < 2**k for k in (1, 5, 63, 64, 65, 200) for _ in range(20))
    with pytest.raises(ValueError):
        chance.getrandbits(-1)
    kept = chance.getstate()
    ahead = draws(chance)
    chance.setstate(kept)
    assert draws(chance) == ahead


# --- seating a bot -----------------------------------------------------------------------------


def test_a_seeded_agent_draws_from_its_seats_chance():
    bot = seat_bot(functools.partial(colourbrain.QuizBot, "hard"), 12, 1)
    assert type(bot) is colourbrain.QuizBot and bot.level == "hard" and isinstance(bot.rng, SeatChance)
    assert ready(bot, 5) is bot and bot.rng.step == 5


def test_a_bot_without_a_generator_is_made_afresh_with_the_steps_seed():
    quick = functools.partial(colorfox.SearchBot, playouts=20)
    bot = seat_bot(quick, 3, 1)
    assert isinstance(bot, FreshBot) and bot.name == quick(seed=0).name
    record = colorfox.play_game(colorfox.Rules(), seated_bots([colorfox.GreedyBot, quick], 3), seed=3)
    states = list(record.states())
    step = next(k for k, state in enumerate(states) if colorfox.to_move(state) == 1 and not state.exchanges_left)
    move = ready(bot, step).act(states[step], 1)
    assert move == record.actions[step] == quick(seed=bot_seed(3, 1, step)).act(states[step], 1)
    assert bot.act(states[step], 1) == move  # asked again at the same step, the same bot answers


def test_a_bot_with_a_seed_of_its_own_runs_on():
    bot = colorfox.GreedyBot(seed=5)
    kept = bot.rng.getstate()
    assert ready(bot, 9) is bot and bot.rng.getstate() == kept


def test_seat_bots_seats_by_the_rule_or_as_an_old_widget_did():
    make = colorium.RandomBot
    assert all(isinstance(bot.rng, SeatChance) for bot in seat_bots(make, 4, [1, 2]).values())
    old = seat_bots(make, 4, [1, 2], OLD_WIDGET_SEEDING)
    assert [bot.rng.random() for bot in old.values()] == [random.Random(4 * 7 + seat).random() for seat in (1, 2)]
    with pytest.raises(ValueError, match="seed\\*31"):
        seat_bots(make, 4, [1], "seed*31+seat")


# --- the same bot wherever it plays ----------------------------------------------------------------

LINE_UPS = {
    "colorfox": (colorfox.Rules(), ["GreedyBot", "SetBuilder"]),
    "colorium": (colorium.Rules(), ["MissionBot", "RandomBot"]),
    "colourbrain": (colourbrain.Rules(teams=3), ["QuizBot (hard)", "QuizBot", "QuizBot (easy)"]),
    "colorform": (colorform.Rules.junior(), ["ReactionBot (hard)", "ReactionBot"]),
}


@pytest.mark.parametrize("game", LINE_UPS)
def test_a_table_of_bots_plays_the_game_play_game_and_the_lab_play(tmp_path, game):
    rules, names = LINE_UPS[game]
    declared = find_game(game)
    store = TableStore(tmp_path / "class.db")
    for seed in (1, 2):
        code = store.create(game, rules, seed=seed, bots=dict(enumerate(names)))
        while not store.catch_up(code).state.over:
            pass
        at_table = store.record(code)
        played = declared.play_game(rules, seated_bots([declared.bots[name] for name in names], seed), seed=seed)
        assert at_table.actions == played.actions and at_table.bots == tuple(names)
        assert play_chunk(game, rules.to_dict(), [seed], names)[0]["actions"] == len(played.actions)
    store.engine.dispose()


def test_play_games_default_bots_are_seated_by_the_rule():
    for module, make, rules in [
        (colorfox, colorfox.GreedyBot, colorfox.Rules()),
        (colorium, colorium.GreedyBot, colorium.Rules()),
        (colourbrain, colourbrain.QuizBot, colourbrain.Rules()),
        (colorform, colorform.ReactionBot, colorform.Rules()),
    ]:
        bots = seated_bots([make] * rules.players, 6)
        assert module.play_game(rules, seed=6).actions == module.play_game(rules, bots, seed=6).actions


def play_against(widget, you, seed: int) -> None:
    """Play the widget's game to the end: your moves chosen by `you`, a bot seated in seat 0 by the rule."""
    mine = seat_bot(you, seed, 0)
    while not widget.state.over:
        if widget.bot_seat(widget.state) is not None:
            widget.bot_move()
        else:
            widget.play(ready(mine, len(widget.record.actions)).act(widget.state, 0))


def test_a_widgets_bots_are_the_bots_play_game_seats():
    game = ColorFoxGame(bots=1, bot="GreedyBot", seed=9)
    assert game.record.seeding == SEEDING
    play_against(game, colorfox.SetBuilder, 9)
    played = colorfox.play_game(game.state.rules, seated_bots([colorfox.SetBuilder, colorfox.GreedyBot], 9), seed=9)
    assert game.record.actions == played.actions


@pytest.mark.parametrize(
    "widget, you, bot",
    [(ColorFoxGame, colorfox.SetBuilder, "RandomBot"), (ColoriumGame, colorium.MissionBot, "RandomBot")],
)
def test_an_undo_changes_none_of_the_bots_moves(widget, you, bot):
    game = widget(bots=2, bot=bot, seed=11)
    play_against(game, you, 11)
    played = game.record.actions
    game.undo()
    game.undo()
    assert len(game.record.actions) < len(played) and game.record.marks
    play_against(game, you, 11)
    assert game.record.actions == played


def test_a_col_or_form_widgets_bots_plan_as_the_rule_seats_them():
    game = ColorFormGame(bots=2, level="hard", seed=3, bots_wait=True)
    hard = find_game("colorform").bots["ReactionBot (hard)"]
    assert game.plans and game.plans == {
        seat: claim for seat in (1, 2) if (claim := ready(seat_bot(hard, 3, seat), 0).act(game.state, seat))
    }


def test_a_solo_quizs_bots_answer_as_the_rule_seats_them():
    quiz = ColourbrainQuiz(colourbrain.Rules(teams=3), solo=True, level="easy", seed=8)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": list(quiz.state.question.answer), "copier": False})
    easy = find_game("colourbrain").bots["QuizBot (easy)"]
    states = list(quiz.record.states())
    for step, action in enumerate(quiz.record.actions[1:], start=1):
        assert action == ready(seat_bot(easy, 8, action.team), step).act(states[step], action.team)


# --- a game saved before the rule ----------------------------------------------------------------


def saved_before_the_rule(record: GameRecord) -> str:
    """The record as a version 2 file holds it: no seeding and no bots."""
    data = json.loads(record.to_json())
    del data["seeding"], data["bots"]
    return json.dumps({**data, "version": 2})


def test_a_game_saved_before_the_rule_goes_on_with_the_bots_its_widget_had():
    seed, rules = 4, colorfox.Rules(players=3)
    start = colorfox.play_game(rules, seed=seed).undo(0)
    start = GameRecord("colorfox", rules, seed, start.actions[:5])
    game = ColorFoxGame(bots=2, bot="RandomBot", seed=1)
    browser_sends(game, {"type": "load", "text": saved_before_the_rule(start)})
    assert game.notice["kind"] == "info" and game.record.seeding == OLD_WIDGET_SEEDING
    # As before: each bot seeded seed * 7 + seat when the game was loaded, drawing on from move to move.
    bots, you = {seat: colorfox.RandomBot(seed=seed * 7 + seat) for seat in (1, 2)}, colorfox.GreedyBot(seed=0)
    state, expected = game.state, []
    while not state.over:
        seat = colorfox.to_move(state)
        expected.append(bots.get(seat, you).act(state, seat))
        state = colorfox.play(state, expected[-1])
    you = colorfox.GreedyBot(seed=0)
    while not game.state.over:
        if game.bot_seat(game.state) is not None:
            game.bot_move()
        else:
            game.play(you.act(game.state, 0))
    assert game.record.actions[5:] == tuple(expected)
    saved = GameRecord.from_json(game.record.to_json())
    assert saved.seeding == OLD_WIDGET_SEEDING
    browser_sends(game, {"type": "new_game"})
    assert game.record.seeding == SEEDING
