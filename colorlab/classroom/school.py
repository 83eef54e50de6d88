"""A school's classes on its JupyterHub: as its administrator configures them, and as a teacher's server reaches them.

Each class is a service of the hub (:mod:`colorlab.classroom.hub` serves it). The administrator lists the classes in
``jupyterhub_config.py`` with :func:`school`; a teacher's own server fetches a class's records from its service with
:func:`fetch_class_records` (lesson 50 does so by itself on a hub). Nothing here needs JupyterHub installed.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from colorlab.classroom.class_store import CLASS_VARIABLE, STORE_VARIABLE
from colorlab.classroom.signed_in import TEACHERS_VARIABLE
from colorlab.tables.database import StoreError, check_class_name

SERVICE_PREFIX = "colorlab-"  # a class's service is named colorlab-<class>, and served at /services/colorlab-<class>/
CLASSES_VARIABLE = "COLORLAB_CLASSES"  # in each user's own server: the classes they belong to, by name
RECORDS_PATH = "records.zip"  # the class's records, for its teachers' own servers (lesson 50)
FIRST_SERVICE_PORT = 10310  # the classes' services listen on loopback, from this port on (one each, in order)
DEFAULT_HUB_WARM_PAGES = 5  # lobby pages each class keeps ready on a hub: several classes share one machine
DOWNLOAD_NAME = "class-records-{class_name}.zip"  # like the teacher's page's downloads; fetched afresh each time


class SchoolError(Exception):
    """A school's configuration that cannot work, or a class that cannot be reached, with the reason."""


def service_name(class_name: str) -> str:
    """The hub service of a class: ``colorlab-`` and the class's name."""
    return SERVICE_PREFIX + check_class_name(class_name)


def school(
    c: Any,
    database: str,
    classes: Mapping[str, Mapping[str, Sequence[str]]],
    lessons: str | Path,
    warm_pages: int = DEFAULT_HUB_WARM_PAGES,
    python: str = sys.executable,
    environment: Mapping[str, str] | None = None,
    ports: Mapping[str, int] | None = None,
) -> None:
    """Add a school's classes to a JupyterHub configuration `c` (in ``jupyterhub_config.py``).

    `classes` maps each class's name to its ``teachers`` and ``learners`` (hub user names);
    `database` is the school's PostgreSQL URL (password included: only the services see it);
    `lessons` is the folder of colorlab's notebooks that the services serve. Each class becomes
    the managed service ``colorlab-<class>``, a hub group of the same name holds its members, and
    a role lets that group (and no one else) reach the service. Each user's own server learns its
    user's classes (``COLORLAB_CLASSES``) and may ask the classes' services for their records.

    Each service listens on loopback (the hub's proxy reaches it there): at `ports[class]`, or from
    FIRST_SERVICE_PORT on, one port per class in the order given.
    """
    services, groups, roles = (
        list(c.JupyterHub.get("services", [])),
        dict(c.JupyterHub.get("load_groups", {})),
        [],
    )
    member_of: dict[str, list[str]] = {}
    for number, (name, members) in enumerate(classes.items()):
        try:
            service = service_name(name)
        except StoreError as error:
            raise SchoolError(str(error)) from None
        teachers_, learners = list(members.get("teachers", ())), list(members.get("learners", ()))
        if not teachers_:
            raise SchoolError(f"class {name} has no teacher: give its teachers' hub names")
        for user in {*teachers_, *learners}:
            member_of.setdefault(user, []).append(name)
        services.append(
            {
                "name": service,
                "url": f"http://127.0.0.1:{(ports or {}).get(name, FIRST_SERVICE_PORT + number)}",
                "display": True,  # in the hub's Services menu, for the class's members
                "oauth_no_confirm": True,  # the school's own service: no "authorize access?" page
                "command": [python, "-m", "colorlab.classroom.hub", str(lessons)],
                "environment": {
                    **(environment or {}),
                    STORE_VARIABLE: database,
                    CLASS_VARIABLE: name,
                    TEACHERS_VARIABLE: ",".join(teachers_),
                    "CLASSROOM_WARM_PAGES": str(warm_pages),
                },
            }
        )
        groups[service] = {"users": sorted({*teachers_, *learners})}
        scopes = [f"access:services!service={service}", f"read:services!service={service}"]
        roles.append({"name": service, "scopes": scopes, "groups": [service]})
    c.JupyterHub.services = services
    c.JupyterHub.load_groups = groups
    c.JupyterHub.load_roles = [*c.JupyterHub.get("load_roles", []), *roles]
    # A user's own server may find and reach the services its user may (lesson 50 fetches the class's records from
    # its service); the hub gives a server's token only the scopes its user holds.
    c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", "access:services", "read:services"]
    environment_ = dict(c.Spawner.get("environment", {}))
    environment_[CLASSES_VARIABLE] = classes_of(member_of)
    c.Spawner.environment = environment_


def classes_of(member_of: Mapping[str, Sequence[str]]) -> Callable[[Any], str]:
    """For each user's server: the classes its user belongs to, comma-separated (the hub calls this at each spawn)."""

    def of(spawner: Any) -> str:
        return ",".join(member_of.get(spawner.user.name, ()))

    return of


# --- a teacher's own server: the class's records for lesson 50 ---------------------------------


def my_classes(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The classes the hub says this server's user belongs to (none off a hub)."""
    return [name for name in environ.get(CLASSES_VARIABLE, "").split(",") if name]


def fetch_class_records(class_name: str | None = None, folder: str | Path = ".") -> Path:
    """Download a class's records from its service on the hub into `folder` (``class-records-<class>.zip``, replaced
    each time); the class is the first of the server's user's when not given. Only the class's teachers may."""
    names = [class_name] if class_name else my_classes()
    if not names:
        raise SchoolError("this server's user belongs to no class on this hub: name the class")
    service = service_name(names[0])
    token, hub_api = os.environ.get("JUPYTERHUB_API_TOKEN"), os.environ.get("JUPYTERHUB_API_URL")
    if not token or not hub_api:
        raise SchoolError("this is not a server of a JupyterHub: download the records from the teacher's page")
    # The hub says where the class's service listens (its members may read that), and the service checks the token.
    about = hub_get(f"{hub_api.rstrip('/')}/services/{service}", token, names[0])
    data = hub_get(f"{about['url'].rstrip('/')}{about['prefix']}{RECORDS_PATH}", token, names[0], as_json=False)
    target = Path(folder) / DOWNLOAD_NAME.format(class_name=names[0])
    target.write_bytes(data)
    return target


def records_from_the_hub(folder: str | Path = ".") -> Path | None:
    """On a school's hub, the records of this server's user's (first) class, fetched now into `folder`; None off a hub,
    or, with a warning that says why, when they cannot be fetched (a learner's server: records are for teachers)."""
    if not my_classes():
        return None
    try:
        return fetch_class_records(folder=folder)
    except (SchoolError, OSError) as error:
        warnings.warn(f"the class's records could not be fetched from the hub: {error}", stacklevel=2)
        return None


def hub_get(address: str, token: str, class_name: str, as_json: bool = True) -> Any:
    """GET from the hub (or a service of it) with this server's hub token; refusals in a teacher's words."""
    request = urllib.request.Request(address, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            data = answer.read()
    except urllib.error.HTTPError as error:
        reason = {
            403: f"only the teachers of class {class_name} may fetch its records",
            404: f"the hub has no class {class_name} that you belong to",
        }
        raise SchoolError(reason.get(error.code, f"the hub answered {error.code} {error.reason}")) from None
    return json.loads(data) if as_json else data
