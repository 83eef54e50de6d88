"""Who sent this message? On a school's hub, the server says, not the page.

A class's service on a JupyterHub (:mod:`colorlab.classroom.hub`) knows each page's user from the
hub's own login, and writes that user's name into every message the page sends to its kernel
(the message header's ``username``), over whatever the page wrote there. The kernels of such a
service have ``COLORLAB_SIGNED_IN=hub`` in their environment, and only they read the name: a
laptop's class server has no accounts, and its pages ask for a name instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

SIGNED_IN_VARIABLE = "COLORLAB_SIGNED_IN"  # "hub": every page message carries its user's name, put there by the server
TEACHERS_VARIABLE = "COLORLAB_TEACHERS"  # the class's teachers' hub names, separated by commas


class NotSignedIn(Exception):
    """A message with no hub user's name, on a page that needs one."""


def on_a_hub(environ: Mapping[str, str] = os.environ) -> bool:
    """Is this kernel a page of a class's service on a school's hub, where each message names its user?"""
    return environ.get(SIGNED_IN_VARIABLE) == "hub"


def teachers(environ: Mapping[str, str] = os.environ) -> frozenset[str]:
    """The hub names of the class's teachers (set by the school's configuration for the class's service)."""
    return frozenset(name.strip() for name in environ.get(TEACHERS_VARIABLE, "").split(",") if name.strip())


def sender() -> str:
    """The hub user who sent the message this kernel is handling now (as the class's server wrote it)."""
    from IPython import get_ipython

    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    parent = kernel.get_parent() if kernel is not None else {}
    name = (parent or {}).get("header", {}).get("username", "")
    if not isinstance(name, str) or not name:
        raise NotSignedIn("this page's messages carry no hub user: reload the page from the hub")
    return name
