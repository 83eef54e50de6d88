"""Drive JupyterLab from a Playwright page: open a notebook, run it, read what it printed, check a widget.

A widget is checked whole (the window is made tall enough first) against WCAG 2.0/2.1/2.2 A and AA: by
axe-core, for what it breaks and for what it cannot settle alone, and by measuring every colour glyph and
symbol against the colour right behind it, which axe-core never does for symbol-only text.
"""

from __future__ import annotations

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

STDOUT = ".jp-RenderedText[data-mime-type='application/vnd.jupyter.stdout']"

# The indicator in the toolbar can read idle before the kernel is; the session's kernel cannot.
KERNEL_IDLE = """() => {
    const panel = window.jupyterapp?.shell?.currentWidget;
    return panel?.sessionContext?.session?.kernel?.status === 'idle';
}"""

# Null, not a number, while a cell is queued or running.
EVERY_CODE_CELL_RAN = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const cells = Array.from(panel.content.widgets).filter(cell => cell.model.type === 'code');
    return cells.every(cell => cell.model.executionCount !== null);
}"""

FIRST_ERROR = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    for (const cell of panel.content.widgets) {
        if (cell.model.type !== 'code') continue;
        for (const output of cell.model.outputs.toJSON()) {
            if (output.output_type === 'error') return `${output.ename}: ${output.evalue}`;
        }
    }
    return null;
}"""


# A dialog (such as "Select Kernel" for a notebook without a kernelspec) would stop the kernel for good.
DIALOG_TEXT = "() => document.querySelector('.jp-Dialog')?.innerText ?? null"


# JupyterLab's own theme stylesheet, which its server sends late under the parallel test run's load: a page opened
# again gets it (this names JupyterLab's dialog, never one of colorlab's).
THEME_NOT_LOADED = "Error Loading Theme"
OPENING_TRIES = 2


def open_notebook(page: Page, server, name: str, timeout: float = 120_000) -> None:
    """Open notebook `name` of a lab server in a fresh workspace and wait for its kernel to be idle."""
    for attempt in range(OPENING_TRIES):
        page.goto(f"{server.url}lab/tree/{name}?token={server.token}&reset")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout)
        page.wait_for_function(f"() => ({KERNEL_IDLE})() || ({DIALOG_TEXT})() !== null", timeout=timeout)
        dialog = page.evaluate(DIALOG_TEXT)
        if dialog is None:
            return
        if not dialog.startswith(THEME_NOT_LOADED) or attempt == OPENING_TRIES - 1:
            raise AssertionError(f"JupyterLab opened a dialog instead of a kernel: {dialog!r}")


def run_all(page: Page, timeout: float = 60_000) -> None:
    """Run every cell of the open notebook and wait until each has run and the kernel is idle."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        f"() => ({KERNEL_IDLE})() && (({EVERY_CODE_CELL_RAN})() || ({FIRST_ERROR})() !== null)", timeout=timeout
    )
    error = page.evaluate(FIRST_ERROR)
    if error is not None:
        raise AssertionError(f"a cell raised {error}")


def stdout_texts(page: Page) -> list[str]:
    """Which texts were printed to stdout, one per output, in page order?"""
    return page.locator(STDOUT).all_inner_texts()


# axe-core's rule tags for WCAG 2.0, 2.1 and 2.2 at levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# WCAG 1.4.3 asks 4.5:1 of normal text; every colour glyph is smaller than its "large text" (24 px, or 18.7 px bold).
GLYPH_CONTRAST = 4.5
# Colour glyphs (● ▲ ≈ ...) and symbols standing for words (◀ ⟳ ...): axe-core leaves both unmeasured.
GLYPH_CLASSES = ("colorlab-glyph", "colorlab-symbol")


# Is all of the widget inside the notebook's area (or the window, outside JupyterLab)?
WHOLLY_SHOWN = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    const shell = window.jupyterapp?.shell?.currentWidget?.node.getBoundingClientRect()
        ?? {top: 0, bottom: innerHeight};
    return box.top >= shell.top && box.bottom <= shell.bottom;
}"""


def show_all_of(page: Page, selector: str, attempts: int = 5) -> None:
    """Make the window tall enough to show all of `selector`: axe-core checks the contrast of on-screen text only.

    A widget may still grow while this runs (a bot's move, a redraw), so it measures again until all of it shows.
    """
    widget = page.locator(selector)
    for _ in range(attempts):
        height = widget.evaluate("(node) => node.getBoundingClientRect().height")
        if page.viewport_size["height"] < height + 400:
            page.set_viewport_size({"width": page.viewport_size["width"], "height": int(height) + 600})
        widget.evaluate("(node) => node.scrollIntoView({block: 'center'})")
        try:
            page.wait_for_function(WHOLLY_SHOWN, arg=selector, timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"{selector} never showed whole in a window {page.viewport_size}")


def axe_report(page: Page, selector: str) -> dict:
    """What does axe-core say of the whole of `selector` (shown in full first) against WCAG A/AA?"""
    from axe_playwright_python.sync_playwright import Axe

    show_all_of(page, selector)
    # JupyterLab hides overflow on html and body, and axe then skips the colour-contrast check.
    page.evaluate("() => { document.documentElement.style.overflow = document.body.style.overflow = 'visible'; }")
    return Axe().run(page, context=selector, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}}).response


def violations_in(report: dict) -> list[str]:
    """Which WCAG A/AA rules did axe-core find broken, with how many nodes each?"""
    return [
        f"{violation['id']} ({len(violation['nodes'])} nodes): {violation['help']}"
        for violation in report["violations"]
    ]


def glyph_axe_cannot_measure(check_id: str, node: dict) -> bool:
    """Is this a glyph or symbol whose contrast axe-core never measures (text made of symbols only, its 'nonBmp')?"""
    return (
        check_id == "color-contrast"
        and any(name in node["html"] for name in GLYPH_CLASSES)
        and any((check.get("data") or {}).get("messageKey") == "nonBmp" for check in node["any"])
    )


def review_in(report: dict) -> list[str]:
    """Which checks could axe-core not settle on its own, leaving out the glyphs that `low_contrast_glyphs` measures?"""
    found = []
    for item in report["incomplete"]:
        nodes = [node for node in item["nodes"] if not glyph_axe_cannot_measure(item["id"], node)]
        if nodes:
            found.append(f"{item['id']} ({len(nodes)} nodes): {[node['target'] for node in nodes][:3]}")
    return found


def accessibility_violations(page: Page, selector: str) -> list[str]:
    """Which WCAG A/AA rules does the whole of `selector` break, by axe-core?"""
    return violations_in(axe_report(page, selector))


def left_for_review(page: Page, selector: str) -> list[str]:
    """Which WCAG A/AA checks could axe-core not settle under `selector` (such as a label on an element with no role)?

    Glyphs such as ● ▲ ≈ ◆ and symbols such as ◀ ⇋ are left out: axe leaves any symbol-only text for review,
    so `low_contrast_glyphs` measures them instead.
    """
    return review_in(axe_report(page, selector))


# For each glyph or symbol: its ink, and the colour right behind it (for an SVG glyph the shape drawn just before it,
# for any other the nearest box with a background), with WCAG's contrast ratio between them. A glyph inside
# something faded (opacity) is measured as seen on white; a glyph on a disabled button is left out, as WCAG
# leaves out inactive controls. An SVG glyph with no shape right behind it is measured against nothing (0:1).
GLYPH_CONTRASTS = """(selector) => {
    const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 4).map(Number);
    const opaque = (css) => { const [, , , alpha = 1] = rgb(css); return alpha > 0; };
    const linear = (c) => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    const luminance = (colour) => {
        const [r, g, b] = colour.map(linear);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const onWhite = (css, alpha) => rgb(css).slice(0, 3).map((c) => alpha * c + (1 - alpha) * 255);
    const behind = (glyph) => {
        if (glyph instanceof SVGElement) {
            const shape = glyph.previousElementSibling;
            return shape && ["path", "circle", "rect"].includes(shape.localName) ? getComputedStyle(shape).fill : null;
        }
        for (let box = glyph; box; box = box.parentElement) {
            const colour = getComputedStyle(box).backgroundColor;
            if (opaque(colour)) return colour;
        }
        return 'rgb(255, 255, 255)';
    };
    const opacity = (glyph) => {
        let alpha = 1;
        for (let node = glyph; node; node = node.parentElement) alpha *= Number(getComputedStyle(node).opacity);
        return alpha;
    };
    return Array.from(document.querySelectorAll(`${selector} :is(.colorlab-glyph, .colorlab-symbol)`))
        .filter((glyph) => !glyph.closest('button:disabled'))
        .map((glyph) => {
            const style = getComputedStyle(glyph);
            const ink = glyph instanceof SVGElement ? style.fill : style.color;
            const back = behind(glyph);
            if (back === null) return {glyph: glyph.textContent, ink, behind: 'nothing', ratio: 0};
            const alpha = opacity(glyph);
            const [light, dark] = [luminance(onWhite(ink, alpha)), luminance(onWhite(back, alpha))]
                .sort((a, b) => b - a);
            const faded = alpha < 1 ? ` (faded to ${alpha.toFixed(2)})` : '';
            return {glyph: glyph.textContent, ink: ink + faded, behind: back, ratio: (light + 0.05) / (dark + 0.05)};
        });
}"""


def low_contrast_glyphs(page: Page, selector: str, at_least: float = GLYPH_CONTRAST) -> list[str]:
    """Which glyphs and symbols under `selector` stand out from the colour behind them by less than `at_least`:1?"""
    glyphs = page.evaluate(GLYPH_CONTRASTS, selector)
    assert glyphs, f"no glyph under {selector} to measure"
    return sorted(
        {
            f"{glyph['glyph']} in {glyph['ink']} on {glyph['behind']}: {glyph['ratio']:.2f}:1"
            for glyph in glyphs
            if glyph["ratio"] < at_least
        }
    )


def accessibility_problems(page: Page, selector: str) -> list[str]:
    """What does axe-core find against WCAG A/AA on the whole of `selector` (broken or left in doubt), and which
    glyphs stand out too little?"""
    report = axe_report(page, selector)
    return violations_in(report) + review_in(report) + low_contrast_glyphs(page, selector)


def problems_in_both_palettes(page: Page, selector: str) -> dict[str, list[str]]:
    """`accessibility_problems` in the palette shown, then in the other one, by palette (the first is shown again)."""
    switch = page.locator(f"{selector} [data-key='palette']")
    shown = switch.input_value()
    palettes = [shown] + [name for name in switch.locator("option").all_inner_texts() if name != shown]
    found = {}
    for palette in palettes + [shown]:
        switch.select_option(palette)
        page.wait_for_function(
            "([selector, palette]) => document.querySelector(selector).dataset.palette === palette",
            arg=[selector, palette],
        )
        if palette not in found:
            found[palette] = accessibility_problems(page, selector)
    return found
