"""Jupyter servers that tests and benchmarks start: JupyterLab, Voila and the class server.

Each server runs in its own process group with its log in a file, and keeps Jupyter's and
IPython's own files in a temporary folder. A server leaves no kernel behind: `shut_down_kernels`
ends the kernels of one that keeps running (between two tests), and `stop` fails if a kernel
outlives its server. At the end of a run, `stop_leftovers` stops the servers nobody stopped and the
kernels whose server is gone, and says which they were.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
SERVER_START_TIMEOUT = 60
SERVER_STOP_TIMEOUT = 10
KERNEL_EXIT_TIMEOUT = 10
# A kernel's command line names its connection file, and the file is named after the kernel's id.
KERNEL_ID = re.compile(r"kernel-([0-9a-f-]{36})\.json")
# Any value will do, sent both as the _xsrf cookie and as the header: Jupyter only checks that they match.
XSRF = "colorlab-tests"

RUNNING: set[Server] = set()


class KernelLeft(AssertionError):
    """A Jupyter server left a kernel running."""


class Server:
    """A server process in its own process group, with its log in a file."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path):
        self.log = log
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                command,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        RUNNING.add(self)

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
        raise RuntimeError(f"{self.process.args[:3]} {what}; end of {self.log}:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the server's log."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def kernels(self) -> list[psutil.Process]:
        """The kernels the server runs now (an ended kernel the server has not yet reaped does not count)."""
        try:
            children = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        return [child for child in children if is_kernel(child)]

    def shut_down_kernels(self, url: str, token: str | None = None) -> None:
        """Shut down every kernel of the running server through its REST API; fail if one is still running after."""
        kernels = self.kernels()
        for kernel in kernels:
            kernel_id = KERNEL_ID.search(" ".join(kernel.cmdline()))
            if kernel_id:
                delete_kernel(url, kernel_id[1], token)
        self.check_ended(kernels, "after it was asked to shut them down")

    def stop(self):
        """End the server's process group: politely first, so it shuts its kernels down; fail if one outlives it."""
        RUNNING.discard(self)
        if self.process.poll() is not None:
            return
        kernels = self.kernels()
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=SERVER_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.check_ended(kernels, "after the server stopped")

    def check_ended(self, kernels: list[psutil.Process], when: str) -> None:
        """Wait for these kernels to end; kill those that do not and fail, naming them."""
        alive = still_running(kernels, timeout=KERNEL_EXIT_TIMEOUT)
        for kernel in alive:
            kernel.kill()
        if alive:
            raise KernelLeft(
                f"{self.process.args[:3]} left {len(alive)} kernels running {when} "
                f"(pids {[kernel.pid for kernel in alive]}, killed now); end of {self.log}:\n"
                f"{self.log_tail()}"
            )


def is_kernel(process: psutil.Process) -> bool:
    """Is this process a running IPython kernel?"""
    try:
        running = process.is_running() and process.status() != psutil.STATUS_ZOMBIE
        return running and "ipykernel_launcher" in " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return False


def still_running(kernels: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    """Wait up to `timeout` seconds for these kernels to end; give those still running then."""
    deadline = time.monotonic() + timeout
    alive = [kernel for kernel in kernels if is_kernel(kernel)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [kernel for kernel in alive if is_kernel(kernel)]
    return alive


def delete_kernel(url: str, kernel_id: str, token: str | None = None) -> None:
    """Ask the Jupyter server at `url` to shut down one kernel (DELETE /api/kernels/<id>)."""
    headers = {"Cookie": f"_xsrf={XSRF}", "X-XSRFToken": XSRF}
    if token:
        headers["Authorization"] = f"token {token}"
    request = urllib.request.Request(f"{url}api/kernels/{kernel_id}", method="DELETE", headers=headers)
    try:
        urllib.request.urlopen(request, timeout=SERVER_STOP_TIMEOUT).close()
    except urllib.error.HTTPError as error:
        if error.code != 404:  # a kernel that ended by itself meanwhile is what was asked for
            raise


def stop_leftovers(folder: Path) -> list[str]:
    """Stop the servers nobody stopped, and kill the kernels that servers keeping their files under `folder` left."""
    forgotten = [server for server in RUNNING if server.process.poll() is None]
    for server in forgotten:
        RUNNING.discard(server)
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait()
    kernels = still_running(kernels_started_under(folder), timeout=KERNEL_EXIT_TIMEOUT)
    said = [f"server {' '.join(map(str, server.process.args[:3]))}" for server in forgotten] + [
        f"kernel {kernel.pid} ({' '.join(kernel.cmdline()[-2:])})" for kernel in kernels
    ]
    for kernel in kernels:
        kernel.kill()
    return said


def kernels_started_under(folder: Path) -> list[psutil.Process]:
    """Which kernels still run that a server keeping its Jupyter files under `folder` started (see jupyter_env)?"""
    found = []
    for process in psutil.process_iter(["environ"]):
        runtime = (process.info["environ"] or {}).get("JUPYTER_RUNTIME_DIR", "")
        if runtime.startswith(str(folder)) and is_kernel(process):
            found.append(process)
    return found


def free_port() -> int:
    """Which loopback port is free right now?"""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def jupyter_env(home: Path) -> dict[str, str]:
    """Return an environment that keeps Jupyter's and IPython's own files under `home`."""
    env = dict(os.environ)
    for variable, folder in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / folder)
    env["CLASSROOM_LOG"] = "-"  # a class server's messages stay in its own output, which the tests read
    return env


def class_template(env: dict[str, str]) -> list[str]:
    """Serve with the class server's page template (a class page light, every other lesson Voila's lab page): the
    Voila options, with `env` told where the template is."""
    from colorlab.classroom.server import TEMPLATES

    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), env.get("JUPYTER_PATH")]))
    return ["--template=colorlab"]


def root_flags() -> list[str]:
    """Which flag does a Jupyter server need to run as the current user?"""
    return ["--allow-root"] if os.geteuid() == 0 else []
