"""Time `import colorlab` against `import anywidget`, each in a fresh interpreter.

`import colorlab.colorform` is timed too, for information: it is what a lesson pays
once it touches a game, since `import colorlab` loads its games lazily.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

from table import Row, verdict

RUNS = 15
MODULES = ("colorlab", "anywidget", "colorlab.colorform")
TARGET_RATIO = 1.2
HEAVY = ("sympy", "ipywidgets")


def import_microseconds(module: str) -> int:
    """How many µs does `import module` take in a fresh interpreter (importtime, cumulative)?"""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True, text=True, check=True
    )
    for line in reversed(result.stderr.splitlines()):
        if line.startswith("import time:"):
            _, cumulative, name = line.split("|")
            if name == f" {module}":
                return int(cumulative)
    raise RuntimeError(f"-X importtime printed no top-level line for {module}")


def import_times() -> dict[str, list[int]]:
    """Time each module's import RUNS times, alternating, after one warm-up each."""
    times: dict[str, list[int]] = {module: [] for module in MODULES}
    for module in MODULES:
        import_microseconds(module)
    for _ in range(RUNS):
        for module in MODULES:
            times[module].append(import_microseconds(module))
    return times


def heavy_modules_loaded(module: str = "colorlab") -> list[str]:
    """Which of sympy and ipywidgets are in sys.modules after a fresh `import module`?"""
    code = f"import sys, {module}; print(*[m for m in {HEAVY!r} if m in sys.modules])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.split()


def run() -> list[Row]:
    """Run the import benchmarks and the check on what `import colorlab` loads."""
    medians = {module: statistics.median(times) / 1000 for module, times in import_times().items()}
    ratio = medians["colorlab"] / medians["anywidget"]
    loaded = heavy_modules_loaded()
    return [
        Row(f"import colorlab, fresh interpreter ({RUNS} runs)", f"{medians['colorlab']:.1f}", "ms", "(info)", "info"),
        Row(
            f"import anywidget, fresh interpreter ({RUNS} runs)", f"{medians['anywidget']:.1f}", "ms", "(info)", "info"
        ),
        Row(
            f"import colorlab.colorform, fresh interpreter ({RUNS} runs)",
            f"{medians['colorlab.colorform']:.1f}",
            "ms",
            "(info)",
            "info",
        ),
        Row(
            "import colorlab / import anywidget",
            f"{ratio:.3f}",
            "x",
            f"<= {TARGET_RATIO:g}",
            verdict(ratio <= TARGET_RATIO),
            "import times: cumulative µs of the top-level module from python -X importtime.",
        ),
        Row(
            f"modules {' and '.join(HEAVY)} loaded by import colorlab",
            " ".join(loaded) or "none",
            "",
            "none",
            verdict(not loaded),
            f"import colorlab loads: {', '.join(loaded) or 'neither sympy nor ipywidgets'} "
            "(sys.modules in a fresh interpreter).",
        ),
    ]
