"""The search core on toy games, and the search bots of ColorFox and Colorium: legal, reproducible, honest."""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
import time

import pytest

from colorlab import colorfox, colorium
from colorlab.colorfox import agents as fox_agents
from colorlab.colorium import agents as ium_agents
from colorlab.search import Budget, SearchGame, Tuning, check_budget, grow, search


def take_away(start: int) -> SearchGame:
    """Take 1 or 2 counters; whoever takes the last one wins. A state is (counters left, player to move)."""
    return SearchGame(
        to_move=lambda s: s[1],
        actions=lambda s: [n for n in (1, 2) if n <= s[0]],
        play=lambda s, n: (s[0] - n, 1 - s[1]),
        is_over=lambda s: s[0] == 0,
        reward=lambda s: [float(s[1] != p) for p in (0, 1)],
        determinise=lambda s, player, rng: s,
    )


@pytest.mark.parametrize("counters, best", [(4, 1), (5, 2), (7, 1), (8, 2), (10, 1)])
def test_the_search_finds_the_winning_move_of_a_toy_game(counters, best):
    # Leaving a multiple of 3 wins: the only winning move is counters % 3.
    assert search(take_away(counters), (counters, 0), 0, random.Random(1), playouts=800) == best


def guess_the_card() -> SearchGame:
    """Player 0 names 'high' or 'low' for a hidden card from 1 to 10, of which it has seen only that it is above 3.

    A state is (hidden card, guess or None). A search that determinises draws the card
    from 4..10 and says 'high'; the true card (2 in the test) is never used.
    """
    return SearchGame(
        to_move=lambda s: 0,
        actions=lambda s: ["high", "low"],
        play=lambda s, g: (s[0], g),
        is_over=lambda s: s[1] is not None,
        reward=lambda s: [float((s[0] > 5) == (s[1] == "high"))],
        determinise=lambda s, player, rng: (rng.randint(4, 10), s[1]),
    )


def test_the_search_judges_by_its_deals_not_by_the_hidden_truth():
    assert search(guess_the_card(), (2, None), 0, random.Random(0), playouts=300) == "high"


def pick_a_number() -> SearchGame:
    """One move: pick 0 to 9; every pick wins half the time, by a coin tossed in each deal."""
    return SearchGame(
        to_move=lambda s: 0,
        actions=lambda s: list(range(10)),
        play=lambda s, n: ("picked", s[1]),
        is_over=lambda s: s[0] == "picked",
        reward=lambda s: [float(s[1] < 0.5)],
        determinise=lambda s, player, rng: ("start", rng.random()),
    )


def test_progressive_widening_tries_the_first_ranked_moves_only():
    game = pick_a_number()
    root = grow(
        game, ("start", 0.0), 0, random.Random(0), {n: n for n in range(10)}, Budget(15, None), Tuning(widening=1.0)
    )
    assert sorted(root.children) == [0, 1, 2, 3]  # ceil(sqrt(visits + 1)) reaches 4 at the 10th playout
    root = grow(game, ("start", 0.0), 0, random.Random(0), {n: n for n in range(10)}, Budget(15, None), Tuning())
    assert len(root.children) == 10


def test_progressive_bias_follows_the_ranking_when_playouts_cannot_tell_moves_apart():
    chosen = {search(pick_a_number(), ("start", 0.0), 0, random.Random(seed), playouts=100) for seed in range(6)}
    assert len(chosen) > 1  # without bias, the luck of the coins decides
    for seed in range(6):
        assert (
            search(pick_a_number(), ("start", 0.0), 0, random.Random(seed), playouts=100, tuning=Tuning(bias=20)) == 0
        )
    reversed_ranking = dataclasses.replace(pick_a_number(), actions=lambda s: list(range(9, -1, -1)))
    assert search(reversed_ranking, ("start", 0.0), 0, random.Random(0), playouts=100, tuning=Tuning(bias=20)) == 9


def test_the_budget_is_a_number_of_playouts_exactly():
    dealt = []
    game = dataclasses.replace(take_away(9), determinise=lambda s, player, rng: dealt.append(s) or s)
    search(game, (9, 0), 0, random.Random(0), playouts=37)
    assert len(dealt) == 37


def test_a_budget_in_seconds_is_kept():
    start = time.perf_counter()
    search(take_away(30), (30, 0), 0, random.Random(0), seconds=0.2)
    assert 0.2 <= time.perf_counter() - start < 1.5


@pytest.mark.parametrize(
    "budget",
    [
        {"playouts": 0},
        {"playouts": -5},
        {"playouts": 2.5},
        {"playouts": True},
        {"playouts": "100"},
        {"seconds": 0},
        {"seconds": -1.0},
        {"seconds": math.nan},
        {"seconds": math.inf},
        {"seconds": "1"},
        {"playouts": 10, "seconds": 1.0},
    ],
)
def test_bad_budgets_are_refused_with_a_reason(budget):
    with pytest.raises(ValueError, match=r"playouts|seconds|budget"):
        check_budget(budget.get("playouts"), budget.get("seconds"))
    with pytest.raises(ValueError, match=r"playouts|seconds|budget"):
        search(take_away(5), (5, 0), 0, random.Random(0), **budget)
    for bot in (colorfox.SearchBot, colorium.SearchBot):
        with pytest.raises(ValueError, match=r"playouts|seconds|budget"):
            bot(seed=1, **budget)


GAMES = {"colorfox": (colorfox, fox_agents), "colorium": (colorium, ium_agents)}
VARIANTS = {
    "colorfox": [
        colorfox.Rules(),
        colorfox.Rules(players=3, exchange_pick="opponent"),
        colorfox.Rules(players=4, half_turn=True, passing="end when all pass", tie="shared win"),
        colorfox.Rules(exchanges=False, sticks_per_colour=3, max_set_size=3),
    ],
    "colorium": [
        colorium.Rules(),
        colorium.Rules(players=3, drop="straight", mirror_images=False),
        colorium.Rules(players=1, width=5, height=5, cut_counts_as="part"),
        colorium.Rules(players=4, bonuses=False, shapes="ITLV", colours="RYGB"),
    ],
}


def positions(game: str, rules, seed: int, every: int) -> list:
    """States met in one seeded game of random bots, one in `every`, with the player who decides in each."""
    module, agents = GAMES[game]
    bots = [module.RandomBot(seed=seed * 10 + seat) for seat in range(rules.players)]
    state, found, step = module.new_game(rules, seed), [], 0
    while not state.over:
        seat = agents.SEARCH_GAME.to_move(state)
        if step % every == 0:
            found.append((state, seat))
        state = module.play(state, bots[seat].act(state, seat))
        step += 1
    return found


def legal(game: str, state, seat: int) -> list:
    """Every action the model allows the deciding player now."""
    if game == "colorfox":
        return colorfox.legal_actions(state)
    if state.phase == "draft":
        return ium_agents.legal_picks(state, seat)
    return colorium.legal_draws(state, seat) + colorium.legal_wilds(state, seat)


@pytest.mark.parametrize("game, variant", [(g, v) for g in VARIANTS for v in range(len(VARIANTS[g]))])
def test_every_move_of_the_search_bot_is_legal(game, variant):
    rules = VARIANTS[game][variant]
    module = GAMES[game][0]
    checked = 0
    for seed in range(3):
        for state, seat in positions(game, rules, seed, every=2 if game == "colorfox" else 5)[:12]:
            move = module.SearchBot(seed=seed, playouts=8).act(state, seat)
            assert move in legal(game, state, seat)
            module.play(state, move)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize(
    "game, rules", [("colorfox", rules) for rules in VARIANTS["colorfox"]] + [("colorium", VARIANTS["colorium"][2])]
)
def test_a_search_bot_plays_whole_games(game, rules):
    module = GAMES[game][0]
    bots = [module.SearchBot(seed=seat, playouts=4) for seat in range(rules.players)]
    assert module.play_game(rules, bots, seed=1).final_state().over


def test_the_colorfox_search_bot_answers_an_offer():
    rules = colorfox.Rules(exchange_pick="opponent")
    for state, seat in positions("colorfox", rules, 3, every=1) + positions("colorfox", rules, 4, every=1):
        if state.offer is not None:
            answer = colorfox.SearchBot(seed=0, playouts=30).act(state, seat)
            assert isinstance(answer, colorfox.HandBack) and answer in colorfox.legal_actions(state)
            return
    pytest.fail("no offer met in these games")


@pytest.mark.parametrize("game", GAMES)
def test_a_search_bot_has_nothing_to_do_when_it_is_not_its_decision(game):
    state, seat = positions(game, VARIANTS[game][0], 0, every=5)[1]
    assert GAMES[game][0].SearchBot(seed=0, playouts=5).act(state, 1 - seat) is None


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_position_same_move(game):
    module = GAMES[game][0]
    found = positions(game, VARIANTS[game][0], 5, every=3)[:6]
    busy = module.SearchBot(seed=7, playouts=15)
    first = [busy.act(state, seat) for state, seat in found]
    again = [module.SearchBot(seed=7, playouts=15).act(state, seat) for state, seat in reversed(found)]
    assert first == again[::-1]
    copied = pickle.loads(pickle.dumps(busy))
    assert [copied.act(state, seat) for state, seat in found] == first


@pytest.mark.parametrize("game", GAMES)
def test_different_seeds_can_choose_differently(game):
    module = GAMES[game][0]
    found = positions(game, VARIANTS[game][0], 6, every=2)[:6]
    moves = {
        seed: [module.SearchBot(seed=seed, playouts=6).act(state, seat) for state, seat in found] for seed in range(3)
    }
    assert len({tuple(map(repr, chosen)) for chosen in moves.values()}) > 1


def fox_twin(state, seat: int, rng: random.Random):
    """The same ColorFox table from `seat`'s chair, with the other hands and the pile dealt again."""
    hidden = [card for p, hand in enumerate(state.hands) if p != seat for card in hand] + list(state.deck)
    rng.shuffle(hidden)
    hands, dealt = [], 0
    for p, hand in enumerate(state.hands):
        hands.append(hand if p == seat else tuple(hidden[dealt : dealt + len(hand)]))
        dealt += 0 if p == seat else len(hand)
    return dataclasses.replace(state, hands=tuple(hands), deck=tuple(hidden[dealt:]), seed=state.seed + 1)


def ium_twin(state, seat: int, rng: random.Random):
    """The same Colorium boards and pool, with other dice to come (another seed)."""
    return dataclasses.replace(state, seed=rng.getrandbits(32))


TWINS = {"colorfox": fox_twin, "colorium": ium_twin}


def twin_moves_that_differ(game: str, bot: type) -> tuple[int, int]:
    """Over twin positions: how often do the twins get different moves from `bot`, honest and as dealt?"""
    twin = TWINS[game]
    every, first, last, playouts = (3, 1, 5, 20) if game == "colorfox" else (4, 2, 10, 30)
    found = [pair for seed in (11, 12) for pair in positions(game, VARIANTS[game][0], seed, every)[first:last]]
    differ = 0
    for number, (state, seat) in enumerate(found):
        other = twin(state, seat, random.Random(number))
        assert GAMES[game][1].observation(other, seat) == GAMES[game][1].observation(state, seat)
        searcher = bot(seed=number, playouts=playouts)
        differ += searcher.act(state, seat) != searcher.act(other, seat)
    return differ, len(found)


def peeking(module) -> type:
    """A search bot that skips the determinisation: it searches the true state, hidden cards and dice included."""
    game = dataclasses.replace(module.SearchBot.game, determinise=lambda state, player, rng: state)
    return type("PeekingSearchBot", (module.SearchBot,), {"game": game})


@pytest.mark.parametrize("game", GAMES)
def test_the_search_bot_never_looks_at_what_it_cannot_see(game):
    differ, found = twin_moves_that_differ(game, GAMES[game][0].SearchBot)
    assert found >= 8 and differ == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_twin_test_catches_a_bot_that_skips_the_determinisation(game):
    differ, _ = twin_moves_that_differ(game, peeking(GAMES[game][0]))
    assert differ > 0


@pytest.mark.slow
def test_the_colorfox_search_bot_beats_the_random_bot():
    won = 0.0
    for seed in range(10):
        seat = seed % 2
        bots = [colorfox.RandomBot(seed=seed + 100 * p) for p in range(2)]
        bots[seat] = colorfox.SearchBot(seed=seed, playouts=8)
        points = colorfox.scores(colorfox.play_game(colorfox.Rules(), bots, seed=seed).final_state())
        won += (points[seat] == max(points)) / points.count(max(points))
    assert won >= 8
