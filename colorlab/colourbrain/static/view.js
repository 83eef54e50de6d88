// The Colourbrain quiz screen: the question large, a hidden answer per team, the reveal, the points.
// It shows what Python sends and reports the teams' choices; all checking happens in Python.

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-"];

// At a shared table this screen is one team's, called "You": say "your answer", not "You's answer".
const isOwn = (v, team) => Boolean(v.seating) && Number(team) === v.seating.seat;

function render({ model, el }) {
  const send = makeSender(model);
  const ui = {chosen: [], copier: false, seenAsked: -1, showReveal: false};
  const {root, body, notice} = mountTable(el, model, "colourbrain");

  const view = () => model.get("view");
  const assets = () => model.get("assets");
  const colours = () => Object.keys(assets().glyphs);

  function draw() {
    root.dataset.palette = model.get("palette");
    const v = view();
    if (v.asked !== ui.seenAsked) {
      // A paced quiz holds the reveal itself (step "shown"); this screen holds only the last one of a quiz that ended
      // at its last answer (unpaced, or saved before the winner waited for the quiz master's Next).
      ui.showReveal = (!v.paced || v.over) && ui.seenAsked >= 0 && v.asked > ui.seenAsked && Boolean(v.last);
      ui.seenAsked = v.asked;
      ui.chosen = [];
      ui.copier = false;
    }
    const revealing = (ui.showReveal || v.step === "shown") && v.last;
    redraw(body, () => [header(v, revealing), revealing ? reveal(v) : question(v), scoreboard(v),
                        v.over ? finalPanel(v) : null, historyBar(withoutUndoWhileAnswering(v), send)]);
  }

  // While teams answer a question, nobody may take back another team's locked answer: no Undo button then.
  function withoutUndoWhileAnswering(v) {
    return v.undo_waits ? {...v, practice: {...v.practice, undo: false}} : v;
  }

  function header(v, revealing) {
    const number = revealing ? v.last.number : v.asked + 1;
    return h("div", {class: "colourbrain-header"},
      h("strong", {}, "Colourbrain"), h("span", {"data-testid": "number"}, `Question ${number}`),
      h("span", {class: "colourbrain-pot", "data-testid": "pot"}, `Pot: ${v.pot}`),
      h("span", {}, `First to ${v.goal} wins`), paletteSwitch(model, assets()));
  }

  function swatch(colour, extra = {}) {
    return h("span", {class: "colourbrain-swatch", style: `background: var(--colorlab-${colour})`, ...extra},
      h("span", {class: "colorlab-glyph", style: `color: ${glyphInk(model, colour)}`}, assets().glyphs[colour]));
  }

  function question(v) {
    const q = v.question;
    const team = v.at_keyboard;
    const parts = [h("p", {class: "colourbrain-category"}, q.category),
                   h("p", {class: "colourbrain-question", "data-testid": "question"}, q.text),
                   h("p", {class: "colourbrain-count"}, `${q.count} colour${q.count > 1 ? "s" : ""}`),
                   h("p", {class: "colourbrain-answered"}, v.names.map((name, t) =>
                     h("span", {class: v.answered[t] ? "is-done" : ""}, `${name} ${v.answered[t] ? "✓ answered" : "…"}`)))];
    if (v.step === "copying") parts.push(copyPanel(v));
    else if (team !== null && team !== undefined && v.history.live && !v.over) parts.push(picker(v, team));
    return h("div", {class: "colourbrain-card"}, parts);
  }

  function picker(v, team) {
    const need = v.question.count - (ui.copier ? 1 : 0);
    const own = isOwn(v, team);
    return h("div", {class: "colourbrain-picker", role: "group", "aria-label": own ? "Your answer" : `${v.names[team]} answers`},
      h("p", {class: "colourbrain-turn"}, `${own ? "Choose" : `${v.names[team]}: choose`} ${need} colour(s), secretly`),
      h("div", {class: "colourbrain-colours"}, colours().map((colour, i) => h("button", {
          class: `colourbrain-colour${ui.chosen.includes(colour) ? " is-chosen" : ""}`, "data-key": `colour-${colour}`,
          "data-colour": colour, "aria-pressed": String(ui.chosen.includes(colour)),
          "aria-label": `${colour} (key ${KEYS[i]})`, onclick: () => toggle(colour)},
        swatch(colour), h("span", {}, colour), h("kbd", {}, KEYS[i])))),
      v.copiers[team] ? h("label", {class: "colourbrain-copier"},
        h("input", {type: "checkbox", "data-key": "copier", "data-action": "copier", checked: ui.copier,
                    onchange: (e) => { ui.copier = e.target.checked; draw(); }}), " play the Colour-Copier for one colour") : null,
      h("button", {class: "colourbrain-lock", "data-key": "lock", "data-action": "lock",
                   disabled: ui.chosen.length !== need, onclick: () => lock(team)}, own ? "Lock your answer" : `Lock ${v.names[team]}'s answer`));
  }

  function copyPanel(v) {
    return h("div", {class: "colourbrain-copy"},
      h("p", {}, "The answers are revealed:"),
      h("ul", {}, v.names.map((name, t) => h("li", {}, `${name}: `,
        (v.answers[t] || []).map((c) => c === "copier" ? h("em", {}, " Colour-Copier ") : swatch(c, {title: c}))))),
      Object.entries(v.copy_options).map(([team, options]) => h("div", {class: "colourbrain-copychoice"},
        isOwn(v, team) ? "You copy: " : `${v.names[team]} copies: `, options.map((c) => h("button", {"data-key": `copy-${team}-${c}`,
          "data-copy": `${team}-${c}`, onclick: () => send({type: "copy", team: Number(team), colour: c})}, swatch(c), ` ${c}`)))));
  }

  function reveal(v) {
    const last = v.last;
    return h("div", {class: "colourbrain-card colourbrain-reveal", "data-testid": "reveal"},
      h("p", {class: "colourbrain-question"}, last.text),
      h("p", {class: "colourbrain-solution"}, "Answer: ",
        last.solution.flatMap((c, i) => [i ? ", " : null, h("span", {class: "colourbrain-sol"}, swatch(c), ` ${c}`)])),
      h("p", {class: "colourbrain-explanation"}, last.explanation),
      h("ul", {}, v.names.map((name, t) => h("li", {}, `${name}: `,
        last.answers[t] ? last.answers[t].map((c) => swatch(c, {title: c})) : h("em", {}, last.copiers_returned ? "Colour-Copier (returned)" : "no copy"),
        ` → +${last.points[t]}`))),
      v.over ? null : nextButton(v));
  }

  // In a paced quiz Next is the quiz master's (played in Python); otherwise it only hides this screen's reveal.
  function nextButton(v) {
    if (v.paced && !v.can_move_on) {
      return h("p", {class: "colourbrain-wait", "data-testid": "wait"}, "Wait for the quiz master's Next.");
    }
    const next = v.paced ? () => send({type: "next"}) : () => { ui.showReveal = false; draw(); };
    return h("button", {"data-key": "next", "data-action": "next", class: "colourbrain-next", onclick: next},
      v.decided && v.paced ? "Show the winner" : "Next question");
  }

  function scoreboard(v) {
    const best = Math.max(1, v.goal);
    return h("div", {class: "colourbrain-scores", role: "list", "aria-label": "Scores"},
      v.names.map((name, t) => h("div", {class: "colourbrain-score", role: "listitem"},
        h("span", {class: "colourbrain-name"}, name),
        h("span", {class: "colourbrain-bar"}, h("span", {style: `width: ${Math.min(100, 100 * v.scores[t] / best)}%`})),
        h("span", {"data-score": t}, String(v.scores[t])),
        v.copier ? h("span", {class: "colourbrain-copiercount"}, v.copiers[t] ? "copier ready" : "copier used") : null)));
  }

  function finalPanel(v) {
    return h("div", {class: "colourbrain-final", "data-testid": "final"},
      `Colour-Brain${v.winners.length > 1 ? "s" : ""}: ${v.winners.map((t) => v.names[t]).join(", ")}!`);
  }

  function toggle(colour) {
    const v = view();
    const need = v.question.count - (ui.copier ? 1 : 0);
    if (ui.chosen.includes(colour)) ui.chosen = ui.chosen.filter((c) => c !== colour);
    else if (ui.chosen.length < need) ui.chosen = [...ui.chosen, colour];
    draw();
  }

  function lock(team) {
    send({type: "answer", team, colours: ui.chosen, copier: ui.copier});
    ui.chosen = [];
    ui.copier = false;
  }

  function onKey(event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    const v = view();
    const index = KEYS.indexOf(event.key);
    if (index >= 0 && v.at_keyboard !== null && !ui.showReveal) { event.preventDefault(); toggle(colours()[index]); }
    if (event.key === "Enter" && !ui.showReveal && v.at_keyboard !== null &&
        ui.chosen.length === v.question.count - (ui.copier ? 1 : 0)) { event.preventDefault(); lock(v.at_keyboard); }
  }

  root.addEventListener("keydown", onKey);
  return listen(model, draw, notice);
}

export default { render };
