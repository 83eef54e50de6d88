// The teacher's page: the key first, then every table of the class, the watched table and the buttons.
// It draws what Python sends and reports the teacher's clicks; Python checks the key and does everything.

function render({ model, el }) {
  const send = makeSender(model);
  const {body, notice} = mountPage(el, model, "teacher");

  function draw() {
    redraw(body, () => model.get("gate") === "open" ? [toolbar(), tablesList(), watchedTable()]
                                                    : [keyGate(model, send, "The teacher's page")]);
  }

  function toolbar() {
    const count = model.get("tables").length;
    return h("div", {class: "teacher-toolbar"},
      h("strong", {}, "Tables of the class"),
      h("span", {"data-testid": "count"}, `${count} table${count === 1 ? "" : "s"}`),
      model.get("projector") ? h("a", {href: model.get("projector"), target: "_blank", rel: "noopener",
        "data-key": "projector-page"}, "Projector page (for the big screen)") : null,
      quizForm(),
      h("button", {"data-action": "download", "data-key": "download", onclick: () => send({type: "download"})},
        "Download all records (.zip)"));
  }

  // The teacher opens a Colourbrain quiz without sitting at it: the quiz master, who moves it on from the projector.
  function quizForm() {
    const teams = h("select", {"data-key": "quiz-teams", id: "quiz-teams"},
      [2, 3, 4].map((count) => h("option", {value: String(count), selected: count === 3}, String(count))));
    const submit = (event) => {
      event.preventDefault();
      send({type: "open_quiz", teams: Number(teams.value)});
    };
    return h("form", {class: "teacher-quiz", "data-testid": "quiz-form", onsubmit: submit},
      h("label", {for: "quiz-teams"}, "A Colourbrain quiz for "), teams, " teams ",
      h("button", {type: "submit", "data-action": "open-quiz"}, "Open the quiz"));
  }

  // Each seat: who sits there, a learner's page connected (●) or away (○), and, at a table in play, the buttons
  // that hand the seat on (to a bot, or free for another learner) or make it a new seat key; handing on asks first.
  function seats(line) {
    const handing = model.get("handing");
    return h("ul", {class: "teacher-seats"}, line.seats.map((seat, number) => {
      const id = `${line.code}-${number}`;
      const asked = handing.code === line.code && handing.seat === number;
      const hand = (to, label, what) => h("button", {"data-action": `hand-${to}`, "data-key": `${to}-${id}`,
        "aria-label": `${what} (seat ${number + 1} of table ${line.code})`,
        onclick: () => send({type: "hand_seat", code: line.code, seat: number, to})}, label);
      const buttons = !line.open ? [] : seat.kind === "learner"
        ? [hand("bot", "To a bot", `Give ${seat.name}'s seat to a bot`), hand("free", "Free", `Free ${seat.name}'s seat`),
           h("button", {"data-action": "seat-key", "data-key": `key-${id}`,
                        "aria-label": `A new seat key for ${seat.name} (table ${line.code})`,
                        onclick: () => send({type: "seat_key", code: line.code, seat: number})}, "New key")]
        : seat.kind === "bot" ? [hand("free", "Free", `Free ${seat.name}'s seat`)]
        : [hand("bot", "To a bot", "Give this free seat to a bot")];
      const confirm = asked ? h("span", {class: "teacher-confirm", role: "group", "data-testid": "hand-confirm"},
        handing.to === "bot" ? `Give ${handing.name === "free seat" ? "this seat" : handing.name + "'s seat"} to ${handing.bot}? `
                             : `Free ${handing.name}'s seat for another learner? `,
        h("button", {"data-action": "confirm-hand", "data-key": `confirm-hand-${id}`, class: "is-danger",
                     onclick: () => send({type: "confirm_hand"})}, "Yes"),
        h("button", {"data-action": "keep-seat", "data-key": `keep-seat-${id}`,
                     onclick: () => send({type: "keep_seat"})}, "No")) : null;
      return h("li", {class: `is-${seat.kind}`, "data-seat": number},
        seat.kind === "learner"
          ? h("span", {class: `teacher-presence ${seat.connected ? "is-connected" : "is-away"}`, "data-testid": "presence"},
              seat.connected ? "● " : "○ ")
          : null,
        seat.name,
        seat.kind === "free" ? null : h("span", {class: "teacher-kind"},
          ` ${seat.kind}${seat.kind === "learner" ? (seat.connected ? ", connected" : ", away") : ""}`),
        buttons.length ? h("span", {class: "teacher-seat-buttons"}, ...buttons) : null,
        confirm);
    }));
  }

  function row(line) {
    const confirming = model.get("confirming") === line.code;
    const watched = model.get("watched").code === line.code;
    return h("tr", {"data-table": line.code, class: `is-${line.state.split(" ")[0]}${watched ? " is-watched" : ""}`},
      h("td", {class: "teacher-code"}, line.code),
      h("td", {}, line.title),
      h("td", {}, seats(line)),
      h("td", {"data-testid": "turn"}, line.turn.join(", ") || "–"),
      h("td", {"data-testid": "scores"}, line.scores.join(" : ")),
      h("td", {"data-testid": "moves"}, String(line.moves)),
      h("td", {"data-testid": "state"}, line.state),
      h("td", {class: "teacher-buttons"},
        h("button", {"data-action": "watch", "data-key": `watch-${line.code}`, "aria-label": `Watch table ${line.code}`,
                     onclick: () => send({type: "watch", code: line.code})}, "Watch"),
        line.closed ? null : confirming
          ? h("span", {class: "teacher-confirm", role: "group", "aria-label": `Close table ${line.code}?`},
              `Close ${line.code}? Nobody can play at it after that. `,
              h("button", {"data-action": "confirm-close", "data-key": `confirm-${line.code}`, class: "is-danger",
                           onclick: () => send({type: "confirm_close", code: line.code})}, "Close it"),
              h("button", {"data-action": "keep-open", "data-key": `keep-${line.code}`,
                           onclick: () => send({type: "keep_open"})}, "Keep it open"))
          : h("button", {"data-action": "close", "data-key": `close-${line.code}`,
                         "aria-label": `Close table ${line.code}`,
                         onclick: () => send({type: "close", code: line.code})}, "Close")));
  }

  function tablesList() {
    const lines = model.get("tables");
    if (!lines.length) return h("p", {class: "teacher-empty"}, "No tables yet: learners open tables in the lobby.");
    const columns = ["Code", "Game", "Seats", "Whose turn", "Scores", "Moves", "State", "Actions"];
    return h("table", {class: "teacher-tables", "data-testid": "tables"},
      h("thead", {}, h("tr", {}, columns.map((title) => h("th", {scope: "col"}, title)))),
      h("tbody", {}, lines.map(row)));
  }

  function watchedTable() {
    const w = model.get("watched");
    if (!w.code) return null;
    const picture = h("div", {class: "teacher-picture"});
    picture.innerHTML = w.picture;  // drawn by Python from the room's view, every name escaped there
    return h("section", {class: "teacher-watched", "data-testid": "watched", "aria-label": `Table ${w.code}`},
      h("div", {class: "teacher-toolbar"},
        h("strong", {}, `Watching table ${w.code}: ${w.title}`), h("span", {}, `${w.state}, move ${w.step}`),
        h("button", {"data-action": "stop-watching", onclick: () => send({type: "stop_watching"})}, "Stop watching")),
      h("p", {}, w.names.map((name, seat) => `${name}: ${w.scores[seat] ?? 0}`).join(" · ")),
      w.turn.length ? h("p", {}, `Waiting for: ${w.turn.join(", ")}`) : null,
      h("ul", {class: "teacher-events"}, w.events.map((text) => h("li", {}, text))),
      w.picture ? picture : null);
  }

  // The records arrive once, as the zip's bytes in parts beside the messages (numbered, the last one marked); once
  // every part is in, hand them to the browser as one download.
  const taken = new Set();
  const arriving = new Map();
  function downloadRecords(message, buffers) {
    const id = `${message?.name}#${message?.number}`;
    if (message?.type !== "records" || taken.has(id) || !buffers?.length) return;
    const parts = arriving.get(id) ?? [];
    if (message.part !== parts.length) return;  // a part seen twice (a page showing the board twice)
    parts.push(buffers[0]);
    arriving.set(id, parts);
    if (!message.last) return;
    arriving.delete(id);
    taken.add(id);
    const url = URL.createObjectURL(new Blob(parts, {type: "application/zip"}));
    const link = h("a", {href: url, download: message.name, hidden: true});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const showNotice = () => drawNotice(notice, model.get("notice"));
  const events = ["change:gate", "change:tables", "change:watched", "change:confirming", "change:handing"];
  events.forEach((name) => model.on(name, draw));
  model.on("change:notice", showNotice);
  model.on("msg:custom", downloadRecords);
  draw();
  showNotice();
  return () => {
    events.forEach((name) => model.off(name, draw));
    model.off("change:notice", showNotice);
    model.off("msg:custom", downloadRecords);
  };
}

export default { render };
