"""Another device on the class's network, as a test makes one: a network namespace of its own, joined by a veth pair.

A learner's device reaches the class server over the network, never through the server's loopback. A
`Device` is a namespace (``ip netns add``) with one end of a veth pair inside it; the other end stays
on this machine. Each device gets a private /24 of its own, 10.213.N.0/24 with the first N no address
of this machine uses (chosen under a file lock, as parallel test workers make devices at once): this
machine is 10.213.N.1 on it, the device 10.213.N.2. A class server that
listens on every interface answers the device at 10.213.N.1. Nothing else is reachable from inside,
and no address but the device's own /24 and loopback is ever used. The namespace and the veth are
removed when the device is closed.

Only root can make namespaces. Elsewhere the tests that need a device skip, saying so, except in CI
(``CI=true``), where they fail.
"""

from __future__ import annotations

import base64
import fcntl
import itertools
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

DEVICE_NUMBERS = itertools.count(1)
LOCK = Path("/tmp/colorlab-test-devices.lock")


def free_subnet() -> int:
    """A third number N for 10.213.N.0/24 that no address of this machine uses yet."""
    listed = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True, timeout=30).stdout
    used = {int(part.split(".")[2]) for part in listed.split() if part.startswith("10.213.")}
    return next(subnet for subnet in range(2, 255) if subnet not in used)


NOT_ROOT = "making another device (a network namespace) needs root and iproute2's ip"


def can_make_devices() -> bool:
    return os.geteuid() == 0 and shutil.which("ip") is not None


def need_devices() -> None:
    """Skip (fail in CI) when this machine cannot make devices."""
    if can_make_devices():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(NOT_ROOT, pytrace=False)
    pytest.skip(NOT_ROOT)


def ip(*arguments: str) -> None:
    subprocess.run(["ip", *arguments], check=True, capture_output=True, timeout=30)


# A GET sent from the device: python on the device, its answer back as JSON (the body in base64).
GET = """
import base64, http.client, json, sys
host, port, path, cookie = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
connection = http.client.HTTPConnection(host, port, timeout=60)
connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
answer = connection.getresponse()
body = answer.read()
print(json.dumps({"status": answer.status, "body": base64.b64encode(body).decode(), "headers": answer.getheaders()}))
"""


# A flood from a device: the lobby opened there, then junk sent to its kernel as fast as the socket takes it; the
# server's close code and reason printed as JSON.
FLOOD = """
import asyncio, http.client, json, re, sys
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

async def flood(host, port, path, messages):
    connection = http.client.HTTPConnection(host, port, timeout=60)
    connection.request("GET", path)
    answer = connection.getresponse()
    page = answer.read().decode()
    cookie = "; ".join(v.split(";")[0] for k, v in answer.getheaders() if k.lower() == "set-cookie")
    kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', page)[1]
    url = f"ws://{host}:{port}/api/kernels/{kernel}/channels"
    channels = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookie}))
    junk = json.dumps({"channel": "nowhere", "header": {}, "content": {}})
    for _ in range(messages):
        if channels.protocol is None:
            break
        await channels.write_message(junk)
    while await asyncio.wait_for(channels.read_message(), 30) is not None:
        pass
    print(json.dumps({"code": channels.close_code, "reason": channels.close_reason}))

asyncio.run(flood(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
"""


@dataclass
class Answer:
    """What a device's GET got back."""

    status: int
    body: bytes
    headers: list[tuple[str, str]]

    def getheader(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    def getheaders(self) -> list[tuple[str, str]]:
        return self.headers


class Device:
    """A network namespace joined to this machine by a veth pair: `server` is this machine's address as the device
    sees it; `run` runs a command on the device."""

    def __init__(self) -> None:
        number = next(DEVICE_NUMBERS)
        self.name = f"cl{os.getpid()}d{number}"
        self.host_end, self.device_end = f"clh{os.getpid() % 100000}d{number}", f"cld{os.getpid() % 100000}d{number}"
        # Parallel test workers make devices at once: one at a time picks a /24 nobody on this machine uses.
        with open(LOCK, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.subnet = free_subnet()
            self.server, self.address = f"10.213.{self.subnet}.1", f"10.213.{self.subnet}.2"
            ip("netns", "add", self.name)
            try:
                ip("link", "add", self.host_end, "type", "veth", "peer", "name", self.device_end, "netns", self.name)
                ip("addr", "add", f"{self.server}/24", "dev", self.host_end)
            except BaseException:
                self.close()
                raise
        try:
            ip("link", "set", self.host_end, "up")
            self.inside("ip", "addr", "add", f"{self.address}/24", "dev", self.device_end)
            self.inside("ip", "link", "set", self.device_end, "up")
            self.inside("ip", "link", "set", "lo", "up")
        except BaseException:
            self.close()
            raise

    def inside(self, *command: str) -> None:
        ip("netns", "exec", self.name, *command)

    def command(self, *command: str) -> list[str]:
        """A command line that runs `command` on the device."""
        return ["ip", "netns", "exec", self.name, *command]

    def run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """Run a command on the device; its output as text."""
        return subprocess.run(self.command(*command), capture_output=True, text=True, timeout=timeout)

    def python(self, script: str, *arguments: str, timeout: float = 120) -> dict:
        """Run a Python script on the device (this test run's Python) and read the JSON it prints last."""
        done = self.run(sys.executable, "-c", script, *arguments, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"a script on device {self.name} failed: {done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def get(self, port: int, path: str, cookie: str = "") -> Answer:
        """GET `path` from the class server (this machine, as the device sees it) on `port`."""
        found = self.python(GET, self.server, str(port), path, cookie)
        return Answer(found["status"], base64.b64decode(found["body"]), [tuple(pair) for pair in found["headers"]])

    def chromium(self, folder: Path, chromium: str = "/usr/bin/chromium") -> Path:
        """A launcher for chromium on the device, for Playwright's `executable_path` (it talks to it through pipes,
        which cross into the namespace)."""
        launcher = folder / f"chromium-{self.name}"
        launcher.write_text(f'#!/bin/sh\nexec ip netns exec {self.name} {chromium} "$@"\n')
        launcher.chmod(0o755)
        return launcher

    def close(self) -> None:
        subprocess.run(["ip", "link", "del", self.host_end], capture_output=True, timeout=30)
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, timeout=30)

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
