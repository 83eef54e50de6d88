// The teacher key, asked for by every page that is the teacher's alone (the teacher's page, the projector page).
// The key goes to Python, which checks it; the page only draws what the kernel says the gate is.

const SEALED = "This page stays locked: the class's server was started without a teacher key.";

function keyGate(model, send, title) {
  if (model.get("gate") === "sealed") return h("p", {class: "teacher-sealed"}, SEALED);
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
