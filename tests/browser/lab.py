"""Drive JupyterLab from a Playwright page: open a notebook, run it, read what it printed."""

from __future__ import annotations

from playwright.sync_api import Page

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


def open_notebook(page: Page, server, name: str, timeout: float = 60_000) -> None:
    """Open notebook `name` of a lab server in a fresh workspace and wait for its kernel to be idle."""
    page.goto(f"{server.url}lab/tree/{name}?token={server.token}&reset")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout)
    page.wait_for_function(f"() => ({KERNEL_IDLE})() || ({DIALOG_TEXT})() !== null", timeout=timeout)
    dialog = page.evaluate(DIALOG_TEXT)
    if dialog is not None:
        raise AssertionError(f"JupyterLab opened a dialog instead of a kernel: {dialog!r}")


def run_all(page: Page, timeout: float = 60_000) -> None:
    """Run every cell of the open notebook and wait until each has run and the kernel is idle."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        f"() => ({KERNEL_IDLE})() && (({EVERY_CODE_CELL_RAN})() || ({FIRST_ERROR})() !== null)",
        timeout=timeout)
    error = page.evaluate(FIRST_ERROR)
    if error is not None:
        raise AssertionError(f"a cell raised {error}")


def stdout_texts(page: Page) -> list[str]:
    """Which texts were printed to stdout, one per output, in page order?"""
    return page.locator(STDOUT).all_inner_texts()


# axe-core's rule tags for WCAG 2.0, 2.1 and 2.2 at levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def accessibility_violations(page: Page, selector: str) -> list[str]:
    """Which WCAG A/AA rules does the part of the page under `selector` break, by axe-core?"""
    from axe_playwright_python.sync_playwright import Axe

    # JupyterLab hides overflow on html and body, and axe then skips the colour-contrast check.
    page.evaluate("() => { document.documentElement.style.overflow = document.body.style.overflow = 'visible'; }")
    results = Axe().run(page, context=selector, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}})
    return [f"{violation['id']} ({len(violation['nodes'])} nodes): {violation['help']}"
            for violation in results.response["violations"]]
