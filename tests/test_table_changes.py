"""A kernel notices a change at its tables with one cheap look, and only the followers of what changed hear of it.

Each store here stands for one learner's kernel: the stores share the database (a SQLite file, or a
throwaway PostgreSQL server), never their memory. `look()` is one look, as a kernel's event loop takes
twenty times a second; a page sends nothing.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from colorlab import colorform, colorfox
from colorlab.agents import ready, seat_bot
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox.view import ColorFoxGame
from colorlab.games import find_game
from colorlab.tables import TableStore
from colorlab.tables.changes import EVERY_TABLE, EVERYTHING, TableChanges
from tests.helpers.tables import news


@pytest.fixture
def kernels(store_url):
    """Return `kernel()`, a new store on the test's database (one more kernel of the class); all closed after."""
    opened = []

    def kernel() -> TableStore:
        store = TableStore(store_url)
        opened.append(store)
        return store

    yield kernel
    for store in opened:
        store.changes.close()
        store.engine.dispose()


def two_at_a_colorfox_table(kernels):
    """Ada and Bo at one ColorFox table, each a widget in a kernel of their own: (code, ada, bo)."""
    code = kernels().create("colorfox", colorfox.Rules(players=2), seed=5)
    ada = ColorFoxGame(seat=kernels().join(code, seat=0, name="Ada"))
    bo = ColorFoxGame(seat=kernels().join(code, seat=1, name="Bo"))
    return code, ada, bo


def a_move(widget):
    """The intent of a legal move of the widget's seat, as its page would send it."""
    card, x, y, turned = widget.view["legal"][0]
    return {"type": "place", "card": card, "x": x, "y": y, "turned": turned, "seen": widget.view["seating"]["step"]}


def mover_and_other(ada, bo):
    return (ada, bo) if ada.view["legal"] else (bo, ada)


def test_a_move_reaches_the_other_seat_at_the_kernels_next_look_with_nothing_sent_by_its_page(kernels):
    code, ada, bo = two_at_a_colorfox_table(kernels)
    mover, other = mover_and_other(ada, bo)
    looks = other.seat.store.changes
    looks.look()  # the first look, at a kernel's start, tells every follower to read once
    shown = other.view
    assert looks.look() == frozenset() and other.view is shown, "a look with nothing new sent a view"
    mover.act(a_move(mover))
    assert other.view is shown, "the other page heard of the move before its kernel looked"
    assert news(looks) == {code}
    assert other.view["seating"]["step"] == 1 == mover.view["seating"]["step"]
    assert other.view["legal"], "the other seat may move now"


def test_only_the_followers_of_the_table_that_changed_are_called_and_every_table_followers_always(kernels):
    one, two = kernels().create("colorfox", colorfox.Rules(players=2)), kernels().create("colorfox")
    changes = TableChanges(kernels())
    heard = []
    changes.follow(one, lambda: heard.append("one"))
    stop_two = changes.follow(two, lambda: heard.append("two"))
    told = []
    changes.follow(EVERY_TABLE, lambda changed: heard.append("every") or told.append(changed))
    changes.look()
    assert sorted(heard) == ["every", "one", "two"] and told == [EVERYTHING]  # the first look: read everything
    heard.clear()
    kernels().join(one, seat=0, name="Ada")
    assert news(changes) == {one} and sorted(heard) == ["every", "one"] and told[-1] == {one}
    heard.clear()
    stop_two()
    kernels().join(two, seat=0, name="Bo")
    assert news(changes) == {two} and heard == ["every"]
    heard.clear()
    kernels().create("colorfox")
    news(changes)
    assert heard == ["every"], "a new table is news for the lobby and the teacher only"
    changes.close()


def test_a_follower_that_fails_does_not_stop_the_others(kernels, caplog):
    code = kernels().create("colorfox")
    changes = TableChanges(kernels())
    heard = []
    changes.follow(code, lambda: 1 / 0)
    changes.follow(code, lambda: heard.append(code))
    changes.look()
    kernels().join(code, seat=0, name="Ada")
    news(changes)
    assert heard == [code, code] and "failed to take its change" in caplog.text
    changes.close()


def test_a_real_time_bots_call_reaches_the_learner_when_its_clock_says_so_with_no_move_at_all(kernels):
    rules = colorform.Rules(players=2, stop_window=0.0, rotations=False)
    for seed in range(200):
        bot = ready(seat_bot(find_game("colorform").bots["ReactionBot (hard)"], seed, 1), 0)
        claim = bot.act(colorform.new_game(rules, seed), 1)
        if claim is not None and claim.time < 1.5:
            break
    else:
        raise AssertionError("no deal where the bot sees a solution quickly")
    code = kernels().create("colorform", rules, seed=seed, bots={1: "ReactionBot (hard)"})
    ada = ColorFormGame(seat=kernels().join(code, seat=0, name="Ada"))
    looks = ada.seat.store.changes
    assert 0.0 < looks.wakes[code] - time.monotonic() <= claim.time + 0.1
    deadline = time.monotonic() + claim.time + 5.0
    while ada.view["seating"]["step"] == 0 and time.monotonic() < deadline:
        looks.look()
        time.sleep(0.02)
    assert ada.view["seating"]["step"] == 1, "the bot's call never reached the learner"
    assert ada.record.actions[0] == colorform.Stop((claim,))


def test_in_a_kernel_the_looks_run_on_its_event_loop_and_stop_with_the_last_follower(kernels):
    code, ada, bo = two_at_a_colorfox_table(kernels)
    mover, other = mover_and_other(ada, bo)
    looks = other.seat.store.changes

    async def a_kernel_that_waits():  # a kernel between messages: its event loop runs, nothing else does
        other.source.follow(other.table_changed)  # as a widget made in a cell of the kernel follows its table
        mover.act(a_move(mover))
        for _ in range(100):
            await asyncio.sleep(0.02)
            if other.view["seating"]["step"] == 1:
                return True
        return False

    assert asyncio.run(a_kernel_that_waits()), "no look on the event loop brought the move"
    assert looks.looks >= 1
    other.close()
    assert code not in looks.followers and looks.handle is None


def test_a_sqlite_file_deleted_under_a_waiting_page_is_said_on_it_without_a_click(tmp_path):
    where = tmp_path / "class.db"
    code = TableStore(where).create("colorfox", colorfox.Rules(players=2), seed=5)
    ada = ColorFoxGame(seat=TableStore(where).join(code, seat=0, name="Ada"))
    looks = ada.seat.store.changes
    looks.look()
    where.unlink()
    for _ in range(3):  # look after look, the page says the same, and no empty file appears where the class's was
        looks.look()
        assert ada.notice["kind"] == "error" and "was deleted while the class was running" in ada.notice["text"]
        assert "Ask your teacher" in ada.notice["text"] and not where.exists()
