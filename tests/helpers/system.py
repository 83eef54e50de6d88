"""Whether tests that need a tool this machine lacks (Debian's chromium, PostgreSQL) may skip.

They skip only where nobody running the tests can install the tool (not root, so `make test`
cannot install it) and never in CI: there a missing tool must fail the run, not pass it with
fewer tests.
"""

from __future__ import annotations

import os


def in_ci() -> bool:
    """Does this run in CI (the environment variable CI=true)?"""
    return os.environ.get("CI", "").lower() == "true"


def may_skip_without(missing: str, install: str) -> str | None:
    """Why tests that need what is `missing` may skip here; None where they must run and fail (as root, or in CI)."""
    if in_ci() or os.geteuid() == 0:
        return None
    return f"{missing} and only root can install it: run `{install}` once (in CI this fails instead)"
