"""A school's classes on a hub, in Python: the hub's configuration, the server's signature on each page message, and
the lobby and the teacher's pages of a class's service, which know their user from it.

The kernels here read the name the class's server wrote into each message (`colorlab.classroom.signed_in.sender`)
from `SIGNED_BY`, which each test sets before a page "sends"; the server's side of it, writing that name over what a
page wrote, is tested on real Jupyter messages below, and the whole path in a real hub in tests/browser.
"""

from __future__ import annotations

import json
import types

import pytest
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)
from traitlets.config import Config

from colorlab import colorfox
from colorlab.classroom import gate, lobby
from colorlab.classroom.hub import service_settings, signed
from colorlab.classroom.school import CLASSES_VARIABLE, SchoolError, school
from colorlab.classroom.signed_in import SIGNED_IN_VARIABLE, TEACHERS_VARIABLE, NotSignedIn
from colorlab.classroom.teacher import TeacherPage
from colorlab.colorfox.agents import RandomBot
from colorlab.tables import TableStore, WrongToken
from tests.helpers.page import browser_sends
from tests.test_lobby import Page, synced_text

SIGNED_BY = {"name": ""}


def signed_sender() -> str:
    if not SIGNED_BY["name"]:
        raise NotSignedIn("this page's messages carry no hub user: reload the page from the hub")
    return SIGNED_BY["name"]


@pytest.fixture
def on_the_hub(monkeypatch, tmp_path):
    """A kernel of class 7b's service (Lee teaches it); returns the school's database."""
    monkeypatch.setenv(SIGNED_IN_VARIABLE, "hub")
    monkeypatch.setenv(TEACHERS_VARIABLE, "lee,kim")
    monkeypatch.setattr(lobby, "sender", signed_sender)
    monkeypatch.setattr(gate, "sender", signed_sender)
    SIGNED_BY["name"] = ""
    return tmp_path / "school.db"


class HubPage(Page):
    """A learner's lobby page on the hub: each message signed by the hub user the page belongs to."""

    def __init__(self, where, user: str):
        self.user = user
        super().__init__(where)
        self.lobby.store.engine.dispose()
        self.lobby._store = TableStore(where, "7b")

    def sends(self, intent_type: str, **fields) -> None:
        SIGNED_BY["name"] = self.user
        super().sends(intent_type, **fields)


def signed_in(where, user: str) -> HubPage:
    page = HubPage(where, user)
    page.sends("hello")
    return page


def finished_game(where, name: str) -> str:
    """A two-player ColorFox table of class 7b that `name` played to its end against GreedyBot."""
    store = TableStore(where, "7b")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=918273645, bots={1: "GreedyBot"})
    seat, agent = store.join(code, seat=0, name=name), RandomBot(seed=1)
    while not (replay := seat.catch_up()).state.over:
        seat.play(agent.act(replay.state, 0), seen=replay.steps)
    store.engine.dispose()
    return code


# --- the lobby of a class's service ------------------------------------------------------------


def test_the_lobby_waits_for_the_first_message_and_takes_the_learners_name_from_it(on_the_hub):
    page = HubPage(on_the_hub, "ada")
    assert page.stage == "hello" and page.lobby.desk.view["signed_in"] is True
    page.sends("hello")
    assert page.stage == "start" and page.lobby.desk.view["name"] == "ada"
    for intent, fields in (("change_name", {}), ("name", {"name": "Bo"})):
        page.sends(intent, **fields)
        assert page.notice["kind"] == "error" and "your name is your hub account's" in page.notice["text"]
        assert page.stage == "start" and page.lobby.name == "ada"


def test_a_message_from_another_account_is_refused_and_changes_nothing(on_the_hub):
    page = signed_in(on_the_hub, "ada")
    page.user = "bo"
    page.sends("new_table")
    assert page.notice["kind"] == "error"
    assert "ada's" in page.notice["text"] and page.stage == "start" and page.lobby.name == "ada"


def test_a_message_without_a_hub_user_is_refused_in_plain_words(on_the_hub):
    page = HubPage(on_the_hub, "")
    page.sends("hello")
    assert page.stage == "hello"
    assert "reload the page from the hub" in page.notice["text"]


def test_a_learner_finds_their_games_of_another_day_and_looks_back_at_one(on_the_hub):
    code = finished_game(on_the_hub, "ada")
    ada = signed_in(on_the_hub, "ada")
    mine = ada.lobby.desk.view["mine"]
    assert [(game["code"], game["state"]) for game in mine] == [(code, "finished")]
    assert mine[0]["players"].startswith("ada (you) ") and "GreedyBot" in mine[0]["players"]
    ada.sends("look_back", code=code)
    assert ada.stage == "looking"
    looked = ada.lobby.desk.view["looked"]
    store = TableStore(on_the_hub, "7b")
    record = store.record(code)
    assert looked["code"] == code and looked["state"] == "finished" and looked["names"] == ["ada", "GreedyBot"]
    assert looked["scores"] == store.tables([code])[0]["scores"] and looked["step"] == len(record.actions)
    assert "<svg" in looked["picture"]
    assert str(record.seed) not in synced_text(ada)
    store.engine.dispose()
    ada.sends("back")
    assert ada.stage == "start" and ada.lobby.desk.view["looked"] == {}


def test_another_learner_neither_lists_nor_looks_back_at_someone_elses_game(on_the_hub):
    code = finished_game(on_the_hub, "ada")
    bo = signed_in(on_the_hub, "bo")
    assert bo.lobby.desk.view["mine"] == []
    bo.sends("look_back", code=code)
    assert bo.stage == "start" and "not one of your games" in bo.notice["text"]


def test_a_seat_kept_by_the_browser_returns_its_own_learner_at_once_and_is_forgotten_for_another(on_the_hub):
    store = TableStore(on_the_hub, "7b")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=4)
    ada_seat = store.join(code, seat=0, name="ada")
    ada = signed_in(on_the_hub, "ada")
    ada.sends("return", seats=[{"code": code, "token": ada_seat.token}])
    assert ada.stage == "seated" and ada.lobby.seat.seat == 0  # no "Are you ada?": the hub said so
    bo = signed_in(on_the_hub, "bo")  # the same browser, another account
    bo.sends("return", seats=[{"code": code, "token": ada_seat.token}])
    assert bo.stage == "start" and {"type": "forget", "code": code} in bo.messages
    store.engine.dispose()


def test_on_the_hub_a_seat_key_opens_only_its_own_learners_seat(on_the_hub):
    store = TableStore(on_the_hub, "7b")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=4)
    key = store.join(code, seat=0, name="ada").key
    bo = signed_in(on_the_hub, "bo")
    bo.sends("rejoin", code=code, key=key)
    assert bo.stage == "start" and bo.notice["text"] == f"That seat at table {code} is ada's, not yours."
    ada = signed_in(on_the_hub, "ada")
    ada.sends("rejoin", code=code, key=key)
    assert ada.stage == "seated" and ada.lobby.seat.seat == 0
    store.engine.dispose()


def test_from_a_new_device_a_learner_goes_back_to_her_seat_by_her_account_and_the_old_page_loses_it(on_the_hub):
    store = TableStore(on_the_hub, "7b")
    code = store.create("colorfox", colorfox.Rules(players=2), seed=4)
    old = store.join(code, seat=0, name="ada")
    store.join(code, seat=1, name="bo")
    bo = signed_in(on_the_hub, "bo")
    bo.sends("my_seat", code=code)  # his own seat at that table, not the first one
    assert bo.lobby.seat.seat == 1
    cy = signed_in(on_the_hub, "cy")
    cy.sends("my_seat", code=code)
    assert cy.stage == "start" and "no seat at a game going on" in cy.notice["text"]
    ada = signed_in(on_the_hub, "ada")  # a new device: nothing kept in its browser
    assert [(game["code"], game["state"]) for game in ada.lobby.desk.view["mine"]] == [(code, "going on")]
    ada.sends("my_seat", code=code)
    assert ada.stage == "seated" and ada.lobby.seat.seat == 0 and ada.lobby.seat.token != old.token
    with pytest.raises(WrongToken):
        store.rejoin(code, old.token)
    store.engine.dispose()


# --- the teacher's pages ------------------------------------------------------------------------


def teacher_page(where) -> TeacherPage:
    return TeacherPage(store=TableStore(where, "7b"))


def test_the_teachers_page_opens_for_the_class_teachers_without_a_key(on_the_hub):
    page = teacher_page(on_the_hub)
    assert page.board.gate == "hub" and page.board.tables == []
    SIGNED_BY["name"] = "lee"
    browser_sends(page.board, {"type": "key", "key": ""})
    assert page.board.gate == "open"


def test_a_learner_on_the_teachers_page_is_told_it_is_for_teachers_and_sees_nothing(on_the_hub):
    finished_game(on_the_hub, "ada")
    page = teacher_page(on_the_hub)
    SIGNED_BY["name"] = "ada"
    for typed in ("", "guess"):
        browser_sends(page.board, {"type": "key", "key": typed})
        assert page.board.gate == "hub" and page.board.tables == []
        assert page.board.notice["text"] == "This page is for the class's teachers, and you are signed in as ada."
    SIGNED_BY["name"] = "lee"
    browser_sends(page.board, {"type": "key", "key": ""})
    assert page.board.gate == "open" and len(page.board.tables) == 1
    SIGNED_BY["name"] = "ada"  # a learner's message reaching the open page (another tab of it) is refused too
    browser_sends(page.board, {"type": "watch", "code": page.board.tables[0]["code"]})
    assert "signed in as ada" in page.board.notice["text"]


def test_the_projector_page_opens_for_a_teacher_and_says_to_log_in_to_the_hub_to_join(on_the_hub):
    from colorlab.classroom.projector import ProjectorPage

    lobby = "https://hub.school.example/services/colorlab-7b/voila/render/classroom/lobby.ipynb"
    environ = {SIGNED_IN_VARIABLE: "hub", TEACHERS_VARIABLE: "lee", "COLORLAB_CLASS_ADDRESS": lobby}
    page = ProjectorPage(store=TableStore(on_the_hub, "7b"), environ=environ)
    assert page.board.gate == "hub" and page.board.join == {}
    SIGNED_BY["name"] = "ada"
    browser_sends(page.board, {"type": "key", "key": ""})
    assert page.board.gate == "hub" and page.board.join == {}
    SIGNED_BY["name"] = "lee"
    browser_sends(page.board, {"type": "key", "key": ""})
    assert page.board.gate == "open"
    assert page.board.join["address"] == lobby and page.board.join["signed_in"] is True
    assert "<svg" in page.board.join["qr"]


# --- the server's signature on each message ---------------------------------------------------


def page_message(username: str) -> dict:
    return {
        "header": {"msg_id": "1", "msg_type": "comm_msg", "username": username, "session": "s", "version": "5.3"},
        "parent_header": {},
        "metadata": {},
        "content": {"comm_id": "c", "data": {"method": "update"}},
        "channel": "shell",
    }


def test_the_server_writes_the_hub_users_name_over_what_the_page_wrote_in_every_encoding():
    message = page_message("lee")  # a learner's page pretending to be the teacher
    as_json = json.loads(signed(json.dumps(message), "ada", None))
    assert as_json["header"]["username"] == "ada" and as_json["content"] == message["content"]
    with_buffers = {**message, "buffers": [b"\x00picture"]}
    as_binary = deserialize_binary_message(signed(serialize_binary_message(with_buffers), "ada", None))
    assert as_binary["header"]["username"] == "ada" and [bytes(b) for b in as_binary["buffers"]] == [b"\x00picture"]
    parts = [json.dumps(message[part]).encode() for part in ("header", "parent_header", "metadata", "content")]
    v1 = signed(serialize_msg_to_ws_v1(parts, "shell"), "ada", "v1.kernel.websocket.jupyter.org")
    channel, signed_parts = deserialize_msg_from_ws_v1(v1)
    assert channel == "shell" and json.loads(signed_parts[0])["username"] == "ada"
    assert signed_parts[1:] == parts[1:]


def test_a_message_the_server_cannot_read_goes_on_unchanged_for_jupyter_to_refuse():
    assert signed("not json", "ada", None) == "not json"


# --- the school's configuration ------------------------------------------------------------------


def hub_config() -> Config:
    c = Config()
    c.JupyterHub.services = []
    c.JupyterHub.load_groups = {}
    c.JupyterHub.load_roles = []
    c.Spawner.environment = {"KEEP": "me"}
    return c


def test_each_class_is_a_service_reached_by_its_members_only_with_the_database_in_its_environment_only():
    c = hub_config()
    database = "postgresql://colorlab:secret@db.school/colorlab"
    classes = {"7b": {"teachers": ["lee"], "learners": ["ada", "bo"]}, "8a": {"teachers": ["lee"], "learners": ["dan"]}}
    school(c, database, classes, "/srv/colorlab/notebooks", python="/opt/py/bin/python")
    services = {service["name"]: service for service in c.JupyterHub.services}
    assert sorted(services) == ["colorlab-7b", "colorlab-8a"]
    seven = services["colorlab-7b"]
    assert seven["command"] == ["/opt/py/bin/python", "-m", "colorlab.classroom.hub", "/srv/colorlab/notebooks"]
    assert seven["environment"]["COLORLAB_TABLES"] == database and seven["environment"]["COLORLAB_CLASS"] == "7b"
    assert seven["environment"]["COLORLAB_TEACHERS"] == "lee"
    assert c.JupyterHub.load_groups["colorlab-7b"] == {"users": ["ada", "bo", "lee"]}
    roles = {role["name"]: role for role in c.JupyterHub.load_roles}
    assert roles["colorlab-8a"] == {
        "name": "colorlab-8a",
        "scopes": ["access:services!service=colorlab-8a", "read:services!service=colorlab-8a"],
        "groups": ["colorlab-8a"],
    }
    environment = c.Spawner.environment
    assert "secret" not in json.dumps({k: v for k, v in environment.items() if isinstance(v, str)})
    assert environment["KEEP"] == "me"
    member = environment[CLASSES_VARIABLE]
    assert member(types.SimpleNamespace(user=types.SimpleNamespace(name="lee"))) == "7b,8a"
    assert member(types.SimpleNamespace(user=types.SimpleNamespace(name="dan"))) == "8a"
    assert member(types.SimpleNamespace(user=types.SimpleNamespace(name="zed"))) == ""


@pytest.mark.parametrize(
    ("classes", "says"),
    [
        ({"7B": {"teachers": ["lee"]}}, "lower-case letters"),
        ({"7b": {"learners": ["ada"]}}, "class 7b has no teacher"),
    ],
)
def test_a_class_that_cannot_be_served_is_refused_with_the_reason(classes, says):
    with pytest.raises(SchoolError, match=says):
        school(hub_config(), "postgresql://db/colorlab", classes, "/srv/notebooks")


def test_the_service_refuses_to_start_outside_a_hub_and_sets_its_kernels_for_one():
    with pytest.raises(SchoolError, match="the hub starts it"):
        service_settings({})
    environ = {
        "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:10101",
        "JUPYTERHUB_SERVICE_PREFIX": "/services/colorlab-7b/",
        "COLORLAB_CLASS": "7b",
        "COLORLAB_TEACHER_KEY": "left-over",
    }
    assert service_settings(environ) == ("127.0.0.1", 10101, "/services/colorlab-7b/")
    assert environ[SIGNED_IN_VARIABLE] == "hub" and "COLORLAB_TEACHER_KEY" not in environ
    assert "COLORLAB_CLASS_ADDRESS" not in environ  # the hub has no public address to give
    environ["JUPYTERHUB_PUBLIC_URL"] = "https://hub.school.example/services/colorlab-7b/"
    service_settings(environ)
    lobby = "https://hub.school.example/services/colorlab-7b/voila/render/classroom/lobby.ipynb"
    assert environ["COLORLAB_CLASS_ADDRESS"] == lobby
    assert environ["COLORLAB_PROJECTOR_ADDRESS"] == lobby.replace("lobby", "projector")


def test_on_a_hub_the_cap_on_pages_counts_each_learners_pages_not_the_proxys_one_address():
    """Every page reaches a class's service through the hub's proxy, from one address: counted by address, the
    seventh learner of a class would be told the device has too many pages (the school benchmark found it so)."""
    from colorlab.classroom.hub import HubClassVoila
    from colorlab.classroom.limits import ClassVoila

    def handler(user: str) -> types.SimpleNamespace:
        return types.SimpleNamespace(
            request=types.SimpleNamespace(remote_ip="127.0.0.1"), current_user=types.SimpleNamespace(username=user)
        )

    ada, bo = handler("ada"), handler("bo")
    assert HubClassVoila.device_of(HubClassVoila, ada) != HubClassVoila.device_of(HubClassVoila, bo)
    assert HubClassVoila.device_of(HubClassVoila, ada) == HubClassVoila.device_of(HubClassVoila, handler("ada"))
    assert ClassVoila.device_of(ClassVoila, ada) == ClassVoila.device_of(ClassVoila, bo) == "127.0.0.1"


def test_lesson_50_reads_the_hub_only_on_a_hub_and_says_why_when_it_cannot(monkeypatch, tmp_path):
    from colorlab.classroom.school import records_from_the_hub

    monkeypatch.delenv(CLASSES_VARIABLE, raising=False)
    assert records_from_the_hub(tmp_path) is None  # off a hub: the lesson reads downloads, or the sample class
    monkeypatch.setenv(CLASSES_VARIABLE, "7b")
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with pytest.warns(UserWarning, match="not a server of a JupyterHub"):
        assert records_from_the_hub(tmp_path) is None
    assert list(tmp_path.iterdir()) == []
