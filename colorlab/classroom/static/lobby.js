// The classroom's lobby. It draws the forms Python sends and reports what the learner asks for.
// It also keeps the learner's seat tokens in this browser's storage, one per table code, and sends them back when
// the page opens again, so that a reload can find the seat (after "Are you Ada?": a device may be shared). The
// short seat key, for another device, is never stored: it is shown on the page that asked for it, while it is open.

const SEAT_PREFIX = "colorlab-seat-";
const HERE_PREFIX = "colorlab-here-";
const MOST_SEATS_SENT = 10;
const inMemory = new Map();  // when the browser keeps no storage (some private windows), keys last as long as the page

function storage() {
  try {
    window.localStorage.setItem(`${SEAT_PREFIX}probe`, "1");
    window.localStorage.removeItem(`${SEAT_PREFIX}probe`);
    return window.localStorage;
  } catch (error) {
    return null;
  }
}

// The token (long) brings the seat back on this device, until the game ends or someone else says who they are.
// This tab sat there itself (its session storage lasts as long as the tab): it comes back without asking who it is.
function keepSeat(code, token) {
  const kept = JSON.stringify({token, at: Date.now()});
  inMemory.set(code, kept);
  storage()?.setItem(SEAT_PREFIX + code, kept);
  try { window.sessionStorage.setItem(HERE_PREFIX + code, "1"); } catch (error) { /* no session storage */ }
}

function forgetSeat(code) {
  inMemory.delete(code);
  storage()?.removeItem(SEAT_PREFIX + code);
  try { window.sessionStorage.removeItem(HERE_PREFIX + code); } catch (error) { /* no session storage */ }
}

function satHere(code) {
  try { return window.sessionStorage.getItem(HERE_PREFIX + code) === "1"; } catch (error) { return false; }
}

// Every seat this browser keeps, newest first: [{code, token, at}].
function keptSeats() {
  const found = new Map(inMemory);
  const store = storage();
  for (let i = 0; store && i < store.length; i += 1) {
    const key = store.key(i);
    if (key.startsWith(SEAT_PREFIX) && key !== `${SEAT_PREFIX}probe`) found.set(key.slice(SEAT_PREFIX.length), store.getItem(key));
  }
  const seats = [];
  for (const [code, text] of found) {
    try {
      const {token, at} = JSON.parse(text);
      if (typeof token === "string") seats.push({code, token, at: Number(at) || 0});
    } catch (error) {
      forgetSeat(code);
    }
  }
  return seats.sort((a, b) => b.at - a.at);
}

// The short seat keys this page was given, by table code: in its memory only.
const shownKeys = new Map();

// Each lobby sends the kept seats once, when it is first drawn (a page showing it twice sends them once).
const seatsSentBack = new WeakSet();

function render({ model, el }) {
  const send = makeSender(model);
  const ui = {leaving: false, keyBoxOpen: false, switching: null};
  const {root, body, notice} = mountPage(el, model, "colorlab-lobby");

  const STAGES = {hello: signingIn, looking: lookingBack, name: nameForm, start: startForms, rules: gameChoice, seats: seatChoice, pick: seatPicker,
                  seated: seatedPanel, confirm: whoAreYou};

  // On a new step, a learner using the keyboard lands on its first field (never on the page's first drawing).
  function draw() {
    const v = model.get("view");
    if (ui.switching && (v.game === ui.switching.name || v.stage !== "rules")) {
      ui.switching = null;
      document.body.classList.remove("colorlab-switching-game");
    }
    const newStep = ui.stage !== undefined && ui.stage !== v.stage;
    ui.stage = v.stage;
    if (v.stage !== "seated") ui.leaving = false;
    redraw(body, () => [h("h2", {class: "lobby-title"}, "The classroom lobby"), STAGES[v.stage](v)]);
    if (newStep && root.contains(document.activeElement)) body.querySelector("[data-first]")?.focus();
  }

  // A form whose button (or the Enter key in any of its fields) sends what the fields hold.
  function form(key, onsubmit, ...children) {
    return h("form", {class: "lobby-form", "data-testid": key,
                      onsubmit: (event) => { event.preventDefault(); onsubmit(new FormData(event.target)); }},
      ...children);
  }

  function field(key, label, attrs = {}) {
    return h("label", {class: "lobby-field"}, h("span", {}, label),
      h("input", {name: key, "data-key": key, autocomplete: "off", ...attrs}));
  }

  function button(key, label, onclick, attrs = {}) {
    return h("button", {type: "button", "data-key": key, "data-action": key, onclick, ...attrs}, label);
  }

  function submit(key, label) {
    return h("button", {type: "submit", class: "lobby-main", "data-key": key, "data-action": key}, label);
  }

  // --- the stages -----------------------------------------------------------------------------

  function nameForm(v) {
    return h("div", {},
      form("name-form", (data) => send({type: "name", name: data.get("name")}),
        field("name", "Your name", {value: v.name, maxlength: 30, required: true, "data-first": true}),
        submit("continue", "Continue")),
      comeBack());
  }

  // On a school's hub the learner is known from their account: no name to type.
  function signingIn() {
    return h("p", {class: "lobby-hello", role: "status"}, "Signing you in…");
  }

  function yourGames(v) {
    if (!v.signed_in || !v.mine.length) return null;
    return h("section", {class: "lobby-choice lobby-mine", "aria-label": "Your games"},
      h("h3", {}, "Your games"),
      h("ul", {class: "lobby-mine-list"}, ...v.mine.map((game) =>
        h("li", {"data-testid": `my-game-${game.code}`},
          h("strong", {}, `${game.title} at ${game.code}`), ` (${game.state}): ${game.players} `,
          game.state === "going on"
            ? button(`my-seat-${game.code}`, "Back to my seat", () => send({type: "my_seat", code: game.code}),
                     {class: "lobby-link"})
            : button(`look-back-${game.code}`, "Look back", () => send({type: "look_back", code: game.code}),
                     {class: "lobby-link"})))));
  }

  function lookingBack(v) {
    const w = v.looked;
    const picture = h("div", {class: "lobby-picture"});
    picture.innerHTML = w.picture;  // drawn by Python from the room's view, every name escaped there
    return h("section", {class: "lobby-looking", "data-testid": "looked", "aria-label": `Table ${w.code}`},
      h("p", {class: "lobby-hello"}, h("strong", {}, `${w.title} at table ${w.code}`), `: ${w.state}, ${w.step} moves`),
      h("p", {}, w.names.map((name, seat) => `${name}: ${w.scores[seat] ?? 0}`).join(" · ")),
      h("ul", {class: "lobby-events"}, w.events.map((text) => h("li", {}, text))),
      w.picture ? picture : null,
      h("div", {class: "lobby-buttons"},
        button("back", "Back to the lobby", () => send({type: "back"}), {"data-first": true})));
  }

  function startForms(v) {
    const hello = v.signed_in
      ? h("p", {class: "lobby-hello"}, `Hello, ${v.name}!`)
      : h("p", {class: "lobby-hello"}, `Hello, ${v.name}! `,
          button("change-name", "Not you? Change the name", () => send({type: "change_name"}), {class: "lobby-link"}));
    return h("div", {},
      hello,
      h("section", {class: "lobby-choice", "aria-label": "Join a table"},
        h("h3", {}, "Join a table"),
        form("join-form", (data) => send({type: "look", code: data.get("code")}),
          field("code", "Table code", {maxlength: 12, required: true, class: "lobby-code-input", "data-first": true,
                                       placeholder: "K7MXA", autocapitalize: "characters"}),
          submit("join", "Join"))),
      h("section", {class: "lobby-choice", "aria-label": "Open a new table"},
        h("h3", {}, "Or open a new table"),
        h("p", {}, "Choose a game and its rules, and who sits where; you get a code for the others."),
        button("new-table", "Open a new table", () => send({type: "new_table"}), {class: "lobby-main"})),
      yourGames(v),
      v.signed_in ? null : comeBack());  // on a hub, the account brings a learner back to their seat
  }

  function comeBack() {
    return h("details", {class: "lobby-back-box"},
      h("summary", {}, "Come back to your seat from another device"),
      form("rejoin-form", (data) => send({type: "rejoin", code: data.get("rejoin-code"), key: data.get("key")}),
        field("rejoin-code", "Table code", {maxlength: 12, required: true, class: "lobby-code-input"}),
        field("key", "Your seat key", {required: true, class: "lobby-key-input"}),
        submit("rejoin", "Sit down again")));
  }

  // Choosing another game takes the kernel a moment (it makes that game's rule editor): until the new rules are
  // shown, the page says so and the rules below are dimmed, so that nothing is typed into the old game's rules.
  function chooseGame(game) {
    ui.switching = game;
    document.body.classList.add("colorlab-switching-game");
    draw();
    send({type: "game", game: game.name});
  }

  function gameChoice(v) {
    const chosen = ui.switching?.name ?? v.game;
    return h("div", {},
      h("h3", {}, "Open a new table: which game?"),
      h("div", {class: "lobby-games", role: "radiogroup", "aria-label": "Game", "aria-busy": String(!!ui.switching)},
        v.games.map((game) => h("label", {class: `lobby-game ${game.name === chosen ? "is-chosen" : ""}`},
          h("input", {type: "radio", name: "game", value: game.name, checked: game.name === chosen,
                      "data-first": game.name === chosen,
                      "data-key": `game-${game.name}`, onchange: () => chooseGame(game)}),
          h("strong", {}, game.title), h("span", {}, game.about)))),
      ui.switching ? h("p", {class: "lobby-busy", role: "status", "data-testid": "switching"},
                       `Getting the ${ui.switching.title} rules ready…`) : null,
      h("p", {class: "lobby-tip"}, "Change any rule below if you like, then press ",
        h("strong", {}, "Next: who sits where"), " under the rules."),
      h("div", {class: "lobby-buttons"}, button("back", "Back", () => send({type: "back"}))));
  }

  function seatChoice(v) {
    const kinds = [["you", "you"], ["learner", "another learner"], ...v.bots.map((bot) => [bot, `${bot} (a bot)`])];
    return h("div", {},
      h("h3", {}, `Open a new ${v.title} table: who sits where?`),
      h("p", {"data-testid": "rules"}, v.rules),
      h("ol", {class: "lobby-seats"}, v.kinds.map((kind, seat) => h("li", {},
        h("label", {}, `Seat ${seat + 1} `,
          h("select", {"data-key": `kind-${seat}`, "data-first": seat === 0,
                       onchange: (event) => send({type: "seat_kind", seat, kind: event.target.value})},
            kinds.map(([value, label]) => h("option", {value, selected: value === kind}, label))))))),
      h("div", {class: "lobby-buttons"},
        button("back", "Back to the rules", () => send({type: "back"})),
        button("open", "Open the table", () => send({type: "open"}), {class: "lobby-main"})));
  }

  function seatPicker(v) {
    return h("div", {},
      h("h3", {}, `Table ${v.code}: ${v.title}. Pick a free seat.`),
      h("ol", {class: "lobby-seats", "data-testid": "seats"}, v.seats.map((seat) => h("li", {"data-seat": seat.seat},
        h("span", {class: "lobby-seat-name"}, `Seat ${seat.seat + 1}: `,
          seat.kind === "free" ? h("em", {}, "free") : seat.kind === "bot" ? `${seat.name} (a bot)` : seat.name),
        seat.kind === "free" ? button(`sit-${seat.seat}`, "Sit here", () => send({type: "sit", seat: seat.seat}),
                                      {class: "lobby-main", "aria-label": `Sit at seat ${seat.seat + 1}`,
                                       "data-first": seat.seat === v.seats.find((free) => free.kind === "free")?.seat})
          : null))),
      h("div", {class: "lobby-buttons"},
        button("back", "Back", () => send({type: "back"}))));
  }

  function whoAreYou(v) {
    const r = v.returning;
    return h("div", {class: "lobby-confirm"},
      h("h3", {}, `Welcome back! Are you ${r.name}?`),
      h("p", {}, `This device last sat at table ${r.code} (${r.title}) as ${r.name}.`),
      h("div", {class: "lobby-buttons"},
        button("its-me", `Yes, I am ${r.name}`, () => send({type: "its_me"}), {class: "lobby-main", "data-first": true}),
        button("someone-else", "No, I am someone else", () => send({type: "someone_else"}))));
  }

  function seatedPanel(v) {
    const key = shownKeys.get(v.code) ?? "";
    return h("div", {class: "lobby-seated"},
      h("div", {class: "lobby-code-box"},
        h("span", {}, "Table code"),
        h("strong", {class: "lobby-code", "data-testid": "code"}, v.code),
        h("span", {}, "The others join with this code.")),
      h("div", {class: "lobby-seated-about"},
        h("p", {"data-testid": "you"}, `You are ${v.you.name}, at seat ${v.you.seat + 1} of this ${v.title} table. `,
          "Your game is below."),
        h("details", {class: "lobby-back-box", open: ui.keyBoxOpen,  // kept open when the panel is drawn again
                      ontoggle: (event) => { ui.keyBoxOpen = event.target.open; }},
          h("summary", {}, "Playing on another device?"),
          h("p", {}, "Open the lobby there, choose 'Come back to your seat' and type the table code and this seat key. ",
            "Keep the key to yourself: whoever has it plays for you."),
          key ? h("code", {class: "lobby-key", "data-testid": "seat-key"}, key) : null,
          button("new-key", key ? "Make a new seat key" : "Show a seat key for another device",
                 () => send({type: "new_key"}), {class: "lobby-link"})),
        h("div", {class: "lobby-buttons"},
          ui.leaving
            ? [h("span", {}, "Leave this seat on this device? It stays yours: your seat key brings you back. "),
               button("leave-yes", "Yes, leave", () => send({type: "leave"})),
               button("leave-no", "No, stay", () => { ui.leaving = false; draw(); })]
            : button("leave", "Leave this seat on this device", () => { ui.leaving = true; draw(); }))));
  }

  // --- messages from Python: the seat's token, to keep or to forget; a seat key, to show -------------

  function onMessage(message) {
    if (message?.type === "remember" && typeof message.code === "string" && typeof message.token === "string") {
      keepSeat(message.code, message.token);
    } else if (message?.type === "seat_key" && typeof message.code === "string" && typeof message.key === "string") {
      shownKeys.set(message.code, message.key);
      draw();
    } else if (message?.type === "forget" && typeof message.code === "string") {
      forgetSeat(message.code);
    }
  }

  const showNotice = () => {
    drawNotice(notice, model.get("notice"));
    if (ui.switching && model.get("notice")?.kind === "error") {  // the game was refused: the old rules stay
      ui.switching = null;
      document.body.classList.remove("colorlab-switching-game");
      draw();
    }
  };
  model.on("change:view", draw);
  model.on("change:notice", showNotice);
  model.on("msg:custom", onMessage);
  draw();
  showNotice();
  if (!seatsSentBack.has(model) && model.get("view").stage !== "seated") {
    seatsSentBack.add(model);
    if (model.get("view").signed_in) send({type: "hello"});
    const seats = keptSeats().slice(0, MOST_SEATS_SENT).map(({code, token}) => ({code, token, here: satHere(code)}));
    if (seats.length) send({type: "return", seats});
  }
  return () => {
    model.off("change:view", draw);
    model.off("change:notice", showNotice);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
