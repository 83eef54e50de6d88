// The Col-Or-Form table. It draws the view Python sends and reports what the learner does.
// The kernel keeps the clock: the page asks it to start a round ("start"), pokes it ("tick") while
// the bots' clock runs, says when you call STOP and sends your solution. The seconds shown here are
// for the eye only. At a shared table the table's clock decides: STOP! sends the solution at once, as a call,
// and the page shows who has called while the table settles the calls; there is no Start and no Skip.

const TICK_MS = 250;
// "Show solution" sits beside STOP!, never under the pointer; for the s key, which does both, a
// second press this soon after STOP! is taken for a double press and ignored.
const SHOW_GUARD_MS = 600;

function render({ model, el }) {
  const send = makeSender(model);
  const ui = {task: null, rotation: 0, mirrored: false, placements: {}, card: null, layout: null, note: "",
              phase: -1, phaseStart: performance.now(), stopSeen: null, stopAsked: 0, claimSent: false, lastTick: 0};
  const {root, body, notice} = mountTable(el, model, "colorform");
  const clock = h("span", {class: "colorform-clock", "aria-hidden": "true"});

  const view = () => model.get("view");
  const assets = () => model.get("assets");
  const elapsed = () => (performance.now() - ui.phaseStart) / 1000;
  const rules = () => view().rules;
  const showing = () => Boolean(view().stopped);
  const atTable = () => Boolean(view().seating);
  const iCalled = () => atTable() && view().seating.called.includes(view().you);

  // The cards a learner has laid lie on the layout as it was: when it changes under them (a STOP elsewhere took
  // a task and turned the layout), they go back to the hand, and the page says why.
  function layoutChanged() {
    const layout = JSON.stringify(view().layout.map((spot) => spot.top));
    if (ui.layout !== null && layout !== ui.layout && Object.keys(ui.placements).length) {
      ui.placements = {};
      ui.note = "The layout changed, so your laid cards went back to your hand: lay them again on the new layout.";
    }
    ui.layout = layout;
  }

  function onView() {
    layoutChanged();
    if (view().phase !== ui.phase) newPhase();
    if (!showing()) Object.assign(ui, {stopSeen: null, claimSent: false});
    else if (ui.stopSeen === null) ui.stopSeen = performance.now();
    draw();
  }

  function newPhase() {
    const v = view();
    ui.phase = v.phase;
    ui.phaseStart = performance.now();
    if (!v.tasks.some((t) => t.number === ui.task)) {
      // A STOP took the task card this learner had chosen: say so, or STOP! would just stay grey without a word.
      if (ui.task !== null) ui.note = "The task card you chose was taken by the STOP just settled: choose another one.";
      Object.assign(ui, {task: null, rotation: 0, mirrored: false});
    }
    const hand = v.hands[v.you];
    for (const [cell, name] of Object.entries(ui.placements)) if (!hand.includes(name)) delete ui.placements[cell];
    ui.card = null;
  }

  // --- drawing ----------------------------------------------------------------------------

  function draw() {
    root.dataset.palette = model.get("palette");
    redraw(body, () => {
      const v = view();
      // The hand and STOP! sit right under the layout, so a narrow page that stacks the table up
      // still shows STOP! with the layout.
      return [header(v),
              h("div", {class: "colorform-table"},
                h("div", {class: "colorform-play"}, layoutGrid(v), handRow(v), controls(v), callsLine(v)), taskPanel(v)),
              hintBox(v), v.over ? finalRanking(v) : null, scoreboard(v), eventList(v), historyBar(v, send)];
    });
  }

  function header(v) {
    const junior = v.variant === "junior";
    return h("div", {class: "colorform-header"},
      h("strong", {}, junior ? "Col-Or-Form · FIKOLO JUNIOR" : "Col-Or-Form"),
      h("span", {}, `Round ${v.round}`),
      h("span", {}, `Figure pile ${v.figure_pile}`),
      junior ? null : h("span", {}, `Task pile ${v.task_pile}${v.last_round ? " (last round)" : ""}`),
      v.waiting_for_start ? startButton(v) : clock,
      paletteSwitch(model, assets()));
  }

  function startButton(v) {
    return h("span", {class: "colorform-start"},
      h("button", {class: "colorform-startbutton", "data-key": "start", "data-action": "start",
                   onclick: () => send({type: "start"})}, "Start"),
      h("span", {"data-testid": "start-note"}, `Round ${v.round} waits for you.`));
  }

  function turnedTask(v) {
    const task = v.tasks.find((t) => t.number === ui.task);
    if (!task) return null;
    const destination = assets().destinations[`${ui.rotation},${ui.mirrored ? 1 : 0}`];
    const cells = Array(9).fill(null);
    task.cells.forEach((name, cell) => { if (name) cells[destination[cell]] = name; });
    return cells;
  }

  function layoutGrid(v) {
    const ghost = turnedTask(v);
    const cells = v.layout.map((spot, cell) => {
      const placed = ui.placements[cell];
      const label = `Layout cell ${cell}: ${placed ? `your ${placed} on ` : ""}${spot.top}` +
        (spot.under ? `, ${spot.under} card(s) under it` : "") + (ghost && ghost[cell] ? `; the task wants ${ghost[cell]}` : "");
      return h("button", {class: `colorform-cell${placed ? " is-placed" : ""}${ghost && ghost[cell] ? " is-wanted" : ""}`,
                          "data-key": `cell-${cell}`, "data-cell": cell, "aria-label": label,
                          onclick: () => placeOn(cell)},
        figureIcon(placed || spot.top, model, 64),
        spot.under ? h("span", {class: "colorform-under", "aria-hidden": "true"}, `+${spot.under}`) : null,
        ghost && ghost[cell] ? h("span", {class: "colorform-ghost", "aria-hidden": "true"}, figureIcon(ghost[cell], model, 30)) : null);
    });
    return h("div", {class: "colorform-layout", role: "group", "aria-label": "The 3 by 3 layout"}, cells);
  }

  function taskPanel(v) {
    const names = v.names;
    const cards = v.tasks.map((t) => h("button", {
        class: `colorform-task${t.number === ui.task ? " is-selected" : ""}`, "data-key": `task-${t.number}`,
        "data-task": t.number, "aria-pressed": t.number === ui.task ? "true" : "false",
        "aria-label": `Task ${t.number}, ${t.size} figures, in front of ${names[t.owner]}`,
        onclick: () => selectTask(t.number)},
      miniGrid(t.cells, 28), h("span", {}, `#${t.number} · ${t.size} pts · ${names[t.owner]}`)));
    return h("div", {class: "colorform-tasks"},
      h("div", {class: "colorform-tasklist", role: "group", "aria-label": "Revealed task cards"},
        cards.length ? cards : h("em", {}, "No task card is revealed.")),
      preview(v));
  }

  function miniGrid(cells, size) {
    return h("span", {class: "colorform-mini", "aria-hidden": "true"},
      cells.map((name) => h("span", {class: "colorform-minicell"}, name ? figureIcon(name, model, size) : "")));
  }

  function preview(v) {
    const cells = turnedTask(v);
    if (!cells) return h("p", {class: "colorform-preview"}, "Choose a task card to turn it in your mind.");
    const allowTurn = rules().rotations, allowMirror = rules().mirror_images;
    const turned = assets().turns[`${ui.rotation},${ui.mirrored ? 1 : 0}`];
    return h("div", {class: "colorform-preview"},
      miniGrid(cells, 40),
      h("div", {class: "colorform-turns", role: "group", "aria-label": "Turn the task card"},
        h("button", {"data-key": "rotate-left", "data-action": "rotate-left", disabled: !allowTurn,
                     "aria-label": "Turn a quarter to the left", onclick: () => turn(3)}, symbol("⟲")),
        h("button", {"data-key": "rotate-right", "data-action": "rotate-right", disabled: !allowTurn,
                     "aria-label": "Turn a quarter to the right", onclick: () => turn(1)}, symbol("⟳")),
        allowMirror ? h("button", {"data-key": "mirror", "data-action": "mirror", "aria-pressed": String(ui.mirrored),
                                   "aria-label": "Mirror the task card", onclick: () => { ui.mirrored = !ui.mirrored; draw(); }}, symbol("⇋")) : null),
      h("p", {class: "colorform-turned", "data-testid": "group-element"}, turned));
  }

  function handRow(v) {
    const hand = v.hands[v.you];
    return h("div", {class: "colorform-hand", role: "group", "aria-label": "Your hand"},
      h("span", {class: "colorform-label"}, "Your hand:"),
      hand.map((name, index) => {
        const used = Object.values(ui.placements).includes(name);
        return h("button", {class: `colorform-card${ui.card === name ? " is-selected" : ""}${used ? " is-used" : ""}`,
                            "data-key": `hand-${index}`, "data-hand": index, "aria-pressed": String(ui.card === name),
                            "aria-label": `Hand card ${name}${used ? " (placed)" : ""}`,
                            onclick: () => { ui.card = ui.card === name ? null : name; draw(); }},
          figureIcon(name, model, 48));
      }),
      hand.length ? null : h("em", {}, "empty"));
  }

  // STOP! stays where it is (greyed out once called) and "Show solution" appears beside it, so a
  // double click on STOP! lands on a disabled button, never on "Show solution".
  function controls(v) {
    const junior = v.variant === "junior";
    const live = v.history.live && !v.over;
    const myTurn = !junior || v.active === v.you;
    const waiting = Boolean(v.waiting_for_start);
    return h("div", {class: "colorform-controls", role: "group", "aria-label": "Actions"},
      junior
        ? h("button", {class: "colorform-stop", "data-key": "solve", "data-action": "solve",
                       disabled: !live || !myTurn || ui.task === null, onclick: claim}, "Solve")
        : atTable()
          ? h("button", {class: "colorform-stop", "data-key": "stop", "data-action": "stop",
                         disabled: !live || iCalled() || ui.task === null, onclick: claim,
                         "aria-label": iCalled() ? "STOP called" : "Call STOP and show my solution"},
              iCalled() ? "STOP called" : "STOP!")
          : h("button", {class: "colorform-stop", "data-key": "stop", "data-action": "stop",
                         disabled: !live || waiting || showing() || ui.task === null, onclick: callStop,
                         "aria-label": showing() ? "STOP called" : "Call STOP"}, showing() ? "STOP called" : "STOP!"),
      showing()
        ? h("button", {class: "colorform-show", "data-key": "show", "data-action": "show", disabled: !live, onclick: show},
            "Show solution", h("span", {class: "colorform-countdown", "data-testid": "countdown"}, ""))
        : null,
      h("button", {"data-key": "clear", "data-action": "clear", disabled: !Object.keys(ui.placements).length,
                   onclick: () => { ui.placements = {}; draw(); }}, "Clear cards"),
      h("button", {"data-key": "hint", "data-action": "hint", disabled: !live, onclick: () => send({type: "hint"})}, "Hint"),
      junior
        ? h("button", {"data-key": "pass", "data-action": "pass", disabled: !live || !myTurn, onclick: () => send({type: "pass"})}, "Pass")
        : atTable() ? null : h("button", {"data-key": "skip", "data-action": "skip", disabled: !live || waiting || showing() || v.only_you_can_solve,
                       title: "Let the bots make their next move",
                       onclick: () => send({type: "skip"})}, "Skip ahead"),
      ui.note ? h("p", {class: "colorform-note", role: "status", "data-testid": "layout-note"}, ui.note) : null,
      // Why STOP! is grey: it needs a task card chosen first.
      !junior && live && !waiting && ui.task === null && !showing() && !iCalled()
        ? h("span", {class: "colorform-why", "data-testid": "stop-why"}, "Choose a task card to call STOP.") : null,
      !junior && live && v.only_you_can_solve
        ? h("span", {class: "colorform-only-you", "data-testid": "only-you"},
            "The bots cannot solve any task, but your cards can: the round waits for you. Look again, or press Hint.")
        : null);
  }

  // At a shared table: who has called STOP (never what), while the table settles the calls of the same moment.
  function callsLine(v) {
    const called = atTable() ? v.seating.called : [];
    if (!called.length) return null;
    return h("p", {class: "colorform-calls", "data-testid": "calls"},
      h("strong", {}, `STOP called by ${called.map((seat) => seat === v.you ? "you" : v.names[seat]).join(", ")}.`),
      " The table is settling the calls of the same moment…");
  }

  function hintBox(v) {
    if (!v.hint) return null;
    return h("div", {class: "colorform-hint", "data-testid": "hint"},
      h("strong", {}, `Hint: task ${v.hint.task}, ${v.hint.turn.toLowerCase()}`),
      h("ul", {}, v.hint.reasons.map((r) => h("li", {}, r))));
  }

  function scoreboard(v) {
    const rows = v.names.map((name, seat) => {
      const pile = v.piles[seat];
      return h("tr", {class: seat === v.active && v.variant === "junior" ? "is-active" : ""},
        h("th", {scope: "row"}, name),
        h("td", {"data-score": seat}, String(v.scores[seat])),
        h("td", {}, v.variant === "junior" ? `${pile.tasks_left} left` : `${pile.face_down} won`),
        h("td", {}, pile.face_up.length ? pile.face_up.map((t) => `#${t.number} (−${t.size})`).join(" ") : "–"),
        h("td", {class: "colorform-smallhand"}, v.hands[seat].map((name) => figureIcon(name, model, 28))));
    });
    return h("table", {class: "colorform-scores"},
      h("caption", {}, "Players"),
      h("thead", {}, h("tr", {}, ["Player", "Points", v.variant === "junior" ? "Tasks" : "Face down", "Face up", "Hand"].map((t) => h("th", {scope: "col"}, t)))),
      h("tbody", {}, rows));
  }

  function finalRanking(v) {
    const names = v.names;
    return h("div", {class: "colorform-final", "data-testid": "final"},
      h("strong", {}, `Game over (${v.end_reason}). Winner${v.winners.length > 1 ? "s" : ""}: ${v.winners.map((s) => names[s]).join(", ")}`),
      v.final_ranking.length ? h("ul", {class: "colorform-ranking"}, v.final_ranking.map((line) => h("li", {}, line))) : null);
  }

  function eventList(v) {
    return h("ul", {class: "colorform-events", "aria-label": "What just happened"}, v.events.map((text) => h("li", {}, text)));
  }

  // --- what the learner does ---------------------------------------------------------------

  function selectTask(number) {
    if (ui.task !== number) Object.assign(ui, {task: number, rotation: 0, mirrored: false});
    if (ui.note.startsWith("The task card")) ui.note = "";
    draw();
  }

  function turn(quarters) {
    ui.rotation = (ui.rotation + quarters) % 4;
    draw();
  }

  function placeOn(cell) {
    ui.note = "";
    if (ui.placements[cell] !== undefined) delete ui.placements[cell];
    else if (ui.card) {
      for (const [other, name] of Object.entries(ui.placements)) if (name === ui.card) delete ui.placements[other];
      ui.placements[cell] = ui.card;
      ui.card = null;
    }
    draw();
  }

  function claim() {
    const placements = Object.entries(ui.placements).map(([cell, name]) => [Number(cell), name]);
    send({type: "claim", task: ui.task, rotation: ui.rotation, mirrored: ui.mirrored, placements});
    ui.claimSent = true;
    ui.placements = {};
  }

  function callStop() {
    if (ui.task === null || showing()) return;
    ui.stopAsked = performance.now();
    send({type: "stop"});
  }

  function show() {
    if (ui.task !== null) claim();
  }

  // The s key both calls STOP and shows the solution: a quick second press is taken for a double press.
  function stopOrShowByKey() {
    if (view().variant === "junior") show();
    else if (atTable()) { if (!iCalled() && ui.task !== null) claim(); }
    else if (!showing()) callStop();
    else if (performance.now() - ui.stopAsked >= SHOW_GUARD_MS) show();
  }

  function onKey(event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT" || event.ctrlKey || event.metaKey) return;
    const actions = {r: () => rules().rotations && turn(1), l: () => rules().rotations && turn(3),
                     m: () => { if (rules().mirror_images) { ui.mirrored = !ui.mirrored; draw(); } },
                     s: stopOrShowByKey, h: () => send({type: "hint"})};
    const action = actions[event.key.toLowerCase()];
    if (action) { event.preventDefault(); action(); }
  }

  // --- the clock -----------------------------------------------------------------------------

  function onTick() {
    const v = view();
    if (!v || !v.history) return;
    if (v.clock_running && performance.now() - ui.lastTick >= TICK_MS) {
      ui.lastTick = performance.now();
      send({type: "tick"});
    }
    if (showing()) {
      const left = rules().seconds_to_show - (performance.now() - ui.stopSeen) / 1000;
      const countdown = root.querySelector(".colorform-countdown");
      if (countdown) countdown.textContent = ` ${Math.max(0, left).toFixed(1)} s`;
      if (left <= 0 && !ui.claimSent && ui.task !== null) claim();
      return;
    }
    clock.textContent = !v.clock_running ? "" : v.only_you_can_solve ? "Waiting for you" : `Time ${elapsed().toFixed(1)} s`;
  }

  root.addEventListener("keydown", onKey);
  const timer = setInterval(onTick, 100);
  const stop = listen(model, onView, notice);
  return () => {
    clearInterval(timer);
    stop();
  };
}

export default { render };
