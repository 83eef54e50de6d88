"""A school's classes on its JupyterHub: each class is a service of the hub that serves the class's pages.

On a hub every learner can run any code in their own Jupyter server, so nothing there may hold the
database: it would open seeds, hands and locked answers to anyone curious. Each class is instead a
*hub-managed service*: the hub starts ``python -m colorlab.classroom.hub <lessons>`` for it, with
the database's address in that process's environment only. The service is the class server of a
laptop (:class:`~colorlab.classroom.limits.ClassVoila`: pages without code, a message limit, capped
kernels) with the hub's login in place of the class key:

- a learner opens ``/services/colorlab-<class>/`` on the hub; the hub lets in its class's members
  only (a learner of another class gets the hub's 403), and tells the service who they are;
- the service writes that name into every message a page sends to its kernel, so the lobby knows
  the learner without asking (:mod:`colorlab.classroom.signed_in`), and the teacher's and the
  projector's pages open for the class's teachers without a key;
- each class's tables are its own in the school's database (a schema per class, see
  :func:`colorlab.tables.database.open_engine`);
- a teacher's own server fetches the class's records from the service for lesson 50
  (``records.zip``, with the server's hub token), as the teacher's page downloads them.

A school's administrator lists the classes in the hub's configuration with
:func:`colorlab.classroom.school.school` (see
``docs/classroom.md``, "On a school's JupyterHub").
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)
from jupyter_server.utils import url_path_join
from jupyterhub.singleuser.extension import JupyterHubIdentityProvider
from tornado import web

from colorlab.classroom.class_store import (
    CLASS_ADDRESS_VARIABLE,
    CLASS_VARIABLE,
    LOBBY_PAGE,
    PROJECTOR_ADDRESS_VARIABLE,
    PROJECTOR_PAGE,
    STORE_VARIABLE,
    TEACHER_KEY_VARIABLE,
    class_store,
)
from colorlab.classroom.limits import ClassVoila, PageConnection
from colorlab.classroom.school import RECORDS_PATH, SchoolError
from colorlab.classroom.signed_in import SIGNED_IN_VARIABLE, teachers
from colorlab.tables.database import StoreError, check_class_name

# --- the class's service -----------------------------------------------------------------------


class HubIdentityProvider(JupyterHubIdentityProvider):
    """The hub's login, for a class's service run by Voila: its handlers under the service's prefix, and no token of
    its own (Voila would print one in its log)."""

    def __init__(self, **kwargs: Any):
        kwargs.pop("token", None)  # Voila hands every identity provider a token: on a hub the login is the only way in
        super().__init__(**kwargs)

    @property
    def token(self) -> str:
        return ""

    def get_handlers(self) -> list:
        base = self.parent.base_url
        return [(url_path_join(base, path), *rest) for path, *rest in super().get_handlers()]


class HubPageConnection(PageConnection):
    """A page's websocket to its kernel on a hub: each message carries the name of the hub user whose page it is,
    written by the server over whatever the page wrote there."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        user = self.websocket_handler.current_user
        name = getattr(user, "username", "") if user is not None else ""
        super().handle_incoming_message(signed(incoming_msg, name, self.subprotocol))


def signed(message: Any, name: str, subprotocol: str | None) -> Any:
    """A page's message with `name` as its header's user name (unreadable messages pass on, for Jupyter to refuse)."""
    try:
        if subprotocol == "v1.kernel.websocket.jupyter.org":
            channel, parts = deserialize_msg_from_ws_v1(message)
            header = json.loads(parts[0])
            header["username"] = name
            parts[0] = json.dumps(header).encode()
            return serialize_msg_to_ws_v1(parts, channel)
        if isinstance(message, bytes):
            parsed = deserialize_binary_message(message)
            parsed["header"]["username"] = name
            return serialize_binary_message(parsed)
        parsed = json.loads(message)
        parsed["header"]["username"] = name
        return json.dumps(parsed)
    except (ValueError, KeyError, TypeError, IndexError):
        return message


class RecordsHandler(web.RequestHandler):
    """The class's records as one zip, sent in parts as it is made, for its teachers only (their own servers ask with
    their hub token, as lesson 50 does)."""

    async def get(self) -> None:
        from colorlab.classroom.teacher import class_records_zip

        hub_auth = self.settings["identity_provider"].hub_auth
        user = await hub_auth.get_user(self, sync=False)
        if user is None or not hub_auth.check_scopes(hub_auth.access_scopes, user):
            raise web.HTTPError(403, "sign in on the hub as one of the class's members")
        if user.get("name") not in teachers():
            raise web.HTTPError(403, "the class's records are for its teachers")
        store = class_store()
        try:
            self.set_header("Content-Type", "application/zip")
            for part in class_records_zip(store):
                self.write(part)
                await self.flush()
        finally:
            store.engine.dispose()
        self.finish()


class HubClassVoila(ClassVoila):
    """The class server as a hub's service: the laptop's limits, the hub's login, and the records for teachers."""

    def device_of(self, handler: Any) -> str:
        """On a hub every page comes through the hub's proxy, from one address: the cap on pages is each learner's."""
        user = handler.current_user
        return f"hub user {getattr(user, 'username', '')}"

    def init_handlers(self) -> list:
        return [(url_path_join(self.base_url, RECORDS_PATH), RecordsHandler), *super().init_handlers()]


def service_settings(environ: MutableMapping[str, str]) -> tuple[str, int, str]:
    """Where the hub wants the service (host, port, prefix), from the environment it starts the service with; and the
    kernels' environment set: their class, and that each page message names its hub user."""
    if "JUPYTERHUB_SERVICE_URL" not in environ or "JUPYTERHUB_SERVICE_PREFIX" not in environ:
        raise SchoolError("this is a class's service of a JupyterHub: the hub starts it (see colorlab.classroom.hub)")
    address = urllib.parse.urlsplit(environ["JUPYTERHUB_SERVICE_URL"])
    if not environ.get(CLASS_VARIABLE):
        raise SchoolError(f"the service has no class: the hub's configuration sets {CLASS_VARIABLE}")
    environ[SIGNED_IN_VARIABLE] = "hub"
    environ.pop(TEACHER_KEY_VARIABLE, None)  # the hub's login opens the teacher's pages, never a key
    public = environ.get("JUPYTERHUB_PUBLIC_URL")  # the service's own address, when the hub knows its public_url
    if public:  # the projector page shows it (and its QR code), the teacher's page links to the projector's
        environ[CLASS_ADDRESS_VARIABLE] = url_path_join(public, "voila/render", LOBBY_PAGE)
        environ[PROJECTOR_ADDRESS_VARIABLE] = url_path_join(public, "voila/render", PROJECTOR_PAGE)
    return address.hostname or "127.0.0.1", address.port or 80, environ["JUPYTERHUB_SERVICE_PREFIX"]


def main(argv: list[str] | None = None) -> None:
    """Serve the class's pages as a service of the hub, until the hub stops it."""
    from colorlab.classroom.server import (
        IOPUB_PATIENCE_SECONDS,
        TEMPLATES,
        ClassroomError,
        check_store,
        warm_config,
        warm_pages,
    )

    arguments = sys.argv[1:] if argv is None else argv
    if not arguments:
        sys.exit("usage: python -m colorlab.classroom.hub <folder of lessons> [Voila options]")
    served, extra = Path(arguments[0]).absolute(), arguments[1:]
    try:
        host, port, prefix = service_settings(os.environ)
        check_class_name(os.environ[CLASS_VARIABLE])
        check_store(os.environ.get(STORE_VARIABLE, ""))
        warm = warm_pages(os.environ.get("CLASSROOM_WARM_PAGES"))
    except (SchoolError, ClassroomError, StoreError) as refusal:
        sys.exit(f"colorlab class service: {refusal}")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), os.environ.get("JUPYTER_PATH")]))
    print(f"colorlab: class {os.environ[CLASS_VARIABLE]} served at {prefix} ({time.strftime('%H:%M:%S')})", flush=True)
    HubClassVoila.launch_instance(
        argv=[
            str(served),
            f"--Voila.ip={host}",
            f"--port={port}",
            "--Voila.port_retries=0",
            "--no-browser",
            f"--Voila.base_url={prefix}",
            "--template=colorlab",
            f"--VoilaExecutor.iopub_timeout={IOPUB_PATIENCE_SECONDS:g}",
            "--Voila.kernel_websocket_connection_class=colorlab.classroom.hub.HubPageConnection",
            "--Voila.identity_provider_class=colorlab.classroom.hub.HubIdentityProvider",
            *extra,
        ],
        config=warm_config(warm),
    )


if __name__ == "__main__":
    main()
