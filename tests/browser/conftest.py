"""Servers and a browser for the tests that drive the notebooks and widgets in Chromium.

Every test in this folder gets the `browser` marker, so `pytest -m "not browser"` leaves them
out; without Debian's chromium they are skipped. JupyterLab and Voila serve temporary copies of
`notebooks/`, with their settings and runtime files in the same temporary folder.

The browser is pytest-playwright's own `browser`, launched from /usr/bin/chromium through its
`browser_type_launch_args`; so its options (`--headed`, `--tracing`, `--screenshot`) still work.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
HERE = Path(__file__).parent
NOTEBOOKS = HERE.parents[1] / "notebooks"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
SERVER_START_TIMEOUT = 60
VIEWPORT = {"width": 1000, "height": 900}

# Without it JupyterLab shows a "Jupyter news?" toast over the bottom-right corner.
NOTIFICATION_SETTINGS = {"fetchNews": "false", "checkForUpdates": False}


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives JupyterLab or Voila in headless Chromium")


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: 'make test' installs Debian's chromium")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(skip)


@dataclasses.dataclass(frozen=True)
class LabServer:
    """A running JupyterLab: its address, its token and the folder it serves."""

    url: str
    token: str
    root: Path


class Server:
    """A server process in its own process group, with its log in a file."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path):
        self.log = log
        with log.open("wb") as output:
            self.process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def wait_until_answering(self, url: str, timeout: float = SERVER_START_TIMEOUT) -> float:
        """Wait until `url` gives any HTTP answer; return how many seconds that took."""
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if self.process.poll() is not None:
                self.fail(f"exited with code {self.process.returncode}")
            try:
                with urllib.request.urlopen(url, timeout=2):
                    return time.perf_counter() - start
            except urllib.error.HTTPError:
                return time.perf_counter() - start
            except OSError:
                time.sleep(0.1)
        self.fail(f"gave no answer at {url} within {timeout} s")

    def fail(self, what: str):
        """Stop the server and raise an error that shows the end of its log."""
        self.stop()
        tail = "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])
        raise RuntimeError(f"{self.process.args[:3]} {what}; end of {self.log}:\n{tail}")

    def stop(self):
        """End the server's process group: politely first, so it can shut its kernels down."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def free_port() -> int:
    """Which loopback port is free right now?"""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def jupyter_env(home: Path) -> dict[str, str]:
    """Return an environment that keeps Jupyter's and IPython's own files under `home`."""
    env = dict(os.environ)
    for variable, folder in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                             ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")]:
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / folder)
    return env


def root_flags() -> list[str]:
    """Which flag does a Jupyter server need to run as the current user?"""
    return ["--allow-root"] if os.geteuid() == 0 else []


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
    command = [sys.executable, "-m", "jupyter", "lab", *root_flags(), "--no-browser",
               "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={home / 'workspaces'}",
               "--LabApp.expose_app_in_browser=True"]
    server = Server(command, jupyter_env(home), home / "server.log")
    url = f"http://127.0.0.1:{port}/"
    seconds = server.wait_until_answering(f"{url}api/status?token={token}")
    print(f"\nJupyterLab ready in {seconds:.1f} s, serving {root}")
    yield LabServer(url=url, token=token, root=root)
    server.stop()


@pytest.fixture(scope="session")
def voila(tmp_path_factory):
    """Return `voila(name)`, the address of Voila serving notebook `name`; each server runs until the end of the session."""
    home = tmp_path_factory.mktemp("voila")
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    env = jupyter_env(home)
    servers: dict[str, tuple[Server, str]] = {}

    def serve(name: str) -> str:
        if name not in servers:
            port = free_port()
            command = [str(Path(sys.executable).with_name("voila")), str(root / name), "--no-browser",
                       f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
                       "--VoilaConfiguration.show_tracebacks=True"]
            server = Server(command, env, home / f"{Path(name).stem}.log")
            url = f"http://127.0.0.1:{port}/"
            # Voila has no status endpoint, and a GET of / runs the notebook: any other path will do.
            seconds = server.wait_until_answering(f"{url}voila/ready-probe")
            print(f"\nVoila ready in {seconds:.1f} s for {name}")
            servers[name] = (server, url)
        return servers[name][1]

    yield serve
    for server, _ in servers.values():
        server.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name):
    """Launch Debian's chromium, since Playwright cannot download its own browser here."""
    if browser_name != "chromium":
        return browser_type_launch_args
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


def keep_on_loopback(route):
    """Let a request through only if it goes to this machine."""
    url = urllib.parse.urlsplit(route.request.url)
    if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOOPBACK:
        route.abort()
    else:
        route.continue_()


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
