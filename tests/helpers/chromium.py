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
    keep_within(route, LOOPBACK)


def keep_on(address: str):
    """A route guard that lets a request through only to `address` (the class server, as a test's device sees it)."""
    return lambda route: keep_within(route, {address})


def keep_within(route, hosts: set[str]) -> None:
    url = urllib.parse.urlsplit(route.request.url)
    if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in hosts:
        route.abort()
    else:
        route.continue_()
