"""Whole Col-Or-Form games between reaction bots, played on plain numbers.

Experiments, and the benchmarks, play thousands of games between reaction bots
(:class:`~colorlab.colorform.agents.ReactionBot`). Through the model every STOP makes a new
:class:`~colorlab.colorform.model.State`, and every bot lists all its ways again as tuples.
:func:`play_reaction_bots` plays the same games on a table of lists and bit sets that change in
place:

- each player's *plan*, the way its bot would claim, is worked out once per position. It
  answers both questions the position asks: does the round go on (it does while anyone has
  a plan), and what does each bot call?
- a bot's liking for a way is one whole number (easy before hard, then quicker first), and its
  ways, listed in table order and sorted stably by liking, are in the order the bot tries
  them; the missing bits of a way (the pairs it needs hand cards for) are worked out once per
  position for every hand;
- objects are made only for the record: the claims of each STOP and the final state, whose
  events alone are put into words.

The games are the model's, seed for seed: the same claims at the same times, the same
verdicts, rounds, events and final state. The tests hold the two to that over many rule sets,
bot levels and table sizes, and replay the records through
:func:`~colorlab.colorform.model.play`, which checks every claim from scratch. Here each claim
is judged as ``play`` judges it (shown in time, and every figure of the turned task fitting the
card under it once the claim's cards are laid); its form is right by making, as the bots build
it from the cards they hold and the tasks they see.

:func:`play_game` plays a base game with a ReactionBot at every seat here, and any other
table through the model.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Sequence
from math import exp

from colorlab.agents import MASK, STEP_PLACES, play_out, seat_chances, seated_bots
from colorlab.colorform import agents
from colorlab.colorform.agents import ReactionBot, next_action
from colorlab.colorform.components import task_cards
from colorlab.colorform.model import (
    FIRST_ROUND,
    PILE_RAN_OUT,
    State,
    Stop,
    deal,
    evolve,
    faults,
    game_over_event,
    new_round_event,
    returned_event,
    round_end_event,
    solved_event,
    unsolvable_end,
    void_event,
    wrong_event,
)
from colorlab.colorform.rules import Rules
from colorlab.colorform.solver import ACCEPTS, EVERY_CELL, FIGURE_COUNT, FIGURE_MASK, assign, laid
from colorlab.record import GameRecord

# A way's liking, as one number: hard (more hand cards than the bot juggles with ease), then the
# seconds it takes (their rank). Ways listed in their order on the table (the revealed tasks in
# seat order, each task's turns in turn) and sorted stably by liking are in the order ReactionBot
# sorts them: (hard, seconds, order).
RANK_BITS = 12  # distinct seconds of the three levels' tables: at most 3 * 800 < 2 ** 12
RANK = (1 << RANK_BITS) - 1
EVERY_PAIR = FIGURE_MASK * EVERY_CELL  # every (cell, figure) bit: masks with it stay positive, which is quicker
by_liking = operator.itemgetter(0)


@functools.cache
def _ranked_seconds(seconds_of: Callable) -> tuple[dict[float, int], tuple[float, ...]]:
    """Every seconds value the levels' tables hold, each with its rank, and the values in rank order."""
    values = sorted(
        {
            seconds
            for level in agents.LEVELS.values()
            for seconds in agents.seconds_table(seconds_of, level.most_cards).values()
        }
    )
    return {seconds: rank for rank, seconds in enumerate(values)}, tuple(values)


@functools.cache
def way_likings(seconds_of: Callable, ease: int, turns: tuple[bool, bool]) -> dict[int, tuple]:
    """For each task card's number, and each allowed turn of the card: its bits, its liking for each number of
    hand cards, and the turn: (task, rotation, mirrored, (cell, figure) pairs, :func:`pair_places`)."""
    table = agents.seconds_table(seconds_of, ease)
    rank, _ = _ranked_seconds(seconds_of)
    return {
        task.number: tuple(
            (
                bits,
                tuple(
                    (cards > ease) << RANK_BITS | rank[table[task.size, rotation, cards, mirrored]]
                    for cards in range(10)
                ),
                (*turn, pair_places(turn[3])),
            )
            for turn, bits in task.turns[turns]
            for _, rotation, mirrored, _ in [turn]
        )
        for task in task_cards()
    }


def pair_places(pairs: tuple) -> tuple[int, ...]:
    """For each of the nine cells, the place of its pair among a turned task's (cell, figure) pairs (9: none)."""
    return tuple(next((at for at, (spot, _) in enumerate(pairs) if spot == cell), 9) for cell in range(9))


def play_game(
    rules: Rules = Rules(), agents: list | None = None, seed: int = 0, max_actions: int = 10_000
) -> GameRecord:
    """Play a whole game between bots (by default a medium ReactionBot at every seat) and return its record
    (a base game of ReactionBots here, on plain numbers)."""
    agents = agents or seated_bots([ReactionBot] * rules.players, seed)
    if rules.variant == "base" and all(type(agent) is ReactionBot for agent in agents):
        return play_reaction_bots(rules, agents, seed, max_actions)
    return play_out("colorform", rules, agents, seed, next_action, max_actions)


def play_reaction_bots(
    rules: Rules, bots: Sequence[agents.ReactionBot], seed: int = 0, max_actions: int = 10_000
) -> GameRecord:
    """Play a base game between ReactionBots, one a seat, and return its record (the model's game, seed for seed)."""
    if rules.variant != "base":
        raise ValueError(f"only the base game is played here, not {rules.variant!r}")
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} agents, not {len(bots)}")
    table = _Table(rules, seed, bots)
    return GameRecord("colorform", rules, seed, tuple(table.play(max_actions)), final=table.final())


class _Table:
    """A game in play: the layout, piles and hands as lists that change in place, and each player's plan.

    Rounds are dealt and ended by methods; :meth:`play` plays the STOPs between, holding the
    lists in local names (they are changed in place, never replaced, so the names stay right).
    """

    def __init__(self, rules: Rules, seed: int, bots: Sequence[agents.ReactionBot]):
        start = deal(rules, seed)
        self.rules, self.seed, self.bots, self.start = rules, seed, bots, start
        self.chances = seat_chances(bots)  # moved to each STOP's step before the bots call, as play_out does
        self.accepts = ACCEPTS[rules.matching]
        self.turns = (rules.rotations, rules.mirror_images)
        self.seconds_of = agents.reaction_seconds  # read now, as the bots read it (a test may put in another)
        self.seconds = _ranked_seconds(self.seconds_of)[1]
        eases = sorted({agents.LEVELS[bot.level].most_cards for bot in bots})
        self.ease_at = [eases.index(agents.LEVELS[bot.level].most_cards) for bot in bots]
        self.likings_of = [way_likings(self.seconds_of, ease, self.turns) for ease in eases]
        self.stacks = [list(stack) for stack in start.layout]
        self.tops = [stack[-1] for stack in self.stacks]
        self.fitting = start.fitting
        self.hands = [list(hand) for hand in start.hands]
        self.unheld = [unheld(hand, self.accepts) for hand in self.hands]
        self.figure_pile = list(start.figure_pile)
        self.task_pile = list(start.task_pile)
        self.won = [[] for _ in bots]
        # The round's task cards still on the table and, for each level at the table, the likings of their turns.
        self.shown, self.likings = [], [[] for _ in eases]
        self.round, self.solvable_round, self.shuffles = start.round, start.solvable_round, start.shuffles
        self.over, self.end_reason, self.last_round = False, "", False
        # An event is kept as (what is said, of what): only the final state's events are put into words.
        self.events = [(str, FIRST_ROUND)]
        self._deal_tasks()
        self.plans = self._settled()

    def _deal_tasks(self) -> None:
        """Reveal the round's task cards, with the likings of their turns for each level at the table."""
        dealt = self.rules.players * self.rules.tasks_per_player
        self.shown[:], self.task_pile = self.task_pile[:dealt], self.task_pile[dealt:]
        self.last_round = not self.task_pile
        for likings, of in zip(self.likings, self.likings_of):
            likings[:] = [of[task.number] for task in self.shown]

    def _plans(self) -> list:
        """Each player's plan, the way its bot would claim: (seconds, task, rotation, mirrored, placements), or None.

        As ``ReactionBot`` does, a bot tries its ways best liked first, each only if some card of
        the hand fits each missing pair, until the hand covers one (a card a pair).
        """
        if not self.shown:
            return [None] * self.rules.players
        unfitting, accepts, seconds = EVERY_PAIR ^ self.fitting, self.accepts, self.seconds
        # For each level: (liking, missing bits, cards, turn) of every turn of the revealed tasks, best liked first.
        # A turn's missing bits are its (cell, figure) pairs the layout does not fit: a hand card each.
        ranked = []
        for likings in self.likings:
            ways = [
                (liking[(cards := (missing := bits & unfitting).bit_count())], missing, cards, turn)
                for of_task in likings
                for bits, liking, turn in of_task
            ]
            ways.sort(key=by_liking)
            ranked.append(ways)
        plans = []
        for hand, unheld_pairs, ease in zip(self.hands, self.unheld, self.ease_at):
            plan, limit = None, len(hand)
            for liking, missing, cards, turn in ranked[ease]:
                if missing & unheld_pairs or cards > limit:
                    continue
                task, rotation, mirrored, placed, places = turn
                if cards == 1:  # the one missing pair, from its bit: the hand's first card that fits it (as assign)
                    cell, want = divmod(missing.bit_length() - 1, FIGURE_COUNT)
                    fits = accepts[want]
                    for card in hand:
                        if fits >> card & 1:  # some card does: a pair no card fits is unheld, and skipped above
                            placements = {cell: card}
                            break
                elif not cards:
                    placements = {}
                elif cards == 2:  # the two missing pairs, from their bits, in the order the turned task lists them
                    low = missing & -missing
                    one = divmod(low.bit_length() - 1, FIGURE_COUNT)
                    other = divmod((missing ^ low).bit_length() - 1, FIGURE_COUNT)
                    placements = assign(
                        [one, other] if places[one[0]] < places[other[0]] else [other, one], hand, accepts
                    )
                else:  # the missing pairs in the order the turned task lists them, as cover tries them
                    placements = assign(
                        [(cell, want) for cell, want in placed if missing >> FIGURE_COUNT * cell + want & 1],
                        hand,
                        accepts,
                    )
                if placements is not None:
                    plan = seconds[liking & RANK], task, rotation, mirrored, placements
                    break
            plans.append(plan)
        return plans

    def _settled(self) -> list:
        """The plans once rounds have ended for as long as nobody has one (see the model's ``_settle``)."""
        while not self.over:
            plans = self._plans()
            if any(plans):
                self.solvable_round = self.round
                return plans
            self._end_round()
        return []

    def play(self, max_actions: int) -> list[Stop]:
        """Play STOP after STOP to the end of the game; return them."""
        rules, bots, shown, likings = self.rules, self.bots, self.shown, self.likings
        hands, unheld_of, won, stacks, tops, accepts = (
            self.hands,
            self.unheld,
            self.won,
            self.stacks,
            self.tops,
            self.accepts,
        )
        window, matching, time_to_show = rules.stop_window, rules.matching, rules.seconds_to_show
        seats, plans, actions, chances = range(rules.players), self.plans, [], self.chances
        callers = [
            (bot.rng.random, bot.rng.gauss, agents.LEVELS[bot.level].blunders, agents.LEVELS[bot.level].speed)
            for bot in bots
        ]
        while not self.over:
            if len(actions) >= max_actions:
                raise RuntimeError(f"colorform game {self.seed} did not end within {max_actions} actions")
            step = len(actions)
            for chance in chances:  # chance.at(step), written out
                chance.step, chance.place = step, (chance.key + step * STEP_PLACES) & MASK
            # Each bot calls as ReactionBot.act would, on its plan or (now and then, with none) on a guess:
            # (time, player, plan, its cards), or (time, player, None, the guessed claim) made. ReactionBot.call
            # is written out: its draws, from the bot's own chance, are the same.
            calls = []
            for player, bot, plan, (draw, gauss, blunders, speed) in zip(seats, bots, plans, callers):
                if plan:
                    placements = plan[4]
                    if draw() < blunders:
                        placements = dict(list(placements.items())[:-1])
                    calls.append((round(plan[0] * speed * exp(gauss(0.0, 0.25)), 3), player, plan, placements))
                elif guess := bot.guess(player, shown):
                    calls.append((guess.time, player, None, guess))
            # The STOP: the calls within the window of the first, as agents.earliest keeps them (written out here
            # on the calls, before any claim is made; two calls, the usual, are told apart at once).
            if len(calls) == 2:
                if calls[1][0] - calls[0][0] > window:
                    del calls[1]
                elif calls[0][0] - calls[1][0] > window:
                    del calls[0]
            elif len(calls) > 2:
                first = min([call[0] for call in calls])
                calls = [call for call in calls if call[0] - first <= window]
            # The claims, each with its task, then in time order (ties by seat) to be judged.
            judged = [
                (agents.claim_on(player, plan, time, made), plan[1]) if plan else (made, _numbered(shown, made.task))
                for time, player, plan, made in calls
            ]
            if len(judged) == 1:
                actions.append(Stop.of_claims((judged[0][0],)))
            else:
                actions.append(Stop.of_claims(tuple([claim for claim, _ in judged])))
                judged.sort(key=lambda pair: (pair[0].time, pair[0].player))
            events, taken, changed = [], [], False
            for claim, task in judged:
                player, placements = claim.player, claim.placements
                if task.number in taken:
                    events.append((void_event, player, task))
                    continue
                fitting = laid(self.fitting, placements, matching) if placements else self.fitting
                if (
                    claim.seconds_shown <= time_to_show
                    and not task.turn_bits[claim.rotation, claim.mirrored] & ~fitting
                ):
                    won[player].append((task, False))
                    if placements:
                        hand = hands[player]
                        for cell, card in placements:
                            stacks[cell].append(card)
                            tops[cell] = card
                            hand.remove(card)
                        self.fitting = fitting
                        unheld_of[player] = unheld(hand, accepts)
                        changed = True
                    events.append((solved_event, player, task))
                elif changed:
                    events.append((returned_event, player, task))
                    continue
                else:
                    won[player].append((task, True))
                    events.append((_said_wrong, player, task, tuple(tops), claim, rules))
                taken.append(task.number)
                for index, card in enumerate(shown):  # off the table
                    if card is task:
                        del shown[index]
                        for of_level in likings:
                            del of_level[index]
                        break
            self.events = events
            plans = self._plans()
            if any(plans):
                self.solvable_round = self.round
            else:
                self._end_round()
                plans = self._settled()
        return actions

    def _end_round(self) -> None:
        """Put the unsolvable tasks under the pile, then end the game or start a new round (see ``_end_round``)."""
        rules = self.rules
        self.events.append((round_end_event, self.round, tuple(self.shown)))
        self.task_pile += self.shown
        self.shown.clear()
        if self.last_round or self.round - self.solvable_round >= rules.unsolvable_rounds:
            self.over = True
            self.end_reason = PILE_RAN_OUT if self.last_round else unsolvable_end(rules)
            self.events.append((game_over_event, self.end_reason))
            return
        self._refill()
        self._deal_tasks()
        self.round += 1
        self.events.append((new_round_event, self.round))

    def _refill(self) -> None:
        """Deal figure cards back up to the hand size, gathering the under-cards if the pile is short."""
        size, pile = self.rules.hand_size, self.figure_pile
        if size * len(self.hands) - sum(map(len, self.hands)) > len(pile):
            pile += [card for stack in self.stacks for card in stack[:-1]]
            random.Random(f"{self.seed}/shuffle/{self.shuffles}").shuffle(pile)
            for stack in self.stacks:
                del stack[:-1]
            self.shuffles += 1
        for player, hand in enumerate(self.hands):
            take = size - len(hand)
            hand += pile[:take]
            del pile[:take]
            self.unheld[player] = unheld(hand, self.accepts)

    def final(self) -> State:
        """The state the game ended in, as the model would have it."""
        return evolve(
            self.start,
            layout=tuple(map(tuple, self.stacks)),
            figure_pile=tuple(self.figure_pile),
            hands=tuple(map(tuple, self.hands)),
            task_pile=tuple(self.task_pile),
            revealed=((),) * self.rules.players,
            won=tuple(map(tuple, self.won)),
            round=self.round,
            last_round=self.last_round,
            shuffles=self.shuffles,
            solvable_round=self.solvable_round,
            over=True,
            end_reason=self.end_reason,
            events=tuple(say(*of) for say, *of in self.events),
        )


def _said_wrong(player: int, task, tops: tuple, claim, rules: Rules) -> str:
    """The event of a wrong claim, its faults found on the layout it was judged on."""
    return wrong_event(player, task, faults(tops, task, claim, rules))


def _numbered(tasks: list, number: int):
    """The task card of this number among these."""
    return next(task for task in tasks if task.number == number)


def unheld(hand: list, accepts: tuple[int, ...]) -> int:
    """Which (cell, figure) pairs would no card of this hand fit (bits in every cell)?"""
    held = 0
    for card in hand:
        held |= accepts[card]
    return EVERY_PAIR ^ held * EVERY_CELL
