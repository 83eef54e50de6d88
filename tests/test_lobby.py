"""The classroom lobby in Python, with a real SQLite store: open a table, join one, come back to a seat.

Each learner's page is a Lobby of its own (its own kernel's store on the same file); the tests send what the
page would send and catch the one-off messages the kernel sends back (the seat key to keep, or to forget).
Every refusal is a notice inside the lobby and changes neither the lobby nor the store; no synced trait of the
lobby, its rule editor or the game widget ever holds a seat's token or the table's seed.
"""

from __future__ import annotations

import json

import pytest

from colorlab import colorfox
from colorlab.classroom import lobby
from colorlab.classroom.lobby import Lobby
from colorlab.colorform.view import ColorFormGame
from colorlab.colorfox.view import ColorFoxGame
from colorlab.colorium.view import ColoriumGame
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.tables import TableStore, WrongToken
from tests.helpers.page import browser_sends
from tests.helpers.tables import news

WIDGETS = {
    "colorfox": ColorFoxGame,
    "colorium": ColoriumGame,
    "colorform": ColorFormGame,
    "colourbrain": ColourbrainQuiz,
}


class Page:
    """One learner's page on the lobby: what it sends, and the messages its kernel sent back."""

    def __init__(self, where):
        self.lobby = Lobby(TableStore(where))
        self.messages: list[dict] = []
        self.lobby.desk.send = lambda content, buffers=None: self.messages.append(content)

    def sends(self, intent_type: str, **fields) -> None:
        browser_sends(self.lobby.desk, {"type": intent_type, **fields})

    @property
    def notice(self) -> dict:
        return self.lobby.desk.notice

    @property
    def stage(self) -> str:
        return self.lobby.desk.view["stage"]

    def kept(self) -> dict[str, str]:
        """The seat keys this page's browser keeps now, by table code (what remember and forget left)."""
        kept: dict[str, str] = {}
        for message in self.messages:
            if message["type"] == "remember":
                kept[message["code"]] = message["token"]
            elif message["type"] == "forget":
                kept.pop(message["code"], None)
        return kept


@pytest.fixture
def where(tmp_path):
    return tmp_path / "class.db"


def named(where, name: str = "Ada") -> Page:
    page = Page(where)
    page.sends("name", name=name)
    return page


def opens_a_table(page: Page, game: str = "colorfox") -> str:
    """Open a table of `game` with its default rules, the learner in seat 1 and learners in the others."""
    page.sends("new_table")
    page.sends("game", game=game)
    page.lobby.next_button.click()
    page.sends("open")
    assert page.stage == "seated", page.notice
    return page.lobby.desk.view["code"]


def widgets_under(widget) -> list:
    """A widget and every widget inside it (boxes' children, the editor's rows, the game)."""
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += widgets_under(child)
    return found


def synced_text(page: Page) -> str:
    """Everything the page may read of the lobby: every synced trait of every widget in it, as one text."""
    return json.dumps([widget.get_state() for widget in widgets_under(page.lobby)], default=str)


# --- opening a table ------------------------------------------------------------------------------


def test_a_learner_opens_a_table_with_a_bot_chooses_a_seat_and_plays_at_it(where):
    ada = named(where)
    ada.sends("new_table")
    assert ada.stage == "rules" and ada.lobby.editor in ada.lobby.rules_area.children
    assert not ada.lobby.editor.scopes  # a table's rules are fixed when it opens: no "live" rules there
    ada.lobby.editor.controls["players"].value = 3
    ada.lobby.next_button.click()
    assert ada.lobby.desk.view["kinds"] == ["you", "learner", "learner"]
    assert ada.lobby.desk.view["rules"] == "Rules: Players = 3."
    assert "GreedyBot" in ada.lobby.desk.view["bots"]
    ada.sends("seat_kind", seat=2, kind="GreedyBot")
    ada.sends("seat_kind", seat=1, kind="you")
    assert ada.lobby.desk.view["kinds"] == ["learner", "you", "GreedyBot"]
    ada.sends("open")
    code = ada.lobby.desk.view["code"]
    assert ada.stage == "seated" and ada.lobby.rules_area.children == ()
    assert isinstance(ada.lobby.game_widget, ColorFoxGame) and ada.lobby.game_area.children == (ada.lobby.game_widget,)
    assert ada.lobby.game_widget.view["seating"]["seat"] == 1
    store = TableStore(where)
    (table,) = store.tables()
    assert [(seat["name"], seat["bot"]) for seat in table["seats"]] == [
        (None, None),
        ("Ada", None),
        ("GreedyBot", "GreedyBot"),
    ]
    assert store.record(code).rules == colorfox.Rules(players=3)
    assert store.rejoin(code, ada.kept()[code]).seat == 1
    assert code in ada.notice["text"] and ada.notice["kind"] == "info"


@pytest.mark.parametrize("game", list(WIDGETS))
def test_every_game_can_be_opened_from_the_lobby(where, game):
    ada = named(where)
    code = opens_a_table(ada, game)
    assert isinstance(ada.lobby.game_widget, WIDGETS[game])
    assert ada.lobby.game_widget.view["seating"]["code"] == code
    assert TableStore(where).tables()[0]["game"] == game


def test_the_seats_follow_the_number_of_players_and_a_refused_rule_changes_nothing(where):
    ada = named(where)
    ada.sends("new_table")
    editor = ada.lobby.editor
    editor.controls["players"].value = 4
    assert ada.lobby.kinds == ["you", "learner", "learner", "learner"]
    editor.controls["players"].value = 9
    assert "not allowed" in editor.message and editor.rules.players == 4
    assert ada.lobby.kinds == ["you", "learner", "learner", "learner"]
    editor.controls["players"].value = 2
    assert ada.lobby.kinds == ["you", "learner"]
    ada.sends("game", game="colourbrain")
    assert ada.lobby.editor is not editor and ada.lobby.editor.rules.teams == 2


def test_a_rule_typed_in_the_editor_of_the_game_left_behind_changes_nothing(where):
    ada = named(where)
    ada.sends("new_table")
    left = ada.lobby.editor
    ada.sends("game", game="colourbrain")
    left.controls["players"].value = 4  # typed in the ColorFox editor while the Colourbrain one was on its way
    assert left.rules.players == 2 and "another game" in left.message
    assert ada.lobby.kinds == ["you", "learner"] and ada.lobby.rules.teams == 2
    assert left.comm is None, "the editor of the game left behind is still open to the page"
    ada.lobby.editor.controls["teams"].value = 3
    assert ada.lobby.kinds == ["you", "learner", "learner"]


def test_the_open_tables_code_notice_goes_once_every_seat_is_taken(where):
    ada = named(where)
    code = opens_a_table(ada)
    assert ada.notice["text"].startswith("Your table is open. Tell the others its code")
    changes = ada.lobby.store.changes
    changes.look()
    TableStore(where).join(code, name="Bo")  # another kernel
    assert news(changes) == {code}
    assert ada.notice["text"] == "" and not ada.lobby.awaiting_others
    assert code not in changes.followers or changes.followers[code] == [ada.lobby.game_widget.table_changed]


def test_a_table_opened_with_bots_in_every_other_seat_says_to_play_at_once(where):
    ada = named(where)
    ada.sends("new_table")
    ada.lobby.next_button.click()
    ada.sends("seat_kind", seat=1, kind="GreedyBot")
    ada.sends("open")
    assert (
        ada.stage == "seated"
        and "Everyone is seated" in ada.notice["text"]
        and "Tell the others" not in ada.notice["text"]
    )


# --- joining a table ------------------------------------------------------------------------------


def test_a_learner_joins_by_code_sees_who_sits_where_and_picks_a_free_seat(where):
    store = TableStore(where)
    code = store.create("colorfox", colorfox.Rules(players=3), bots={2: "GreedyBot"})
    store.join(code, seat=0, name="Ada")
    bo = named(where, "Bo")
    bo.sends("look", code=f"  {code.lower()} ")
    assert bo.stage == "pick"
    assert bo.lobby.desk.view["seats"] == [
        {"seat": 0, "name": "Ada", "kind": "learner"},
        {"seat": 1, "name": "", "kind": "free"},
        {"seat": 2, "name": "GreedyBot", "kind": "bot"},
    ]
    bo.sends("sit", seat=1)
    assert bo.stage == "seated" and bo.lobby.desk.view["you"] == {"seat": 1, "name": "Bo"}
    assert bo.lobby.game_widget.view["seating"]["names"] == ["Ada", "Bo", "GreedyBot"]
    assert store.rejoin(code, bo.kept()[code]).name == "Bo"


def test_the_seats_follow_the_table_while_a_learner_picks_and_nothing_is_sent_while_nothing_changes(where):
    store = TableStore(where)  # another device's kernel
    code = store.create("colorfox", colorfox.Rules(players=3))
    bo = named(where, "Bo")
    bo.sends("look", code=code)
    changes = bo.lobby.store.changes
    changes.look()  # the kernel's first look
    shown = bo.lobby.desk.view
    assert changes.look() == frozenset() and bo.lobby.desk.view is shown
    store.join(code, seat=0, name="Cy")
    assert news(changes) == {code}
    assert [seat["name"] for seat in bo.lobby.desk.view["seats"]] == ["Cy", "", ""]
    bo.sends("sit", seat=1)
    assert bo.stage == "seated" and bo.notice["kind"] == "info"
    assert changes.followers[code] == [bo.lobby.game_widget.table_changed]  # the game follows it now, not the seats


def test_a_seat_taken_meanwhile_is_refused_and_the_seats_are_shown_again(where):
    store = TableStore(where)
    code = store.create("colorfox", colorfox.Rules(players=3))
    bo = named(where, "Bo")
    bo.sends("look", code=code)
    store.join(code, seat=1, name="Cy")
    bo.sends("sit", seat=1)
    assert bo.notice["kind"] == "error" and "Seat 2 is taken by Cy" in bo.notice["text"]
    assert bo.stage == "pick" and bo.lobby.desk.view["seats"][1]["name"] == "Cy"
    assert bo.lobby.game_widget is None and not bo.kept()
    assert [seat["name"] for seat in store.tables()[0]["seats"]] == [None, "Cy", None]


def test_a_second_sam_at_a_table_is_asked_for_a_longer_name_and_comes_back_to_its_seats(where):
    store = TableStore(where)
    code = store.create("colorfox", colorfox.Rules(players=3))
    store.join(code, seat=0, name="Sam")
    other = named(where, "sam")
    other.sends("look", code=f"{code[:3]} {code[3:]}")
    other.sends("sit", seat=1)
    assert other.notice["kind"] == "error" and "add a letter to your name" in other.notice["text"]
    assert other.stage == "name" and other.lobby.game_widget is None and not other.kept()
    assert [seat["name"] for seat in store.tables()[0]["seats"]] == ["Sam", None, None]
    other.sends("name", name="Sam K")
    assert other.stage == "pick" and other.lobby.desk.view["code"] == code
    other.sends("sit", seat=1)
    assert other.stage == "seated"
    assert [seat["name"] for seat in store.tables()[0]["seats"]] == ["Sam", "Sam K", None]


def test_a_page_opens_at_most_three_tables_in_ten_minutes(where, monkeypatch):
    now = [5000.0]
    monkeypatch.setattr(lobby.time, "monotonic", lambda: now[0])
    ada = named(where)
    for _ in range(3):
        opens_a_table(ada)
        ada.sends("leave")
    ada.sends("new_table")
    ada.lobby.next_button.click()
    ada.sends("open")
    assert ada.stage == "seats" and "opened 3 tables in the last 10 minutes" in ada.notice["text"]
    assert len(TableStore(where).tables()) == 3
    now[0] += 600.0
    ada.sends("open")
    assert ada.stage == "seated" and len(TableStore(where).tables()) == 4


# --- coming back --------------------------------------------------------------------------------


def test_another_device_comes_back_to_the_seat_with_the_code_and_the_seat_key(where):
    ada = named(where)
    code = opens_a_table(ada)
    phone = Page(where)
    phone.sends("rejoin", code=code.lower(), key=f" {ada.kept()[code]} ")
    assert phone.stage == "seated" and phone.lobby.desk.view["you"] == {"seat": 0, "name": "Ada"}
    assert "Welcome back, Ada" in phone.notice["text"]
    assert phone.kept() == {code: ada.kept()[code]}


def test_a_reloaded_page_offers_the_newest_open_seat_and_forgets_the_keys_that_open_nothing(where):
    store = TableStore(where)
    closed = store.create("colorfox", colorfox.Rules(players=2))
    closed_token = store.join(closed, seat=0, name="Ada").token
    store.close(closed)
    ada = named(where)
    code = opens_a_table(ada)
    reloaded = Page(where)
    reloaded.sends(
        "return",
        seats=[
            {"code": "QQQQQ", "token": "x"},
            {"code": closed, "token": closed_token},
            {"code": code, "token": "not the key"},
            {"code": code, "token": ada.kept()[code]},
        ],
    )
    assert reloaded.stage == "confirm" and reloaded.lobby.game_widget is None, "seated before saying who they are"
    assert reloaded.lobby.desk.view["returning"] == {"name": "Ada", "code": code, "title": "ColorFox"}
    reloaded.sends("its_me")
    assert reloaded.stage == "seated" and reloaded.lobby.desk.view["you"] == {"seat": 0, "name": "Ada"}
    assert "Welcome back, Ada" in reloaded.notice["text"]
    forgotten = [message["code"] for message in reloaded.messages if message["type"] == "forget"]
    assert forgotten == ["QQQQQ", closed, code]
    assert reloaded.kept() == {code: ada.kept()[code]}


def test_the_tab_that_sat_there_comes_back_without_being_asked(where):
    ada = named(where)
    code = opens_a_table(ada)
    reloaded = Page(where)
    reloaded.sends("return", seats=[{"code": code, "token": ada.kept()[code], "here": True}])
    assert reloaded.stage == "seated" and "Welcome back, Ada" in reloaded.notice["text"]


def test_on_a_shared_device_someone_else_is_not_seated_as_ada_and_the_device_forgets_her_seats(where):
    ada = named(where)
    code = opens_a_table(ada)
    tablet = Page(where)
    tablet.sends("return", seats=[{"code": code, "token": ada.kept()[code]}])
    assert tablet.stage == "confirm"
    tablet.sends("someone_else")
    assert tablet.stage == "name" and tablet.lobby.seat is None and tablet.lobby.game_widget is None
    assert [message for message in tablet.messages if message["type"] != "forget"] == []
    assert [message["code"] for message in tablet.messages if message["type"] == "forget"] == [code]
    assert ada.lobby.seat.token not in json.dumps(tablet.lobby.desk.view)
    assert TableStore(where).seat_names(code)[0] == "Ada"


def test_the_device_forgets_a_seat_once_its_game_is_over_and_never_offers_a_finished_game(where):
    store = TableStore(where)
    code = store.create("colorfox", colorfox.Rules(players=2), seed=3, bots={1: "GreedyBot"})
    ada = named(where)
    ada.sends("look", code=code)
    ada.sends("sit", seat=0)
    token = ada.kept()[code]
    game, me = ada.lobby.game_widget, colorfox.GreedyBot(seed=1)
    while not game.state.over:
        assert code in ada.kept(), "the seat was forgotten before the game ended"
        game.play(me.act(game.state, 0))
        game.refresh()
    assert code not in ada.kept(), "a finished game's seat stayed in the browser"
    again = Page(where)
    again.sends("return", seats=[{"code": code, "token": token}])
    assert again.stage == "name" and [m["code"] for m in again.messages if m["type"] == "forget"] == [code]


def test_a_seat_key_goes_to_the_page_that_sat_down_only_and_a_new_one_replaces_it(where):
    ada = named(where)
    code = opens_a_table(ada)
    assert all("key" not in message for message in ada.messages if message["type"] == "remember")
    [shown] = [message["key"] for message in ada.messages if message["type"] == "seat_key"]
    assert shown not in json.dumps(ada.lobby.desk.view)
    back = Page(where)
    back.sends("return", seats=[{"code": code, "token": ada.kept()[code]}])
    back.sends("its_me")
    assert not [message for message in back.messages if message["type"] == "seat_key"], "a reload showed the key"
    back.sends("new_key")
    [fresh] = [message["key"] for message in back.messages if message["type"] == "seat_key"]
    assert fresh != shown and "new seat key" in back.notice["text"]
    store = TableStore(where)
    assert store.rejoin(code, fresh).seat == 0
    with pytest.raises(WrongToken):
        store.rejoin(code, shown)


def test_a_page_with_no_key_that_opens_a_seat_stays_at_the_name(where):
    page = Page(where)
    page.sends("return", seats=[{"code": "QQQQQ", "token": "x"}])
    assert page.stage == "name" and page.notice.get("kind") != "error"


def test_leaving_a_seat_forgets_its_key_on_this_device_and_the_seat_stays_the_learners(where):
    ada = named(where)
    code = opens_a_table(ada)
    token = ada.kept()[code]
    game = ada.lobby.game_widget
    ada.sends("leave")
    assert ada.stage == "start" and ada.lobby.game_area.children == () and not ada.kept()
    assert game.comm is None  # closed: its page stops asking the table
    assert TableStore(where).rejoin(code, token).name == "Ada"


# --- refusals -----------------------------------------------------------------------------------


def full_table(store):
    code = store.create("colorfox", colorfox.Rules(players=2), bots={1: "GreedyBot"})
    store.join(code, seat=0, name="Ada")
    return code


def closed_table(store):
    code = store.create("colorfox", colorfox.Rules(players=2))
    store.close(code)
    return code


REFUSED = {
    "an empty name": ("name", lambda store: {"type": "name", "name": "   "}, "Type a name"),
    "a name far too long": ("name", lambda store: {"type": "name", "name": "A" * 31}, "A name is at most 30"),
    "an unknown code": ("start", lambda store: {"type": "look", "code": "KKKKK"}, "No table has the code KKKKK"),
    "a code unlike any code": (
        "start",
        lambda store: {"type": "look", "code": "hello!"},
        "No table has the code hello!",
    ),
    "a full table": ("start", lambda store: {"type": "look", "code": full_table(store)}, "is full"),
    "a closed table": ("start", lambda store: {"type": "look", "code": closed_table(store)}, "is closed"),
    "a wrong seat key": (
        "start",
        lambda store: {"type": "rejoin", "code": full_table(store), "key": "guess"},
        "opens no seat",
    ),
    "a seat key at a closed table": (
        "name",
        lambda store: {"type": "rejoin", "code": closed_table(store), "key": "guess"},
        "is closed",
    ),
    "a table without your seat": ("seats", lambda store: {"type": "open"}, "Choose the seat where you sit"),
}


def at_stage(where, stage: str) -> Page:
    page = Page(where)
    if stage != "name":
        page.sends("name", name="Ada")
    if stage == "seats":
        page.sends("new_table")
        page.lobby.next_button.click()
        page.sends("seat_kind", seat=0, kind="learner")
    assert page.stage == stage
    return page


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refusal_is_said_inside_the_lobby_and_changes_nothing(where, case):
    stage, make_intent, words = REFUSED[case]
    store = TableStore(where)
    page = at_stage(where, stage)
    intent = make_intent(store)
    tables, view = store.tables(), page.lobby.desk.view
    browser_sends(page.lobby.desk, intent)
    assert page.notice["kind"] == "error" and words in page.notice["text"], page.notice
    assert page.lobby.desk.view == view and store.tables() == tables
    assert page.lobby.game_widget is None and not page.messages


GARBAGE = [
    "sit down",
    [1, 2],
    {"type": "open_sesame"},
    {"type": "look"},
    {"type": "look", "code": 12345},
    {"type": "look", "code": "KKKKK", "seat": 0},
    {"type": "name", "name": None},
    {"type": "sit", "seat": 0},
    {"type": "seat_kind", "seat": 0, "kind": "you"},
    {"type": "game", "game": "chess"},
    {"type": "leave"},
    {"type": "return", "seats": "all of them"},
    {"type": "return", "seats": [1, 2]},
    {"type": "return", "seats": [{"code": "KKKKK", "token": 5}]},
    {"type": "return", "seats": [{"code": "KKKKK", "token": "x", "seat": 0}]},
    {"type": "return", "seats": [{"code": "KKKKK", "token": "x", "here": "yes"}]},
    {"type": "return", "seats": [{"code": "KKKKK", "token": "x"}] * 11},
    {"type": "rejoin", "code": "KKKKK", "key": "x" * 300_000},
    {"type": "look", "code": "K" * 10 + "\u202e"},
]


@pytest.mark.parametrize("intent", GARBAGE, ids=[json.dumps(intent)[:40] for intent in GARBAGE])
def test_garbage_from_the_page_is_refused_inside_the_lobby(where, intent):
    page = at_stage(where, "start")
    view = page.lobby.desk.view
    browser_sends(page.lobby.desk, intent)
    assert page.notice["kind"] == "error", page.notice
    assert page.lobby.desk.view == view and page.stage == "start" and not page.messages
    assert TableStore(where).tables() == []


def test_the_page_may_not_write_what_the_lobby_shows(where):
    page = at_stage(where, "start")
    view = page.lobby.desk.view
    page.lobby.desk.set_state({"view": {**view, "stage": "seated", "you": {"seat": 0, "name": "Eve"}}})
    assert page.lobby.desk.view == view and page.notice["kind"] == "error"


# --- hidden information ---------------------------------------------------------------------------


def test_no_synced_trait_of_a_lobby_holds_a_token_or_the_seed(where):
    ada = named(where)
    code = opens_a_table(ada)
    bo = named(where, "Bo")
    bo.sends("look", code=code)
    bo.sends("sit", seat=1)
    tokens = [ada.kept()[code], bo.kept()[code]]
    seed = str(TableStore(where).record(code).seed)
    for page in (ada, bo):
        text = synced_text(page)
        assert page.lobby.game_widget.model_id in text
        assert not [token for token in tokens if token in text]
        assert seed not in text
