// The ColorFox table. It draws the view Python sends and reports what the learner does.
// The legal cells for each card come from Python; the page only shows them.

function render({ model, el }) {
  const send = makeSender(model);
  const ui = {card: null, turned: false, opponent: 1, give: null, take: null, botTimer: null, askedAt: -1};
  const {root, body, notice} = mountTable(el, model, "colorfox");

  const view = () => model.get("view");
  const assets = () => model.get("assets");
  const CELL = 58;

  function draw() {
    root.dataset.palette = model.get("palette");
    const v = view();
    if (ui.card !== null && !v.hand.some((c) => c.number === ui.card)) ui.card = null;
    // A rule change or a loaded game may bring fewer players: the chosen opponent must still sit at the table.
    if (ui.opponent >= v.names.length || ui.opponent === v.you) ui.opponent = v.you === 1 ? 0 : 1;
    redraw(body, () => [header(v), supplyRow(v), tableGrid(v), handRow(v), actions(v), exchangePanel(v),
                        offerPanel(v), v.over ? finalPanel(v) : null, playersPanel(v), eventList(v), historyBar(v, send)]);
    pace(v);
  }

  // --- pieces of the table ----------------------------------------------------------------

  function tile(edges, size, label) {
    const c = size / 2;
    const corners = [[0, 0], [size, 0], [size, size], [0, size]];
    const glyphAt = [[c, size * 0.2], [size * 0.8, c], [c, size * 0.86], [size * 0.2, c]];
    return h("svg", {viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "colorfox-tile",
                     role: "img", "aria-label": label},
      h("title", {}, label),
      edges.map((colour, side) => {
        const [a, b] = [corners[side], corners[(side + 1) % 4]];
        return h("g", {},
          h("path", {d: `M${a[0]} ${a[1]} L${b[0]} ${b[1]} L${c} ${c} Z`,
                     style: `fill: var(--colorlab-${colour})`, class: "colorfox-edge"}),
          h("text", {x: glyphAt[side][0], y: glyphAt[side][1] + 4, "text-anchor": "middle",
                     style: `fill: ${glyphInk(model, colour)}`, class: "colorlab-glyph colorfox-glyph"}, assets().glyphs[colour]));
      }));
  }

  function edgesLabel(edges) {
    return `top ${edges[0]}, right ${edges[1]}, bottom ${edges[2]}, left ${edges[3]}`;
  }

  function shownEdges(card) {
    const e = card.edges;
    return ui.turned ? [e[2], e[3], e[0], e[1]] : e;
  }

  function header(v) {
    const answering = v.offer && v.offer.opponent === v.you;
    const turn = v.over ? "game over" : answering ? "your choice: hand back a stick"
      : v.to_move === v.you ? "your turn" : `${v.names[v.to_move]} to move`;
    return h("div", {class: "colorfox-header"},
      h("strong", {}, "ColorFox"), h("span", {}, `Deck ${v.deck}`),
      h("span", {"data-testid": "turn"}, turn), paletteSwitch(model, assets()));
  }

  function supplyRow(v) {
    return h("div", {class: "colorfox-supply", role: "group", "aria-label": "Sticks left in the supply"},
      h("span", {class: "colorfox-label"}, "Supply:"),
      assets().colours.map((colour) => h("span", {class: "colorfox-count", title: colour},
        stick(colour), ` ${v.supply[colour]}`)));
  }

  function stick(colour) {
    return h("span", {class: "colorfox-stick colorlab-glyph", style: `background: var(--colorlab-${colour}); color: ${glyphInk(model, colour)}`,
                      role: "img", "aria-label": colour},
      assets().glyphs[colour]);
  }

  function tableGrid(v) {
    const legal = ui.card === null ? [] : v.legal.filter(([card, , , turned]) => card === ui.card && turned === ui.turned);
    const spots = [...v.table.map((t) => [t.x, t.y]), ...legal.map(([, x, y]) => [x, y])];
    const xs = spots.map((s) => s[0]), ys = spots.map((s) => s[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const cells = [];
    const last = v.last_placed;
    for (const t of v.table) {
      const isLast = last !== null && last.x === t.x && last.y === t.y;
      const placed = isLast ? `, placed last, by ${last.by}` : "";
      cells.push(h("div", {class: `colorfox-cell${isLast ? " is-last" : ""}`, style: `grid-column: ${t.x - x0 + 1}; grid-row: ${t.y - y0 + 1}`,
                           "data-x": t.x, "data-y": t.y, "data-last": isLast ? last.by : null},
        tile(t.edges, CELL, `Card ${t.number}${placed}: ${edgesLabel(t.edges)}`),
        isLast ? h("span", {class: "colorfox-newtag", "aria-hidden": "true"}, "new") : null));
    }
    for (const [card, x, y] of legal) {
      cells.push(h("button", {class: "colorfox-cell colorfox-legal", style: `grid-column: ${x - x0 + 1}; grid-row: ${y - y0 + 1}`,
                              "data-key": `legal-${x},${y}`, "data-legal": `${x},${y}`,
                              "aria-label": `Place card ${card} at ${x}, ${y}`,
                              onclick: () => send({type: "place", card, x, y, turned: ui.turned})}, "+"));
    }
    // Focusable, so that a keyboard can scroll a table larger than its box even when no card can be placed.
    return h("div", {class: "colorfox-scroll", tabindex: "0", role: "region", "aria-label": "The table (scrolls)"},
      h("div", {class: "colorfox-table", role: "group", "aria-label": "The table",
                style: `grid-template-columns: repeat(${x1 - x0 + 1}, ${CELL}px); grid-template-rows: repeat(${y1 - y0 + 1}, ${CELL}px)`},
        cells));
  }

  function handRow(v) {
    return h("div", {class: "colorfox-hand", role: "group", "aria-label": "Your hand"},
      h("span", {class: "colorfox-label"}, "Your hand:"),
      v.hand.map((card) => {
        const edges = card.number === ui.card ? shownEdges(card) : card.edges;
        return h("button", {class: `colorfox-card${card.number === ui.card ? " is-selected" : ""}`,
                            "data-key": `hand-${card.number}`, "data-card": card.number,
                            "aria-pressed": String(card.number === ui.card),
                            "aria-label": `Card ${card.number}: ${edgesLabel(edges)}`,
                            onclick: () => { ui.card = ui.card === card.number ? null : card.number; draw(); }},
          tile(edges, CELL, `Card ${card.number}`));
      }),
      v.rules.half_turn ? h("button", {"data-key": "turn", "data-action": "turn", "aria-pressed": String(ui.turned),
                                       onclick: () => { ui.turned = !ui.turned; draw(); }}, "Half turn ⟳") : null);
  }

  function actions(v) {
    const mine = v.to_move === v.you && !v.offer && !v.over && v.history.live;
    const stuck = mine && !v.exchanges_left && v.legal.length === 0;
    return h("div", {class: "colorfox-actions"},
      h("button", {"data-key": "pass", "data-action": "pass", disabled: !stuck, onclick: () => send({type: "pass"})},
        "Pass (no card fits)"),
      mine && !v.exchanges_left ? h("span", {class: "colorfox-tip", "data-testid": "tip"}, cardTip(v)) : null);
  }

  // What the chosen card can do: light cells, fit only after a half turn, or fit nowhere at all.
  function cardTip(v) {
    if (ui.card === null) return "Choose a card: the cells where it fits light up.";
    const fits = (turned) => v.legal.some(([card, , , t]) => card === ui.card && t === turned);
    if (fits(ui.turned)) return "Click a lit cell to place the card.";
    if (fits(!ui.turned)) return "This card fits nowhere this way up: try a half turn.";
    return "This card fits nowhere on the table; try another, or pass if none fits.";
  }

  function exchangePanel(v) {
    if (!v.exchanges_left || v.active !== v.you || v.offer || !v.history.live) return null;
    const mine = v.sticks[v.you];
    const theirs = v.sticks[ui.opponent] || {};
    const pick = (kind, colour, count) => h("button", {
        class: `colorfox-pick${ui[kind] === colour ? " is-selected" : ""}`, "data-key": `${kind}-${colour}`,
        "data-action": `${kind}-${colour}`, disabled: !count, "aria-pressed": String(ui[kind] === colour),
        onclick: () => { ui[kind] = colour; draw(); }}, stick(colour), ` ${count}`);
    const opponentPicks = v.rules.exchange_pick === "opponent";
    return h("div", {class: "colorfox-exchange", role: "group", "aria-label": "Exchange sticks", "data-testid": "exchange"},
      h("strong", {}, `You may exchange ${v.exchanges_left} stick(s).`),
      h("label", {}, "With ", h("select", {"data-key": "opponent", "data-action": "opponent",
          onchange: (event) => { ui.opponent = Number(event.target.value); ui.take = null; draw(); }},
        v.names.map((name, seat) => seat === v.you ? null : h("option", {value: seat, selected: seat === ui.opponent}, name)))),
      h("div", {}, "Give: ", assets().colours.map((c) => pick("give", c, mine[c]))),
      opponentPicks ? h("div", {}, `${v.names[ui.opponent]} chooses which stick you get back.`)
        : h("div", {}, "Take: ", assets().colours.map((c) => pick("take", c, theirs[c]))),
      opponentPicks
        ? h("button", {"data-key": "offer", "data-action": "offer", disabled: !ui.give,
                       onclick: () => { send({type: "offer", opponent: ui.opponent, give: ui.give}); ui.give = null; }},
            "Offer this stick")
        : h("button", {"data-key": "exchange", "data-action": "exchange", disabled: !ui.give || !ui.take,
                       onclick: () => { send({type: "exchange", opponent: ui.opponent, give: ui.give, take: ui.take});
                                        ui.give = ui.take = null; }}, "Exchange"),
      h("button", {"data-key": "done", "data-action": "done", onclick: () => send({type: "done"})}, "No more exchanges"));
  }

  // An exchange offer waits for the opponent: the learner chooses, or sees that a bot is choosing.
  function offerPanel(v) {
    if (!v.offer || v.over) return null;
    const {player, opponent, give} = v.offer;
    if (opponent !== v.you) {
      return h("div", {class: "colorfox-exchange", "data-testid": "offer"},
        `${v.names[player]} gave ${v.names[opponent]} a ${give} stick. ${v.names[opponent]} is choosing which stick to give back…`);
    }
    const mine = v.sticks[v.you];
    const choices = assets().colours.filter((c) => c !== give && mine[c]);
    return h("div", {class: "colorfox-exchange", role: "group", "aria-label": "Choose a stick to give back",
                     "data-testid": "offer"},
      h("strong", {}, `${v.names[player]} gives you a ${give} stick. Which of your sticks do you give back?`),
      h("div", {}, choices.map((c) => h("button", {
          class: "colorfox-pick", "data-key": `hand-back-${c}`, "data-action": `hand-back-${c}`,
          "aria-label": `Give back a ${c} stick (you have ${mine[c]})`,
          disabled: !v.history.live, onclick: () => send({type: "hand_back", colour: c})}, stick(c), ` ${mine[c]}`))));
  }

  function triangle(group) {
    const r = 5, gap = 13, n = group.colours.length;
    const size = Math.max(1, n) * gap + 4;
    const dots = [];
    group.colours.forEach((colour, row) => {
      for (let i = 0; i <= row; i += 1) {
        dots.push(h("circle", {cx: 6 + i * gap + (n - 1 - row) * gap / 2, cy: 6 + row * gap, r,
                               style: `fill: var(--colorlab-${colour})`, class: "colorfox-dot"}));
      }
    });
    return h("span", {class: "colorfox-set", title: `${group.colours.join(", ")}: ${group.score} points`},
      h("svg", {viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: "img",
                "aria-label": `A set of ${n} sticks: ${group.colours.join(", ")}, ${group.score} points`}, dots),
      h("span", {class: "colorfox-setscore"}, `${n} stick${n > 1 ? "s" : ""} = ${group.score} pt${group.score === 1 ? "" : "s"}`));
  }

  function playersPanel(v) {
    return h("table", {class: "colorfox-players"},
      h("caption", {}, "Players: sticks arranged in their best sets, each set a triangle of dots"),
      h("thead", {}, h("tr", {}, ["Player", "Points", "Cards in hand", "Sticks, in sets"].map((title) =>
        h("th", {scope: "col"}, title)))),
      h("tfoot", {}, h("tr", {}, h("td", {colspan: 4, class: "colorfox-legend", "data-testid": "sets-legend"}, v.sets_legend))),
      h("tbody", {}, v.names.map((name, seat) => h("tr", {class: seat === v.active ? "is-active" : ""},
        h("th", {scope: "row"}, name),
        h("td", {"data-score": seat}, String(v.scores[seat])),
        h("td", {}, `${v.hand_sizes[seat]} cards`),
        h("td", {class: "colorfox-sets", "data-sets": seat}, v.sets[seat].length ? v.sets[seat].map(triangle) : "no sticks yet")))));
  }

  function finalPanel(v) {
    const [reason, points, verdict] = v.final;
    return h("div", {class: "colorfox-final", "data-testid": "final"},
      h("strong", {}, reason), h("p", {"data-testid": "final-scores"}, points), h("strong", {}, verdict),
      v.rematch_due.length && !v.seating ? h("button", {"data-key": "rematch", "data-action": "rematch",
                                          onclick: () => send({type: "new_game"})}, "Play once more") : null);
  }

  function eventList(v) {
    return h("ul", {class: "colorfox-events", "aria-label": "What just happened"}, v.events.map((t) => h("li", {}, t)));
  }

  // Bots move one at a time, a moment apart, so that each move can be seen.
  function pace(v) {
    if (!v.bots_to_move || ui.askedAt === v.history.length) return;
    ui.askedAt = v.history.length;
    clearTimeout(ui.botTimer);
    ui.botTimer = setTimeout(() => send({type: "bot"}), 700);
  }

  const stop = listen(model, draw, notice);
  return () => {
    clearTimeout(ui.botTimer);
    stop();
  };
}

export default { render };
