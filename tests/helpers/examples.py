"""How many examples a property test tries, scaled by the Hypothesis profile of the run.

A test names the count it needs under the default profile (what `make test` and CI run);
`@settings(max_examples=...)` would override any profile, so the count goes through
`examples`, which scales it as the loaded profile scales the default count. The quick profile
(registered in the root conftest.py, what `make quick` loads) tries a tenth, and at least one.

    @settings(max_examples=examples(300), deadline=None)
"""

from __future__ import annotations

from hypothesis import settings


def examples(count: int) -> int:
    """Scale `count`, meant for the default profile, to the profile this run loaded."""
    return max(1, count * settings().max_examples // settings.get_profile("default").max_examples)
