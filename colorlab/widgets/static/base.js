// Shared helpers for every colorlab widget. They draw and report; they hold no game rules.

const SVG_NS = "http://www.w3.org/2000/svg";

// Make an element: h("button", {class: "x", onclick: f}, "text", child, ...).
function h(tag, attrs = {}, ...children) {
  const svg = ["svg", "path", "g", "text", "title", "rect", "circle"].includes(tag);
  const node = svg ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Which ink, black or white, shows a glyph best on this colour in the widget's current palette?
function glyphInk(model, colour) {
  return model.get("assets").inks[model.get("palette")]?.[colour];
}

// Draw a figure such as "red star" as an SVG with its colour's glyph on a badge of that colour in the corner,
// so that the glyph always sits on its own colour, in the ink that stands out from it.
// A small figure gets a larger badge (a share of the figure), so that its glyph stays legible.
function figureIcon(name, model, size = 48) {
  const [colour, shape] = name.split(" ");
  const assets = model.get("assets");
  const badge = size < 40 ? {centre: 76, r: 23, font: 30} : {centre: 81, r: 17, font: 22};
  return h("svg", {viewBox: "0 0 100 100", width: size, height: size, class: "colorlab-figure",
                   role: "img", "aria-label": name},
    h("title", {}, name),
    h("path", {d: assets.shapes[shape], style: `fill: var(--colorlab-${colour})`, class: "colorlab-shape"}),
    h("g", {class: "colorlab-badge"},
      h("circle", {cx: badge.centre, cy: badge.centre, r: badge.r, style: `fill: var(--colorlab-${colour})`}),
      h("text", {x: badge.centre, y: badge.centre + badge.font * 0.36, "text-anchor": "middle",
                 style: `fill: ${glyphInk(model, colour)}; font-size: ${badge.font}px`, class: "colorlab-glyph"},
        assets.glyphs[colour])));
}

// A symbol standing for a word (such as ◀ on a button): axe-core leaves symbol-only text unmeasured,
// so the browser tests measure these as they measure the colour glyphs.
function symbol(text) {
  return h("span", {class: "colorlab-symbol"}, text);
}

// Send an intent to Python; a counter shared by every view on the page makes each intent a fresh
// value (Python clears the intent once handled, and a trait set to its current value would not sync).
// At a shared table every intent says which step of the table the page showed (seen), so that a move
// chosen before another seat's move arrived is refused as stale rather than played.
let intentsSent = 0;
function makeSender(model) {
  return (intent) => {
    intentsSent += 1;
    const seating = model.get("view")?.seating;
    model.set("intent", {...intent, seq: intentsSent, ...(seating ? {seen: seating.step} : {})});
    model.save_changes();
  };
}

// Show Python's latest notice (a refusal or a piece of news) in an aria-live region.
function drawNotice(node, notice) {
  node.className = `colorlab-notice ${notice && notice.kind === "error" ? "is-error" : "is-info"}`;
  node.textContent = notice && notice.text ? (notice.kind === "error" ? "⚠ " : "ℹ ") + notice.text : "";
}

// Redraw a widget's body. If the keyboard was inside the widget, it stays there: on the control with the same
// data-key when the redraw kept one that can take it, or else on the widget's root (never lost to the page).
function redraw(body, build) {
  const root = body.closest(".colorlab") || body;
  const focused = document.activeElement;
  const hadKeys = root.contains(focused);
  body.replaceChildren(...build().filter((part) => part !== null && part !== undefined));
  if (!hadKeys || root.contains(document.activeElement)) return;
  const key = focused.dataset?.key;
  const again = key ? body.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  if (again) again.focus({preventScroll: true});
  if (!root.contains(document.activeElement)) root.focus({preventScroll: true});
}

// The palette switch and the history bar every game shares.
function paletteSwitch(model, assets) {
  const select = h("select", {"data-key": "palette", "data-action": "palette", "aria-label": "Colour palette",
                              onchange: (event) => { model.set("palette", event.target.value); model.save_changes(); }},
    assets.palettes.map((name) => h("option", {value: name, selected: model.get("palette") === name}, name)));
  return h("label", {class: "colorlab-palette"}, "Palette ", select);
}

// At a shared table there is no Save (the table's record holds the seed), no loading and no new game.
function historyBar(view, send, extra = []) {
  const {step, length, live} = view.history;
  const {undo, loading, note} = view.practice;
  const solo = !view.seating;
  const go = (to) => send({type: "history", step: Math.max(0, Math.min(length, to))});
  const button = (key, label, title, onclick, disabled = false) =>
    h("button", {"data-key": key, "data-action": key, title, "aria-label": title, onclick, disabled}, label);
  const bar = h("div", {class: "colorlab-history", role: "group", "aria-label": "History"},
    button("first", "«", "First move", () => go(0), step === 0),
    button("back", symbol("◀"), "Step back", () => go(step - 1), step === 0),
    h("span", {class: "colorlab-step", "data-testid": "step"}, live ? `move ${step} (live)` : `move ${step} of ${length}`),
    button("forward", symbol("▶"), "Step forward", () => go(step + 1), live),
    button("latest", "»", "Back to the game", () => send({type: "live"}), live),
    undo ? button("undo", "↶ Undo", "Undo my last move", () => send({type: "undo"}), !live) : null,
    solo ? button("save", "Save", "Save the game to a file on this device", () => send({type: "save"})) : null,
    loading ? loadPicker(send) : null,
    solo ? button("new", "New game", "Start a new game with the same rules", () => send({type: "new_game"})) : null,
    ...extra);
  if (note) bar.append(h("p", {class: "colorlab-practice", "data-testid": "practice"}, note));
  return bar;
}

// A file picker that sends the text of a saved game (never its path) to Python.
function loadPicker(send) {
  return h("label", {class: "colorlab-load"}, "Load ",
    h("input", {type: "file", accept: ".json,application/json", "data-key": "load", "data-action": "load",
                "aria-label": "Load a saved game",
                onchange: (event) => {
                  const file = event.target.files[0];
                  if (file) file.text().then((text) => send({type: "load", text}));
                }}));
}

// What a click may focus by itself; a click anywhere else in a widget gives the keys to the widget's root.
const FOCUSABLE = "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), " +
                  "textarea:not(:disabled), [tabindex], [contenteditable]";

// Keep the keyboard inside a widget. JupyterLab acts on letter and number keys in a notebook (r makes a cell
// raw, a inserts one, 0 0 restarts the kernel): its shortcuts skip any key pressed inside an element marked
// data-lm-suppress-shortcuts, and no keydown leaves the root. A click on a plain part (a card, the board, the
// question) focuses the root, so that the game's keys work at once; a click on a control leaves it its focus.
function keepKeyboard(root) {
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.addEventListener("pointerdown", (event) => {
    const control = event.target.closest(FOCUSABLE);
    if (!control || control === root) root.focus({preventScroll: true});
  });
  root.addEventListener("keydown", (event) => event.stopPropagation());
}

// Lay out a widget: its root (carrying the palette, keeping the keyboard), the seating line of a shared table,
// a body to redraw, and the notice line.
function mountTable(el, model, game, extra = {}) {
  const root = h("div", {class: `colorlab ${game}`, "data-palette": model.get("palette"), ...extra});
  const seating = h("div", {class: "colorlab-seating", "data-testid": "seating", hidden: true});
  const body = h("div");
  const notice = h("div", {class: "colorlab-notice", role: "status", "aria-live": "polite", "data-testid": "notice"});
  root.append(seating, body, notice);
  keepKeyboard(root);
  el.append(root);
  return {root, body, notice};
}

// Lay out one of the class's own pages (the lobby, the teacher's page, the projector page): its root, a body to
// redraw and the notice line, the keyboard kept inside, and a word to the learner if the class server goes away.
function mountPage(el, model, kind) {
  const root = h("div", {class: `colorlab ${kind}`, "data-palette": model.get("palette") ?? "default"});
  const body = h("div");
  const notice = h("div", {class: "colorlab-notice", role: "status", "aria-live": "polite", "data-testid": "notice"});
  root.append(body, notice);
  keepKeyboard(root);
  watchTheKernel(model);
  el.append(root);
  return {root, body, notice};
}

// Hand a saved game that Python sent (after this page's Save) to the browser as a file download, once
// even when the page shows the same table twice (each view hears the message).
const downloadsTaken = new Set();
function download(message) {
  const id = `${message?.name}#${message?.number}`;
  if (message?.type !== "download" || downloadsTaken.has(id)) return;
  downloadsTaken.add(id);
  const url = URL.createObjectURL(new Blob([message.text], {type: "application/json"}));
  const link = h("a", {href: url, download: message.name, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Who sits at a shared table, and what the table waits for: one line above the game (nothing when playing alone).
function seatingLine(node, seating) {
  node.hidden = !seating;
  if (!seating) return;
  const waiting = seating.closed ? "This table is closed: nothing more can be played at it."
    : seating.free_seats ? `Waiting for ${seating.free_seats} more player${seating.free_seats > 1 ? "s" : ""} to sit down.`
    : "";
  node.replaceChildren(...[
    h("span", {}, `Table ${seating.code}`),
    h("span", {}, seating.seat === null ? "watching" : `you play as ${seating.name}`),
    waiting ? h("strong", {"data-testid": "table-state"}, waiting) : null].filter(Boolean));
}

// A page served to a class (Voila: its page data names its kernel) watches its connection to the kernel. When it is
// lost, a banner says so at once; while it stays lost, the page asks the server now and then whether it answers
// again, and once it does (the class server was restarted, and this page's kernel with it) the page opens afresh: the
// lobby brings the learner back to their seat. In JupyterLab nothing of this runs: a notebook is never reloaded.
const RECONNECT_MS = 2000;
const BUSY_AFTER_MS = 400;  // a click not answered within this long shows "Working on it…"
const BUSY_LONGEST_MS = 15000;  // ...for at most this long after that
const HERE_MS = 20000;
const FINAL_SCROLL_MS = 3000;  // the game's last views, redrawn just after it ended, keep its results in view  // well within the minute after which the teacher's page calls a learner's page away
const MOST_AUTO_RELOADS = 3;  // a page opens itself again at most this often in AUTO_RELOAD_WINDOW_MS...
const AUTO_RELOAD_WINDOW_MS = 300000;  // ...then asks the learner: each time starts a kernel on the server
const AUTO_RELOADS = "colorlab-auto-reloads";
const LOST_BEFORE_RELOAD_MS = 5000;  // a short blip heals by itself: the kernel's own connection comes back
const WATCHED = "colorlabWatchesTheKernel";  // on window: every widget's module holds its own copy of this file

function servedToAClass() {
  try {
    return "kernelId" in JSON.parse(document.getElementById("jupyter-config-data")?.textContent ?? "{}");
  } catch (error) {
    return false;
  }
}

// When this tab opened itself again lately (kept in the tab's session storage, across its reloads).
function recentReloads() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(AUTO_RELOADS) || "[]");
    return Array.isArray(kept) ? kept.filter((at) => Date.now() - at < AUTO_RELOAD_WINDOW_MS) : [];
  } catch (error) {
    return [];
  }
}

function watchTheKernel(model) {
  const kernel = model.widget_manager?.kernel;
  if (window[WATCHED] || !kernel?.connectionStatusChanged || !servedToAClass()) return;
  window[WATCHED] = true;
  const banner = h("div", {class: "colorlab-connection", role: "alert", "data-testid": "connection",
                           hidden: true});
  document.body.prepend(banner);
  let lostSince = null;
  let timer = null;
  let reloading = false;  // once: the page stays until the server has sent the new one, which may take a while
  const askTheServer = async () => {
    if (reloading || Date.now() - lostSince < LOST_BEFORE_RELOAD_MS) return;
    try {
      // The page's own server answers (a HEAD it may refuse with 405); a proxy in front of a server still starting
      // (a school's hub) answers 502, 503 or 404 until the server is back.
      const answer = await fetch(window.location.href, {method: "HEAD", cache: "no-store"});
      if (answer.status >= 500 || answer.status === 404 || reloading) return;
      // Reload once. Asking again while the server makes the new page (it runs the page's notebook first, seconds on
      // a busy server) would start the page afresh each time, each with a kernel of its own: a hub's restart under
      // load once made a page reload itself until its learner had no pages left.
      reloading = true;
      clearInterval(timer);
      const recent = recentReloads();
      if (recent.length >= MOST_AUTO_RELOADS) {
        banner.textContent = "This page could not get back to the class server by itself. Reload it, " +
          "or ask your teacher.";
        return;
      }
      try { sessionStorage.setItem(AUTO_RELOADS, JSON.stringify([...recent, Date.now()])); } catch (error) { /* none */ }
      banner.textContent = "The class server is back. Opening this page again…";
      window.location.reload();
    } catch (error) {
      // still away: ask again at the next tick
    }
  };
  kernel.connectionStatusChanged.connect((_, status) => {
    if (status === "connected") {
      banner.hidden = true;
      lostSince = null;
      clearInterval(timer);
      timer = null;
      return;
    }
    lostSince = lostSince ?? Date.now();
    banner.hidden = false;
    banner.textContent = "The connection to the class server was lost. This page tries again by itself; " +
      "you do not need to do anything.";
    timer = timer ?? setInterval(askTheServer, RECONNECT_MS);
  });
}

// Redraw on every new view or palette, show Python's notices and take its downloads; return what stops listening.
// At a shared table the page sends nothing while nothing happens: the kernel follows the table and sends new views.
function listen(model, draw, notice) {
  watchTheKernel(model);
  // A page seated at a table says now and then that it is open: the teacher sees who is still connected.
  const sayHere = () => {
    if (Number.isInteger(model.get("view")?.seating?.seat)) makeSender(model)({type: "here"});
  };
  const hereTimer = setInterval(sayHere, HERE_MS);
  // A click the kernel takes a while over (a game's last move, a busy class server) shows that it is being worked on,
  // until the new view or a notice arrives.
  const busy = h("p", {class: "colorlab-busy", role: "status", "data-testid": "busy", hidden: true}, "Working on it…");
  notice.after(busy);
  let busyTimer = null;
  const answered = () => {
    clearTimeout(busyTimer);
    busy.hidden = true;
  };
  const sent = () => {
    const kind = model.get("intent")?.type;
    if (!kind || kind === "here" || kind === "sync") return;
    clearTimeout(busyTimer);
    busyTimer = setTimeout(() => {
      busy.hidden = false;
      busyTimer = setTimeout(answered, BUSY_LONGEST_MS);  // an intent that changes nothing on show
    }, BUSY_AFTER_MS);
  };
  model.on("change:intent", sent);
  model.on("change:view", answered);
  model.on("change:notice", answered);
  const showNotice = () => drawNotice(notice, model.get("notice"));
  const seating = notice.parentElement.querySelector(":scope > .colorlab-seating");
  // When the game ends, its results come into view by themselves (they are drawn below the table, often below the
  // fold): once, when they first appear, never again while the learner scrolls about.
  let finalSince = notice.parentElement.querySelector("[data-testid='final']") ? 0 : null;
  const drawAll = () => {
    seatingLine(seating, model.get("view")?.seating);
    draw();
    const final = notice.parentElement.querySelector("[data-testid='final']");
    if (!final) {
      finalSince = null;
      return;
    }
    finalSince = finalSince ?? performance.now();
    if (performance.now() - finalSince < FINAL_SCROLL_MS) final.scrollIntoView({block: "nearest"});
  };
  model.on("change:view", drawAll);
  model.on("change:notice", showNotice);
  model.on("change:palette", draw);
  model.on("msg:custom", download);
  drawAll();
  showNotice();
  return () => {
    clearInterval(hereTimer);
    clearTimeout(busyTimer);
    busy.remove();
    model.off("change:intent", sent);
    model.off("change:view", answered);
    model.off("change:notice", answered);
    model.off("change:view", drawAll);
    model.off("change:notice", showNotice);
    model.off("change:palette", draw);
    model.off("msg:custom", download);
  };
}
