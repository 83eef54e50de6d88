// The teacher key, asked for by every page that is the teacher's alone (the teacher's page, the projector page).
// The key goes to Python, which checks it; the page only draws what the kernel says the gate is.

const SEALED = "This page stays locked: the class's server was started without a teacher key.";

// On a school's hub the hub knows who the teacher is: the page says hello once, and opens if they teach the class.
const saidHello = new WeakSet();

function keyGate(model, send, title) {
  if (model.get("gate") === "sealed") return h("p", {class: "teacher-sealed"}, SEALED);
  if (model.get("gate") === "hub") {
    if (!saidHello.has(model)) {
      saidHello.add(model);
      setTimeout(() => send({type: "key", key: ""}), 0);
    }
    return h("p", {class: "teacher-key", role: "status"}, h("strong", {}, title), ": checking that you teach this class…");
  }
  const input = h("input", {type: "password", autocomplete: "off", "data-key": "teacher-key", id: "teacher-key",
                            "aria-label": "Teacher key"});
  const submit = (event) => {
    event.preventDefault();
    send({type: "key", key: input.value});
    input.value = "";
  };
  return h("form", {class: "teacher-key", "data-testid": "key-form", onsubmit: submit},
    h("p", {}, h("strong", {}, title)),
    h("label", {for: "teacher-key"}, "Teacher key "), input,
    h("button", {type: "submit", "data-action": "unlock"}, "Open"));
}
