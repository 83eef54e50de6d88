"""The Col-Or-Form widget in a real browser: claims by clicking, refusals, palette, Voila."""

from __future__ import annotations

import statistics
import time

import nbformat
from playwright.sync_api import expect

from colorlab.colorform import solve
from colorlab.colorform.model import Stop
from colorlab.colorform.view import ColorFormGame, only_you_can_solve
from colorlab.palette import COLOUR_BLIND_SAFE, DEFAULT, Colour
from tests.helpers.lab import accessibility_violations, open_notebook, problems_in_both_palettes, run_all

SEED = 20_261_129
TABLE = f"""from colorlab.colorform.view import ColorFormGame
game = ColorFormGame(bots=1, level="medium", seed={SEED}, bots_wait=True)
game"""
TIMED = f"""from colorlab.colorform.view import ColorFormGame
game = ColorFormGame(bots=1, level="hard", seed={SEED})
game"""
PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}


def write_table(root, name="table.ipynb", source=TABLE):
    """Put a notebook with one Col-Or-Form table (by default a calm one) into the served folder."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)], metadata=PYTHON3)
    nbformat.write(notebook, root / name)
    return name


def same_table():
    """The same game, dealt here, to know which claims are right."""
    return ColorFormGame(bots=1, level="medium", seed=SEED, bots_wait=True).state


def open_table(page, lab_server):
    open_notebook(page, lab_server, write_table(lab_server.root))
    run_all(page)
    expect(page.locator(".colorform")).to_be_visible()


def rgb(hex_colour):
    value = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(value[i : i + 2], 16) for i in (0, 2, 4)))


def claim_by_clicking(page, task, rotation, placements):
    """Choose the task, turn it, lay the hand cards, call STOP and show the solution."""
    hand = same_table().hands[0]
    page.click(f"[data-task='{task}']")
    for _ in range(rotation):
        page.click("[data-action='rotate-right']")
    for cell, card in placements.items():
        page.click(f"[data-hand='{hand.index(card)}']")
        page.click(f"[data-cell='{cell}']")
    page.click("[data-action='stop']")
    expect(page.locator("[data-testid='countdown']")).to_be_visible()
    page.click("[data-action='show']")


def test_a_correct_claim_made_by_clicking_scores(page, lab_server):
    state = same_table()
    task, best = next(
        (t, s[0]) for t in state.revealed_tasks() if (s := solve(state.tops, state.hands[0], t, state.rules))
    )
    open_table(page, lab_server)
    claim_by_clicking(page, task.number, best.rotation, best.placements)
    expect(page.locator("[data-score='0']")).to_have_text(str(task.size))
    expect(page.locator("[data-testid='notice']")).to_contain_text("solved")


def test_a_wrong_claim_shows_why_and_costs_points(page, lab_server):
    state = same_table()
    task, rotation = next(
        (t, k)
        for t in state.revealed_tasks()
        for k in range(4)
        if not any(s.rotation == k and not s.placements for s in solve(state.tops, [], t, state.rules))
    )
    open_table(page, lab_server)
    claim_by_clicking(page, task.number, rotation, {})
    expect(page.locator("[data-score='0']")).to_have_text(str(-task.size))
    notice = page.locator("[data-testid='notice']")
    expect(notice).to_have_class("colorlab-notice is-error")
    expect(notice).to_contain_text("does not fit")


def test_the_colour_blind_palette_is_one_switch_away(page, lab_server):
    open_table(page, lab_server)
    red = page.locator(
        ".colorform-layout path[style*='--colorlab-red'], .colorform-hand path[style*='--colorlab-red']"
    ).first
    if red.count() == 0:
        red = page.locator(".colorform path[style*='--colorlab-']").first
    hue = red.get_attribute("style").split("--colorlab-")[1].rstrip(")").rstrip(";").rstrip(")")
    colour = Colour(hue)
    expect(red).to_have_css("fill", rgb(DEFAULT[colour]))
    page.select_option("[data-action='palette']", "colour-blind-safe")
    expect(page.locator(".colorform")).to_have_attribute("data-palette", "colour-blind-safe")
    red = page.locator(f".colorform path[style*='--colorlab-{hue}']").first
    expect(red).to_have_css("fill", rgb(COLOUR_BLIND_SAFE[colour]))


def test_every_control_works_from_the_keyboard(page, lab_server):
    state = same_table()
    task = state.revealed_tasks()[0]
    open_table(page, lab_server)
    page.focus(f"[data-task='{task.number}']")
    page.keyboard.press("Enter")
    expect(page.locator(f"[data-task='{task.number}']")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("r")
    expect(page.locator("[data-testid='group-element']")).to_have_text("Turned a quarter to the right")
    page.focus("[data-action='skip']")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid='step']")).to_have_text("move 1 (live)")


def first_bot_moment_after_start() -> float:
    """When, after Start, does the timed table's bot call STOP?"""
    table = ColorFormGame(bots=1, level="hard", seed=SEED)
    table.start()
    return min(call.time for call in table.plans.values()) + table.state.rules.stop_window


def test_the_bot_waits_for_start_then_calls_stop_when_the_kernels_clock_says_so(page, lab_server):
    bot_moment = first_bot_moment_after_start()
    open_notebook(page, lab_server, write_table(lab_server.root, "timed.ipynb", TIMED))
    run_all(page)
    expect(page.locator("[data-testid='start-note']")).to_contain_text("Round 1 waits for you")
    page.click("[data-task]:first-child")
    expect(page.locator("[data-action='stop']")).to_be_disabled()
    page.wait_for_timeout((bot_moment + 1.5) * 1000)
    expect(page.locator("[data-testid='step']")).to_have_text("move 0 (live)")
    page.click("[data-action='start']")
    expect(page.locator("[data-testid='start-note']")).to_have_count(0)
    expect(page.locator("[data-action='stop']")).to_be_enabled()
    expect(page.locator("[data-testid='step']")).to_have_text("move 1 (live)", timeout=(bot_moment + 20) * 1000)
    expect(page.locator("[data-testid='notice']")).to_contain_text("Bot 1")


def double_click_like_a_learner(page, selector, gap_ms=150):
    """Two clicks on one spot with a learner's pause between them (the table has redrawn by the second)."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(gap_ms)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_double_click_on_stop_never_shows_a_solution(page, lab_server):
    state = same_table()
    task, best = next(
        (t, s[0]) for t in state.revealed_tasks() if (s := solve(state.tops, state.hands[0], t, state.rules))
    )
    open_table(page, lab_server)
    page.click(f"[data-task='{task.number}']")
    for _ in range(best.rotation):
        page.click("[data-action='rotate-right']")
    for cell, card in best.placements.items():
        page.click(f"[data-hand='{state.hands[0].index(card)}']")
        page.click(f"[data-cell='{cell}']")
    double_click_like_a_learner(page, "[data-action='stop']")
    page.wait_for_timeout(500)  # a second click that reached "Show solution" would have scored by now
    expect(page.locator("[data-testid='step']")).to_have_text("move 0 (live)")
    show = page.locator("[data-action='show']")
    expect(show).to_be_visible()
    stop_box, show_box = page.locator("[data-action='stop']").bounding_box(), show.bounding_box()
    apart = (
        stop_box["x"] + stop_box["width"] <= show_box["x"]
        or show_box["x"] + show_box["width"] <= stop_box["x"]
        or stop_box["y"] + stop_box["height"] <= show_box["y"]
        or show_box["y"] + show_box["height"] <= stop_box["y"]
    )
    assert apart, (stop_box, show_box)
    show.click()
    expect(page.locator("[data-score='0']")).to_have_text(str(task.size))


# Is all of an element inside the notebook's visible area and the window's width?
ON_SCREEN = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    const shell = window.jupyterapp.shell.currentWidget.content.node.getBoundingClientRect();
    return {box: [box.left, box.top, box.right, box.bottom], shell: [shell.top, shell.bottom], width: innerWidth,
            shown: box.left >= 0 && box.right <= innerWidth && box.top >= shell.top && box.bottom <= shell.bottom};
}"""


def test_stop_is_on_screen_with_the_table_at_800_px_wide(page, lab_server):
    page.set_viewport_size({"width": 800, "height": 700})
    open_notebook(page, lab_server, write_table(lab_server.root, "narrow.ipynb", TIMED))
    run_all(page)
    page.locator(".colorform").evaluate("(node) => node.scrollIntoView({block: 'start'})")
    for moment in ("before Start", "after Start"):
        expect(page.locator("[data-action='stop']")).to_be_visible()
        found = page.evaluate(ON_SCREEN, "[data-action='stop']")
        assert found["shown"], (moment, found)
        if moment == "before Start":
            page.click("[data-action='start']")
            expect(page.locator("[data-testid='start-note']")).to_have_count(0)


CLEAN = {"default": [], "colour-blind-safe": []}


def test_the_table_has_no_accessibility_problems_in_either_palette(page, lab_server):
    state = same_table()
    open_table(page, lab_server)
    found = {"dealt": problems_in_both_palettes(page, ".colorform")}
    page.click(f"[data-task='{state.revealed_tasks()[0].number}']")
    page.click("[data-hand='0']")
    page.click("[data-cell='4']")
    page.click("[data-hand='1']")
    page.click("[data-action='hint']")
    expect(page.locator("[data-testid='hint']")).to_be_visible()
    found["a card placed, another chosen, a hint"] = problems_in_both_palettes(page, ".colorform")
    page.click("[data-action='stop']")
    expect(page.locator("[data-testid='countdown']")).to_be_visible()
    found["STOP called"] = problems_in_both_palettes(page, ".colorform")
    assert found == {"dealt": CLEAN, "a card placed, another chosen, a hint": CLEAN, "STOP called": CLEAN}


TURNER = """from colorlab.colorform.turner import TaskTurner
TaskTurner(5, mirrors=True)"""
RULE_EDITOR = """from colorlab.colorform import Rules
from colorlab.widgets import RuleEditor
editor = RuleEditor(Rules(), title="Col-Or-Form rules")
editor.add_class("rule-editor-under-test")
editor"""


def test_the_task_turner_has_no_accessibility_problems_in_either_palette(page, lab_server):
    open_notebook(page, lab_server, write_table(lab_server.root, "turner.ipynb", TURNER))
    run_all(page)
    expect(page.locator(".turner")).to_be_visible()
    found = {"as printed": problems_in_both_palettes(page, ".turner")}
    page.click("[data-action='rotate-right']")
    page.click("[data-action='mirror']")
    expect(page.locator(".turner-number:not(.is-home)").first).to_be_visible()
    found["turned and mirrored"] = problems_in_both_palettes(page, ".turner")
    assert found == {"as printed": CLEAN, "turned and mirrored": CLEAN}


def test_the_rule_editor_breaks_no_wcag_rule(page, lab_server):
    """Violations only: axe leaves the drop-downs for review, as ipywidgets draws their arrow as a background image."""
    open_notebook(page, lab_server, write_table(lab_server.root, "editor.ipynb", RULE_EDITOR))
    run_all(page)
    expect(page.locator(".rule-editor-under-test")).to_be_visible()
    assert accessibility_violations(page, ".rule-editor-under-test") == []


# Click a button inside the page and wait there until the redrawn table shows the new move:
# the time a learner waits, without the test driver's own messages to the browser.
ROUND_TRIP = """() => new Promise((resolve) => {
    const table = document.querySelector('.colorform');
    const before = table.querySelector("[data-testid='step']").textContent;
    const started = performance.now();
    const watcher = new MutationObserver(() => {
        const step = table.querySelector("[data-testid='step']");
        if (step && step.textContent !== before) {
            watcher.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - started));
        }
    });
    watcher.observe(table, {subtree: true, childList: true, characterData: true});
    table.querySelector("[data-action='skip']").click();
})"""


def skips_until_only_my_cards_solve() -> int:
    """How many times can the learner skip ahead at the calm table before only its cards can solve a task?"""
    table = ColorFormGame(bots=1, level="medium", seed=SEED, bots_wait=True)
    skips = 0
    while not only_you_can_solve(table.state) and not table.state.over:
        table.skip()
        skips += 1
    return skips


def test_click_to_redraw_round_trip_is_quick(page, lab_server):
    open_table(page, lab_server)
    times = [page.evaluate(ROUND_TRIP) for _ in range(skips_until_only_my_cards_solve())]
    median = statistics.median(times)
    print(
        f"\nclick -> Python -> redraw round trip: median {median:.0f} ms over {len(times)} clicks "
        f"(min {min(times):.0f}, max {max(times):.0f})"
    )
    assert median < 1000, "a click took far too long to come back"


def test_skip_ahead_is_greyed_out_when_only_your_cards_can_solve_a_task(page, lab_server):
    skips = skips_until_only_my_cards_solve()
    assert skips >= 1
    open_table(page, lab_server)
    skip = page.locator("[data-action='skip']")
    for move in range(1, skips + 1):
        expect(page.locator("[data-testid='only-you']")).to_have_count(0)
        skip.click()
        expect(page.locator("[data-testid='step']")).to_have_text(f"move {move} (live)")
    expect(skip).to_be_disabled()
    expect(page.locator("[data-testid='only-you']")).to_have_text(
        "The bots cannot solve any task, but your cards can: the round waits for you. Look again, or press Hint."
    )
    assert accessibility_violations(page, ".colorform") == []


def test_the_play_lesson_runs_in_jupyterlab(page, lab_server):
    started = time.perf_counter()
    open_notebook(page, lab_server, "01-colorform-play.ipynb")
    run_all(page)
    print(f"\n01-colorform-play: opened and ran all cells in {time.perf_counter() - started:.1f} s")
    expect(page.locator(".colorform")).to_have_count(3)
    expect(page.locator(".widget-vbox").filter(has_text="Col-Or-Form rules")).to_be_visible()


def test_the_play_lesson_works_as_a_voila_app(page, voila):
    page.goto(voila("01-colorform-play.ipynb"))
    expect(page.locator(".colorform").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("ColorFormGame(bots=2")).to_have_count(0)
    page.locator("[data-action='hint']").nth(1).click()
    expect(page.locator("[data-testid='notice']").nth(1)).not_to_be_empty()


def test_laid_cards_go_back_to_the_hand_when_the_layout_changes_and_the_page_says_why(page, lab_server):
    twin = ColorFormGame(bots=1, level="medium", seed=SEED, bots_wait=True)
    skips, tops = 0, twin.state.tops
    while twin.state.tops == tops and skips < 10:  # the bots' moves until one of them turns the layout
        twin.skip()
        skips += 1
    assert twin.state.tops != tops, "no bot move changed the layout"
    open_table(page, lab_server)
    page.click("[data-hand='0']")
    page.click("[data-cell='4']")
    expect(page.locator(".colorform-cell.is-placed")).to_have_count(1)
    for move in range(1, skips + 1):
        page.click("[data-action='skip']")
        expect(page.locator("[data-testid='step']")).to_have_text(f"move {move} (live)")
    expect(page.locator(".colorform-cell.is-placed")).to_have_count(0)
    expect(page.locator("[data-testid='layout-note']")).to_contain_text("The layout changed")
    page.click("[data-hand='0']")
    page.click("[data-cell='4']")
    expect(page.locator("[data-testid='layout-note']")).to_have_count(0)


def test_when_a_stop_takes_the_chosen_task_the_page_says_so_and_why_stop_is_grey(page, lab_server, artifacts):
    twin = ColorFormGame(bots=1, level="medium", seed=SEED, bots_wait=True)
    skips, taken = 0, None
    while taken is None and skips < 10:  # the bots' moves until one of them settles a STOP and takes a task
        twin.skip()
        skips += 1
        stops = [action for action in twin.record.actions if isinstance(action, Stop)]
        taken = next((claim.task for stop in stops for claim in stop.claims), None)
    assert taken is not None, "no bot took a task"
    open_table(page, lab_server)
    expect(page.locator("[data-testid='stop-why']")).to_have_text("Choose a task card to call STOP.")
    page.click(f"[data-task='{taken}']")
    expect(page.locator("[data-testid='stop-why']")).to_have_count(0)
    for move in range(1, skips + 1):
        page.click("[data-action='skip']")
        expect(page.locator("[data-testid='step']")).to_have_text(f"move {move} (live)")
    expect(page.locator("[data-testid='layout-note']")).to_contain_text("The task card you chose was taken")
    expect(page.locator("[data-testid='stop-why']")).to_have_text("Choose a task card to call STOP.")
    page.locator(".colorform").screenshot(path=artifacts / "colorform-task-taken.png")
    page.locator("[data-task]").first.click()
    expect(page.locator("[data-testid='layout-note']")).to_have_count(0)
    expect(page.locator("[data-testid='stop-why']")).to_have_count(0)
