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
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///{home}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{home}/cookie_secret"
c.JupyterHub.pid_file = "{home}/hub.pid"
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

    def __init__(self, home: Path, notebooks: Path, environment: dict[str, str]):
        need_hub()
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        singleuser = str(Path(sys.executable).with_name("jupyterhub-singleuser"))
        args = ["--allow-root"] if os.geteuid() == 0 else []
        config = home / "jupyterhub_config.py"
        config.write_text(
            CONFIG.format(
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
        )
        env = jupyter_env(home)
        self.server = Server(
            [str(Path(sys.executable).with_name("jupyterhub")), "-f", str(config)], env, home / "hub.log"
        )
        self.url = f"http://127.0.0.1:{self.port}/"
        self.server.wait_until_answering(f"{self.url}hub/api/", timeout=90)
        self.wait_for_the_hub()

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
        spawned = [child for child in children if "jupyterhub-singleuser" in " ".join(child.cmdline())]
        for child in spawned:
            child.terminate()
        _, alive = psutil.wait_procs(spawned, timeout=15)
        for child in alive:
            child.kill()
        self.server.stop()
