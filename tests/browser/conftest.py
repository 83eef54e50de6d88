"""Servers and a browser for the tests that drive the notebooks and widgets in Chromium.

Every test in this folder gets the `browser` marker, so `pytest -m "not browser"` leaves them
out. Without Debian's chromium they skip only where it cannot be installed (see
tests/helpers/system.py); elsewhere they fail and say so. JupyterLab and Voila serve temporary
copies of `notebooks/`, with their settings and runtime files in the same temporary folder.
After each test the kernels it started on them are shut down, and a kernel that outlives its
server fails the run (tests/helpers/servers.py).

The browser is pytest-playwright's own `browser`, launched from /usr/bin/chromium through its
`browser_type_launch_args`; so its options (`--headed`, `--tracing`, `--screenshot`) still work.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.chromium import (
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    keep_on_loopback,
    load_again_when_the_network_changes,
)
from tests.helpers.servers import NOTEBOOKS, Server, free_port, jupyter_env, root_flags
from tests.helpers.system import may_skip_without

HERE = Path(__file__).parent
CHROMIUM_MISSING = f"{CHROMIUM} is missing"

load_again_when_the_network_changes()  # other workers' tests add and remove devices (network interfaces)

# Without it JupyterLab shows a "Jupyter news?" toast over the bottom-right corner.
NOTIFICATION_SETTINGS = {"fetchNews": "false", "checkForUpdates": False}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark every test of this folder `browser` (before -m selects), and skip them where chromium cannot be had."""
    why = None if CHROMIUM.exists() else may_skip_without(CHROMIUM_MISSING, "sudo apt-get install chromium")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if why:
                item.add_marker(pytest.mark.skip(reason=why))


@dataclasses.dataclass(frozen=True)
class LabServer:
    """A running JupyterLab: its address, its token, the folder it serves and its process."""

    url: str
    token: str
    root: Path
    server: Server

    def shut_down_kernels(self) -> None:
        """Shut down every kernel this JupyterLab runs."""
        self.server.shut_down_kernels(self.url, self.token)


class VoilaServers:
    """Voila servers, one per notebook, started on first use: `voila(name)` is the address of notebook `name`."""

    def __init__(self, home: Path):
        self.home = home
        self.root = home / "notebooks"
        shutil.copytree(NOTEBOOKS, self.root)
        self.env = jupyter_env(home)
        self.servers: dict[str, tuple[Server, str]] = {}

    def __call__(self, name: str) -> str:
        """The address of Voila serving notebook `name`, started on first use."""
        if name not in self.servers:
            self.servers[name] = self.start(name)
        return self.servers[name][1]

    def start(self, name: str) -> tuple[Server, str]:
        """Start Voila on notebook `name`; give the server and its address once it answers."""
        port = free_port()
        command = [
            str(Path(sys.executable).with_name("voila")),
            str(self.root / name),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            "--VoilaConfiguration.show_tracebacks=True",
        ]
        server = Server(command, self.env, self.home / f"{Path(name).stem}.log")
        url = f"http://127.0.0.1:{port}/"
        # Voila has no status endpoint, and a GET of / runs the notebook: any other path will do.
        seconds = server.wait_until_answering(f"{url}voila/ready-probe")
        print(f"\nVoila ready in {seconds:.1f} s for {name}")
        return server, url

    def shut_down_kernels(self) -> None:
        """Shut down the kernels of the pages shown so far (a closed page's goodbye may never arrive)."""
        for server, url in self.servers.values():
            server.shut_down_kernels(url)

    def stop(self) -> None:
        """Stop every Voila server."""
        for server, _ in self.servers.values():
            server.stop()


# What a page is expected to show may take a kernel's round trip to come. Playwright waits 5 s by default; a full
# parallel run (three workers, each with its browser, kernels and servers, on two cores) has been seen to take longer
# now and then, so an expectation waits up to 15 s. A page that never shows it still fails.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory) -> Iterator[LabServer]:
    """Start JupyterLab on a temporary copy of notebooks/ and stop it at the end of the session."""
    home = tmp_path_factory.mktemp("jupyterlab")
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    settings = home / "settings"
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text(json.dumps(NOTIFICATION_SETTINGS))
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        *root_flags(),
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--LabApp.expose_app_in_browser=True",
    ]
    server = Server(command, jupyter_env(home), home / "server.log")
    url = f"http://127.0.0.1:{port}/"
    seconds = server.wait_until_answering(f"{url}api/status?token={token}")
    print(f"\nJupyterLab ready in {seconds:.1f} s, serving {root}")
    yield LabServer(url=url, token=token, root=root, server=server)
    server.stop()


@pytest.fixture(scope="session")
def voila(tmp_path_factory) -> Iterator[VoilaServers]:
    """Return `voila(name)`, the address of Voila serving notebook `name`; each server runs until the session ends."""
    servers = VoilaServers(tmp_path_factory.mktemp("voila"))
    yield servers
    servers.stop()


@pytest.fixture(autouse=True)
def kernels_shut_down(request):
    """Shut down the kernels a test started on the session's servers, once its pages are closed.

    Autouse, so it is set up before the test's page and context and torn down after them.
    """
    servers = [request.getfixturevalue(name) for name in ("lab_server", "voila") if name in request.fixturenames]
    yield
    for server in servers:
        server.shut_down_kernels()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name):
    """Launch Debian's chromium, since Playwright cannot download its own browser here."""
    if browser_name != "chromium":
        return browser_type_launch_args
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM_MISSING}: run `make chromium` (as root it installs Debian's chromium)", pytrace=False)
    headless = ["--headless"] if browser_type_launch_args.get("headless", True) else []
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": headless + CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Give every page the same 1000 x 900 viewport, so screenshots compare."""
    return {**browser_context_args, "viewport": VIEWPORT}


@pytest.fixture
def page(context):
    """Return a fresh page that may only reach servers on this machine."""
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.route("**/*", keep_on_loopback)
    return page


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    """Return a folder for screenshots, outside the repository."""
    folder = tmp_path_factory.mktemp("browser-artifacts")
    print(f"\nScreenshots go to {folder}")
    return folder


DOCS = Path(__file__).parents[2] / "docs"


@pytest.fixture(scope="session")
def docs_picture(artifacts):
    """Where a test puts a picture the docs show: docs/ only when COLORLAB_DOCS_PICTURES=1, else beside the others.

    A test run then leaves the repository as it was; retake the docs' pictures on purpose with
    COLORLAB_DOCS_PICTURES=1 and look at each one before committing it.
    """
    folder = DOCS if os.environ.get("COLORLAB_DOCS_PICTURES") == "1" else artifacts
    return lambda name: folder / name
