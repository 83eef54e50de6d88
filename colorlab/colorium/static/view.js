// The Colorium table. It draws the view Python sends and reports what the learner does.
// The legal resting places come from Python; the ghost only moves among them.

function render({ model, el }) {
  const send = makeSender(model);
  const ui = {option: 0, colour: null, orient: 0, spot: 0, wild: false, wildColour: null, askedAt: -1, botTimer: null};
  const {root, body, notice} = mountTable(el, model, "colorium");

  const view = () => model.get("view");
  const assets = () => model.get("assets");
  const colourName = (code) => assets().names[code];

  function option(v) {
    if (!v.options.length) return null;
    if (ui.option >= v.options.length) ui.option = 0;
    return v.options[ui.option];
  }

  function spots(v) {
    const opt = option(v);
    if (!opt) return [];
    if (!opt.spots[ui.orient] || !opt.spots[ui.orient].length) {
      const found = opt.spots.findIndex((list) => list.length);
      ui.orient = Math.max(0, found);
      ui.spot = 0;
    }
    const list = opt.spots[ui.orient] || [];
    if (ui.spot >= list.length) ui.spot = 0;
    return list;
  }

  function ghost(v) {
    const list = spots(v);
    return list.length ? list[ui.spot] : [];
  }

  function draw() {
    root.dataset.palette = model.get("palette");
    const v = view();
    const opt = option(v);
    if (opt && !opt.colours.includes(ui.colour)) ui.colour = opt.colours[0];
    if (!v.wild_colours.length) ui.wild = false;
    if (!v.wild_colours.includes(ui.wildColour)) ui.wildColour = v.wild_colours[0] || null;
    redraw(body, () => [header(v), h("div", {class: "colorium-main"}, boardPanel(v), sidePanel(v)),
                        legendPanel(v), controls(v), draftPanel(v), missionPanel(v), others(v),
                        v.over ? finalPanel(v) : null, eventList(v), historyBar(v, send)]);
    pace(v);
  }

  function header(v) {
    const phase = v.over ? "game over" : v.phase === "draft" ? (v.my_pick ? "your pick" : "the draft") : "drawing";
    return h("div", {class: "colorium-header"},
      h("strong", {}, "Colorium"), h("span", {}, `Round ${v.round}`),
      h("span", {"data-testid": "phase"}, phase), paletteSwitch(model, assets()));
  }

  function cellBox(code, size, extra = {}) {
    const {class: more = "", ...rest} = extra;
    const attrs = {class: `colorium-cell${code === "." ? " is-empty" : ""}${more ? ` ${more}` : ""}`,
                   style: code === "." ? "" : `background: var(--colorlab-${colourName(code)})`, ...rest};
    return h("div", attrs, code === "." ? "" : glyph(colourName(code), "colorlab-glyph colorium-glyph"));
  }

  // A glyph is drawn in black or white, whichever stands out more from its colour in the current palette.
  function glyph(colour, className = "colorlab-glyph") {
    return h("span", {class: className, style: `color: ${glyphInk(model, colour)}`},
      assets().glyphs[colour]);
  }

  // The board is an ARIA grid: rows (laid out by the CSS grid through display: contents) of labelled cells.
  function boardPanel(v) {
    const rows = v.boards[v.you];
    const shadow = new Set(ghost(v).map(([r, c]) => `${r},${c}`));
    const bonusRow = h("div", {class: "colorium-bonuses", style: `grid-template-columns: repeat(${rows[0].length}, 34px)`},
      v.bonuses[v.you].map((mark, c) => h("span", {class: `colorium-bonus is-${mark}`, title: `${assets().bonuses[c]} bonus: ${mark}`,
                                                    "data-bonus": c}, mark === "none" ? "" : bonusIcon(assets().bonuses[c]))));
    const gridRows = rows.map((row, r) => h("div", {class: "colorium-row", role: "row"}, [...row].map((code, c) => {
      const inGhost = shadow.has(`${r},${c}`);
      const space = code === "." ? "empty" : colourName(code);
      return cellBox(inGhost ? ui.colour || "." : code, 34, {
        class: inGhost ? "is-ghost" : "", "data-cell": `${r},${c}`, role: "gridcell",
        "aria-selected": inGhost ? "true" : null,
        "aria-label": `row ${rows.length - r}, column ${c + 1}: ${space}${inGhost ? ", your shape goes here" : ""}`,
        onmouseenter: () => hover(r, c), onclick: () => clickCell(r, c)});
    })));
    const races = h("div", {class: "colorium-races", role: "group", "aria-label": "Row races"},
      rows.map((_, r) => {
        const number = rows.length - r;
        const points = v.rules.row_rewards ? assets().rows[String(number)] : null;
        const mine = v.row_points[v.you].find(([row]) => row === number);
        return h("div", {class: "colorium-race"}, points ? (mine ? `✓ ${mine[1]}` : points.join("/")) : "");
      }));
    return h("div", {class: "colorium-boardwrap"}, bonusRow,
      h("div", {class: "colorium-boardrow"},
        h("div", {class: "colorium-board", role: "grid", "aria-label": "Your board",
                  style: `grid-template-columns: repeat(${rows[0].length}, 34px)`}, gridRows), races));
  }

  // What the row-race numbers and the bonus tags mean, in Python's words for the rules in force.
  function legendPanel(v) {
    const lines = [v.legend.rows, v.legend.bonuses].filter((text) => text);
    if (!lines.length) return null;
    return h("div", {class: "colorium-legend", "data-testid": "legend"}, lines.map((text) => h("p", {}, text)));
  }

  function bonusIcon(name) {
    return {colour: "colour", shape: "shape", scissors: "✂ cut", wild: "★ wild"}[name] || name;
  }

  function sidePanel(v) {
    const opt = option(v);
    if (!opt) return h("div", {class: "colorium-side"}, v.phase === "draw" && !v.over ? "You have drawn this round." : "");
    const list = spots(v);
    return h("div", {class: "colorium-side"},
      h("label", {}, "Shape ", h("select", {"data-key": "option", "data-action": "option",
          onchange: (e) => { ui.option = Number(e.target.value); ui.orient = 0; ui.spot = 0; draw(); }},
        v.options.map((o, i) => h("option", {value: i, selected: i === ui.option},
          `${o.shape}${o.cuts ? ` (cut${o.cuts > 1 ? ` ${o.cuts} times` : ""}: ${o.size} space${o.size > 1 ? "s" : ""})` : ""}`)))),
      h("label", {}, "Colour ", h("select", {"data-key": "colour", "data-action": "colour",
          onchange: (e) => { ui.colour = e.target.value; draw(); }},
        opt.colours.map((c) => h("option", {value: c, selected: c === ui.colour}, `${assets().glyphs[colourName(c)]} ${colourName(c)}`)))),
      h("div", {class: "colorium-turns"},
        h("button", {"data-key": "turn", "data-action": "turn", "aria-label": "Turn the shape (r)", onclick: turn}, "⟳ turn"),
        v.can_mirror ? h("button", {"data-key": "mirror", "data-action": "mirror", "aria-label": "Mirror the shape (m)",
                                    onclick: mirror}, "⇋ mirror") : null),
      h("p", {class: "colorium-count"}, `${list.length} resting place(s) this way up; arrows move, Enter draws.`));
  }

  function controls(v) {
    const opt = option(v);
    return h("div", {class: "colorium-controls"},
      h("button", {"data-key": "draw", "data-action": "draw", disabled: !opt || !ghost(v).length, onclick: submit}, "Draw here"),
      v.wild_colours.length ? wildControls(v) : null);
  }

  // Python offers wild colours only while a wild bonus may be used (never once you are out).
  function wildControls(v) {
    return h("span", {class: "colorium-wild"},
      h("button", {"data-key": "wild", "data-action": "wild", "aria-pressed": String(ui.wild),
        onclick: () => { ui.wild = !ui.wild; draw(); }}, ui.wild ? "Wild: click an empty space" : "Use a wild space"),
      ui.wild ? h("label", {}, "Wild colour ", h("select", {"data-key": "wild-colour", "data-action": "wild-colour",
          onchange: (e) => { ui.wildColour = e.target.value; }},
        v.wild_colours.map((c) => h("option", {value: c, selected: c === ui.wildColour},
          `${assets().glyphs[colourName(c)]} ${colourName(c)}`)))) : null);
  }

  function draftPanel(v) {
    if (v.phase !== "draft") return null;
    const [shape, colour] = v.picks[v.you];
    return h("div", {class: "colorium-draft", role: "group", "aria-label": "The dice"},
      h("span", {}, `Order: ${v.order.map((s) => v.names[s]).join(" → ")}`),
      h("div", {class: "colorium-dice"}, v.pool.map(([kind, face], i) => h("button", {
          class: `colorium-die is-${kind}`, "data-key": `die-${i}`, "data-die": i,
          disabled: !v.my_pick || (kind === "shape" ? !!shape : !!colour),
          style: kind === "colour" ? `background: var(--colorlab-${colourName(face)})` : "",
          "aria-label": `${kind} die ${kind === "colour" ? colourName(face) : face}`,
          onclick: () => send({type: "pick", die: i})}, kind === "colour" ? glyph(colourName(face)) : face))),
      h("span", {}, `Yours: ${shape || "–"} ${colour ? colourName(colour) : "–"}`));
  }

  function missionPanel(v) {
    return h("div", {class: "colorium-missions"}, v.missions.map((m) => h("div", {class: "colorium-mission", title: m.text},
      h("strong", {}, m.title), h("p", {}, m.text),
      h("p", {class: "colorium-mscores"}, v.names.map((n, p) => `${n}: ${v.parts[p][m.id]}`).join(" · ")))));
  }

  function others(v) {
    return h("div", {class: "colorium-others"}, v.boards.map((rows, p) => p === v.you ? null :
      h("div", {class: "colorium-thumb"}, h("div", {}, `${v.names[p]}: ${v.scores[p]} pts${v.out[p] ? " (out)" : ""}`),
        h("div", {class: "colorium-board is-small", role: "img", "aria-label": thumbLabel(v, p),
                  style: `grid-template-columns: repeat(${rows[0].length}, 12px)`},
          rows.flatMap((row) => [...row].map((code) => cellBox(code, 12)))))),
      h("div", {class: "colorium-myscore", "data-score": v.you}, `You: ${v.scores[v.you]} pts`));
  }

  function thumbLabel(v, p) {
    const filled = v.boards[p].join("").replaceAll(".", "").length;
    return `${v.names[p]}'s board: ${filled} of ${v.boards[p].join("").length} spaces filled`;
  }

  function finalPanel(v) {
    const keys = Object.keys(v.parts[0]);
    const label = (k) => (v.missions.find((m) => m.id === k) || {}).title || k;
    return h("table", {class: "colorium-final", "data-testid": "final"},
      h("caption", {}, `Game over. Winner${v.winners.length > 1 ? "s" : ""}: ${v.winners.map((p) => v.names[p]).join(", ")}`),
      h("thead", {}, h("tr", {}, h("th", {}, ""), v.names.map((n) => h("th", {scope: "col"}, n)))),
      h("tbody", {}, keys.map((k) => h("tr", {}, h("th", {scope: "row"}, label(k)), v.parts.map((p) => h("td", {}, String(p[k]))))),
        h("tr", {}, h("th", {scope: "row"}, "Total"), v.scores.map((s) => h("td", {}, h("strong", {}, String(s)))))));
  }

  function eventList(v) {
    return h("ul", {class: "colorium-events"}, v.events.map((t) => h("li", {}, t)));
  }

  // --- what the learner does ---------------------------------------------------------------

  function hover(r, c) {
    const list = spots(view());
    if (!list.length || ui.wild) return;
    let best = ui.spot, distance = Infinity;
    list.forEach((cells, i) => {
      const d = Math.min(...cells.map(([a, b]) => Math.abs(a - r) + Math.abs(b - c)));
      if (d < distance) { distance = d; best = i; }
    });
    if (best !== ui.spot) { ui.spot = best; draw(); }
  }

  function clickCell(r, c) {
    const v = view();
    if (ui.wild) {
      ui.wild = false;
      send({type: "wild", row: r, col: c, colour: ui.wildColour});
      return;
    }
    if (ghost(v).some(([a, b]) => a === r && b === c)) submit();
    else hover(r, c);
  }

  function submit() {
    const v = view();
    const opt = option(v);
    const cells = ghost(v);
    if (!opt || !cells.length) return;
    send({type: "draw", shape: opt.shape, colour: ui.colour, cells, cuts: opt.cuts});
    ui.spot = 0;
  }

  function turn() { const opt = option(view()); if (opt) { ui.orient = opt.turn[ui.orient]; ui.spot = 0; draw(); } }
  // The mirror table comes only when the rules allow mirror images.
  function mirror() { const opt = option(view()); if (opt && opt.mirror) { ui.orient = opt.mirror[ui.orient]; ui.spot = 0; draw(); } }

  function step(by, axis) {
    const list = spots(view());
    if (!list.length) return;
    const key = (cells) => axis === "x" ? Math.min(...cells.map(([, c]) => c)) * 100 + Math.max(...cells.map(([r]) => r))
                                        : Math.max(...cells.map(([r]) => r)) * 100 + Math.min(...cells.map(([, c]) => c));
    const order = list.map((cells, i) => [key(cells), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
    const at = order.indexOf(ui.spot);
    ui.spot = order[(at + by + order.length) % order.length];
    draw();
  }

  function onKey(event) {
    if (event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
    const keys = {ArrowLeft: () => step(-1, "x"), ArrowRight: () => step(1, "x"), ArrowUp: () => step(-1, "y"),
                  ArrowDown: () => step(1, "y"), Enter: submit, r: turn, ...(view().can_mirror ? {m: mirror} : {})};
    const action = keys[event.key];
    if (action && option(view())) { event.preventDefault(); action(); }
  }

  function pace(v) {
    if (!v.bots_to_move || ui.askedAt === v.history.length) return;
    ui.askedAt = v.history.length;
    clearTimeout(ui.botTimer);
    ui.botTimer = setTimeout(() => send({type: "bot"}), 500);
  }

  root.addEventListener("keydown", onKey);
  const stop = listen(model, draw, notice);
  return () => { clearTimeout(ui.botTimer); stop(); };
}

export default { render };
