// One task card to turn by hand. It draws the position Python holds and reports each press.

function render({ model, el }) {
  const send = makeSender(model);
  const assets = () => model.get("assets");
  const position = () => `${model.get("rotation")},${model.get("mirrored") ? 1 : 0}`;
  const {root, body, notice} = mountTable(el, model, "turner", {role: "group",
    "aria-label": `Turn task card ${assets().card.number} (keys r, l${assets().mirrors ? ", m" : ""})`});

  const presses = {
    r: () => send({type: "turn", quarter_turns: 1}),
    l: () => send({type: "turn", quarter_turns: -1}),
    m: () => { if (assets().mirrors) send({type: "mirror"}); },
  };

  function draw() {
    root.dataset.palette = model.get("palette");
    redraw(body, () => [header(),
                        h("div", {class: "turner-main"}, cardGrid(), h("div", {class: "turner-side"}, numberGrid(), groupElement())),
                        buttons()]);
  }

  // Put item i where cell i of the printed card has gone.
  function placed(items) {
    const destination = assets().destinations[position()];
    const cells = Array(9).fill(null);
    items.forEach((item, cell) => { cells[destination[cell]] = item; });
    return cells;
  }

  function header() {
    const card = assets().card;
    return h("div", {class: "turner-header"},
      h("strong", {}, `Task card #${card.number}`), h("span", {}, `${card.size} figures`),
      paletteSwitch(model, assets()));
  }

  function cardGrid() {
    const cells = placed(assets().card.cells).map((name, cell) =>
      h("span", {class: "turner-cell", "data-cell": cell}, name ? figureIcon(name, model, 56) : ""));
    return h("figure", {class: "turner-panel"},
      h("div", {class: "turner-card", role: "group", "aria-label": "The card as it lies now"}, cells),
      h("figcaption", {}, "The card as it lies now"));
  }

  function numberGrid() {
    const cells = placed([...Array(9).keys()]).map((from, cell) =>
      h("span", {class: `turner-number${from === cell ? " is-home" : ""}`, "data-cell": cell, role: "img",
                 "aria-label": `cell ${cell} now holds printed cell ${from}`}, String(from)));
    return h("figure", {class: "turner-panel"},
      h("div", {class: "turner-numbers", "data-testid": "numbers"}, cells),
      h("figcaption", {}, "Which printed cell is where (grey: not moved)"));
  }

  function groupElement() {
    return h("div", {class: "turner-element", "data-testid": "group-element"},
      h("p", {class: "turner-words"}, assets().words[position()]),
      h("p", {}, "In cycle notation: ", h("code", {class: "turner-cycles"}, model.get("element"))),
      h("p", {class: "turner-state"}, `rotation = ${model.get("rotation")}, mirrored = ${model.get("mirrored") ? "True" : "False"}`));
  }

  function buttons() {
    const button = (key, label, title, onclick) =>
      h("button", {"data-key": key, "data-action": key, title, "aria-label": title, onclick}, label);
    return h("div", {class: "turner-buttons", role: "group", "aria-label": "Turn the card"},
      button("rotate-left", symbol("⟲"), "Turn a quarter anticlockwise (key l)", presses.l),
      button("rotate-right", symbol("⟳"), "Turn a quarter clockwise (key r)", presses.r),
      assets().mirrors ? button("mirror", symbol("⇋"), "Mirror left to right (key m)", presses.m) : null,
      button("reset", "Reset", "Put the card back as printed", () => send({type: "reset"})),
      h("span", {class: "turner-keys"}, `Keys: r = ⟳, l = ⟲${assets().mirrors ? ", m = ⇋" : ""}`));
  }

  function onKey(event) {
    if (event.target.tagName === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const press = presses[event.key.toLowerCase()];
    if (press) { event.preventDefault(); press(); }
  }

  const changes = ["change:rotation", "change:mirrored", "change:element", "change:palette", "change:assets"];
  const onNotice = () => drawNotice(notice, model.get("notice"));
  for (const change of changes) model.on(change, draw);
  model.on("change:notice", onNotice);
  root.addEventListener("keydown", onKey);
  draw();
  onNotice();
  return () => {
    for (const change of changes) model.off(change, draw);
    model.off("change:notice", onNotice);
  };
}

export default { render };
