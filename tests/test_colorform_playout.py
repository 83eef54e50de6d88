"""Col-Or-Form games between reaction bots, played on plain numbers, are the model's games seed for seed."""

import dataclasses
import functools

import pytest

from colorlab.agents import play_out, seated_bots
from colorlab.colorform import Rules, agents, play_game, playout
from colorlab.colorform.agents import ReactionBot, next_action
from colorlab.colorform.model import Stop
from colorlab.colorform.playout import play_reaction_bots
from colorlab.record import GameRecord

RULE_SETS = [
    Rules(),
    Rules(players=3),
    Rules(players=4, hand_size=3),
    Rules(players=6, hand_size=4, tasks_per_player=1),
    Rules(players=5, hand_size=5, tasks_per_player=3),
    Rules(matching="shape"),
    Rules(matching="colour", mirror_images=True),
    Rules(matching="shape and colour", unsolvable_rounds=3),
    Rules(rotations=False),
    Rules(mirror_images=True, stop_window=5.0),
    Rules(players=4, stop_window=3.0),
    Rules(seconds_to_show=2.0),  # a claim with a hand card is shown too late: wrong
    Rules(largest_task=3, unsolvable_rounds=2),
    Rules(hand_size=1),
]
LEVELS = ("easy", "medium", "hard")


def line_up(rules: Rules, seed: int, mixed: bool, seated: bool = False) -> list[ReactionBot]:
    """Fresh bots for a table: all medium, or a mix of levels; with seeds of their own, or seated by the rule."""
    levels = [LEVELS[(seed + seat) % 3] if mixed else "medium" for seat in range(rules.players)]
    if seated:
        return seated_bots([functools.partial(ReactionBot, level) for level in levels], seed)
    return [ReactionBot(level, seed=seed * 31 + seat) for seat, level in enumerate(levels)]


def through_the_model(rules: Rules, bots: list, seed: int) -> GameRecord:
    """The same game played STOP by STOP through the model (play and next_action)."""
    return play_out("colorform", rules, bots, seed, next_action, 10_000)


def changed(rules: Rules) -> str:
    """The rules that differ from the defaults, for a test's name."""
    return (
        ", ".join(
            f"{field.name}={getattr(rules, field.name)!r}"
            for field in dataclasses.fields(rules)
            if getattr(rules, field.name) != field.default
        )
        or "defaults"
    )


@pytest.mark.parametrize("rules", RULE_SETS, ids=changed)
def test_the_same_games_as_the_model_seed_for_seed(rules):
    for seed in range(12):
        for mixed, seated in [(False, False), (True, False), (False, True), (True, True)]:
            quick_bots, model_bots = line_up(rules, seed, mixed, seated), line_up(rules, seed, mixed, seated)
            quick = play_reaction_bots(rules, quick_bots, seed)
            model = through_the_model(rules, model_bots, seed)
            assert quick.actions == model.actions
            assert all(type(action) is Stop and action.claims for action in quick.actions)
            for field in dataclasses.fields(model.final):  # the final state, field by field (events included)
                assert getattr(quick.final, field.name) == getattr(model.final, field.name), field.name
            assert [bot.rng.getstate() for bot in quick_bots] == [bot.rng.getstate() for bot in model_bots]


def test_the_compared_games_hold_wrong_and_void_claims_as_well_as_right_ones():
    # Bots blunder, calls come too late to show, and calls at the same moment take the same task: the
    # comparison above judged such claims too. (The events are the model's, replaying the records.)
    events = [
        event
        for rules in (Rules(seconds_to_show=2.0), Rules(players=4, stop_window=3.0))
        for seed in range(12)
        for state in play_reaction_bots(rules, line_up(rules, seed, True), seed).states()
        for event in state.events
    ]
    for kind in ("solved", "wrong on task", "shown after", "the claim is void"):
        assert any(kind in event for event in events), kind


def test_a_record_replays_through_the_model_to_the_same_end():
    for rules in RULE_SETS[:6]:
        record = play_reaction_bots(rules, line_up(rules, 5, True), 5)
        replayed = dataclasses.replace(record, final=None)
        assert replayed.final_state() == record.final


def test_play_game_plays_reaction_bot_tables_here_and_any_other_through_the_model(monkeypatch):
    rules = Rules(players=3)
    assert play_game(rules, seed=4) == play_reaction_bots(rules, line_up(rules, 4, False, seated=True), 4)

    class Slower(ReactionBot):
        pass

    played = []
    monkeypatch.setattr(playout, "play_out", lambda *args: played.append(args[0]) or "the model's")
    assert play_game(rules, [Slower("medium", seed=seat) for seat in range(3)], seed=4) == "the model's"
    assert play_game(Rules.junior(), seed=4) == "the model's"
    assert play_game(rules, seed=4) != "the model's"
    assert played == ["colorform", "colorform"]


def test_another_reaction_time_model_is_used_as_the_bots_use_it(monkeypatch):
    # Tests and lessons may give the bots another eye: the quick table reads it as they do.
    monkeypatch.setattr(agents, "reaction_seconds", lambda figures, turns, cards, mirrored=False: 9.0 - figures - cards)
    rules = Rules(players=3)
    for seed in range(6):
        quick = play_reaction_bots(rules, line_up(rules, seed, True), seed)
        assert quick.actions == through_the_model(rules, line_up(rules, seed, True), seed).actions
    assert quick.actions != play_reaction_bots(rules, line_up(rules, seed, True), seed + 1).actions


def test_bad_tables_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="3 players need 3 agents, not 2"):
        play_reaction_bots(Rules(players=3), line_up(Rules(), 0, False), 0)
    with pytest.raises(ValueError, match="only the base game"):
        play_reaction_bots(Rules.junior(), line_up(Rules.junior(), 0, False), 0)
    with pytest.raises(RuntimeError, match="did not end within 3 actions"):
        play_reaction_bots(Rules(), line_up(Rules(), 0, False), 0, max_actions=3)


def test_a_table_that_can_never_go_on_ends_before_the_first_call():
    # Nothing fits: the first rounds end at once until the unsolvable-rounds rule ends the game.
    rules = Rules(matching="shape and colour", rotations=False, unsolvable_rounds=2)
    seeds = [seed for seed in range(40) if not through_the_model(rules, line_up(rules, seed, False), seed).actions]
    assert seeds, "some deal where nobody can ever solve a task"
    for seed in seeds[:3]:
        quick = play_reaction_bots(rules, line_up(rules, seed, False), seed)
        assert quick.actions == () and quick.final == through_the_model(rules, line_up(rules, seed, False), seed).final
