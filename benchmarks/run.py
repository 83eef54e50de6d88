"""Run colorlab's benchmarks and print each median beside its target (`make bench`).

A report, not a test: it exits 0 even when a target is missed, and says MISS.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import time

import ai_interfaces

import bench_colorform
import bench_colorfox
import bench_colorium
import bench_experiments
import bench_import
import class_pages
import class_scale
import classroom
import playouts
import school_hub
import strength
import tables
from table import Row, draw_table


def header() -> str:
    """Say which Python, how many CPUs and when."""
    return (
        f"colorlab benchmarks: Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {datetime.datetime.now():%Y-%m-%d %H:%M}"
    )


def summary(rows: list[Row]) -> str:
    """Say how many targets were met, and name the ones missed."""
    judged = [row for row in rows if row.verdict in ("PASS", "MISS")]
    missed = [row.benchmark for row in judged if row.verdict == "MISS"]
    met = f"{len(judged) - len(missed)} of {len(judged)} targets met."
    return met + "".join(f"\nMISS: {name}" for name in missed)


def main() -> int:
    """Run every benchmark, then print the table, its notes and a summary."""
    start = time.perf_counter()
    print(header(), flush=True)
    print("(each figure is a median; run counts are in brackets)\n", flush=True)
    rows = (
        bench_colorform.run()
        + bench_colorfox.run()
        + bench_colorium.run()
        + playouts.run()
        + strength.run()
        + ai_interfaces.run()
        + bench_import.run()
        + bench_experiments.run_rows()
        + tables.run()
        + classroom.run()
        + class_scale.run()
        + class_pages.run()
        + school_hub.run()
    )
    print(draw_table(rows))
    notes = [row.note for row in rows if row.note]
    if notes:
        print("\n" + "\n".join(f"* {note}" for note in notes))
    print(f"\n{summary(rows)}")
    print(f"Took {time.perf_counter() - start:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
