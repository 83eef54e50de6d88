"""Debian's chromium as the browser tests and the classroom benchmark launch it, kept on this machine."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
VIEWPORT = {"width": 1000, "height": 900}


def keep_on_loopback(route):
    """Let a request through only if it goes to this machine."""
    url = urllib.parse.urlsplit(route.request.url)
    if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOOPBACK:
        route.abort()
    else:
        route.continue_()
