"""The classroom's lobby: a learner types a name, opens a table or joins one, and plays at their seat.

The lobby is three parts, one under the other:

- the desk (:class:`LobbyDesk`, an anywidget): the name, the join code, the seats,
  the game, who sits where, and once seated the table's code shown large;
- while a new table is being opened, the game's :class:`~colorlab.widgets.RuleEditor`
  and a button to go on to the seats;
- once seated, the game widget of that seat (``ColorFoxGame(seat=...)`` and so on).

Coming back: the seat's secret token never sits in a synced trait. The kernel hands
it to the learner's own page in a one-off message; the page keeps it in the
browser's storage under the table's code and sends it back when the page is
opened again, so a reload finds the seat. On another device the learner types
the table's code and the seat key, which the page shows in a folded box.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import ipywidgets
import traitlets

from colorlab.classroom.class_store import class_store
from colorlab.classroom.signed_in import NotSignedIn, on_a_hub, sender
from colorlab.games import Game, all_games, find_game
from colorlab.rules import IllegalAction, RulesBase, brief, rules_in_words
from colorlab.tables.games import table_game
from colorlab.tables.store import (
    NameTaken,
    Seat,
    SeatTaken,
    TableClosed,
    TableError,
    TableStore,
    UnknownTable,
    WrongToken,
    clean_code,
    clean_name,
)
from colorlab.widgets.base import GuardedWidget, IntentError, IntentFields, widget_css, widget_esm
from colorlab.widgets.rule_editor import RuleEditor

STATIC = Path(__file__).parent / "static"
OPEN_TABLE_NOTICE = "Your table is open."
YOU, LEARNER = "you", "learner"
MOST_GAMES_SHOWN = 10  # on a hub, the learner's own games listed in the lobby, newest first
MOST_SEATS_REMEMBERED = 10  # a page sends back at most this many seats it keeps, newest first
CODE_SHOWN = 12  # characters of a mistyped code said back to the learner
TABLES_OPENED = 3  # tables one lobby page may open ...
TABLES_WINDOW = 600.0  # ... within this many seconds


def games_offered() -> list[Game]:
    """Which games can a learner open a table of (every declared game that says how a table plays it)?"""
    return [game for game in all_games() if game.has("table")]


def seat_list(store: TableStore, code: str) -> list[dict]:
    """Who sits where at a table: one entry per seat (its number, who sits there, and a learner's, a bot's or free)."""
    return [
        {
            "seat": seat["seat"],
            "name": seat["name"] or "",
            "kind": "free" if seat["free"] else "bot" if seat["bot"] else LEARNER,
        }
        for seat in table_entry(store, code)["seats"]
    ]


def table_entry(store: TableStore, code: str) -> dict:
    """The teacher's line for one table (game, closed, over), or UnknownTable in plain words."""
    entry = next(iter(store.tables([code])), None)
    if entry is None:
        raise UnknownTable(f"No table has the code {code}. Check the letters and try again.")
    return entry


def typed_code(code: str) -> str:
    """A join code as the learner typed it, cleaned, or a refusal that says what a code looks like."""
    try:
        return clean_code(code)
    except UnknownTable:
        shown = " ".join(code.split())[:CODE_SHOWN] if code.isprintable() else "you typed"
        raise UnknownTable(
            f"No table has the code {shown}. A code is 5 letters and numbers, such as K7MXA: check it and try again."
        ) from None


def closed_words(code: str) -> str:
    """What does a learner read about a closed table?"""
    return f"Table {code} is closed: your teacher has ended it, so nobody can sit there now."


def my_game(entry: dict, name: str) -> dict:
    """One of a learner's games as the lobby lists it: code, game, players with their scores, and how it stands."""
    scores = entry["scores"] or []
    players = []
    for seat in entry["seats"]:
        score = f" {scores[seat['seat']]}" if seat["seat"] < len(scores) else ""
        you = " (you)" if seat["name"] == name else ""
        players.append(f"{seat['name'] or seat['bot'] or 'free'}{you}{score}")
    state = "finished" if entry["over"] else "closed" if entry["closed"] else "going on"
    return {"code": entry["code"], "game": entry["game"], "title": find_game(entry["game"]).title,
            "players": ", ".join(players), "state": state}  # fmt: skip


def welcome_back(seat: Seat) -> str:
    """What does a learner read on coming back to their seat?"""
    assert seat.seat is not None, "a seat a learner comes back to is never a watcher's"
    return f"Welcome back, {seat.name}: you sit at seat {seat.seat + 1} of table {seat.code} again."


class LobbyDesk(GuardedWidget):
    """The lobby's forms: what the page draws (``view``) holds no token, no seed and nothing of a game."""

    _esm = widget_esm(STATIC / "lobby.js")
    _css = widget_css(STATIC / "lobby.css")

    view = traitlets.Dict().tag(sync=True)

    INTENTS: ClassVar[IntentFields] = {
        "hello": {},
        "name": {"name": str},
        "change_name": {},
        "look_back": {"code": str},
        "my_seat": {"code": str},
        "new_table": {},
        "game": {"game": str},
        "seat_kind": {"seat": int, "kind": str},
        "open": {},
        "back": {},
        "look": {"code": str},
        "sit": {"seat": int},
        "rejoin": {"code": str, "key": str},
        "return": {"seats": list},
        "its_me": {},
        "someone_else": {},
        "new_key": {},
        "leave": {},
    }
    REFUSALS: ClassVar[tuple[type[Exception], ...]] = GuardedWidget.REFUSALS + (TableError,)

    def __init__(self, lobby: Lobby, **kwargs: Any):
        super().__init__(**kwargs)
        self.lobby = lobby

    def dispatch(self, intent: dict) -> None:
        if self.lobby.signed_in:
            try:
                self.lobby.sign_in(sender())
            except NotSignedIn as error:
                raise IntentError(str(error)) from None
        fields = {name: value for name, value in intent.items() if name not in ("type", "seq", "seen")}
        getattr(self.lobby, f"_on_{intent['type']}")(**fields)


class Lobby(ipywidgets.VBox):
    """The page a learner opens in class: sit at a table and play at it.

    `store` is the class's :class:`TableStore`, or where it is (a path or a URL);
    by default the class's store (see :func:`colorlab.classroom.class_store.class_store`),
    opened only when a learner first asks for a table.
    """

    def __init__(self, store: TableStore | str | Path | None = None):
        self._store = store if isinstance(store, TableStore) else None
        self._where = None if isinstance(store, TableStore) else store
        # On a school's hub the learner is known (each message names its hub user): no name to type, and their games
        # of every lesson to look back at. The page says hello first; until then it is at the "hello" step.
        self.signed_in = on_a_hub()
        self.user = ""
        self.mine: list[dict] = []
        self.looked: dict = {}  # one of the learner's games as the room saw it (no hand): words and a still picture
        self.stage = "hello" if self.signed_in else "name"
        self.name = ""
        self.game = games_offered()[0].name
        self.kinds: list[str] = []
        self.code = ""
        self.name_taken_at = ""  # a table where the learner's name was taken, to come back to once it is changed
        self.seats: list[dict] = []
        self.seat: Seat | None = None
        self.game_widget = None
        self.stop_following: Callable[[], None] | None = None  # the table whose seats a learner picks from
        self.awaiting_others = False  # this learner opened the table, and some seats are still free
        self.opened: list[float] = []  # when this page opened its tables (time.monotonic())
        # On a shared device: the seat the browser kept, offered to whoever opened the page ("Are you Ada?"), and every
        # code the browser sent back (all forgotten if it is someone else).
        self.returning: Seat | None = None
        self.kept_codes: list[str] = []
        self.game_over_forgotten = False
        self.desk = LobbyDesk(self)
        self.editor: RuleEditor | None = None
        # The lobby's own blue: white on it reads at 6.9:1, where the theme's "primary" blue gives only 3:1.
        self.next_button = ipywidgets.Button(
            description="Next: who sits where",
            icon="arrow-right",
            style={"button_color": "#0b57d0", "text_color": "white", "font_weight": "bold"},
            layout=ipywidgets.Layout(width="auto", align_self="flex-start", margin="8px 0 16px"),
        )
        self.next_button.on_click(lambda button: self._next())
        self.rules_area = ipywidgets.VBox()
        self.rules_area.add_class("colorlab-lobby-rules")  # dimmed by the page while another game's rules come
        self.game_area = ipywidgets.VBox()
        super().__init__([self.desk, self.rules_area, self.game_area])
        self.show()

    # --- the store ----------------------------------------------------------------------------

    @property
    def store(self) -> TableStore:
        """The class's store, opened on first use."""
        if self._store is None:
            self._store = class_store(self._where)
        return self._store

    @property
    def rules(self) -> RulesBase:
        """The rules chosen for the new table, from the rules step until it opens."""
        if self.editor is None:
            raise IntentError("no table is being opened")
        return self.editor.rules

    # --- what the page shows ------------------------------------------------------------------

    def show(self) -> None:
        """Send the desk what it draws now, and show the rule editor only while a table is being opened."""
        self.desk.view = {
            "stage": self.stage,
            "name": self.name,
            "code": self.code,
            "games": [{"name": game.name, "title": game.title, "about": game.about} for game in games_offered()],
            "game": self.game,
            "title": find_game(self.game).title,
            "bots": find_game(self.game).bot_names(at_table=True) if self.stage == "seats" else [],
            "kinds": list(self.kinds),
            "seats": list(self.seats),
            "rules": f"Rules: {rules_in_words(self.rules)}." if self.stage == "seats" else "",
            "you": None if self.seat is None else {"seat": self.seat.seat, "name": self.seat.name},
            "returning": self._returning(),
            "signed_in": self.signed_in,
            "mine": self.mine if self.stage == "start" else [],
            "looked": self.looked if self.stage == "looking" else {},
        }
        self.rules_area.children = [self.editor, self.next_button] if self.stage == "rules" and self.editor else []

    def _returning(self) -> dict | None:
        """Whose seat is offered on the confirm step: their name, and the table's code and game."""
        if self.returning is None or self.stage != "confirm":
            return None
        return {"name": self.returning.name, "code": self.returning.code, "title": find_game(self.returning.game).title}

    def _enter(self, stage: str) -> None:
        """Go to a step of the lobby, with no message left from the step before."""
        self.stage = stage
        if stage == "start" and self.signed_in:
            self.mine = [my_game(entry, self.name) for entry in self.store.games_of(self.name, MOST_GAMES_SHOWN)]
        self.awaiting_others = False
        self.desk.say("")
        self.show()
        self._follow_the_seats()

    def _follow_the_seats(self) -> None:
        """While a learner picks a seat, others may sit down: show the seats again whenever the table changes. While
        the learner who opened a table waits for the others, its code is on show: take the notice away once all
        have sat down."""
        following = self.stage == "pick" or (self.stage == "seated" and self.awaiting_others)
        if following and self.stop_following is None:
            self.stop_following = self.store.changes.follow(self.code, self._seats_changed)
        elif not following and self.stop_following is not None:
            self.stop_following()
            self.stop_following = None

    def _seats_changed(self) -> None:
        """Read the seats again (a change that arrives after the learner sat is let be, but for the last seat taken
        at a table this learner opened)."""
        try:
            if self.stage == "pick":
                self.seats = seat_list(self.store, self.code)
                self.show()
            elif (
                self.stage == "seated"
                and self.awaiting_others
                and not any(seat["free"] for seat in table_entry(self.store, self.code)["seats"])
            ):
                self.awaiting_others = False
                if self.desk.notice.get("text", "").startswith(OPEN_TABLE_NOTICE):
                    self.desk.say("")
                self._follow_the_seats()
        except TableError as error:
            self.desk.say(str(error), "error")

    def _need(self, *stages: str) -> None:
        """Refuse a request the page should not send at this stage."""
        if self.stage not in stages:
            raise IntentError(f"that cannot be done now (the lobby is at the {self.stage!r} step)")

    # --- the name -----------------------------------------------------------------------------

    def sign_in(self, user: str) -> None:
        """On a hub: the page's first message names its user, who is the learner from then on; a page's messages
        never change user (a page reached with another account is refused)."""
        if self.user and user != self.user:
            raise IntentError(f"this page is {self.user}'s: open the lobby from your own hub account")
        if not self.user:
            self.user = user
            try:
                self.name = clean_name(user)
            except TableError as error:
                raise IntentError(f"the hub account's name cannot be a name at a table: {error}") from None
            if self.stage == "hello":
                self._enter("start")

    def _on_hello(self) -> None:
        """The page is drawn: on a hub, its first message has signed the learner in."""

    def _on_name(self, name: str) -> None:
        if self.signed_in:
            raise IntentError("on the school's hub your name is your hub account's")
        self._need("name")
        try:
            self.name = clean_name(name)
        except TableError as error:
            raise TableError(f"{str(error).capitalize()}.") from None
        self._enter("start")
        if self.name_taken_at:  # the name was changed because it was taken there: back to that table's seats
            code, self.name_taken_at = self.name_taken_at, ""
            self._on_look(code)

    def _on_change_name(self) -> None:
        if self.signed_in:
            raise IntentError("on the school's hub your name is your hub account's")
        self._need("start")
        self._enter("name")

    # --- opening a new table ------------------------------------------------------------------

    def _on_new_table(self) -> None:
        self._need("start")
        self._choose_game(self.game)
        self._enter("rules")

    def _on_game(self, game: str) -> None:
        self._need("rules")
        if game not in [offered.name for offered in games_offered()]:
            raise IntentError(f"there is no game {brief(game)} in the lobby")
        self._choose_game(game)
        self.show()

    def _choose_game(self, game: str) -> None:
        """Start from the game's default rules, with the learner in the first seat and learners in the others. The
        editor of the game left behind is closed: a rule typed there while the new one was coming changes nothing."""
        self.game = game
        rules = find_game(game).rules_type()
        left, editor = self.editor, None

        def chosen(rules: RulesBase, changed: set[str]) -> str:
            return self._rules_chosen(editor, rules, changed)

        editor = self.editor = RuleEditor(rules, on_apply=chosen, title=f"{find_game(game).title} rules", scopes=False)
        self.kinds = [YOU] + [LEARNER] * (rules.players - 1)
        if left is not None:
            left.close()

    def _rules_chosen(self, editor: RuleEditor | None, rules: RulesBase, changed: set[str]) -> str:
        """Keep rules for the new table (the editor has checked them); the seats follow the number of players."""
        if editor is not self.editor:
            raise IllegalAction(f"Those rules were for another game: these are the {find_game(self.game).title} rules.")
        try:
            table_game(self.game).table_rules(rules)
        except ValueError as error:
            raise IllegalAction(f"a table cannot use these rules: {error}") from None
        kinds = (self.kinds + [LEARNER] * rules.players)[: rules.players]
        if YOU not in kinds:
            kinds[0] = YOU
        self.kinds = kinds
        self.show()
        return "The new table will use these rules."

    def _next(self) -> None:
        """The learner has the rules they want: on to who sits where."""
        if self.stage == "rules":
            self._enter("seats")

    def _on_seat_kind(self, seat: int, kind: str) -> None:
        self._need("seats")
        if not 0 <= seat < len(self.kinds):
            raise IntentError(f"there is no seat {seat + 1}; this table has {len(self.kinds)} seats")
        if kind not in (YOU, LEARNER, *find_game(self.game).bot_names(at_table=True)):
            raise IntentError(f"{brief(kind)} cannot sit at a {find_game(self.game).title} table")
        if kind == YOU:
            self.kinds = [LEARNER if old == YOU else old for old in self.kinds]
        self.kinds[seat] = kind
        self.show()

    def _on_open(self) -> None:
        self._need("seats")
        if YOU not in self.kinds:
            raise IllegalAction("Choose the seat where you sit: set one seat to 'you'.")
        bots = {seat: kind for seat, kind in enumerate(self.kinds) if kind not in (YOU, LEARNER)}
        now = time.monotonic()
        self.opened = [at for at in self.opened if now - at < TABLES_WINDOW]
        if len(self.opened) >= TABLES_OPENED:
            raise IllegalAction(
                f"You have opened {TABLES_OPENED} tables in the last {TABLES_WINDOW / 60:.0f} minutes: sit at one of "
                "them (its code brings you back), or ask your teacher."
            )
        self.code = self.store.create(self.game, self.rules, bots=bots)
        self.opened.append(now)
        self._sit(self.kinds.index(YOU))
        if LEARNER in self.kinds:
            self.desk.say(f"{OPEN_TABLE_NOTICE} Tell the others its code, {self.code}, so they can join.")
            self.awaiting_others = True
            self._follow_the_seats()
        else:
            self.desk.say(f"{OPEN_TABLE_NOTICE} Everyone is seated: play!")

    def _on_back(self) -> None:
        self._need("rules", "seats", "pick", "looking")
        if self.stage == "looking":
            self._stop_looking()
        self._enter({"rules": "start", "seats": "rules", "pick": "start", "looking": "start"}[self.stage])

    # --- looking back at one's own games (on a hub) -------------------------------------------------

    def _on_look_back(self, code: str) -> None:
        """Show one of the learner's own games as the room sees it (no hand), its end if it is over."""
        self._need("start")
        code = typed_code(code)
        if code not in [game["code"] for game in self.mine]:
            raise IntentError(f"table {code} is not one of your games")
        from colorlab.classroom.teacher import (
            room_summary,  # the teacher's still picture of a table, as the room saw it
        )

        self.looked = room_summary(self.store.watch(code).view())
        self._enter("looking")

    def _on_my_seat(self, code: str) -> None:
        """On a hub: back to the learner's own seat at a game still going on, from any device (the account says whose
        seat it is; a page that held it before is told it moved here at its next move)."""
        self._need("start")
        code = typed_code(code)
        if code not in [game["code"] for game in self.mine if game["state"] == "going on"]:
            raise IntentError(f"you have no seat at a game going on at table {code}")
        seat = self.store.seat_of(code, self.name)
        self._seated(seat)
        self.desk.say(welcome_back(seat))

    def _stop_looking(self) -> None:
        self.looked = {}

    # --- joining a table ----------------------------------------------------------------------

    def _on_look(self, code: str) -> None:
        self._need("start")
        code = typed_code(code)
        entry = table_entry(self.store, code)
        if entry["closed"]:
            raise TableClosed(closed_words(code))
        seats = seat_list(self.store, code)
        if not any(seat["kind"] == "free" for seat in seats):
            raise SeatTaken(
                f"Table {code} is full: every seat is taken. If one of them is yours, "
                "use 'Come back to your seat' with your seat key."
            )
        self.code, self.seats, self.game = code, seats, entry["game"]
        self._enter("pick")

    def _on_sit(self, seat: int) -> None:
        self._need("pick")
        if not 0 <= seat < len(self.seats):
            raise IntentError(f"there is no seat {seat + 1}; this table has {len(self.seats)} seats")
        self._sit(seat)

    def _sit(self, seat: int) -> None:
        """Sit at a seat of the table the lobby looks at; a refusal shows who took it meanwhile."""
        try:
            taken = self.store.join(self.code, seat=seat, name=self.name)
        except SeatTaken:
            self.seats = seat_list(self.store, self.code)
            self.stage = "pick"
            self.show()
            self._follow_the_seats()
            holder = self.seats[seat]
            who = "a bot" if holder["kind"] == "bot" else holder["name"] or "someone"
            raise SeatTaken(f"Seat {seat + 1} is taken by {who}: pick a free seat.") from None
        except TableClosed:
            raise TableClosed(closed_words(self.code)) from None
        except NameTaken as refusal:  # the learner types a longer name, then comes back to this table's seats
            self.name_taken_at = self.code
            self._enter("name")
            raise NameTaken(f"{str(refusal)[0].upper()}{str(refusal)[1:]}.") from None
        self._seated(taken)
        self.desk.say(f"You sit at seat {seat + 1} of table {self.code}.")

    # --- coming back --------------------------------------------------------------------------

    def _on_rejoin(self, code: str, key: str) -> None:
        self._need("name", "start")
        code = typed_code(code)
        if table_entry(self.store, code)["closed"]:
            raise TableClosed(closed_words(code))
        try:
            seat = self.store.rejoin(code, key.strip())
        except WrongToken:
            raise WrongToken(f"That seat key opens no seat at table {code}. Check it and try again.") from None
        if self.signed_in and seat.name != self.name:  # on a hub a seat is its account's: a key lent is no way in
            raise WrongToken(f"That seat at table {code} is {seat.name}'s, not yours.")
        self._seated(seat)
        self.desk.say(welcome_back(seat))

    def _on_return(self, seats: list) -> None:
        """The page opens again: offer the newest seat it keeps whose game goes on ("Are you Ada?"); forget the others.

        On a shared device the next learner may have opened the page: nobody is seated until they say who they are,
        unless the page says this very tab sat there (`here`: it was reloaded, or the class server restarted).
        """
        if self.stage in ("seated", "confirm"):
            return
        if len(seats) > MOST_SEATS_REMEMBERED or not all(
            isinstance(kept, dict)
            and {"code", "token"} <= set(kept) <= {"code", "token", "here"}
            and isinstance(kept["code"], str)
            and isinstance(kept["token"], str)
            and isinstance(kept.get("here", False), bool)
            for kept in seats
        ):
            raise IntentError("the page sent seats to come back to that are not codes with keys")
        self.kept_codes = [kept["code"] for kept in seats]
        for kept in seats:
            try:
                code = clean_code(kept["code"])
                if table_entry(self.store, code)["closed"]:
                    raise TableClosed(closed_words(code))
                seat = self.store.rejoin(code, kept["token"])
                if seat.state().over:
                    raise TableClosed(f"the game at table {code} is over")
            except (UnknownTable, TableClosed, WrongToken):
                self.desk.send({"type": "forget", "code": kept["code"]})
                continue
            if self.signed_in and seat.name != self.name:  # another account's seat, kept by a shared browser
                self.desk.send({"type": "forget", "code": kept["code"]})
                continue
            # This very tab sat there (a reload, a restarted server), or on a hub, the account says who this is: nobody
            # else to ask about.
            if kept.get("here") or self.signed_in:
                self._seated(seat)
                self.desk.say(welcome_back(seat))
                return
            self.returning = seat
            self._enter("confirm")
            return

    def _on_its_me(self) -> None:
        """The learner on this device is the one who sat there: back to the seat."""
        self._need("confirm")
        seat, self.returning = self.returning, None
        assert seat is not None, "the confirm step always has a seat to offer"
        self._seated(seat)
        self.desk.say(welcome_back(seat))

    def _on_someone_else(self) -> None:
        """Someone else uses this device now: forget every seat it kept, and start from a name."""
        self._need("confirm")
        for code in self.kept_codes:
            self.desk.send({"type": "forget", "code": code})
        self.returning, self.kept_codes = None, []
        self._enter("name")

    def _on_new_key(self) -> None:
        """A fresh seat key for another device, shown on this page only (the old key opens the seat no more)."""
        self._need("seated")
        assert self.seat is not None
        key = self.store.renew_key(self.seat)
        self.desk.send({"type": "seat_key", "code": self.seat.code, "key": key})
        self.desk.say("Here is a new seat key for your other device. The old one no longer opens your seat.")

    def _on_leave(self) -> None:
        """Leave the seat on this device (it stays the learner's: the seat key brings them back)."""
        self._need("seated")
        self.desk.send({"type": "forget", "code": self.code})
        if self.game_widget is not None:
            self.game_widget.close()
        self.game_widget, self.seat, self.game_area.children = None, None, []
        self._enter("start" if self.name else "name")

    def _seated(self, seat: Seat) -> None:
        """Show the seat's game widget; the page keeps the seat's token (the only place it goes) until the game ends.

        The short seat key goes to this page alone, to show: the browser never keeps it.
        """
        widget = find_game(seat.game).part("widget")(seat=seat)
        self.seat, self.code, self.game, self.name = seat, seat.code, seat.game, seat.name
        self.game_widget = widget
        self.game_area.children = [widget]
        self.editor = None
        self.stage = "seated"
        self.show()
        self._follow_the_seats()
        self.desk.send({"type": "remember", "code": seat.code, "token": seat.token})
        if seat.key:
            self.desk.send({"type": "seat_key", "code": seat.code, "key": seat.key})
        self.game_over_forgotten = False
        widget.observe(lambda change: self._forget_when_over(), names="view")
        self._forget_when_over()

    def _forget_when_over(self) -> None:
        """Once the game at the seat is over, the browser forgets the seat: the next learner on it is not offered it."""
        widget = self.game_widget
        if widget is None or self.game_over_forgotten or not widget.state.over:
            return
        self.game_over_forgotten = True
        self.desk.send({"type": "forget", "code": self.code})
