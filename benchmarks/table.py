"""One row of the benchmark report, and the aligned table the rows make."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable


@dataclasses.dataclass(frozen=True)
class Row:
    """One benchmark's median against its target, with an optional note printed below."""

    benchmark: str
    median: str
    unit: str
    target: str
    verdict: str
    note: str = ""

    @property
    def cells(self) -> tuple[str, ...]:
        return (self.benchmark, self.median, self.unit, self.target, self.verdict)


HEADINGS = Row("benchmark", "median", "unit", "target", "verdict")
RIGHT_ALIGNED = {1}


def verdict(met: bool) -> str:
    """Say PASS for a target met, MISS for one missed."""
    return "PASS" if met else "MISS"


def draw_table(rows: list[Row]) -> str:
    """Draw the rows as aligned columns under a heading and a rule."""
    lines = [HEADINGS.cells, *(row.cells for row in rows)]
    widths = [max(len(line[column]) for line in lines) for column in range(len(HEADINGS.cells))]
    drawn = [_draw_line(line, widths) for line in lines]
    return "\n".join([drawn[0], "-" * len(drawn[0]), *drawn[1:]])


def _draw_line(cells: tuple[str, ...], widths: list[int]) -> str:
    padded = [
        cell.rjust(width) if column in RIGHT_ALIGNED else cell.ljust(width)
        for column, (cell, width) in enumerate(zip(cells, widths))
    ]
    return "  ".join(padded).rstrip()


def run_alone(run: Callable[[], list[Row]]) -> int:
    """Run one section of `make bench` on its own: print its rows, their notes and how long it took."""
    start = time.perf_counter()
    rows = run()
    print(draw_table(rows))
    print("\n" + "\n".join(f"* {row.note}" for row in rows if row.note))
    print(f"\nTook {time.perf_counter() - start:.0f} s.")
    return 0


def stop_processes(processes: list, jobs) -> None:
    """Tell every worker process to end (one None each on its job queue), and wait for it."""
    for _ in processes:
        jobs.put(None)
    for process in processes:
        process.join(timeout=30)
