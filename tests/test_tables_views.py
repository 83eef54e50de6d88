"""What a seat at a table may see, against a real SQLite file and a real PostgreSQL server.

Twin states: everything a seat cannot see (other hands, the order of the piles, the seed,
other teams' locked answers, the quiz answer) is dealt again, and the seat's view must not
change. Twin tables: two tables that differ only in a hidden choice (another team's answer,
another seat's STOP call, a bot's plan) show the other seats the same. And the views
themselves, as JSON text, never hold the seed, a token or a card of a hidden hand.
"""

import dataclasses
import json
import random
import time

import pytest

from colorlab import colorform, colorfox, colourbrain
from colorlab.games import find_game
from colorlab.tables import TableStore, table_game
from tests.helpers.tables import TABLES, seated
from tests.helpers.twins import colorform_twin, colorfox_twin, colorium_twin
from tests.helpers.twins import hidden_twin as quiz_twin

SEED = 8_642_097_531_864_209_753  # long enough that finding it in a view cannot be chance


@pytest.fixture
def store(store_url):
    opened = TableStore(store_url)
    yield opened
    opened.engine.dispose()


TWINS = {"colorfox": colorfox_twin, "colorium": colorium_twin, "colourbrain": quiz_twin, "colorform": colorform_twin}
BASE_FORM = colorform.Rules(players=3, stop_window=0.0)


def played_states(store, game, seed=SEED, moves=80):
    """The states of a table where learners and bots play up to `moves` moves: (seats, states)."""
    code, seats = seated(store, game, seed=seed)
    table = table_game(game)
    names = find_game(game).bot_names(at_table=True)
    learners = {
        seat.seat: find_game(game).make_bot("RandomBot" if "RandomBot" in names else names[-1], seat.seat)
        for seat in seats
    }
    for _ in range(moves):
        state = seats[0].state()
        waiting = [seat for seat in seats if seat.seat in table.waiting_for(state)]
        if state.over or not waiting:
            break
        waiting[0].play(learners[waiting[0].seat].act(state, waiting[0].seat))
    return seats, store.record(code).states()


def viewers(state):
    return [None, *range(state.rules.players)]


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_seats_view_stays_the_same_when_what_it_cannot_see_is_dealt_again(store, game):
    rng = random.Random(0)
    view, twin = table_game(game).view, TWINS[game]
    _, states = played_states(store, game)
    checked = 0
    for state in states:
        for seat in viewers(state):
            other = twin(state, seat, rng)
            assert other != state
            assert view(state, seat) == view(other, seat), (game, seat)
            checked += 1
    assert checked > 20


def test_base_colorform_views_stay_the_same_when_the_piles_are_dealt_again(store):
    rng = random.Random(1)
    code = store.create("colorform", BASE_FORM, seed=SEED)
    seats = [store.join(code, name=name) for name in ("Ada", "Bo", "Cy")]
    solver = colorform.ReactionBot("hard")
    for _ in range(12):
        state = seats[0].state()
        if state.over:
            break
        claim = next((claim for seat in range(3) if (claim := solver.act(state, seat))), None)
        if claim and not store.calls(code):
            seats[claim.player].play(claim)
        time.sleep(0.01)
    states = list(store.record(code).states())
    assert len(states) > 3
    view = table_game("colorform").view
    for state in states:
        for seat in viewers(state):
            assert view(state, seat) == view(colorform_twin(state, seat, rng), seat)


def test_the_twins_change_what_they_should(store):
    """A twin that changed nothing would prove nothing: each really deals the hidden cards again."""
    rng = random.Random(2)
    for game in sorted(TABLES):
        _, states = played_states(store, game, moves=4)
        state = list(states)[-1]
        other = TWINS[game](state, 0, rng)
        assert other.seed != state.seed
        if game == "colorfox":
            assert other.hands[1:] != state.hands[1:] and other.hands[0] == state.hands[0]
            assert colorfox.observation(other, 1) != colorfox.observation(state, 1)
        if game == "colorform":
            assert other.figure_pile != state.figure_pile or other.task_pile != state.task_pile


def hidden_numbers(view) -> set:
    """Every value under a "number" key anywhere in a view."""
    if isinstance(view, dict):
        return {value for key, value in view.items() if key == "number"} | {
            number for value in view.values() for number in hidden_numbers(value)
        }
    if isinstance(view, list):
        return {number for value in view for number in hidden_numbers(value)}
    return set()


def check_json(view: dict) -> str:
    """The view as JSON text; it must read back as the same plain values."""
    text = json.dumps(view, allow_nan=False)
    assert json.loads(text) == view
    return text


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_seats_view_never_holds_the_seed_a_token_or_another_hand(store, game):
    code, seats = seated(store, game, seed=SEED)
    table = table_game(game)
    learners = {seat.seat: find_game(game).make_bot(find_game(game).bot_names(at_table=True)[0], 3) for seat in seats}
    tokens = [seat.token for seat in seats]
    for _ in range(40):
        for seat in [*seats, store.watch(code)]:
            view = seat.view()
            text = json.dumps(view)
            assert str(SEED) not in text
            assert not [token for token in tokens if token in text]
            state = seat.state()
            if game == "colorfox":
                hidden = [card.number for p in range(state.players) if p != seat.seat for card in state.hands[p]]
                hidden += [card.number for card in state.deck]
                assert not hidden_numbers(view) & set(hidden), "a hidden card is in the view"
                assert view["hand"] == (
                    []
                    if seat.seat is None
                    else [{"number": c.number, "edges": [e.value for e in c.edges]} for c in state.hands[seat.seat]]
                )
            if game == "colourbrain" and state.step == "answering":
                assert state.question.explanation not in text
                assert state.questions[state.deck[1]].text not in text
                assert [answer is not None for answer in view["answers"]] == [
                    answer is not None and team == seat.seat for team, answer in enumerate(state.answers)
                ]
            if game == "colorform":
                assert "deck" not in view and view["figure_pile"] == len(state.figure_pile)
                face_down = [task for pile in state.own_piles for task in pile] + list(state.task_pile)
                face_down += [task for won in state.won for task, face_up in won if not face_up]
                assert not hidden_numbers(view) & {task.number for task in face_down}, "a face-down task is in the view"
        state = seats[0].state()
        waiting = [seat for seat in seats if seat.seat in table.waiting_for(state)]
        if state.over or not waiting:
            break
        waiting[0].play(learners[waiting[0].seat].act(state, waiting[0].seat))


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_view_is_plain_json_values_that_read_back_the_same(store, game):
    code, seats = seated(store, game, seed=SEED)
    table = table_game(game)
    learners = {seat.seat: find_game(game).make_bot(find_game(game).bot_names(at_table=True)[-1], 5) for seat in seats}
    for _ in range(400):
        for seat in [*seats, store.watch(code)]:
            check_json(seat.view())
        state = seats[0].state()
        waiting = [seat for seat in seats if seat.seat in table.waiting_for(state)]
        if state.over or not waiting:
            break
        waiting[0].play(learners[waiting[0].seat].act(state, waiting[0].seat))
    assert seats[0].state().over


def test_the_rooms_view_of_colorfox_shows_no_hand(store):
    code, _seats = seated(store, "colorfox", seed=SEED)
    room = store.watch(code)
    view = room.view()
    state = room.state()
    assert view["hand"] == [] and view["you"] is None and room.seat is None
    assert not hidden_numbers(view) & {card.number for hand in state.hands for card in hand}
    assert view["hand_sizes"] == [len(hand) for hand in state.hands]
    assert view["seating"]["seat"] is None


def without_code(view: dict) -> dict:
    """A view with the table's own code left out (twin tables differ in it)."""
    return {**view, "seating": {key: value for key, value in view["seating"].items() if key != "code"}}


def test_another_teams_locked_answer_never_changes_a_teams_view_before_the_reveal(store):
    twins = []
    for colours in (("red",), ("blue",)):
        code = store.create("colourbrain", colourbrain.Rules(teams=3), seed=SEED)
        teams = [store.join(code, name=name) for name in ("Reds", "Blues", "Greens")]
        question = teams[0].state().question
        locked = tuple(
            (colours + tuple(c for c in colourbrain.questions.COLOURS if c not in colours))[: question.count]
        )
        teams[0].play(colourbrain.Answer(0, locked))
        twins.append((teams, store.watch(code), locked))
    (first, first_room, a), (second, second_room, b) = twins
    assert a != b
    for one, other in zip(first[1:], second[1:]):
        assert without_code(one.view()) == without_code(other.view())
    assert without_code(first_room.view()) == without_code(second_room.view())
    assert first[0].view()["answers"][0] == list(a) and second[0].view()["answers"][0] == list(b)


def test_another_seats_stop_call_never_shows_its_claim_before_it_is_settled(store):
    rules = colorform.Rules(players=2, stop_window=2.0)
    solver = colorform.ReactionBot("hard")
    seed = next(seed for seed in range(200) if solver.act(colorform.new_game(rules, seed), 0))
    deal = colorform.new_game(rules, seed)
    claim = solver.act(deal, 0)
    other_task = next(task.number for task in deal.revealed_tasks() if task.number != claim.task)
    wrong = dataclasses.replace(claim, task=other_task, placements=())
    views = []
    for called in (claim, wrong):
        code = store.create("colorform", rules, seed=seed)
        ada, bo = store.join(code, name="Ada"), store.join(code, name="Bo")
        ada.play(called)
        views.append((without_code(bo.view()), without_code(store.watch(code).view())))
    assert views[0] == views[1]
    assert views[0][0]["seating"]["called"] == [0]


def test_a_bots_plan_never_shows_before_its_call(store):
    rules = colorform.Rules(players=2, stop_window=0.0)
    views = []
    for bot in ("ReactionBot (hard)", "ReactionBot (easy)"):
        code = store.create("colorform", rules, seed=SEED, bots={1: bot})
        ada = store.join(code, seat=0, name="Ada")
        view = without_code(ada.view())
        assert view["seating"]["called"] == [] and view["seating"]["step"] == 0
        views.append({**view, "seating": {**view["seating"], "names": view["seating"]["names"][:1]}})
    assert views[0] == views[1]
