"""Serve the lessons to a class: learners open one address on their own devices.

``make classroom`` runs ``python -m colorlab.classroom.server notebooks``. Voila serves the
folder of lessons to every device on the local network (learners see widgets, never code),
and only to browsers that bring the class key: the printed address carries it. The teacher's
page asks, besides, for a teacher key, which the kernels find in ``COLORLAB_TEACHER_KEY``.
The class's tables live outside the served folder (``COLORLAB_TABLES``, see
:mod:`colorlab.classroom.class_store`), so no address can ever fetch them.

Settings come from the environment, so that ``make classroom NAME=value`` passes them:
``CLASS_KEY`` and ``TEACHER_KEY`` (fresh keys each run otherwise; a key made up must have at least
12 characters, or ``WEAK_KEYS=yes`` lets a shorter one through with a warning), ``CLASSROOM_DB`` (a SQLite
file path or a ``postgresql://`` URL; else ``COLORLAB_TABLES``, else ``~/.colorlab/classroom.db``) and
``CLASSROOM_PORT`` (8866 otherwise) and ``CLASSROOM_WARM_PAGES`` (how many lobby pages wait ready, their
kernel started and the lobby already run, for learners who arrive at once; otherwise 30, a class, or as many as a
quarter of the memory available holds; 0 for none; a page taken is replaced a minute later, and a learner who finds
none ready gets a kernel started at once), and ``CLASSROOM_LOG`` (where Voila's and the kernels' messages go:
``~/.colorlab/classroom-server.log`` otherwise, ``-`` for the terminal; the terminal shows the addresses and keys).

The pages use the template ``colorlab`` (``share/voila/templates/colorlab`` beside this module). The class's own
pages (the lobby, the teacher's and the projector page: ``"class_page": true`` in their notebooks' metadata) are
light: a small page of colorlab's own draws their widgets (``light.html.j2`` and ``static/light-page.js``), a
script and a stylesheet of 30 kB in all where Voila's JupyterLab front end is 5.3 MB, so that a class arriving at once
does not wait for its devices. They carry a watch that tells a learner whose page has not shown that the server is
busy and loads the page again by itself. Every other lesson gets Voila's lab page, without its links to public CDNs.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import secrets
import socket
import subprocess
import sys
import urllib.parse
from collections.abc import MutableMapping
from pathlib import Path

import psutil
import segno
import sqlalchemy
from traitlets.config import Config

from colorlab.classroom.class_store import (
    CLASS_ADDRESS_VARIABLE,
    LOBBY_PAGE,
    PROJECTOR_ADDRESS_VARIABLE,
    PROJECTOR_PAGE,
    STORE_VARIABLE,
    TEACHER_KEY_VARIABLE,
    TEACHER_PAGE,
    class_store,
    default_store_path,
)
from colorlab.tables import TableError

DEFAULT_PORT = 8866
DEFAULT_WARM_PAGES = 30  # lobby pages kept ready: a class arriving together waits for no kernel...
WARM_PAGE_BYTES = 70 * 2**20  # ...each about 70 MB...
WARM_MEMORY_SHARE = 4  # ...taking at most a quarter of the memory available when the class starts
WARM_REFILL_SECONDS = 60.0
IOPUB_PATIENCE_SECONDS = 60.0
TEMPLATES = Path(__file__).with_name("share")  # Jupyter data: voila/templates/colorlab, the class's page template
# No 0/o, 1/l/i: a key copied from a board by hand is copied right. 12 characters hold 59 random bits.
KEY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
KEY_GROUPS, KEY_GROUP_LENGTH = 3, 4
SHORTEST_KEY = 12  # characters of a key the teacher makes up (dashes and spaces not counted)
WEAK_KEYS_VARIABLE = "WEAK_KEYS"  # WEAK_KEYS=yes lets shorter keys through, with a warning


class ClassroomError(Exception):
    """A class that cannot be served, with a reason the teacher can act on."""


def new_key() -> str:
    """Draw a fresh key, three groups of four characters, e.g. 'k7qm-x4dp-9hfa'."""
    groups = ("".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_GROUP_LENGTH)) for _ in range(KEY_GROUPS))
    return "-".join(groups)


def network_address() -> str:
    """What address do other devices reach this machine at: the first IPv4 one of `hostname -I`, else its name."""
    try:
        addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout.split()
    except (OSError, subprocess.SubprocessError):
        addresses = []
    # The server listens on every IPv4 interface (0.0.0.0), so an IPv6 address would lead nowhere.
    return next((address for address in addresses if ":" not in address), socket.gethostname())


def page_address(host: str, port: int, page: str, key: str) -> str:
    """The address of one served notebook that logs the browser in with the class key.

    Examples
    ========
    >>> from colorlab.classroom.server import page_address
    >>> page_address("192.168.1.20", 8866, "classroom/lobby.ipynb", "k7qm-x4dp-9hfa")
    'http://192.168.1.20:8866/voila/render/classroom/lobby.ipynb?token=k7qm-x4dp-9hfa'
    """
    return f"http://{host}:{port}/voila/render/{page}?token={urllib.parse.quote(key, safe='')}"


def sqlite_file(where: str) -> Path | None:
    """Which file does a store location name, or None for a database server?"""
    if "://" not in where:
        return Path(where).expanduser()
    url = sqlalchemy.engine.make_url(where)
    return Path(url.database).expanduser() if url.drivername.startswith("sqlite") and url.database else None


def is_inside(path: Path, folder: Path) -> bool:
    """Is `path` in `folder`, as written or once links are followed?"""
    return any(
        inside.is_relative_to(around)
        for inside in (Path(os.path.abspath(path)), path.resolve())
        for around in (Path(os.path.abspath(folder)), folder.resolve())
    )


def store_location(where: str | None, served: Path) -> str:
    """Where the kernels find the class's tables; refuse a file that the server would serve."""
    where = where or str(default_store_path())
    file = sqlite_file(where)
    if file is None:
        return where
    if is_inside(file, served):
        raise ClassroomError(
            f"the tables database {file} is inside the folder served to the class ({served}), "
            "where learners could fetch it: choose a CLASSROOM_DB outside that folder"
        )
    return str(file.resolve())


def check_store(where: str) -> None:
    """Open the class's store once, so that a wrong path or URL stops the server before learners come."""
    try:
        store = class_store(where)
    except (TableError, OSError) as error:
        raise ClassroomError(f"the tables database cannot be opened: {error}") from None
    store.engine.dispose()


def check_port_free(port: int) -> None:
    """Refuse a port already taken, rather than let Voila move to another one the printout does not name."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            raise ClassroomError(
                f"port {port} is already in use (another class server?): stop it, "
                f"or choose another port with CLASSROOM_PORT={port + 1}"
            ) from None


def voila_arguments(served: Path, host: str, port: int, key: str, extra: list[str]) -> list[str]:
    """Voila's command line: the whole folder, on every interface, behind the class key."""
    return [
        str(served),
        "--Voila.ip=0.0.0.0",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--token={key}",
        "--no-browser",
        f"--Voila.custom_display_url=http://{host}:{port}",
        "--template=colorlab",
        # Under load a page's output can lag its kernel's answer by more than Voila's 4 s, and the page then stays
        # blank ("Timeout waiting for IOPub output"): wait for it as long as a page waits for its kernel.
        f"--VoilaExecutor.iopub_timeout={IOPUB_PATIENCE_SECONDS:g}",
        "--Voila.kernel_websocket_connection_class=colorlab.classroom.limits.PageConnection",
        "--Voila.identity_provider_class=colorlab.classroom.limits.ClassIdentityProvider",
        *extra,
    ]


def short_address(host: str, port: int, key: str) -> str:
    """The address to type: shorter than the lobby's (the server sends it on there), the class key still in it.

    >>> short_address("192.168.1.20", 8866, "k7qm-x4dp-9hfa")
    'http://192.168.1.20:8866/c/k7qm-x4dp-9hfa'
    """
    return f"http://{host}:{port}/c/{key}"


def qr_code(address: str) -> str:
    """The address as a QR code drawn in text, for a tablet's camera to read off the teacher's screen."""
    drawn = io.StringIO()
    segno.make(address, error="l").terminal(out=drawn, compact=True, border=2)
    return drawn.getvalue().rstrip("\n")


def announcement(host: str, port: int, key: str, teacher_key: str, warm: int = 0) -> str:
    """What the teacher reads: the learners' address, the teacher's address and the teacher key (and how many lobby
    pages are being made ready)."""
    ready = (
        [f"{warm} lobby pages are being made ready for learners who arrive together: this keeps the computer busy "
         "for a minute or two, so start a few minutes before the class.", ""]
        if warm
        else []
    )  # fmt: skip
    return "\n".join(
        [
            "",
            "The class is served. Give learners this address (it holds the class key):",
            "",
            f"    {page_address(host, port, LOBBY_PAGE, key)}",
            "",
            "or this shorter one to type, or the code below for a tablet's camera:",
            "",
            f"    {short_address(host, port, key)}",
            "",
            qr_code(page_address(host, port, LOBBY_PAGE, key)),
            "",
            "For you, the teacher's page, and the teacher key it asks for (keep it to yourself):",
            "",
            f"    {page_address(host, port, TEACHER_PAGE, key)}",
            f"    teacher key: {teacher_key}",
            "",
            "For the big screen, the projector page (it asks for the teacher key too):",
            "",
            f"    {page_address(host, port, PROJECTOR_PAGE, key)}",
            "",
            *ready,
            "Stop the class with Ctrl+C.",
            "",
        ]
    )


def missing_pages(served: Path) -> list[str]:
    """Which of the pages the printout names are not in the served folder yet?"""
    return [page for page in (LOBBY_PAGE, TEACHER_PAGE, PROJECTOR_PAGE) if not (served / page).is_file()]


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The served folder, then any further Voila options (kernel culling, for example)."""
    parser = argparse.ArgumentParser(prog="python -m colorlab.classroom.server", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder of lessons to serve")
    return parser.parse_known_args(argv)


def warm_pages(setting: str | None, available: int | None = None) -> int:
    """How many lobby pages wait ready: CLASSROOM_WARM_PAGES, else DEFAULT_WARM_PAGES, or fewer when a quarter of the
    memory `available` (bytes; the machine's now, if not given) does not hold them."""
    if not setting:
        available = psutil.virtual_memory().available if available is None else available
        return min(DEFAULT_WARM_PAGES, available // WARM_MEMORY_SHARE // WARM_PAGE_BYTES)
    if not setting.isdigit() or int(setting) > 200:
        raise ClassroomError(f"CLASSROOM_WARM_PAGES must be a whole number from 0 to 200, not {setting!r}")
    return int(setting)


def warm_config(pages: int) -> Config:
    """Voila's settings that keep `pages` lobby pages ready (a kernel started and the lobby run), and no other page."""
    config = Config()
    if pages:
        config.VoilaConfiguration.preheat_kernel = True
        config.VoilaKernelManager.kernel_pools_config = {"default": {"pool_size": 0}, LOBBY_PAGE: {"pool_size": pages}}
        # A page taken is replaced a minute later, not during the rush of a class arriving: each replacement starts a
        # kernel and runs the lobby, the processor time the arriving pages need.
        config.VoilaKernelManager.fill_delay = WARM_REFILL_SECONDS
    return config


def class_port(setting: str | None) -> int:
    """The port the class is served on: CLASSROOM_PORT, else Voila's usual 8866."""
    if not setting:
        return DEFAULT_PORT
    if not setting.isdigit() or not 0 < int(setting) < 65536:
        raise ClassroomError(f"CLASSROOM_PORT must be a whole number from 1 to 65535, not {setting!r}")
    return int(setting)


def key_strength(key: str) -> int:
    """How many characters of a key count towards its strength (dashes and spaces do not)?"""
    return len(key.replace("-", "").replace(" ", ""))


def check_key(setting: str, key: str, weak_allowed: bool) -> None:
    """Refuse a made-up key shorter than SHORTEST_KEY characters, unless WEAK_KEYS=yes (then warn)."""
    if key_strength(key) >= SHORTEST_KEY:
        return
    words = (
        f"{setting} has {key_strength(key)} characters: a key anyone on the network can try must have at least "
        f"{SHORTEST_KEY} (leave {setting} out for a fresh strong key each run)"
    )
    if not weak_allowed:
        raise ClassroomError(f"{words}, or set {WEAK_KEYS_VARIABLE}=yes to use it anyway")
    print(f"make classroom: warning: {words}; used anyway since {WEAK_KEYS_VARIABLE}=yes", file=sys.stderr)


def prepare_class(served: Path, environment: MutableMapping[str, str]) -> tuple[int, str, str]:
    """Check the settings and set the kernels' environment; give the port, the class key and the teacher key."""
    if not served.is_dir():
        raise ClassroomError(f"there is no folder of lessons at {served}")
    port = class_port(environment.get("CLASSROOM_PORT"))
    warm_pages(environment.get("CLASSROOM_WARM_PAGES"))
    store = store_location(environment.get("CLASSROOM_DB") or environment.get(STORE_VARIABLE), served)
    check_store(store)
    check_port_free(port)
    key = environment.get("CLASS_KEY") or new_key()
    teacher_key = environment.get("TEACHER_KEY") or new_key()
    if teacher_key == key:
        raise ClassroomError("the teacher key must differ from the class key, which every learner holds")
    for setting, given in (("CLASS_KEY", key), ("TEACHER_KEY", teacher_key)):
        check_key(setting, given, environment.get(WEAK_KEYS_VARIABLE) == "yes")
    environment[STORE_VARIABLE] = store
    environment[TEACHER_KEY_VARIABLE] = teacher_key
    environment["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), environment.get("JUPYTER_PATH")]))
    return port, key, teacher_key


def tell_the_kernels(environment: MutableMapping[str, str], host: str, port: int, key: str) -> None:
    """Give the kernels the addresses their pages show: the learners' short one (on the projector page) and the
    projector page's (on the teacher's page)."""
    environment[CLASS_ADDRESS_VARIABLE] = short_address(host, port, key)
    environment[PROJECTOR_ADDRESS_VARIABLE] = page_address(host, port, PROJECTOR_PAGE, key)


def server_log(setting: str | None) -> Path | None:
    """Where Voila's and the kernels' messages go: CLASSROOM_LOG (``-`` for the terminal), else a file beside the
    class's default store, so that the terminal keeps only what the teacher needs."""
    if setting == "-":
        return None
    return Path(setting).expanduser() if setting else default_store_path().with_name("classroom-server.log")


def send_output_to(log: Path) -> int:
    """From now on, write this process's (and its kernels') output to `log`; return the terminal, kept aside."""
    log.parent.mkdir(parents=True, exist_ok=True)
    terminal = os.dup(2)
    sys.stdout.flush()
    sys.stderr.flush()
    written = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(written, 1)
    os.dup2(written, 2)
    os.close(written)
    return terminal


def main(argv: list[str] | None = None) -> None:
    """Serve the folder to the class until Ctrl+C."""
    from colorlab.classroom.limits import ClassVoila

    arguments, extra = parse_arguments(sys.argv[1:] if argv is None else argv)
    served = arguments.folder.absolute()
    try:
        port, key, teacher_key = prepare_class(served, os.environ)
    except ClassroomError as refusal:
        sys.exit(f"make classroom: {refusal}")
    host = network_address()
    tell_the_kernels(os.environ, host, port, key)
    warm = warm_pages(os.environ.get("CLASSROOM_WARM_PAGES"))
    log = server_log(os.environ.get("CLASSROOM_LOG"))
    print(announcement(host, port, key, teacher_key, warm), flush=True)
    for page in missing_pages(served):
        print(f"make classroom: {served / page} does not exist, so its address will not open", file=sys.stderr)
    if log is not None:
        print(f"The class server's own messages go to {log}.\n", flush=True)
        terminal = send_output_to(log)
    config = warm_config(warm)
    try:
        ClassVoila.launch_instance(argv=voila_arguments(served, host, port, key, extra), config=config)
    finally:
        if log is not None:
            os.write(terminal, f"The class server has stopped. Its messages are in {log}.\n".encode())


if __name__ == "__main__":
    main()
