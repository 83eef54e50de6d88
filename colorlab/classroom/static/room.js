// The class's projector page: the teacher key, then how to join (the short address, a QR code) and the lesson's
// tables with their scores, drawn large for the back of a room. While the teacher's quiz runs, the quiz fills the
// screen below and this part keeps only the address. It draws what Python sends; the only thing it sends is the key.

function render({ model, el }) {
  const send = makeSender(model);
  const {body, notice} = mountPage(el, model, "room");

  function draw() {
    const quiz = model.get("quiz");
    redraw(body, () => model.get("gate") !== "open" ? [keyGate(model, send, "The class's projector page")]
      : quiz ? [joinLine()] : [joinPanel(), winner(), tables()]);
  }

  // While a quiz runs: the address alone, on one line.
  function joinLine() {
    const join = model.get("join");
    return join.address ? h("p", {class: "room-joinline", "data-testid": "join"}, "Join: ",
      h("span", {class: "room-address"}, join.address)) : null;
  }

  function joinPanel() {
    const join = model.get("join");
    if (!join.address) return null;
    const qr = h("div", {class: "room-qr", role: "img", "aria-label": "QR code of the class's address"});
    qr.innerHTML = join.qr;  // drawn by Python from the class server's own address
    return h("section", {class: "room-join", "data-testid": "join"},
      h("div", {},
        h("p", {class: "room-lead"}, "Join the class: open this address, or point your camera at the code"),
        h("p", {class: "room-address"}, join.address),
        h("p", {}, join.signed_in ? "Then log in to the school's hub, and type a table's code to sit at it."
                                  : "Then type your name, and a table's code to sit at it.")),
      qr);
  }

  function winner() {
    const said = model.get("winner");
    return said ? h("p", {class: "room-winner", "data-testid": "winner"}, said) : null;
  }

  function card(table) {
    return h("article", {class: `room-table is-${table.state.split(" ")[0]}`, "data-table": table.code},
      h("h2", {}, table.title, " ", h("span", {class: "room-code", "aria-label": `code ${table.code.split("").join(" ")}`},
        table.code)),
      h("p", {class: "room-state", "data-testid": "state"},
        table.quiz && table.state.startsWith("waiting") ? `Quiz: teams, sit down with this code (${table.state})`
          : table.state, table.turn.length ? `: ${table.turn.join(", ")}` : ""),
      h("ol", {class: "room-players"}, table.players.map((player, seat) => h("li", {},
        h("span", {class: "room-name"}, player.name),
        h("span", {class: "room-score", "data-score": seat}, String(player.score))))));
  }

  function tables() {
    const shown = model.get("tables");
    const more = model.get("more");
    if (!shown.length) return h("p", {class: "room-empty"}, "No tables yet: open the lobby and start one.");
    return h("section", {"aria-label": "The class's tables"},
      h("div", {class: "room-tables", "data-testid": "tables"}, shown.map(card)),
      more ? h("p", {class: "room-more"}, `and ${more} more table${more === 1 ? "" : "s"}`) : null);
  }

  const showNotice = () => drawNotice(notice, model.get("notice"));
  const events = ["change:gate", "change:join", "change:tables", "change:more", "change:quiz", "change:winner"];
  events.forEach((name) => model.on(name, draw));
  model.on("change:notice", showNotice);
  draw();
  showNotice();
  return () => {
    events.forEach((name) => model.off(name, draw));
    model.off("change:notice", showNotice);
  };
}

export default { render };
