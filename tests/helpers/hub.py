"""A real JupyterHub for the school tests: the hub, its proxy from npm and each user's own single-user server.

Everything listens on loopback ports the test chooses. Users log in with JupyterHub's dummy
authenticator (one shared password: a test authenticator, never for a school), and the
local-process spawner starts each user's single-user server from this environment, with Voila as
its extension, on a copy of notebooks/. `stop` ends the hub, the proxy and every user's server.
"""

from __future__ import annotations

import os
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.helpers.servers import Server, free_port, jupyter_env

PROXY = Path(sys.executable).parents[1] / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "chalk-and-board-42"
CONFIG = """
c.JupyterHub.ip = {ip!r}
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///{home}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{home}/cookie_secret"
c.JupyterHub.pid_file = "{home}/hub.pid"
c.ConfigurableHTTPProxy.pid_file = "{home}/proxy.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{home}/users/{{username}}"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.args = {args!r}
c.Spawner.notebook_dir = {notebooks!r}
c.Spawner.environment = {environment!r}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
"""
# A school's classes, each a service of the hub with the tables in the test's PostgreSQL database (by default no lobby
# pages kept ready: the tests open few pages, and each class's pool would start kernels the tests do not use).
SCHOOL = """
from colorlab.classroom.school import school
school(c, {database!r}, {classes!r}, {notebooks!r}, warm_pages={warm_pages}, python={python!r},
       environment={environment!r}, ports={ports!r})
"""


def need_hub() -> None:
    """Skip (or, in CI, fail) when JupyterHub's proxy is not installed: `make hub-proxy` installs it."""
    if not PROXY.exists():
        message = f"JupyterHub's proxy is missing ({PROXY}): run `make hub-proxy`"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


class Hub:
    """A running JupyterHub on loopback, serving `notebooks` to every user, with `environment` in each user's
    server."""

    def __init__(
        self,
        home: Path,
        notebooks: Path,
        environment: dict[str, str],
        school: tuple[str, dict] | None = None,
        ip: str = "127.0.0.1",
        warm_pages: int = 0,
    ):
        """`school`: the database and the classes (see colorlab.classroom.school.school) that become the hub's
        services; `ip`: where the hub's proxy listens (every address, for devices in namespaces of their own)."""
        need_hub()
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        singleuser = str(Path(sys.executable).with_name("jupyterhub-singleuser"))
        args = ["--allow-root"] if os.geteuid() == 0 else []
        config = home / "jupyterhub_config.py"
        self.config = config
        service_environment = {
            key: value for key, value in jupyter_env(home / "services").items() if key.startswith(("JUPYTER", "IPY"))
        }
        config.write_text(
            CONFIG.format(
                ip=ip,
                port=self.port,
                hub_port=free_port(),
                proxy_port=free_port(),
                proxy=str(PROXY),
                home=home,
                password=PASSWORD,
                singleuser=singleuser,
                args=args,
                notebooks=str(notebooks),
                environment={**environment, "JUPYTER_CONFIG_DIR": str(home / "jupyter-config")},
            )
            + (
                SCHOOL.format(
                    database=school[0],
                    classes=school[1],
                    notebooks=str(notebooks),
                    python=sys.executable,
                    environment=service_environment,
                    ports={name: free_port() for name in school[1]},
                    warm_pages=warm_pages,
                )
                if school
                else ""
            )
        )
        self.url = f"http://127.0.0.1:{self.port}/"
        self.starts = 0
        self.start()

    def start(self) -> None:
        """Start the hub (and its proxy, and the classes' services), and wait until it answers through the proxy."""
        self.starts += 1
        self.server = Server(
            [str(Path(sys.executable).with_name("jupyterhub")), "-f", str(self.config)],
            jupyter_env(self.home),
            self.home / f"hub-{self.starts}.log",
        )
        self.server.wait_until_answering(f"{self.url}hub/api/", timeout=90)
        self.wait_for_the_hub()

    def restart(self) -> None:
        """Stop the hub as an administrator does (its proxy, its services and the users' servers go with it), and
        start it again on the same ports, with the same database of its own."""
        self.stop()
        self.start()

    def wait_for_the_hub(self, timeout: float = 90) -> None:
        """Wait until the hub itself answers through its proxy (the proxy answers first, with errors, until the hub
        has given it the route)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}hub/api/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        self.server.fail(f"did not answer through its proxy within {timeout} s")

    def stop(self) -> None:
        """Stop every user's server the hub started (each in a session of its own, which a hub leaves running when
        it stops), letting each shut its kernels down, then the hub and its proxy."""
        try:
            children = psutil.Process(self.server.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            children = []
        spawned = [
            child
            for child in children
            if any(part in " ".join(child.cmdline()) for part in ("jupyterhub-singleuser", "colorlab.classroom.hub"))
        ]
        for child in spawned:
            child.terminate()
        _, alive = psutil.wait_procs(spawned, timeout=15)
        for child in alive:
            child.kill()
        self.server.stop()
