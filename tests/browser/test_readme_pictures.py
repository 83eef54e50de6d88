"""The README's pictures, retaken in JupyterLab: each widget at the moment the README shows, checked, then saved.

With COLORLAB_DOCS_PICTURES=1 the pictures go into docs/ (look at each one before committing it); without it
they go into the tests' artifacts folder and docs/ stays as it was. A game in the middle is reached by playing
it here, in this process, and handing its record to the notebook's widget; the rest is done by clicking.
"""

from __future__ import annotations

import nbformat
from playwright.sync_api import Locator, Page, expect

from colorlab.colorform import Rules as ColorFormRules
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox import GreedyBot, model
from colorlab.colorfox.view import ColorFoxGame
from colorlab.colorium import MissionBot
from colorlab.colorium.view import ColoriumGame
from colorlab.colourbrain import Rules as QuizRules
from colorlab.colourbrain import new_game
from colorlab.palette import COLOUR_BLIND_SAFE, DEFAULT, Colour
from tests.helpers.lab import open_notebook, run_all, show_all_of

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
COLORFORM_SEED = 8  # after one skip, the hint turns task 3 a quarter and lays one card: the README's moment
COLORFOX_SEEDS = range(1, 40)
COLORFOX_COLUMNS, COLORFOX_ROWS = 13, 7  # as many 58 px cells as the table's box shows without scrolling
COLORIUM_SEED = 7
QUIZ_SEED = 1  # the first question has a one-colour answer
# Wide enough for JupyterLab, its file browser open, to give a widget its full 800 px, as the README shows it.
WIDE = {"width": 1300, "height": 900}
WIDGET_WIDTH = 800
FORM = f"""from colorlab.colorform.view import ColorFormGame
game = ColorFormGame(bots=2, level="medium", seed={COLORFORM_SEED}, bots_wait=True)
game"""
RULE_EDITOR = """from colorlab.colorform.view import ColorFormGame
game = ColorFormGame(bots=2, level="easy")
editor = game.rule_editor()
editor.add_class("readme-rule-editor")  # only for the test to find it
editor"""
# A game played so far in this process, handed on as its record: the widget then shows its latest state.
MIDGAME = """from colorlab.record import GameRecord
from {module} import {widget}
game = {widget}(bots=2, bot={bot!r})
game.set_record(GameRecord.from_json(open({saved!r}).read()))
game.refresh()
game"""
QUIZ = f"""from colorlab.colourbrain import Rules
from colorlab.colourbrain.view import ColourbrainQuiz
quiz = ColourbrainQuiz(Rules(teams=2), names=["Foxes", "Owls"], seed={QUIZ_SEED})
quiz"""
# Does a scrolling box show all it holds?
SHOWS_WHOLE = "(box) => box.scrollHeight <= box.clientHeight && box.scrollWidth <= box.clientWidth"
# Which colour does each figure of the widget show, by the colour it stands for?
FIGURE_FILLS = """(root) => {
    const fills = {};
    for (const shape of root.querySelectorAll("path[style*='--colorlab-']")) {
        fills[shape.getAttribute('style').match(/--colorlab-([a-z]+)/)[1]] = getComputedStyle(shape).fill;
    }
    return fills;
}"""


def serve(lab_server, page: Page, name: str, code: str, selector: str) -> Locator:
    """Open a notebook of one cell in JupyterLab, run it, and give back the widget it shows."""
    page.set_viewport_size(WIDE)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / f"{name}.ipynb")
    open_notebook(page, lab_server, f"{name}.ipynb")
    run_all(page)
    widget = page.locator(selector)
    expect(widget).to_be_visible()
    return widget


def take_picture(page: Page, selector: str, path) -> None:
    """Show all of the widget, without the keyboard's ring or the pointer on it, and save its picture."""
    show_all_of(page, selector)
    assert page.locator(selector).bounding_box()["width"] == WIDGET_WIDTH
    page.evaluate("() => document.activeElement?.blur()")
    page.mouse.move(0, 0)
    page.locator(selector).screenshot(path=path)


def rgb(hex_colour: str) -> str:
    """A colour as the browser writes it: #d62828 is rgb(214, 40, 40)."""
    value = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(value[i : i + 2], 16) for i in (0, 2, 4)))


# --- Col-Or-Form: a task chosen, turned, a card laid and the hint shown -----------------------------


def form_moment_after_one_skip() -> tuple[ColorFormGame, dict]:
    """The README's table after one Skip ahead, played here: the game, and the hint it gives then."""
    game = ColorFormGame(bots=2, level="medium", seed=COLORFORM_SEED, bots_wait=True)
    game.skip()
    game.show_hint()
    assert game.hint and game.hint["rotation"] and game.hint["placements"], game.hint
    return game, game.hint


def play_to_the_hint(page: Page, lab_server, name: str) -> Locator:
    """Skip ahead once, then choose, turn and fill the hinted task as the hint says (one card), and ask for the hint."""
    game, hint = form_moment_after_one_skip()
    table = serve(lab_server, page, name, FORM, ".colorform")
    table.locator("[data-action='skip']").click()
    expect(table.locator("[data-testid='step']")).to_have_text("move 1 (live)")
    table.locator(f"[data-task='{hint['task']}']").click()
    for _ in range(hint["rotation"]):
        table.locator("[data-action='rotate-right']").click()
    cell, card = hint["placements"][0]
    table.locator(f"[data-hand='{[str(figure) for figure in game.state.hands[0]].index(card)}']").click()
    table.locator(f"[data-cell='{cell}']").click()
    table.locator("[data-action='hint']").click()
    expect(table.locator("[data-testid='hint'] strong")).to_have_text(
        f"Hint: task {hint['task']}, {hint['turn'].lower()}"
    )
    expect(table.locator("[data-testid='hint'] li")).to_have_text(hint["reasons"])
    expect(table.locator("[data-testid='group-element']")).to_have_text(hint["turn"])
    expect(table.locator(f"[data-cell='{cell}']")).to_have_class("colorform-cell is-placed is-wanted")
    expect(table.locator(f"[data-task='{hint['task']}']")).to_have_attribute("aria-pressed", "true")
    expect(table.locator(".colorform-scores tbody th")).to_have_text(["You", "Bot 1 (medium)", "Bot 2 (medium)"])
    expect(table.locator(".colorform-events")).to_contain_text(game.snapshot(game.state)["events"][0])
    return table


def test_colorform_play_shows_a_turned_task_a_laid_card_and_the_hint(page, lab_server, docs_picture):
    """The hint names the chosen task, its turn and a reason for every figure; the players are You and two bots."""
    table = play_to_the_hint(page, lab_server, "readme-colorform-play")
    expect(table).to_have_attribute("data-palette", "default")
    take_picture(page, ".colorform", docs_picture("colorform-play.png"))


def test_colorform_colour_blind_shows_the_same_moment_in_the_safe_palette(page, lab_server, docs_picture):
    """The palette switch redraws every figure in the colour-blind-safe colours; the hint and the laid card stay."""
    table = play_to_the_hint(page, lab_server, "readme-colorform-colour-blind")
    reasons = table.locator("[data-testid='hint'] li").all_inner_texts()
    default = table.evaluate(FIGURE_FILLS)
    assert len(default) >= 5, default
    assert default == {hue: rgb(DEFAULT[Colour(hue)]) for hue in default}
    table.locator("[data-action='palette']").select_option("colour-blind-safe")
    expect(table).to_have_attribute("data-palette", "colour-blind-safe")
    safe = table.evaluate(FIGURE_FILLS)
    assert safe == {hue: rgb(COLOUR_BLIND_SAFE[Colour(hue)]) for hue in default}
    assert safe != default, "the safe palette changed no colour"
    expect(table.locator("[data-testid='hint'] li")).to_have_text(reasons)
    expect(table.locator(".colorform-cell.is-placed")).to_have_count(1)
    take_picture(page, ".colorform", docs_picture("colorform-colour-blind.png"))


# --- the rule editor: every rule listed, one changed, a typed value refused ----------------------------


def test_rule_editor_lists_every_rule_and_refuses_a_value_with_a_reason(page, lab_server, docs_picture):
    """Every Col-Or-Form rule has a row; the game's 3 players are marked changed; a typed 2.5 is refused, saying why."""
    editor = serve(lab_server, page, "readme-rule-editor", RULE_EDITOR, ".readme-rule-editor")
    expect(editor.get_by_role("heading")).to_have_text("Col-Or-Form rules")
    for rule in ColorFormRules.describe():
        expect(editor.get_by_label(rule["label"], exact=True)).to_be_visible()
    players = editor.get_by_role("spinbutton", name="Players")
    expect(players).to_have_value("3")
    expect(editor).to_contain_text("• changed (default: 2)")
    expect(editor).to_contain_text("Changed from the default edition: Players 2 → 3")
    players.fill("2.5")
    players.press("Enter")
    expect(editor.get_by_role("alert")).to_have_text(
        "⚠ Players 2.5 is not allowed: choose a whole number from 2 to 6. It stays 3."
    )
    expect(players).to_have_value("3")
    take_picture(page, ".readme-rule-editor", docs_picture("rule-editor.png"))


# --- ColorFox: in the middle of a game against two SetBuilders, a card chosen ---------------------------


def fox_midgame() -> tuple[ColorFoxGame, int, set[str]]:
    """A game against two SetBuilders played here (you by a greedy bot) to your turn after move 24, with a card that
    lights at least 5 cells and a table that shows whole in its box: the game, that card and its cells."""
    for seed in COLORFOX_SEEDS:
        game = ColorFoxGame(bots=2, bot="SetBuilder", seed=seed)
        me = GreedyBot(seed=seed)
        while not game.state.over and not (
            len(game.record.actions) >= 24 and model.to_move(game.state) == 0 and not game.state.exchanges_left
        ):
            if model.to_move(game.state) == 0:
                game.play(me.act(game.state, 0))
            else:
                game.bot_move()
        if game.state.over:
            continue
        view = game.snapshot(game.state)
        placed = [(tile["x"], tile["y"]) for tile in view["table"]]
        for card in sorted({card for card, *_ in view["legal"]}):
            lit = {(x, y) for number, x, y, turned in view["legal"] if number == card and not turned}
            xs, ys = [x for x, _ in placed + list(lit)], [y for _, y in placed + list(lit)]
            if len(lit) >= 5 and max(xs) - min(xs) < COLORFOX_COLUMNS and max(ys) - min(ys) < COLORFOX_ROWS:
                return game, card, {f"{x},{y}" for x, y in lit}
    raise AssertionError("no game came to the wanted moment")


def test_colorfox_play_lights_where_the_card_fits_and_names_the_set_builders(page, lab_server, docs_picture):
    """The chosen card lights every cell where it fits; the players read You, Bot 1 (SetBuilder), Bot 2 (SetBuilder)."""
    game, card, cells = fox_midgame()
    saved = "readme-colorfox-play.json"
    (lab_server.root / saved).write_text(game.record.to_json())
    code = MIDGAME.format(module="colorlab.colorfox.view", widget="ColorFoxGame", bot="SetBuilder", saved=saved)
    table = serve(lab_server, page, "readme-colorfox-play", code, ".colorfox")
    view = game.snapshot(game.state)
    expect(table.locator("[data-testid='turn']")).to_have_text("your turn")
    expect(table.locator("[data-testid='practice']")).to_have_count(0)
    expect(table.locator(".colorfox-players tbody th")).to_have_text(
        ["You", "Bot 1 (SetBuilder)", "Bot 2 (SetBuilder)"]
    )
    for seat, points in enumerate(view["scores"]):
        expect(table.locator(f"[data-score='{seat}']")).to_have_text(str(points))
        expect(table.locator(f"[data-sets='{seat}'] svg")).to_have_count(len(view["sets"][seat]))
    expect(table.locator(".colorfox-cell.is-last .colorfox-newtag")).to_have_text("new")
    table.locator(f"[data-card='{card}']").click()
    expect(table.locator(f"[data-card='{card}']")).to_have_attribute("aria-pressed", "true")
    lit = table.locator("[data-legal]")
    expect(lit).to_have_count(len(cells))
    assert {lit.nth(i).get_attribute("data-legal") for i in range(lit.count())} == cells
    expect(table.locator("[data-testid='tip']")).to_have_text("Click a lit cell to place the card.")
    assert table.locator(".colorfox-scroll").evaluate(SHOWS_WHOLE), "the table needs scrolling: a lit cell is hidden"
    take_picture(page, ".colorfox", docs_picture("colorfox-play.png"))


# --- Colorium: round 7 against two MissionBots, your shape to draw ---------------------------------------


def ium_midgame() -> ColoriumGame:
    """A game against two MissionBots played here (you by a MissionBot) until you draw in round 7, the bots drawn."""
    game = ColoriumGame(bots=2, bot="MissionBot", seed=COLORIUM_SEED)
    me = MissionBot(seed=COLORIUM_SEED)

    def my_drawing(state) -> bool:
        return state.round >= 7 and state.phase == "draw" and not state.drawn[0] and game.bot_seat(state) is None

    while not game.state.over and not my_drawing(game.state):
        if game.bot_seat(game.state) is None:
            game.play(me.act(game.state, 0))
        else:
            game.bot_move()
    assert not game.state.over
    return game


def test_colorium_play_shows_the_ghost_among_its_resting_places_and_the_missions(page, lab_server, docs_picture):
    """The ghost of your shape sits on one of its resting places, counted as Python counts them; four missions;
    the bots' boards read Bot 1 (MissionBot) and Bot 2 (MissionBot)."""
    game = ium_midgame()
    saved = "readme-colorium-play.json"
    (lab_server.root / saved).write_text(game.record.to_json())
    code = MIDGAME.format(module="colorlab.colorium.view", widget="ColoriumGame", bot="MissionBot", saved=saved)
    table = serve(lab_server, page, "readme-colorium-play", code, ".colorium")
    view = game.snapshot(game.state)
    first = view["options"][0]
    spots = next(found for found in first["spots"] if found)
    expect(table.locator("[data-testid='phase']")).to_have_text("drawing")
    expect(table.locator("[data-testid='practice']")).to_have_count(0)
    expect(table.locator("[data-key='option'] option").first).to_have_text(first["shape"])
    expect(table.locator(".colorium-cell.is-ghost")).to_have_count(first["size"])
    ghost = table.locator(".colorium-cell.is-ghost")
    shown = {tuple(map(int, ghost.nth(i).get_attribute("data-cell").split(","))) for i in range(ghost.count())}
    assert shown in [{tuple(cell) for cell in spot} for spot in spots]
    expect(table.locator(".colorium-count")).to_have_text(
        f"{len(spots)} resting place(s) this way up; arrows move, Enter draws."
    )
    expect(table.locator(".colorium-mission strong")).to_have_text([mission["title"] for mission in view["missions"]])
    expect(table.locator(".colorium-thumb > div:first-child")).to_have_text(
        [f"Bot {seat} (MissionBot): {view['scores'][seat]} pts" for seat in (1, 2)]
    )
    expect(table.locator("[data-score='0']")).to_have_text(f"You: {view['scores'][0]} pts")
    take_picture(page, ".colorium", docs_picture("colorium-play.png"))


# --- Colourbrain: the Foxes have answered, the Owls are choosing ------------------------------------------


def test_colourbrain_quiz_hides_the_foxes_answer_while_the_owls_choose(page, lab_server, docs_picture):
    """Once the Foxes lock their answer the page says only that they answered; the Owls' choice shows as chosen."""
    question = new_game(QuizRules(teams=2), QUIZ_SEED).question
    answer = list(question.answer)
    quiz = serve(lab_server, page, "readme-colourbrain-quiz", QUIZ, ".colourbrain")
    expect(quiz.locator("[data-testid='question']")).to_have_text(question.text)
    expect(quiz.locator(".colourbrain-turn")).to_have_text(f"Foxes: choose {len(answer)} colour(s), secretly")
    for colour in answer:
        quiz.locator(f"[data-colour='{colour}']").click()
    quiz.locator("[data-action='lock']").click()
    expect(quiz.locator(".colourbrain-turn")).to_have_text(f"Owls: choose {len(answer)} colour(s), secretly")
    expect(quiz.locator(".colourbrain-answered span")).to_have_text(["Foxes ✓ answered", "Owls …"])
    expect(quiz.locator(".colourbrain-colour.is-chosen")).to_have_count(0)
    quiz.locator(f"[data-colour='{answer[0]}']").click()
    expect(quiz.locator(".colourbrain-colour.is-chosen")).to_have_count(1)
    expect(quiz.locator(f"[data-colour='{answer[0]}']")).to_have_attribute("aria-pressed", "true")
    expect(quiz.locator("[data-testid='reveal']")).to_have_count(0)
    expect(quiz.locator("[data-score='0']")).to_have_text("0")
    take_picture(page, ".colourbrain", docs_picture("colourbrain-quiz.png"))
