"""A whole class through the class server, as `make classroom` serves it: Voila, the class key in the address.

Each learner is a browser context of their own (own cookies, own storage), as on their own device; the
teacher's page is one more. The tables live in a SQLite file outside the served folder, which the test also
reads, to check that what the pages show is what the store's record replays to. Two learners play ColorFox
to the end; a reloaded page finds its seat again and a page without the key is refused; two learners call
STOP at Col-Or-Form in the same second; three teams play a Colourbrain quiz the teacher moves on from the
projector, to a winner.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.colorform.model import Claim, Stop, new_game
from colorlab.colorfox.model import scores as colorfox_scores
from colorlab.colourbrain.questions import COLOURS
from colorlab.tables import TableStore
from tests.helpers.chromium import CHROMIUM_ARGS, VIEWPORT, keep_on
from tests.helpers.devices import Device, need_devices
from tests.helpers.page_actions import (
    FIRST_LOAD_MS,
    TEACHER_KEY,
    TEACHER_VIEWPORT,
    makes_a_move,
    open_with_the_key,
    type_name,
)
from tests.helpers.servers import NOTEBOOKS, Server, free_port, jupyter_env

CLASS_KEY = "crayon-7k4m-class"
LOBBY = "voila/render/classroom/lobby.ipynb"
TEACHER = "voila/render/classroom/teacher.ipynb"
PROJECTOR = "voila/render/classroom/projector.ipynb"
MOST_COLORFOX_MOVES = 120
LAPTOP = {"width": 1280, "height": 800}
# Calls within this many seconds of the first are one STOP: "the same second" of the test's title.
SAME_SECOND = colorform.Rules(players=2, stop_window=1.0)
# The Reds answer right and the two others wrong: 2 points a question, so the Reds win after two questions.
QUIZ = colourbrain.Rules(teams=3, target=4, copier=False, paced=True)
TEAMS = ("Reds", "Blues", "Greens")


@dataclasses.dataclass(frozen=True)
class Classroom:
    """A running class server: its address on this machine, its port and where its tables are."""

    url: str
    store: Path
    served: Path

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def page(self, path: str) -> str:
        """The path of a served page, with the class key, as the printed address gives it (each device's browser
        puts the server's address in front: it reaches the server at its own)."""
        return f"/{path}?token={CLASS_KEY}"


def new_class(home: Path) -> tuple[Path, Path, int]:
    """A copy of notebooks/ to serve, a store outside it and a free port: (served, store, port)."""
    served = home / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    store = home / "tables" / "class.db"
    store.parent.mkdir()
    return served, store, free_port()


def serve_class(home: Path, served: Path, store: Path, port: int) -> tuple[Server, str]:
    """Start the class server on the folder, with fixed keys: (the server, its address on loopback)."""
    env = {
        **jupyter_env(home),
        "COLORLAB_TABLES": str(store),
        "CLASS_KEY": CLASS_KEY,
        "TEACHER_KEY": TEACHER_KEY,
        "CLASSROOM_PORT": str(port),
        "CLASSROOM_WARM_PAGES": "0",  # the pages start their kernels as they come: the tests open only a few
    }
    env.pop("CLASSROOM_DB", None)
    log = home / f"classroom-{len(list(home.glob('classroom-*.log')))}.log"
    server = Server([sys.executable, "-m", "colorlab.classroom.server", str(served)], env, log)
    # The server listens on every interface; the test's pages may only reach this machine's loopback address.
    url = f"http://127.0.0.1:{port}/"
    server.wait_until_answering(f"{url}login")
    return server, url


@pytest.fixture(scope="module")
def classroom(tmp_path_factory) -> Iterator[Classroom]:
    """The class server on a copy of notebooks/, with fixed keys and a fresh store outside the served folder."""
    home = tmp_path_factory.mktemp("classroom")
    served, store, port = new_class(home)
    server, url = serve_class(home, served, store, port)
    yield Classroom(url, store, served)
    server.stop()


@pytest.fixture
def devices(playwright, tmp_path):
    """Return `devices(n, room)`: n learners' devices, each a network namespace of its own with its own chromium and
    one page, which reaches the class server `room` over its veth, as a tablet on the class's Wi-Fi would; all closed
    and removed at the end."""
    need_devices()
    opened: list = []

    def new_devices(count: int, room: Classroom) -> list:
        pages = []
        for _ in range(count):
            device = Device()
            opened.append(device)
            browser = playwright.chromium.launch(
                executable_path=str(device.chromium(tmp_path)), args=["--headless", *CHROMIUM_ARGS]
            )
            opened.append(browser)
            context = browser.new_context(viewport=VIEWPORT, base_url=f"http://{device.server}:{room.port}")
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.route("**/*", keep_on(device.server))  # the class server, seen from the device: nowhere else
            pages.append(page)
        return pages

    yield new_devices
    for thing in reversed(opened):
        thing.close()


def start_lobbies(pages, classroom: Classroom) -> None:
    """Ask for the lobby on every page without waiting, so that their kernels start side by side."""
    for page in pages:
        page.goto(classroom.page(LOBBY), wait_until="commit")


def type_names(pages, names: list[str]) -> None:
    """Wait for each page's lobby, then type the learner's name."""
    for page, name in zip(pages, names):
        expect(page.locator(".colorlab-lobby")).to_be_visible(timeout=FIRST_LOAD_MS)
        type_name(page, name)


def open_lobbies(pages, classroom: Classroom, names: list[str]) -> None:
    """Open the lobby on every page at once, then type each learner's name."""
    start_lobbies(pages, classroom)
    type_names(pages, names)


def set_rule(page, label: str, value: str) -> None:
    """Type a number into one rule of the lobby's rule editor and wait until the editor keeps it."""
    field = page.get_by_label(label, exact=True)
    field.fill(value)
    field.press("Enter")
    changed = page.get_by_text("Changed from the default edition:").locator("..")
    expect(changed).to_contain_text(re.compile(rf"{re.escape(label)} \S+ → {re.escape(value)}\b"))


def open_table(page, game: str, rules: dict[str, str] | None = None) -> str:
    """Open a table of `game` from the lobby (learners in the other seats), with some rules typed in; its code."""
    page.locator("[data-key='new-table']").click()
    page.locator(f"[data-key='game-{game}']").check()
    expect(page.locator("[data-testid='switching']")).to_have_count(0)  # the game's own rules have come
    for label, value in (rules or {}).items():
        set_rule(page, label, value)
    page.get_by_role("button", name="Next: who sits where").click()
    expect(page.locator("[data-key='kind-1']")).to_have_value("learner")
    page.locator("[data-key='open']").click()
    code = page.locator("[data-testid='code']")
    expect(code).to_have_text(re.compile(r"^\s*[A-Z0-9]{5}\s*$"))
    return code.inner_text().strip()


def sit_down(page, code: str, seat: int) -> None:
    """Join the table with its code, typed as a learner copies it from a friend's screen ("3t pkx": a space inside,
    small letters), and take a seat."""
    page.locator("[data-key='code']").fill(f"{code[:2].lower()} {code[2:]}")
    page.locator("[data-key='code']").press("Enter")
    page.locator(f"[data-key='sit-{seat}']").click()
    expect(page.locator("[data-testid='you']")).to_contain_text(f"at seat {seat + 1}")


def step_of(game) -> int:
    """Which move of the table does the widget show (live)?"""
    text = game.locator("[data-testid='step']").inner_text()
    return int(re.fullmatch(r"move (\d+) \(live\)", text.strip())[1])


def colorfox_turn(game) -> None:
    """One action at ColorFox: end an exchange step with Done, else place a card that fits, else pass."""
    done = game.locator("[data-action='done']")
    if done.count():
        done.click()
    else:
        makes_a_move(game)


def play_colorfox_to_the_end(games) -> int:
    """Whoever's page says 'your turn' acts, and both pages show that move, until the game is over; moves made. The
    page waiting for its turn is scrolled back to its top, as a learner reading the table leaves it."""
    for moves in range(MOST_COLORFOX_MOVES):
        if games[0].locator("[data-testid='final']").count():
            return moves
        step = step_of(games[0])
        mover = next(game for game in games if game.locator("[data-testid='turn']").inner_text() == "your turn")
        for waiting in games:
            if waiting != mover:
                waiting.page.evaluate("() => window.scrollTo(0, 0)")
        colorfox_turn(mover)
        for game in games:
            expect(game.locator("[data-testid='step']")).to_have_text(f"move {step + 1} (live)", timeout=10_000)
    raise AssertionError(f"the game did not end within {MOST_COLORFOX_MOVES} moves")


def hand_of(game) -> list[str]:
    """The numbers of the cards in the widget's hand, in the order shown."""
    return game.locator("[data-card]").evaluate_all("(cards) => cards.map((card) => card.dataset.card)")


def shown_scores(game, seats: int) -> list[int]:
    """The points the widget's players table shows, seat by seat."""
    return [int(game.locator(f"[data-score='{seat}']").inner_text()) for seat in range(seats)]


def test_two_learners_play_colorfox_to_the_end_by_clicking(classroom, devices, artifacts):
    ada, bo = devices(2, classroom)
    for page in (ada, bo):
        page.set_viewport_size(LAPTOP)  # a class laptop's screen: the results must come into view on it
    open_lobbies([ada, bo], classroom, ["Ada", "Bo"])
    # Two sticks of each colour: a colour runs out after a few cards, so the game ends in a few moves.
    code = open_table(ada, "colorfox", {"Sticks per colour": "2"})
    sit_down(bo, code, 1)
    games = [page.locator(".colorlab.colorfox") for page in (ada, bo)]
    expect(games[1].locator("[data-testid='seating']")).to_contain_text("you play as Bo")
    moves = play_colorfox_to_the_end(games)
    for game in games:
        expect(game.locator("[data-testid='turn']")).to_have_text("game over")
        expect(game.locator("[data-testid='final']")).to_be_visible()
        expect(game.locator("[data-testid='final']")).to_be_in_viewport(ratio=0.95)  # all but a pixel: no scrolling
    print(f"\nColorFox played to the end in {moves} moves")
    ada_sees, bo_sees = shown_scores(games[0], 2), shown_scores(games[1], 2)
    final = TableStore(classroom.store).record(code).final_state()
    assert final.over and ada_sees == bo_sees == colorfox_scores(final)
    for game in games:
        said = game.locator("[data-testid='final-scores']").inner_text()
        assert [int(points) for points in re.findall(r"\d+", said)] == ada_sees, said
    ada.screenshot(path=artifacts / "classroom-colorfox-over.png", full_page=True)


def test_a_reloaded_page_comes_back_to_its_seat_and_a_page_without_the_key_is_refused(classroom, devices, artifacts):
    ada, bo, stranger = devices(3, classroom)
    open_lobbies([ada, bo], classroom, ["Ada", "Bo"])
    code = open_table(ada, "colorfox")
    sit_down(bo, code, 1)
    ada_game, bo_game = ada.locator(".colorlab.colorfox"), bo.locator(".colorlab.colorfox")
    expect(ada_game.locator("[data-testid='turn']")).to_have_text("your turn")
    makes_a_move(ada_game)
    expect(bo_game.locator("[data-testid='turn']")).to_have_text("your turn")
    hand = hand_of(bo_game)

    bo.reload(wait_until="commit")  # the same tab: it sat there itself, so it comes back without asking
    expect(bo.locator(".colorlab-lobby [data-testid='notice']")).to_contain_text(
        "Welcome back, Bo", timeout=FIRST_LOAD_MS
    )
    bo_game = bo.locator(".colorlab.colorfox")
    expect(bo_game.locator("[data-testid='seating']")).to_contain_text("you play as Bo")
    expect(bo_game.locator("[data-testid='turn']")).to_have_text("your turn")
    assert hand_of(bo_game) == hand
    makes_a_move(bo_game)
    expect(ada_game.locator("[data-testid='turn']")).to_have_text("your turn", timeout=10_000)
    seated = next(table for table in TableStore(classroom.store).tables() if table["code"] == code)["seats"]
    assert [seat["name"] for seat in seated] == ["Ada", "Bo"]

    answer = stranger.goto(f"/{LOBBY}")
    refused = answer.status in (401, 403) or "/login" in stranger.url
    assert refused, (answer.status, stranger.url)
    expect(stranger.locator(".colorlab-lobby")).to_have_count(0)
    expect(stranger.get_by_role("heading")).to_have_text("Ask your teacher for the class address")
    stranger.screenshot(path=artifacts / "classroom-without-key.png")
    stranger.get_by_label("Class key").fill(CLASS_KEY)
    stranger.get_by_label("Class key").press("Enter")
    expect(stranger.locator(".colorlab-lobby")).to_be_visible(timeout=FIRST_LOAD_MS)


def test_a_device_that_dies_mid_game_shows_away_and_the_teacher_gives_its_seat_to_a_bot_who_ends_the_game(
    classroom, devices, artifacts
):
    teacher, ada, bo = devices(3, classroom)
    teacher.set_viewport_size(TEACHER_VIEWPORT)
    open_lobbies([ada, bo], classroom, ["Ada", "Bo"])
    code = open_table(ada, "colorfox", {"Sticks per colour": "2"})
    sit_down(bo, code, 1)
    ada_game, bo_game = (page.locator(".colorlab.colorfox") for page in (ada, bo))
    expect(ada_game.locator("[data-testid='turn']")).to_have_text("your turn")
    colorfox_turn(ada_game)
    expect(bo_game.locator("[data-testid='turn']")).to_have_text("your turn", timeout=10_000)
    bo.context.close()  # Bo's tablet dies at his turn: his page says nothing more
    board = open_with_the_key(teacher, classroom.page(TEACHER))
    row = board.locator(f"tr[data-table='{code}']")
    ada_seat, bo_seat = row.locator("li[data-seat='0']"), row.locator("li[data-seat='1']")
    expect(ada_seat).to_contain_text("connected")
    expect(bo_seat).to_contain_text("away", timeout=150_000)  # a minute of silence, then the page's next look
    expect(ada_seat).to_contain_text("connected")
    teacher.screenshot(path=artifacts / "teacher-seat-away.png")
    board.locator(f"[data-key='bot-{code}-1']").click()
    expect(board.locator("[data-testid='hand-confirm']")).to_contain_text("Give Bo's seat to GreedyBot?")
    board.locator(f"[data-key='confirm-hand-{code}-1']").click()
    expect(bo_seat).to_contain_text("GreedyBot")
    for _ in range(MOST_COLORFOX_MOVES):  # Ada plays on; the bot moves in Bo's turns
        if ada_game.locator("[data-testid='final']").count():
            break
        turn = ada_game.locator("[data-testid='turn']")
        expect(turn).to_have_text(re.compile("your turn|game over"), timeout=20_000)
        if turn.inner_text() == "your turn":
            step = step_of(ada_game)
            colorfox_turn(ada_game)
            expect(ada_game.locator("[data-testid='step']")).not_to_have_text(f"move {step} (live)")
    expect(ada_game.locator("[data-testid='final']")).to_be_visible()
    expect(row.locator("[data-testid='state']")).to_have_text("finished", timeout=20_000)
    record = TableStore(classroom.store).record(code)
    assert record.final_state().over and record.bots == (None, "GreedyBot")


def hinted_solution(state, seat: int):
    """The solution the Hint button shows a seat (fewest cards, then fewest turns), as (task, solution), or None."""
    options = [
        (found, task)
        for task in state.revealed_tasks()
        for found in colorform.solve(state.tops, state.hands[seat], task, state.rules)[:1]
    ]
    if not options:
        return None
    found, task = min(options, key=lambda pair: (pair[0].cards_used, pair[0].rotation))
    return task, found


def both_solve_in_either_order(state, hints) -> bool:
    """Does one STOP with both seats' hinted claims, in either order, let both solve their task?"""
    claims = [Claim(seat, task.number, found.rotation, found.placements) for seat, (task, found) in enumerate(hints)]
    for first, second in (claims, claims[::-1]):
        events = colorform.play(state, Stop((first, dataclasses.replace(second, time=0.1)))).events
        if sum("solved" in event for event in events) != 2:
            return False
    return True


def a_deal_where_both_hints_solve_together(first_seed: int = 1):
    """A seed whose first deal gives both seats a hint, on different tasks, that one STOP accepts: seed, hints."""
    for seed in range(first_seed, first_seed + 200):
        state = new_game(SAME_SECOND, seed)
        hints = [hinted_solution(state, seat) for seat in range(2)]
        if all(hints) and hints[0][0] != hints[1][0] and both_solve_in_either_order(state, hints):
            return seed, hints
    raise AssertionError("no deal lets both seats solve a task in one STOP")


def lay_out_the_hint(game, hand: list[str], task, found) -> None:
    """Ask the page for a hint, then click what it says: the task card, its turns, each card onto its cell."""
    game.locator("[data-action='hint']").click()
    expect(game.locator("[data-testid='hint']")).to_contain_text(f"Hint: task {task.number},")
    game.locator(f"[data-task='{task.number}']").click()
    for _ in range(found.rotation):
        game.locator("[data-action='rotate-right']").click()
    for cell, card in found.placements.items():
        game.locator(f"[data-hand='{hand.index(str(card))}']").click()
        game.locator(f"[data-cell='{cell}']").click()


def test_both_learners_call_stop_in_the_same_second_and_the_table_settles_one_stop(classroom, devices, artifacts):
    seed, hints = a_deal_where_both_hints_solve_together()
    store = TableStore(classroom.store)
    code = store.create("colorform", SAME_SECOND, seed=seed)
    hands = [[str(card) for card in hand] for hand in new_game(SAME_SECOND, seed).hands]
    ada, bo = devices(2, classroom)
    open_lobbies([ada, bo], classroom, ["Ada", "Bo"])
    for seat, page in enumerate((ada, bo)):
        sit_down(page, code, seat)
    games = [page.locator(".colorlab.colorform") for page in (ada, bo)]
    for game, hand, (task, found) in zip(games, hands, hints):
        lay_out_the_hint(game, hand, task, found)
    stops = [game.locator("[data-action='stop']") for game in games]
    for stop in stops:
        expect(stop).to_be_enabled()
    for stop in stops:
        stop.click()
    for game, (task, _) in zip(games, hints):
        expect(game.locator("[data-testid='calls']")).to_have_count(0, timeout=10_000)
        expect(game.locator(".colorform-events")).to_contain_text(f"task {task.number} solved")
    actions = store.record(code).actions
    assert [type(action) for action in actions] == [Stop], actions
    assert sorted(claim.player for claim in actions[0].claims) == [0, 1]
    times = [claim.time for claim in actions[0].claims]
    print(f"\nthe two STOP calls reached the table {abs(times[0] - times[1]) * 1000:.0f} ms apart")
    sizes = [str(task.size) for task, _ in hints]
    for game in games:
        events = game.locator(".colorform-events").inner_text()
        assert all(f"task {task.number} solved" in events for task, _ in hints), events
        expect(game.locator("[data-score='0']")).to_have_text(sizes[0])
        expect(game.locator("[data-score='1']")).to_have_text(sizes[1])
    ada.screenshot(path=artifacts / "classroom-colorform-stop.png", full_page=True)


def answers_for(question) -> list[list[str]]:
    """What each team locks: the Reds the answer, the Blues and the Greens as many colours that are not all in it."""
    wrong = [colour for colour in COLOURS if colour not in question.answer][: question.count]
    return [list(question.answer), wrong, wrong]


def choose_colours(team, colours: list[str]) -> None:
    """Press the team's colours on its screen; its lock button is then ready."""
    for colour in colours:
        team.locator(f"[data-colour='{colour}']").click()
    expect(team.locator("[data-action='lock']")).to_be_enabled()


def test_the_teacher_opens_a_quiz_without_sitting_and_the_teams_join_it_from_the_lobby(classroom, devices):
    teacher, reds, blues = devices(3, classroom)
    teacher.set_viewport_size(TEACHER_VIEWPORT)
    start_lobbies([reds, blues], classroom)
    board = open_with_the_key(teacher, classroom.page(TEACHER))
    board.locator("[data-key='quiz-teams']").select_option("2")
    board.locator("[data-action='open-quiz']").click()
    expect(board.locator("[data-testid='notice']")).to_contain_text("You are the quiz master")
    code = re.search(r"Quiz (\w{5}) is open", board.locator("[data-testid='notice']").inner_text())[1]
    table = next(table for table in TableStore(classroom.store).tables() if table["code"] == code)
    assert table["game"] == "colourbrain" and all(seat["free"] for seat in table["seats"]), "the teacher sat down"
    assert TableStore(classroom.store).record(code).rules.paced
    projector = teacher.locator(".colorlab.colourbrain-projector")
    expect(board.locator("[data-testid='watched']")).to_contain_text(f"Watching table {code}")
    type_names([reds, blues], ["Reds", "Blues"])
    for seat, page in enumerate((reds, blues)):
        sit_down(page, code, seat)
    expect(projector.locator("[data-testid='number']")).to_have_text("Question 1", timeout=20_000)
    question = TableStore(classroom.store).record(code).final_state().question
    for page in (reds, blues):
        expect(page.locator(".colorlab.colourbrain [data-testid='question']")).to_have_text(question.text)


# Every piece of text the page shows, with its size in px, where it is smaller than `least` (scripts, styles and
# hidden parts left out): what the back of a room could not read.
SMALL_TEXT = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const element = walker.currentNode.parentElement;
    if (!text || !element || ["SCRIPT", "STYLE", "NOSCRIPT", "TITLE"].includes(element.tagName)) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === "hidden" || element.closest("[hidden]")) continue;
    const size = parseFloat(style.fontSize);
    if (size < least) small.push(`${text.slice(0, 40)} (${size} px)`);
  }
  return small;
}"""
PROJECTOR_SCREEN = {"width": 1920, "height": 1080}
LEAST_PX = 32


def readable_from_the_back(page) -> None:
    """Nothing the projector page shows is under LEAST_PX, and what it shows fills the screen's width."""
    assert page.evaluate(SMALL_TEXT, LEAST_PX) == [], "text the back of the room cannot read"
    width = page.locator(".colorlab.room").bounding_box()["width"]
    assert width > 0.85 * PROJECTOR_SCREEN["width"], f"the projector page uses {width:.0f} px of 1920"


def test_a_colourbrain_quiz_on_the_projector_page_with_three_team_pages_to_a_winner_no_team_ahead(
    classroom, devices, artifacts, docs_picture
):
    store = TableStore(classroom.store)
    # Two more tables of the class, played from this process as other learners' kernels would: the room sees them
    fox = store.create("colorfox", colorfox.Rules(players=2), seed=5)
    ada, _ = store.join(fox, seat=0, name="Ada"), store.join(fox, seat=1, name="Bo")
    ada.play(colorfox.GreedyBot(seed=1).act(ada.state(), 0))
    colorium_table = store.create("colorium", colorium.Rules(players=2), seed=6, bots={1: "GreedyBot"})
    store.join(colorium_table, seat=0, name="Cy")
    code = store.create("colourbrain", QUIZ, seed=21)
    screen, *team_pages = devices(4, classroom)
    screen.set_viewport_size(PROJECTOR_SCREEN)
    start_lobbies(team_pages, classroom)
    room = open_with_the_key(screen, classroom.page(PROJECTOR), board=".colorlab.room")
    expect(room.locator(f"[data-table='{code}']")).to_contain_text("Quiz: teams, sit down with this code")
    readable_from_the_back(screen)
    type_names(team_pages, list(TEAMS))
    for seat, page in enumerate(team_pages):
        sit_down(page, code, seat)
    teams = [page.locator(".colorlab.colourbrain") for page in team_pages]
    projector = screen.locator(".colorlab.colourbrain-projector.projector-fill")
    expect(room.locator("[data-testid='tables']")).to_have_count(0)  # the quiz fills the screen
    number = 0
    while True:
        number += 1
        # The projector shows the next question only once the quiz master's Next is in the store.
        expect(projector.locator("[data-testid='number']")).to_have_text(f"Question {number}")
        question = store.record(code).final_state().question
        expect(projector.locator(".projector-question")).to_have_text(question.text)
        for team in teams:
            expect(team.locator("[data-testid='question']")).to_have_text(question.text)
        answers = answers_for(question)
        for team, colours in zip(teams, answers):
            choose_colours(team, colours)
        teams[1].locator("[data-action='lock']").click()
        expect(projector.locator("[data-locked='true']")).to_have_count(1)
        expect(projector.locator("[data-locked='true']")).to_contain_text("Blues")
        assert not projector.locator(".colourbrain-swatch").count(), "a locked answer's colours are on the projector"
        if number == 1:
            readable_from_the_back(screen)
            screen.screenshot(path=docs_picture("classroom-projector-question.png"))
        for team in (teams[0], teams[2]):
            team.locator("[data-action='lock']").click()
        reveal = projector.locator("[data-testid='reveal']")
        expect(reveal).to_contain_text(question.explanation)
        # the answer reads as a list: each colour's glyph and name, a comma between colours
        listed = r",\s*\S?\s*".join(re.escape(colour) for colour in question.answer)
        expect(reveal.locator(".projector-solution")).to_have_text(re.compile(rf"^Answer:\s*\S?\s*{listed}$"))
        expect(reveal.locator("[data-points='0']")).to_have_text(" +2")
        if number == 1:
            readable_from_the_back(screen)
            screen.screenshot(path=artifacts / "classroom-projector-reveal.png")
        decided = store.record(code).final_state().decided
        # No team is ahead of the projector: each screen shows this answer and waits, with no winner named.
        for team in teams:
            expect(team.locator("[data-testid='wait']")).to_have_text("Wait for the quiz master's Next.")
            assert not team.locator("[data-testid='final']").count(), "a team's screen names the winner first"
        expect(projector.locator("[data-action='next']")).to_have_text(
            "Show the winner" if decided else "Next question"
        )
        projector.locator("[data-action='next']").click()
        if decided:
            break
    winner = "Colour-Brain: Reds!"
    expect(room.locator("[data-testid='winner']")).to_have_text(winner)
    for team in teams:
        expect(team.locator("[data-testid='final']")).to_be_visible()
    said = [team.locator("[data-testid='final']").inner_text() for team in teams]
    print(f"\nthe quiz ended after {number} questions; the teams' pages say {said}")
    assert said == ["Colour-Brain: You!", winner, winner]
    final = store.record(code).final_state()
    assert colourbrain.winners(final) == [0]
    for screen_scores in (room.locator(f"[data-table='{code}']"), *teams):
        assert [screen_scores.locator(f"[data-score='{team}']").inner_text() for team in range(3)] == [
            str(points) for points in final.scores
        ]
    readable_from_the_back(screen)
    screen.screenshot(path=docs_picture("classroom-projector-tables.png"))
    team_pages[0].screenshot(path=artifacts / "classroom-team-winner.png", full_page=True)


def test_pages_say_the_class_server_went_away_and_come_back_to_their_seats_when_it_is_restarted(
    tmp_path, devices, artifacts
):
    served, store, port = new_class(tmp_path)
    server, url = serve_class(tmp_path, served, store, port)
    try:
        room = Classroom(url, store, served)
        ada, bo = devices(2, room)
        open_lobbies([ada, bo], room, ["Ada", "Bo"])
        code = open_table(ada, "colorfox")
        sit_down(bo, code, 1)
        ada_game = ada.locator(".colorlab.colorfox")
        expect(ada_game.locator("[data-testid='turn']")).to_have_text("your turn")
        makes_a_move(ada_game)
        expect(bo.locator(".colorlab.colorfox [data-testid='turn']")).to_have_text("your turn")

        server.stop()
        for page in (ada, bo):
            expect(page.locator("[data-testid='connection']")).to_contain_text(
                "connection to the class server was lost", timeout=30_000
            )
        ada.screenshot(path=artifacts / "class-server-lost.png")
        for page in (ada, bo):
            page.evaluate("() => { window.beforeTheRestart = true; }")
        # The restarted server is slow to make a page, as a busy one is: the old page must wait for the new one, not
        # ask for it again and again (each asking starts a kernel: a page once used up its learner's pages so).
        slow_lobby(served / LOBBY.removeprefix("voila/render/"), seconds=8)
        server, _ = serve_class(tmp_path, served, store, port)
        for page, name in ((ada, "Ada"), (bo, "Bo")):  # each page opens afresh by itself, back at its seat
            assert opened_afresh_at_the_seat(page, name), f"{name}'s page did not come back by itself"
        assert len(server.kernels()) == 2, "a page came back with more than one kernel started for it"
        expect(bo.locator(".colorlab.colorfox [data-testid='turn']")).to_have_text("your turn")
        makes_a_move(bo.locator(".colorlab.colorfox"))
        expect(ada.locator(".colorlab.colorfox [data-testid='turn']")).to_have_text("your turn", timeout=10_000)
        assert [seat["name"] for seat in TableStore(store).tables([code])[0]["seats"]] == ["Ada", "Bo"]
    finally:
        server.stop()


def test_a_class_page_fetches_from_the_class_server_alone(classroom, devices):
    """Voila's own page asks public CDNs for icons; the class's pages ask the class server for everything (and, being
    light, for little: a page, its script and its stylesheet)."""
    [page] = devices(1, classroom)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    open_lobbies([page], classroom, ["Ada"])
    server = urllib.parse.urlsplit(page.url).hostname
    elsewhere = [url for url in asked if not url.startswith("data:") and urllib.parse.urlsplit(url).hostname != server]
    assert asked and elsewhere == [], f"the lobby asked other hosts: {elsewhere}"


NEVER_SHOWN = "classroom/never-shown.ipynb"  # in the served folder


def test_a_class_page_whose_widget_never_shows_says_so_tries_again_and_then_sends_the_learner_to_the_teacher(
    classroom, devices, artifacts
):
    """A class page (as the lobby, marked in its notebook's metadata) whose widget has not shown says the server
    is busy, loads itself again twice, then says to ask the teacher; the page's clock is run forward, not waited."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("print('a page with no widget')")],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}, "colorlab": {"class_page": True}},
    )
    nbformat.write(notebook, classroom.served / NEVER_SHOWN)
    [page] = devices(1, classroom)
    page.clock.install()
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.goto(classroom.page(f"voila/render/{NEVER_SHOWN}"))
    note = page.locator("[data-testid='arriving']")
    for load in range(1, 4):
        expect(page.get_by_text("a page with no widget")).to_be_visible(timeout=FIRST_LOAD_MS)
        assert len(loads) == load
        expect(note).to_have_count(0)
        page.clock.run_for(16_000)
        expect(note).to_contain_text("The class server is busy")
        if load < 3:
            with page.expect_event("load", timeout=FIRST_LOAD_MS):
                page.clock.run_for(110_000)
    page.clock.run_for(110_000)
    expect(note).to_have_text("This page did not arrive. Ask your teacher.")
    page.screenshot(path=artifacts / "class-page-never-shown.png")
    page.clock.run_for(300_000)
    assert len(loads) == 3, "the page went on loading itself again"


AT_THE_SEAT = """(name) => !window.beforeTheRestart && document.querySelector(
    ".colorlab.colorfox [data-testid='seating']")?.textContent.includes(`you play as ${name}`)"""


def slow_lobby(notebook: Path, seconds: float) -> None:
    """Make the lobby take `seconds` longer to run before Voila sends it (a busy server)."""
    lobby = nbformat.read(notebook, as_version=4)
    lobby.cells.insert(0, nbformat.v4.new_code_cell(f"import time\ntime.sleep({seconds})"))
    nbformat.write(lobby, notebook)


def opened_afresh_at_the_seat(page, name: str, seconds: float = 90.0) -> bool:
    """Wait until the page has opened afresh (a new document) and shows the learner's seat again."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if page.evaluate(AT_THE_SEAT, name):
                return True
        except PlaywrightError:  # the page is opening afresh right now
            pass
        page.wait_for_timeout(250)
    return False
