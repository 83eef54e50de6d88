// The Colourbrain projector: the room's screen of one quiz table, drawn large. It shows what Python sends
// (who has locked, never what, until the reveal) and reports one thing: the teacher's Next (in a paced quiz, the
// quiz master's Next that lets the teams' screens show the next question).

function render({ model, el }) {
  const send = makeSender(model);
  const {root, body, notice} = mountTable(el, model, "colourbrain colourbrain-projector");
  const assets = () => model.get("assets");

  function draw() {
    root.dataset.palette = model.get("palette");
    root.classList.toggle("projector-fill", Boolean(model.get("fill")));
    const v = model.get("view");
    redraw(body, () => [header(v), v.reveal ? reveal(v) : v.question ? question(v) : null, scoreboard(v),
                        v.over ? finalPanel(v) : null]);
  }

  function header(v) {
    const number = v.reveal ? v.reveal.number : v.question ? v.question.number : null;
    return h("div", {class: "colourbrain-header"},
      h("strong", {}, "Colourbrain"), number ? h("span", {"data-testid": "number"}, `Question ${number}`) : null,
      h("span", {class: "colourbrain-pot", "data-testid": "pot"}, `Pot: ${v.pot}`),
      h("span", {}, `First to ${v.goal} wins`), paletteSwitch(model, assets()));
  }

  function swatch(colour) {
    return h("span", {class: "colourbrain-swatch", title: colour, style: `background: var(--colorlab-${colour})`},
      h("span", {class: "colorlab-glyph", style: `color: ${glyphInk(model, colour)}`}, assets().glyphs[colour]));
  }

  function locks(names, answered) {
    return h("ul", {class: "projector-locks", "data-testid": "locks", "aria-label": "Who has locked an answer"},
      names.map((name, t) => h("li", {class: answered[t] ? "is-locked" : "", "data-locked": String(answered[t])},
        h("span", {class: "projector-lock"}, answered[t] ? "✓" : "…"), ` ${name}`,
        h("span", {class: "projector-lockword"}, answered[t] ? "locked" : "thinking"))));
  }

  function question(v) {
    const q = v.question;
    const copying = q.step === "copying";
    return h("div", {class: "colourbrain-card projector-card", "data-testid": "question"},
      h("p", {class: "colourbrain-category"}, q.category),
      h("p", {class: "projector-question"}, q.text),
      h("p", {class: "projector-count"}, `${q.count} colour${q.count > 1 ? "s" : ""}`),
      copying ? h("div", {class: "projector-copying"},
        h("p", {}, "Every team has answered. Teams with the Colour-Copier now copy a colour:"),
        h("ul", {}, v.names.map((name, t) => h("li", {}, `${name}: `,
          (q.answers[t] || []).map((c) => c === "copier" ? h("em", {}, " Colour-Copier ") : swatch(c))))))
        : locks(v.names, q.answered));
  }

  function reveal(v) {
    const r = v.reveal;
    return h("div", {class: "colourbrain-card projector-card colourbrain-reveal", "data-testid": "reveal"},
      h("p", {class: "projector-question"}, r.text),
      h("p", {class: "projector-solution"}, "Answer: ",
        r.solution.flatMap((c, i) => [i ? ", " : null, h("span", {class: "colourbrain-sol"}, swatch(c), ` ${c}`)])),
      h("p", {class: "projector-explanation"}, r.explanation),
      h("ul", {class: "projector-answers"}, v.names.map((name, t) => h("li", {},
        h("span", {class: "projector-team"}, name),
        r.answers[t] ? r.answers[t].map((c) => swatch(c))
          : h("em", {}, r.copiers_returned ? "Colour-Copier (given back)" : "nothing to copy"),
        h("strong", {"data-points": t}, ` +${r.points[t]}`)))),
      v.ahead ? h("p", {class: "projector-ahead", "data-testid": "ahead"},
        `Question ${v.ahead.number} is on the teams' screens: `,
        v.names.map((name, t) => `${name} ${v.ahead.answered[t] ? "✓" : "…"}`).join(", ")) : null,
      v.paced && v.then === "the next question" ? h("p", {class: "projector-ahead", "data-testid": "waiting"},
        "The teams' screens show this answer until you press Next.") : null,
      h("button", {class: "colourbrain-next projector-next", "data-key": "next", "data-action": "next",
                   onclick: () => send({type: "next"})}, v.then === "the winner" ? "Show the winner" : "Next question"));
  }

  function scoreboard(v) {
    const best = Math.max(1, v.goal);
    return h("div", {class: "colourbrain-scores projector-scores", role: "list", "aria-label": "Scores"},
      v.names.map((name, t) => h("div", {class: "colourbrain-score", role: "listitem"},
        h("span", {class: "colourbrain-name"}, name),
        h("span", {class: "colourbrain-bar"}, h("span", {style: `width: ${Math.min(100, 100 * v.scores[t] / best)}%`})),
        h("span", {"data-score": t}, String(v.scores[t])),
        v.copier ? h("span", {class: "colourbrain-copiercount"}, v.copiers[t] ? "copier ready" : "copier used")
          : null)));
  }

  function finalPanel(v) {
    return h("div", {class: "colourbrain-final", "data-testid": "final"},
      `Colour-Brain${v.winners.length > 1 ? "s" : ""}: ${v.winners.map((t) => v.names[t]).join(", ")}!`);
  }

  return listen(model, draw, notice);
}

export default { render };
