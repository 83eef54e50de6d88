"""Fair shares of a class server: no page floods its kernel, no device and no class starts kernels without end.

The class server (:mod:`colorlab.classroom.server`) runs Voila as :class:`ClassVoila`, with:

- :class:`PageConnection`, each page's websocket to its kernel: a burst of ``MESSAGE_BURST``
  messages, then ``MESSAGE_RATE`` a second. Past that, a message is dropped unread (its kernel
  never sees it, and dropping costs the server next to nothing); a page that goes on sending
  until ``CLOSE_AFTER`` messages were dropped is closed, the reason in the close frame.
- a cap on kernels: ``kernels_per_device`` pages with a kernel of their own per device (by its
  network address) and ``class_kernels`` for the whole class. The next page is a short one that
  says so, in plain words, with no kernel started.
- :class:`ClassIdentityProvider`: a device that has typed ``WRONG_KEYS_ALLOWED`` wrong class keys
  within ``WRONG_KEYS_WINDOW`` seconds is refused every key until the window has passed.
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import inspect
import re
import time
import urllib.parse
from collections import deque
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider, User
from jupyter_server.auth.login import LoginFormHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Float, Int
from voila.app import Voila

from colorlab.classroom.class_store import LOBBY_PAGE

SHORT_PATH = "c/"  # the short address: /c/ and the class key
MESSAGE_BURST = 200  # messages a page may send at once (a page opening sends a few dozen)
MESSAGE_RATE = 40.0  # messages a second, steadily (a learner clicking sends a few)
CLOSE_AFTER = 1000  # messages dropped before a flooding page is closed
KERNELS_PER_DEVICE = 6  # pages with a kernel on one device (a learner's few tabs)
PAGE_LOADING_SECONDS = 120.0  # a page counts as open this long before it connects to its kernel
CONNECTED_ONCE: set[str] = set()  # the kernels whose page has connected (since this server started)
CLASS_KERNELS = 80  # kernels in all (a class of 30, each with a lobby and a lesson, and the teacher)
WRONG_KEYS_ALLOWED = 10
WRONG_KEYS_WINDOW = 60.0
CLOSED_FOR_FLOODING = 1008  # the websocket close code for a policy violation
DEVICE = contextvars.ContextVar("device", default="")  # the address of the device whose page is being rendered


class PageConnection(ZMQChannelsWebsocketConnection):
    """A page's websocket to its kernel that takes a burst of messages, then a steady rate, and drops the rest."""

    def connect(self) -> Any:
        CONNECTED_ONCE.add(self.kernel_id)  # the page arrived: from now on it counts only while connected
        return super().connect()

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        now = time.monotonic()
        tokens, last, dropped = getattr(self, "_colorlab_bucket", (float(MESSAGE_BURST), now, 0))
        tokens = min(float(MESSAGE_BURST), tokens + (now - last) * MESSAGE_RATE)
        if tokens >= 1.0:
            self._colorlab_bucket = (tokens - 1.0, now, dropped)
            super().handle_incoming_message(incoming_msg)
            return
        dropped += 1
        self._colorlab_bucket = (tokens, now, dropped)
        address = self.websocket_handler.request.remote_ip
        if dropped == 1:
            self.log.warning("colorlab: a page at %s sends too many messages; dropping the surplus", address)
        if dropped == CLOSE_AFTER:
            self.log.warning("colorlab: closing the page at %s, which kept sending too many messages", address)
            self.websocket_handler.close(CLOSED_FOR_FLOODING, "colorlab: this page sent too many messages")


class ClassLoginHandler(LoginFormHandler):
    """The page a browser without the class key lands on: what to do, in a learner's words, not Jupyter's."""

    def _render(self, message: dict | None = None) -> None:
        wrong = "<p role='alert'><strong>That is not the class key.</strong></p>" if message else ""
        self.write(
            LOGIN_PAGE.format(
                wrong=wrong,
                form=self.xsrf_form_html(),
                next=html.escape(self.get_argument("next", default=self.base_url), quote=True),
                action=html.escape(f"{self.base_url}login", quote=True),
            )
        )


class ClassIdentityProvider(PasswordIdentityProvider):
    """The class key, checked as Jupyter checks a token, with a limit on wrong keys per device."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs["login_handler_class"] = ClassLoginHandler  # Voila hands it its own login page
        super().__init__(*args, **kwargs)
        self.wrong_keys: dict[str, deque[float]] = {}

    async def get_user_token(self, handler: Any) -> User | None:
        address, now = handler.request.remote_ip, time.monotonic()
        wrong = self.wrong_keys.setdefault(address, deque())
        while wrong and now - wrong[0] > WRONG_KEYS_WINDOW:
            wrong.popleft()
        if len(wrong) >= WRONG_KEYS_ALLOWED:
            return None
        user = await super().get_user_token(handler)
        if user is None and self.get_token(handler):
            wrong.append(now)
            if len(wrong) == WRONG_KEYS_ALLOWED:
                self.log.warning("colorlab: %s typed %s wrong class keys; refused for a while", address, len(wrong))
        if not wrong:
            del self.wrong_keys[address]
        return user


LOGIN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>colorlab: ask your teacher for the class address</title>
<style>body {{ font: 20px/1.5 system-ui, sans-serif; max-width: 36em; margin: 3em auto; padding: 0 1em; }}
input, button {{ font: inherit; padding: 0.2em 0.5em; }}</style>
</head><body><h1>Ask your teacher for the class address</h1>
<p>This page belongs to a class. Open it with the address your teacher gives the class: the class key is part of
it. If your teacher tells you the class key, you can type it here instead.</p>
{wrong}<form method="post" action="{action}">{form}<input type="hidden" name="next" value="{next}">
<label>Class key <input type="password" name="password" autocomplete="off" required autofocus></label>
<button type="submit">Open</button></form></body></html>
"""
FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>colorlab: {title}</title>
<style>body {{ font: 20px/1.5 system-ui, sans-serif; max-width: 36em; margin: 3em auto; padding: 0 1em; }}</style>
</head><body><h1>{title}</h1><p>{words}</p></body></html>
"""
CLASS_FULL = ("The class is full", "Every place on this class's server is taken. Ask your teacher.")
DEVICE_FULL = (
    "Too many pages open on this device",
    "This device already has {pages} colorlab pages open. Close the ones you do not use, then reload this page.",
)


def full_page(title: str, words: str) -> str:
    """A short page that says why no kernel was started for it."""
    return FULL_PAGE.format(title=html.escape(title), words=html.escape(words))


def capped(handler_class: type, app: ClassVoila) -> type:
    """A Voila page handler that starts no kernel past the device's or the class's cap, and says so instead."""

    class Capped(handler_class):
        async def prepare(self, *args: Any, **kwargs: Any) -> None:
            await super().prepare(*args, **kwargs)
            if self._finished:
                return
            device = app.device_of(self)
            running = set(app.kernel_manager.list_kernel_ids())
            mine = sum(
                1 for kernel, at in app.kernel_devices.items() if at[0] == device and app.page_is_open(kernel, at)
            )
            if len(running) >= app.class_kernels:
                app.log.warning(
                    "colorlab: the class is full (%s kernels); a page of %s was refused", len(running), device
                )
                self.refuse(503, *CLASS_FULL)
            elif mine >= app.kernels_per_device:
                app.log.warning("colorlab: %s has %s pages with kernels; one more was refused", device, mine)
                title, words = DEVICE_FULL
                self.refuse(429, title, words.format(pages=mine))
            else:
                DEVICE.set(device)

        def refuse(self, status: int, title: str, words: str) -> None:
            self.set_status(status)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(full_page(title, words))

    Capped.__name__ = f"Capped{handler_class.__name__}"
    return Capped


def kept_ready_now(manager: Any) -> None:
    """Count as kept ready only the pages whose kernel has begun to start, not replacements still waiting.

    Voila replaces a page taken from the pool with one that waits ``fill_delay`` before it starts its kernel (the
    class server sets a minute, so that the replacements do not compete with the class arriving), and counts it in
    the pool from the moment it is planned: the eleventh learner of a pool of ten would wait out that minute. Counted
    this way, a learner who finds no page ready gets a kernel started for them at once, as without a pool."""
    begun: set[asyncio.Task] = set()
    initialize = manager._initialize

    async def noted_as_begun(*args: Any, **kwargs: Any) -> Any:
        task = asyncio.current_task()
        if task is not None:
            begun.add(task)
            task.add_done_callback(begun.discard)
        return await initialize(*args, **kwargs)

    def ready_or_starting(notebook: str) -> int:
        return sum(1 for task in manager._pools.get(notebook, ()) if task.done() or task in begun)

    manager._initialize = noted_as_begun
    manager.get_pool_size = ready_or_starting


class ClassVoila(Voila):
    """Voila for a class: page connections with a message limit, capped kernels and a limit on wrong class keys."""

    kernels_per_device = Int(KERNELS_PER_DEVICE, config=True, help="Pages with a kernel per device.")
    page_loading_seconds = Float(
        PAGE_LOADING_SECONDS, config=True, help="How long a page counts as open before it has connected to its kernel."
    )
    class_kernels = Int(CLASS_KERNELS, config=True, help="Kernels for the whole class.")

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        # kernel id -> the device whose page started it (or was handed it), and when
        self.kernel_devices: dict[str, tuple[str, float]] = {}

    def init_settings(self) -> dict:
        settings = super().init_settings()
        manager, start_kernel = self.kernel_manager, self.kernel_manager.start_kernel

        async def started_for_a_device(*args: Any, **kwargs: Any) -> str:
            kernel = start_kernel(*args, **kwargs)
            kernel = await kernel if inspect.isawaitable(kernel) else kernel
            self.kernel_devices[kernel] = (DEVICE.get(), time.monotonic())
            return kernel

        manager.start_kernel = started_for_a_device
        if hasattr(manager, "get_rendered_notebook"):  # a page kept ready is the device's once it is handed out
            hand_out = manager.get_rendered_notebook

            async def handed_to_a_device(*args: Any, **kwargs: Any) -> Any:
                task, cache, kernel = await hand_out(*args, **kwargs)
                self.kernel_devices[kernel] = (DEVICE.get(), time.monotonic())
                return task, cache, kernel

            manager.get_rendered_notebook = handed_to_a_device
            kept_ready_now(manager)
        return settings

    def device_of(self, handler: Any) -> str:
        """Whose pages count together against `kernels_per_device`: a device, by its network address."""
        return handler.request.remote_ip

    def page_is_open(self, kernel: str, started: tuple[str, float]) -> bool:
        """Does this kernel's page count against its device: connected now, or still on its way (never connected yet,
        for a while)? A page reloaded or closed has gone, though its kernel waits to be culled (behind a class key,
        Voila cannot hear the goodbye)."""
        if kernel not in self.kernel_manager:
            return False
        if getattr(self.kernel_manager, "_kernel_connections", {}).get(kernel, 0) > 0:
            return True
        return kernel not in CONNECTED_ONCE and time.monotonic() - started[1] < self.page_loading_seconds

    def init_handlers(self) -> list:
        from voila.handler import VoilaHandler

        return [
            (url_path_join(self.base_url, SHORT_PATH + "([^/]+)"), ShortAddress),
            *(
                (pattern, capped(handler, self), *rest)
                if isinstance(handler, type) and issubclass(handler, VoilaHandler)
                else (pattern, handler, *rest)
                for pattern, handler, *rest in super().init_handlers()
            ),
        ]


class ShortAddress(web.RequestHandler):
    """The short address a learner types (/c/ and the class key) sends the browser on to the lobby with that key: the
    lobby checks the key, as for the long address."""

    def get(self, key: str) -> None:
        if not re.fullmatch(r"[A-Za-z0-9-]{1,64}", key):
            raise web.HTTPError(404)
        lobby = url_path_join(self.settings.get("base_url", "/"), "voila/render", LOBBY_PAGE)
        self.redirect(f"{lobby}?token={urllib.parse.quote(key, safe='')}")
