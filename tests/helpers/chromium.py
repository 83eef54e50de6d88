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


NETWORK_CHANGED = "net::ERR_NETWORK_CHANGED"


def load_again_when_the_network_changes() -> None:
    """Make a page's `goto` and `reload` load the page again (twice at most) when Chromium drops the navigation with
    net::ERR_NETWORK_CHANGED.

    A test that makes another device adds a network interface to this machine (a veth pair) and removes it at the
    end. Chromium watches the interfaces, and drops whatever navigation is in flight when they change, as a
    browser on a laptop does when its Wi-Fi changes. A learner would load the page again; so do the tests, whose
    workers make devices beside other workers' pages. Any other failure is raised at once."""
    from playwright.sync_api import Page

    if not getattr(Page.goto, "loads_again", False):
        Page.goto, Page.reload = loading_again(Page.goto), loading_again(Page.reload)


def loading_again(navigate):
    """`navigate` (a page's goto or reload), tried again, twice at most, while Chromium says the network changed."""
    from playwright.sync_api import Error

    def navigating(self, *args, **kwargs):
        for _ in range(2):
            try:
                return navigate(self, *args, **kwargs)
            except Error as error:
                if NETWORK_CHANGED not in str(error):
                    raise
        return navigate(self, *args, **kwargs)  # the third try: whatever happens is the test's

    navigating.loads_again = True  # type: ignore[attr-defined]
    return navigating
