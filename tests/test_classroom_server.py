"""The class server: other devices reach it, only with the class key, and no address gives the tables away.

The server is started as `make classroom` starts it (the same Python entry and kernel options), on a free
port, serving a small folder whose lobby page prints what its kernel was told; as root here, as on a
teacher's laptop where it must work too. Every request goes to this machine's network address, the one
other devices use, never to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import nbformat
import pytest
import sqlalchemy
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from colorlab.classroom.class_store import STORE_VARIABLE
from colorlab.classroom.limits import CLOSED_FOR_FLOODING, WRONG_KEYS_ALLOWED
from colorlab.classroom.server import (
    DEFAULT_WARM_PAGES,
    KEY_ALPHABET,
    SHORTEST_KEY,
    TEACHER_KEY_VARIABLE,
    WARM_PAGE_BYTES,
    ClassroomError,
    key_strength,
    network_address,
    new_key,
    prepare_class,
    qr_code,
    warm_pages,
)
from tests.helpers.devices import FLOOD, Device, need_devices
from tests.helpers.servers import Server, free_port, jupyter_env

ROOT = Path(__file__).parents[1]
SQLITE_HEADER = b"SQLite format 3\x00"
# The server listens on every interface; the tests reach it through loopback, never the machine's own address.
LOOPBACK = "127.0.0.1"
ON_ITS_WAY = 15  # seconds a page counts before it connects, in the tests of pages that have gone
LOBBY_CELL = """import os
print('tables:', os.environ['COLORLAB_TABLES'])
print('teacher:', os.environ['COLORLAB_TEACHER_KEY'])
print('join:', os.environ['COLORLAB_CLASS_ADDRESS'])
print('projector:', os.environ['COLORLAB_PROJECTOR_ADDRESS'])"""


def classroom_kernel_options() -> list[str]:
    """The kernel options the Makefile's classroom target passes, read from `make -n`."""
    command = make_classroom_command()
    return [word for word in command.split() if word.startswith("--MappingKernelManager.")]


def make_classroom_command() -> str:
    """The command `make classroom` runs, without running it or building the environment."""
    printed = subprocess.run(
        ["make", "-n", "-s", "-o", ".venv/.lab-installed", "classroom"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return printed.strip().splitlines()[-1]


def write_lobby(served: Path) -> None:
    """A lobby page that prints where its kernel finds the tables and the teacher key."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(LOBBY_CELL)],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    )
    (served / "classroom").mkdir(parents=True)
    nbformat.write(notebook, served / "classroom" / "lobby.ipynb")


class Classroom:
    """A running class server: its folders, its log and the addresses it printed."""

    def __init__(self, tmp: Path, options: tuple[str, ...] = (), warm_pages: int = 0):
        self.served, self.home = tmp / "served", tmp / "home"
        self.store = self.home / ".colorlab" / "classroom.db"
        write_lobby(self.served)
        self.port = free_port()
        env = jupyter_env(tmp) | {
            "HOME": str(self.home),
            STORE_VARIABLE: str(self.store),
            "CLASSROOM_PORT": str(self.port),
            "CLASSROOM_WARM_PAGES": str(warm_pages),  # none kept ready, unless a test is about them
        }
        for variable in ("CLASS_KEY", "TEACHER_KEY", "CLASSROOM_DB"):
            env.pop(variable, None)
        command = [
            sys.executable,
            "-m",
            "colorlab.classroom.server",
            str(self.served),
            *classroom_kernel_options(),
            *options,
        ]
        self.server = Server(command, env, tmp / "classroom.log")
        self.server.wait_until_answering(f"http://{LOOPBACK}:{self.port}/login")
        self.lobby, self.short, self.teacher, self.projector = re.findall(r"http://\S+", self.server.log.read_text())[
            :4
        ]
        self.teacher_key = re.search(r"teacher key: (\S+)", self.server.log.read_text())[1]
        self.key = urllib.parse.parse_qs(urllib.parse.urlsplit(self.lobby).query)["token"][0]

    def get(self, path: str, cookie: str = "", device: Device | None = None) -> Any:
        """Send GET `path` exactly as written (no `..` tidied away) to the server: from `device` over its network,
        else through loopback; read the answer."""
        if device is not None:
            return device.get(self.port, path, cookie)
        connection = http.client.HTTPConnection(LOOPBACK, self.port, timeout=60)
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        answer = connection.getresponse()
        answer.body = answer.read()
        connection.close()
        return answer


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    room = Classroom(tmp_path_factory.mktemp("classroom"))
    yield room
    room.server.stop()


@pytest.fixture
def devices():
    """Return `devices(n)`: n other devices on the class's network (network namespaces); all removed at the end."""
    need_devices()
    made: list[Device] = []

    def new_devices(count: int) -> list[Device]:
        made.extend(Device() for _ in range(count))
        return made[-count:]

    yield new_devices
    for device in made:
        device.close()


@pytest.fixture(scope="module")
def small_class(tmp_path_factory):
    """A class server that holds two pages with kernels a device and three in all."""
    room = Classroom(
        tmp_path_factory.mktemp("small-class"), ("--ClassVoila.kernels_per_device=2", "--ClassVoila.class_kernels=3")
    )
    yield room
    room.server.stop()


def lobby_path(room: Classroom) -> str:
    """The path and query of the lobby address the server printed."""
    parts = urllib.parse.urlsplit(room.lobby)
    return f"{parts.path}?{parts.query}"


def login_cookie(answer: http.client.HTTPResponse) -> str:
    """The cookies a page answer set, as a Cookie header."""
    return "; ".join(value.split(";")[0] for name, value in answer.getheaders() if name.lower() == "set-cookie")


@pytest.mark.processes
def test_make_classroom_runs_the_class_server_on_the_lessons_and_culls_idle_kernels():
    command = make_classroom_command()
    assert re.search(r"python -m colorlab\.classroom\.server notebooks\b", command), command
    assert {
        "--MappingKernelManager.cull_idle_timeout=600",
        "--MappingKernelManager.cull_interval=60",
        "--MappingKernelManager.cull_connected=False",
    } <= set(command.split())


def test_the_terminal_shows_the_addresses_and_keys_and_voilas_messages_go_to_a_log_file(tmp_path):
    """As `make classroom` runs it, without CLASSROOM_LOG: one learners' address, the teacher's, the teacher key and
    where the log is; Voila's own address, its warnings and the kernels' go to the log file, not the terminal."""
    served, home = tmp_path / "served", tmp_path / "home"
    write_lobby(served)
    port = free_port()
    env = jupyter_env(tmp_path) | {"HOME": str(home), "CLASSROOM_PORT": str(port), "CLASSROOM_WARM_PAGES": "0"}
    for variable in ("CLASS_KEY", "TEACHER_KEY", "CLASSROOM_DB", "CLASSROOM_LOG", STORE_VARIABLE):
        env.pop(variable, None)
    terminal = tmp_path / "terminal.txt"
    server = Server([sys.executable, "-m", "colorlab.classroom.server", str(served)], env, terminal)
    log = home / ".colorlab" / "classroom-server.log"
    try:
        server.wait_until_answering(f"http://{LOOPBACK}:{port}/login")
        lobby = re.findall(r"http://\S+", terminal.read_text())[0]
        parts = urllib.parse.urlsplit(lobby)
        connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
        connection.request("GET", f"{parts.path}?{parts.query}")
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        server.stop()
    shown = terminal.read_text()
    assert len(re.findall(r"http://\S+", shown)) == 4 and "teacher key: " in shown
    assert f"The class server's own messages go to {log}." in shown
    assert f"The class server has stopped. Its messages are in {log}." in shown
    assert "WARNING" not in shown and "running at" not in shown and "Kernel started" not in shown
    kept = log.read_text()
    assert "running at" in kept and "Kernel started" in kept and "WARNING" in kept


def test_the_short_address_and_the_qr_code_lead_to_the_lobby_with_the_class_key(classroom, devices):
    [device] = devices(1)
    assert classroom.short == f"{classroom.lobby.split('/voila/')[0]}/c/{classroom.key}"
    answer = classroom.get(urllib.parse.urlsplit(classroom.short).path, device=device)
    assert answer.status == 302 and answer.getheader("Location") == lobby_path(classroom)
    lobby = classroom.get(answer.getheader("Location"), device=device)
    assert lobby.status == 200 and "tables:" in lobby.body.decode()
    for path in ("/c/wrong-key", "/c/a%2F..%2Fb", "/c/" + "x" * 80, "/c/<script>"):
        refused = classroom.get(path, device=device)
        assert refused.status in (302, 404) and b"tables:" not in refused.body
        if refused.status == 302:  # a wrong key is sent on, and the lobby refuses it
            assert classroom.get(refused.getheader("Location"), device=device).status in (302, 401, 403)
    printed = classroom.server.log.read_text()
    drawn = qr_code(classroom.lobby)
    assert drawn in printed and set(drawn) <= set("█▀▄ \n"), "the QR code is not the lobby's address, drawn"
    assert drawn != qr_code(classroom.teacher), "the QR code holds the teacher's address"


def test_the_printed_learner_address_holds_the_network_address_the_lobby_and_a_fresh_key(classroom):
    address = urllib.parse.urlsplit(classroom.lobby)
    assert address.hostname == network_address() and address.port == classroom.port
    addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    assert network_address() == next(address for address in addresses if ":" not in address)
    assert address.path == "/voila/render/classroom/lobby.ipynb"
    assert len(classroom.key.replace("-", "")) >= 12 and set(classroom.key) <= set(KEY_ALPHABET + "-")
    assert urllib.parse.urlsplit(classroom.teacher).path == "/voila/render/classroom/teacher.ipynb"
    assert urllib.parse.urlsplit(classroom.projector).path == "/voila/render/classroom/projector.ipynb"
    assert classroom.key in classroom.teacher and classroom.teacher_key != classroom.key


def test_a_page_without_the_key_is_refused(classroom, devices):
    [device] = devices(1)
    for path in [
        "/voila/render/classroom/lobby.ipynb",
        "/",
        "/voila/tree/classroom",
        "/voila/render/classroom/lobby.ipynb?token=wrong-key",
        "/voila/api/contents/classroom",
    ]:
        answer = classroom.get(path, device=device)
        refused = answer.status in (401, 403) or (
            answer.status == 302 and "/login" in (answer.getheader("Location") or "")
        )
        assert refused, (path, answer.status, answer.getheader("Location"))
        assert b"tables:" not in answer.body


def test_a_browser_without_the_key_is_told_to_ask_the_teacher_and_may_type_the_key(classroom, devices):
    [device] = devices(1)
    answer = classroom.get("/voila/render/classroom/lobby.ipynb", device=device)
    assert answer.status == 302
    login = classroom.get(answer.getheader("Location"), device=device)
    page = login.body.decode()
    assert login.status == 200 and "Ask your teacher for the class address" in page
    assert "jupyter server list" not in page and "token" not in page.lower()
    cookie = login_cookie(login)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]
    nxt = re.search(r'name="next" value="([^"]+)"', page)[1]
    for typed, status in ((classroom.key[::-1], 401), (classroom.key, 302)):
        connection = http.client.HTTPConnection(LOOPBACK, classroom.port, timeout=60)
        body = urllib.parse.urlencode({"_xsrf": xsrf, "next": nxt, "password": typed})
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        connection.request("POST", "/login", body=body, headers=headers)
        posted = connection.getresponse()
        text = posted.read().decode()
        connection.close()
        assert posted.status == status, (typed, posted.status)
        if status == 401:
            assert "That is not the class key." in text
    assert posted.getheader("Location") == "/voila/render/classroom/lobby.ipynb"
    lobby = classroom.get(posted.getheader("Location"), cookie=login_cookie(posted))
    assert lobby.status == 200 and "tables:" in lobby.body.decode()


def test_the_printed_address_opens_the_lobby_whose_kernel_knows_the_tables_and_the_teacher_key(classroom, devices):
    [device] = devices(1)  # a learner's device on the class's network
    answer = classroom.get(lobby_path(classroom), device=device)
    assert answer.status == 200
    page = answer.body.decode()
    assert f"tables: {classroom.store}" in page and f"teacher: {classroom.teacher_key}" in page
    assert f"join: {classroom.short}" in page and f"projector: {classroom.projector}" in page
    assert "os.environ" not in page, "the learners' page shows code"
    again = classroom.get("/voila/render/classroom/lobby.ipynb", cookie=login_cookie(answer), device=device)
    assert again.status == 200, "the key in the address did not log the browser in"


def ways_to_the_store(room: Classroom) -> list[str]:
    """Every address we could think of that might reach the store file, from each place the server serves."""
    absolute = str(room.store)
    relative = os.path.relpath(room.store, room.served)
    climbs = [relative, "../" * 12 + absolute.lstrip("/"), absolute, "/" + absolute.lstrip("/")]
    spellings = [
        *climbs,
        *(urllib.parse.quote(way, safe="") for way in climbs),
        *(way.replace(".", "%2e") for way in climbs),
    ]
    places = [
        "/files/",
        "/voila/files/",
        "/voila/static/",
        "/voila/templates/lab/static/",
        "/voila/labextensions/",
        "/voila/api/themes/",
        "/voila/tree/",
        "/voila/render/",
        "/voila/api/contents/",
        "/api/contents/",
        "/",
    ]
    return [f"{place}{way}" for place in places for way in spellings]


def followed(room: Classroom, path: str, cookie: str) -> bytes:
    """The body at the end of `path`'s redirects on the same server (the render page sends files on)."""
    for _ in range(4):
        answer = room.get(path, cookie=cookie)
        location = answer.getheader("Location")
        if answer.status not in (301, 302, 303, 307, 308) or not location:
            break
        path = urllib.parse.urlsplit(location)._replace(scheme="", netloc="").geturl()
    return answer.body


def test_no_address_fetches_the_tables_database_even_with_the_key(classroom):
    assert classroom.store.read_bytes().startswith(SQLITE_HEADER)
    cookie = login_cookie(classroom.get(lobby_path(classroom)))
    signs = [SQLITE_HEADER, base64.b64encode(SQLITE_HEADER)[:20], b"CREATE TABLE"]
    for path in ways_to_the_store(classroom):
        for asked in (path, f"{path}?token={classroom.key}"):
            body = followed(classroom, asked, cookie)
            assert not any(sign in body for sign in signs), asked


async def send_code_to_the_kernel(room: Classroom, code: str) -> None:
    """Open the lobby as a learner, then ask its kernel to run `code`, as only a hand-made page could."""
    answer = room.get(lobby_path(room))
    kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', answer.body.decode())[1]
    url = f"ws://{LOOPBACK}:{room.port}/api/kernels/{kernel}/channels"
    channels = await websocket_connect(HTTPRequest(url, headers={"Cookie": login_cookie(answer)}))
    session = uuid.uuid4().hex
    for kind, content in [("execute_request", {"code": code, "silent": False}), ("kernel_info_request", {})]:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": kind, "session": session, "username": "", "version": "5.3"}
        await channels.write_message(
            json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell"})
        )
    # The kernel answers its shell requests in order: once it has told its version, the code would have run.
    while True:
        message = await asyncio.wait_for(channels.read_message(), 30)
        if isinstance(message, str) and json.loads(message)["msg_type"] == "kernel_info_reply":
            break
    channels.close()


def test_a_learner_cannot_make_their_kernel_run_code_that_reads_the_store(classroom, tmp_path):
    stolen = tmp_path / "stolen.db"
    # In its own thread: the browser tests that ran before may leave an event loop running in this one.
    with ThreadPoolExecutor(1) as apart:
        apart.submit(
            asyncio.run,
            send_code_to_the_kernel(
                classroom, f"import os, shutil; shutil.copy(os.environ['COLORLAB_TABLES'], {str(stolen)!r})"
            ),
        ).result()
    assert not stolen.exists()


@pytest.mark.parametrize(
    "inside",
    ["served/classroom.db", "served/classroom/../tables.db", "sqlite:///{tmp}/served/x.db", "link/classroom.db"],
)
def test_a_tables_database_inside_the_served_folder_is_refused(tmp_path, inside):
    (tmp_path / "served").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "served")
    where = inside.format(tmp=tmp_path) if "://" in inside else str(tmp_path / inside)
    environment = {"CLASSROOM_DB": where, "CLASSROOM_PORT": str(free_port())}
    with pytest.raises(ClassroomError, match="inside the folder served"):
        prepare_class(tmp_path / "served", environment)
    assert list((tmp_path / "served").iterdir()) == [] and STORE_VARIABLE not in environment


@pytest.mark.processes
def test_the_server_refuses_to_start_with_the_database_inside_and_says_why(tmp_path):
    (tmp_path / "served").mkdir()
    env = dict(os.environ, CLASSROOM_DB=str(tmp_path / "served" / "classroom.db"), CLASSROOM_PORT=str(free_port()))
    done = subprocess.run(
        [sys.executable, "-m", "colorlab.classroom.server", str(tmp_path / "served")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "inside the folder served to the class" in done.stderr
    assert "http://" not in done.stdout


def test_each_run_draws_fresh_keys_unless_given_and_tells_the_kernels(tmp_path):
    served, outside = tmp_path / "served", tmp_path / "outside" / "tables.db"
    served.mkdir()
    first, second = ({"CLASSROOM_DB": str(outside), "CLASSROOM_PORT": str(free_port())} for _ in range(2))
    keys = [prepare_class(served, environment)[1:] for environment in (first, second)]
    assert len({key for pair in keys for key in pair}) == 4
    assert first[TEACHER_KEY_VARIABLE] == keys[0][1] and first[STORE_VARIABLE] == str(outside)
    given = {
        "CLASSROOM_DB": str(outside),
        "CLASS_KEY": "our-class-of-2026",
        "TEACHER_KEY": "only-me-and-no-one-else",
        "CLASSROOM_PORT": str(free_port()),
    }
    assert prepare_class(served, given)[1:] == ("our-class-of-2026", "only-me-and-no-one-else")
    assert given[TEACHER_KEY_VARIABLE] == "only-me-and-no-one-else"
    assert new_key() != new_key() and all(key_strength(new_key()) == SHORTEST_KEY for _ in range(20))


@pytest.mark.parametrize("setting", ["CLASS_KEY", "TEACHER_KEY"])
def test_a_made_up_key_shorter_than_twelve_characters_is_refused_unless_weak_keys_are_asked_for(
    tmp_path, setting, capsys
):
    served = tmp_path / "served"
    served.mkdir()
    environment = {"CLASSROOM_DB": str(tmp_path / "tables.db"), "CLASSROOM_PORT": str(free_port()), setting: "a-b"}
    with pytest.raises(ClassroomError, match=f"{setting} has 2 characters.*at least 12.*WEAK_KEYS=yes"):
        prepare_class(served, dict(environment))
    weak = {**environment, "WEAK_KEYS": "yes"}
    assert "a-b" in prepare_class(served, weak)[1:]
    assert f"warning: {setting} has 2 characters" in capsys.readouterr().err


def test_the_server_warns_when_a_printed_page_is_missing(classroom):
    assert "teacher.ipynb does not exist" in classroom.server.log.read_text()
    assert "lobby.ipynb does not exist" not in classroom.server.log.read_text()


def test_a_postgresql_store_is_opened_first_and_handed_to_the_kernels_as_given(postgres_server, tmp_path):
    url = postgres_server.new_database()
    environment = {"CLASSROOM_DB": url, "CLASSROOM_PORT": str(free_port())}
    prepare_class(tmp_path, environment)
    assert environment[STORE_VARIABLE] == url
    with postgres_server.connect(sqlalchemy.make_url(url).database) as connection:
        assert connection.execute("SELECT to_regclass('colorlab_tables') IS NOT NULL").fetchone() == (True,)
    postgres_server.drop_database(url)


@pytest.mark.parametrize(
    "where",
    ["postgresql://nobody@127.0.0.1:1/none", "mysql://teacher@school/class", "/proc/no-such-folder/classroom.db"],
)
def test_a_store_that_cannot_be_opened_stops_the_class_before_it_starts(tmp_path, where):
    environment = {"CLASSROOM_DB": where, "CLASSROOM_PORT": str(free_port())}
    with pytest.raises(ClassroomError, match="cannot be opened"):
        prepare_class(tmp_path, environment)
    assert STORE_VARIABLE not in environment and TEACHER_KEY_VARIABLE not in environment


def test_a_port_already_taken_is_refused_rather_than_changed_behind_the_printed_address(tmp_path):
    (tmp_path / "served").mkdir()
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        environment = {"CLASSROOM_DB": str(tmp_path / "tables.db"), "CLASSROOM_PORT": str(taken.getsockname()[1])}
        with pytest.raises(ClassroomError, match="already in use"):
            prepare_class(tmp_path / "served", environment)


@pytest.mark.parametrize("port", ["eighty", "0", "70000", "-1"])
def test_a_port_that_is_no_port_is_refused_with_the_setting_named(tmp_path, port):
    (tmp_path / "served").mkdir()
    with pytest.raises(ClassroomError, match="CLASSROOM_PORT"):
        prepare_class(tmp_path / "served", {"CLASSROOM_DB": str(tmp_path / "tables.db"), "CLASSROOM_PORT": port})


# --- fair shares: kernels per device and per class, messages per page, wrong class keys ----------------------------


def test_a_device_holds_two_pages_with_kernels_and_the_class_three_and_the_next_page_says_so(small_class, devices):
    tablet, laptop, phone = devices(3)
    first, second = (small_class.get(lobby_path(small_class), device=tablet) for _ in range(2))
    assert first.status == second.status == 200
    third = small_class.get(lobby_path(small_class), device=tablet)
    assert third.status == 429 and b"Too many pages open on this device" in third.body
    assert b"already has 2 colorlab pages open" in third.body and b"kernelId" not in third.body
    other = small_class.get(lobby_path(small_class), device=laptop)
    assert other.status == 200, "another device still had its share"
    full = small_class.get(lobby_path(small_class), device=phone)
    assert full.status == 503 and b"The class is full" in full.body and b"Ask your teacher" in full.body
    log = small_class.server.log.read_text()
    assert f"{tablet.address} has 2 pages with kernels" in log and "the class is full (3 kernels)" in log


def test_a_page_that_has_gone_no_longer_counts_against_its_device_though_its_kernel_waits_to_be_culled(tmp_path):
    """A learner who reloads leaves a kernel behind (Voila cannot hear the goodbye behind a class key): it counts
    while its page is connected or on its way (here 15 s, time enough for a page to arrive on a loaded machine), not
    after, or a few reloads would lock a device out."""
    room = Classroom(tmp_path, ("--ClassVoila.kernels_per_device=2", f"--ClassVoila.page_loading_seconds={ON_ITS_WAY}"))
    loop = asyncio.new_event_loop()  # the open page's connection, kept open beside the test's requests
    beside = threading.Thread(target=loop.run_forever, daemon=True)
    beside.start()
    try:

        async def connected(answer) -> Any:
            kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', answer.body.decode())[1]
            url = f"ws://{LOOPBACK}:{room.port}/api/kernels/{kernel}/channels"
            return await websocket_connect(HTTPRequest(url, headers={"Cookie": login_cookie(answer)}))

        open_page = room.get(lobby_path(room))
        channels = asyncio.run_coroutine_threadsafe(connected(open_page), loop).result(60)
        gone = room.get(lobby_path(room))  # a page that never connects: closed, or reloaded at once
        gone_at = time.monotonic()
        assert open_page.status == gone.status == 200
        assert room.get(lobby_path(room)).status == 429, "two pages on their way did not count"
        time.sleep(max(0.0, gone_at + ON_ITS_WAY + 1 - time.monotonic()))
        third = room.get(lobby_path(room))
        assert third.status == 200, "a page that has gone still counted"
        assert room.get(lobby_path(room)).status == 429, "the connected page and the new one did not count"
        running = len(room.server.kernels())
        assert running >= 3, "the kernels of the pages that went were stopped at once"
        loop.call_soon_threadsafe(channels.close)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        beside.join(10)
        room.server.stop()


def test_a_page_that_connected_and_went_no_longer_counts_at_once(tmp_path):
    """A reload: the page had connected to its kernel, and its websocket closes; the device's next page is let in at
    once, though pages still on their way count for ten minutes here."""
    room = Classroom(tmp_path, ("--ClassVoila.kernels_per_device=1", "--ClassVoila.page_loading_seconds=600"))
    loop = asyncio.new_event_loop()
    beside = threading.Thread(target=loop.run_forever, daemon=True)
    beside.start()
    try:
        page = room.get(lobby_path(room))
        kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', page.body.decode())[1]
        url = f"ws://{LOOPBACK}:{room.port}/api/kernels/{kernel}/channels"

        async def connect() -> Any:
            return await websocket_connect(HTTPRequest(url, headers={"Cookie": login_cookie(page)}))

        channels = asyncio.run_coroutine_threadsafe(connect(), loop).result(60)
        assert room.get(lobby_path(room)).status == 429, "the open page did not count"
        loop.call_soon_threadsafe(channels.close)
        deadline = time.monotonic() + 30
        while (answer := room.get(lobby_path(room))).status == 429 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert answer.status == 200, "the page that went still counted"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        beside.join(10)
        room.server.stop()


def test_a_page_that_floods_its_kernel_is_dropped_then_closed_and_told_why(classroom, devices):
    [mischief, other] = devices(2)
    told = mischief.python(FLOOD, mischief.server, str(classroom.port), lobby_path(classroom), "5000")
    assert told == {"code": CLOSED_FOR_FLOODING, "reason": "colorlab: this page sent too many messages"}
    log = classroom.server.log.read_text()
    assert f"a page at {mischief.address} sends too many messages; dropping the surplus" in log
    assert f"closing the page at {mischief.address}" in log
    assert classroom.get(lobby_path(classroom), device=other).status == 200, "the class goes on"


def test_a_device_that_types_wrong_class_keys_is_refused_every_key_for_a_while(classroom, devices):
    guesser, other = devices(2)
    wrong = lobby_path(classroom).replace(classroom.key, "not-the-class-key")
    for _ in range(WRONG_KEYS_ALLOWED):
        assert classroom.get(wrong, device=guesser).status != 200
    assert classroom.get(lobby_path(classroom), device=guesser).status != 200, "the right key was let through"
    assert classroom.get(lobby_path(classroom), device=other).status == 200, "another device was refused"
    assert f"{guesser.address} typed 10 wrong class keys" in classroom.server.log.read_text()


def test_lobby_pages_kept_ready_are_handed_out_at_once_and_replaced(tmp_path):
    room = Classroom(tmp_path, warm_pages=2)
    try:
        ready = re.compile(r"Using pre-heated kernel: ([0-9a-f-]+) for classroom/lobby.ipynb")
        deadline = time.monotonic() + 60
        while room.server.log.read_text().count("Kernel started") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        pages = [room.get(lobby_path(room)) for _ in range(2)]
        assert all(page.status == 200 for page in pages)
        handed = ready.findall(room.server.log.read_text())
        assert len(handed) == 2 and len(set(handed)) == 2, "the pages did not come from the ready ones"
        for page, kernel in zip(pages, handed):
            assert f'"kernelId": "{kernel}"' in page.body.decode() and "tables:" in page.body.decode()
        # A third learner finds none ready: a kernel is started for them at once, rather than the page waiting
        # out the minute before a replacement starts (Voila would hand it that replacement, still waiting).
        third = room.get(lobby_path(room))
        assert third.status == 200 and "tables:" in third.body.decode()
        assert len(ready.findall(room.server.log.read_text())) == 2, "the third page waited for a replacement"
        kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', third.body.decode())[1]
        assert kernel not in handed
    finally:
        room.server.stop()


@pytest.mark.parametrize("gigabytes", [0.5, 2, 8, 16, 64])
def test_pages_kept_ready_are_a_class_unless_a_quarter_of_the_memory_available_holds_fewer(gigabytes):
    available = int(gigabytes * 2**30)
    pages = warm_pages(None, available)
    assert 0 <= pages <= DEFAULT_WARM_PAGES
    assert pages * WARM_PAGE_BYTES <= available / 4 < (pages + 1) * WARM_PAGE_BYTES or pages == DEFAULT_WARM_PAGES
    assert warm_pages("12", available) == 12, "a number the teacher set is kept as it is"


@pytest.mark.parametrize("setting", ["-1", "many", "1000"])
def test_a_number_of_warm_pages_that_is_no_number_is_refused_with_the_setting_named(tmp_path, setting):
    (tmp_path / "served").mkdir()
    environment = {
        "CLASSROOM_DB": str(tmp_path / "t.db"),
        "CLASSROOM_PORT": str(free_port()),
        "CLASSROOM_WARM_PAGES": setting,
    }
    with pytest.raises(ClassroomError, match="CLASSROOM_WARM_PAGES"):
        prepare_class(tmp_path / "served", environment)
