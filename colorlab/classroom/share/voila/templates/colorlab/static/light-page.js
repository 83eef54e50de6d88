// colorlab's light class page: a small widget page of its own in place of Voila's JupyterLab front end.
//
// The page's kernel already ran the notebook (the class server sends the page once it has); the page holds, for each
// widget shown, an empty place naming its model. This script opens the page's websocket to that kernel (Jupyter's
// kernel protocol, JSON frames), asks the kernel for every widget's state in one message (ipywidgets' control comm),
// and draws them: every anywidget (its module and stylesheet come with its state) and the few ipywidgets controls the
// class pages use (boxes, HTML, buttons, text and number fields, drop-downs, check boxes). Changes go both ways as
// ipywidgets' own front end sends them, so the kernel cannot tell the two apart.
//
// For the widgets' own scripts it offers what anywidget offers (model.get/set/save_changes/send/on/off and
// model.widget_manager.kernel.connectionStatusChanged), so a widget runs unchanged here, in Voila and in JupyterLab.

const CONTROL_PROTOCOL = "1.0.0";  // ipywidgets' control comm, which sends every widget's state at once
const RECONNECT_MS = 2000;  // a lost websocket is opened again this often (the server keeps the messages meanwhile)
const CONTROL = "jupyter.widget.control";
const REFERENCE = "IPY_MODEL_";

// A fresh id: a class server on the local network is plain http, where browsers offer no crypto.randomUUID.
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const config = JSON.parse(document.getElementById("jupyter-config-data")?.textContent ?? "{}");
const session = newId();

const SUBPROTOCOL = "v1.kernel.websocket.jupyter.org";  // Jupyter's binary framing, as JupyterLab's own pages use
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function message(type, content, metadata = {}) {
  return {
    header: {msg_id: newId(), msg_type: type, session, username: "", date: new Date().toISOString(),
             version: "5.3"},
    parent_header: {}, metadata, content,
  };
}

// A frame in the v1 framing: how many offsets (8 bytes, little-endian), the offsets, then the channel's name, the
// header, parent header, metadata and content as JSON, and any binary buffers.
function pack(channel, msg) {
  const parts = [channel, msg.header, msg.parent_header, msg.metadata, msg.content]
    .map((part, index) => encoder.encode(index ? JSON.stringify(part) : part));
  const start = 8 * (parts.length + 2);
  const frame = new Uint8Array(start + parts.reduce((total, part) => total + part.length, 0));
  const view = new DataView(frame.buffer);
  view.setBigUint64(0, BigInt(parts.length + 1), true);
  let offset = start;
  parts.forEach((part, index) => {
    view.setBigUint64(8 * (index + 1), BigInt(offset), true);
    frame.set(part, offset);
    offset += part.length;
  });
  view.setBigUint64(8 * (parts.length + 1), BigInt(offset), true);
  return frame;
}

function unpack(data) {
  const view = new DataView(data);
  const count = Number(view.getBigUint64(0, true));
  const offsets = Array.from({length: count}, (_, index) => Number(view.getBigUint64(8 * (index + 1), true)));
  const piece = (index) => data.slice(offsets[index], offsets[index + 1]);
  const json = (index) => JSON.parse(decoder.decode(piece(index)));
  return {
    channel: decoder.decode(piece(0)), header: json(1), parent_header: json(2), metadata: json(3), content: json(4),
    buffers: offsets.slice(6).map((_, index) => new DataView(piece(index + 5))),
  };
}

// Put binary buffers back where a state's buffer paths say they were.
function withBuffers(state, paths = [], buffers = []) {
  paths.forEach((path, index) => {
    let place = state;
    path.slice(0, -1).forEach((key) => { place = place[key]; });
    place[path[path.length - 1]] = buffers[index];
  });
  return state;
}

// A listener list in Lumino's shape (`connect`), which the widgets' shared script watches the connection with.
class Signal {
  constructor(sender) { this.sender = sender; this.slots = new Set(); }
  connect(slot) { this.slots.add(slot); return true; }
  disconnect(slot) { return this.slots.delete(slot); }
  emit(value) { this.slots.forEach((slot) => slot(this.sender, value)); }
}

// The page's kernel: one websocket, opened again after a blip with the same session (the server then replays what
// it kept meanwhile).
class Kernel {
  constructor(manager) {
    this.manager = manager;
    this.id = config.kernelId;
    this.connectionStatus = "connecting";
    this.connectionStatusChanged = new Signal(this);
    this.queue = [];
    this.open();
  }
  open() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const token = config.token ? `&token=${encodeURIComponent(config.token)}` : "";
    const path = `${config.baseUrl}api/kernels/${encodeURIComponent(this.id)}/channels?session_id=${session}${token}`;
    this.socket = new WebSocket(`${scheme}//${window.location.host}${path}`, [SUBPROTOCOL]);
    this.socket.binaryType = "arraybuffer";
    this.socket.onopen = () => {
      this.status("connected");
      this.queue.splice(0).forEach((frame) => this.socket.send(frame));
    };
    this.socket.onmessage = (event) => this.manager.take(unpack(event.data));
    this.socket.onclose = () => {
      this.status("connecting");
      setTimeout(() => this.open(), RECONNECT_MS);
    };
  }
  status(now) {
    if (now === this.connectionStatus) return;
    this.connectionStatus = now;
    this.connectionStatusChanged.emit(now);
  }
  send(kind, content, metadata = {}) {
    const frame = pack("shell", message(kind, content, metadata));
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
    else this.queue.push(frame);
  }
}

// One widget's model, as anywidget's scripts see it.
class Model {
  constructor(manager, id, state) {
    this.widget_manager = manager;
    this.model_id = id;
    this.attributes = state;
    this.unsaved = {};
    this.listeners = new Map();
  }
  get(name) { return this.attributes[name]; }
  set(name, value) {
    const changes = typeof name === "object" && name !== null ? name : {[name]: value};
    Object.assign(this.unsaved, changes);
    this.apply(changes);
  }
  save_changes() {
    const state = this.unsaved;
    this.unsaved = {};
    if (Object.keys(state).length) this.comm({method: "update", state, buffer_paths: []});
  }
  send(content) { this.comm({method: "custom", content}); }
  comm(data) { this.widget_manager.kernel.send("comm_msg", {comm_id: this.model_id, data}); }
  on(event, callback) {
    event.split(" ").forEach((name) => {
      if (!this.listeners.has(name)) this.listeners.set(name, new Set());
      this.listeners.get(name).add(callback);
    });
  }
  off(event, callback) {
    if (!event) { this.listeners.clear(); return; }
    event.split(" ").forEach((name) => {
      if (callback) this.listeners.get(name)?.delete(callback);
      else this.listeners.delete(name);
    });
  }
  emit(event, ...values) { [...(this.listeners.get(event) ?? [])].forEach((callback) => callback(...values)); }
  apply(changes) {
    const changed = Object.keys(changes).filter((name) => this.attributes[name] !== changes[name]);
    Object.assign(this.attributes, changes);
    changed.forEach((name) => this.emit(`change:${name}`, this, changes[name]));
    if (changed.length) this.emit("change", this);
  }
}

// The page's models, by id, and what is waiting for one not there yet.
class Manager {
  constructor() {
    this.models = new Map();
    this.waiting = new Map();
    this.kernel = new Kernel(this);
    this.control = newId();
    this.ready = new Promise((resolve) => { this.loaded = resolve; });
    this.kernel.send("comm_open", {comm_id: this.control, target_name: CONTROL, data: {}}, {version: CONTROL_PROTOCOL});
    this.kernel.send("comm_msg", {comm_id: this.control, data: {method: "request_states"}});
  }
  get_model(id) {
    if (this.models.has(id)) return Promise.resolve(this.models.get(id));
    if (!this.waiting.has(id)) {
      let resolve;
      const promise = new Promise((done) => { resolve = done; });
      this.waiting.set(id, {promise, resolve});
    }
    return this.waiting.get(id).promise;
  }
  add(id, state) {
    const model = new Model(this, id, state);
    this.models.set(id, model);
    this.waiting.get(id)?.resolve(model);
    this.waiting.delete(id);
    return model;
  }
  take(msg) {
    const content = msg.content ?? {};
    const kind = msg.header?.msg_type;
    if (kind === "comm_open" && content.target_name === "jupyter.widget") {
      const data = content.data ?? {};
      this.add(content.comm_id, withBuffers(data.state ?? {}, data.buffer_paths, msg.buffers));
    } else if (kind === "comm_msg" && content.comm_id === this.control) {
      const data = content.data ?? {};
      if (data.method !== "update_states") return;
      const states = withBuffers(data.states ?? {}, data.buffer_paths, msg.buffers);
      Object.entries(states).forEach(([id, entry]) => {
        if (!this.models.has(id)) this.add(id, entry.state ?? {});
      });
      this.kernel.send("comm_close", {comm_id: this.control, data: {}});
      this.loaded();
    } else if (kind === "comm_msg") {
      const model = this.models.get(content.comm_id);
      const data = content.data ?? {};
      if (!model) return;
      if (data.method === "update") model.apply(withBuffers(data.state ?? {}, data.buffer_paths, msg.buffers));
      else if (data.method === "custom") model.emit("msg:custom", data.content, msg.buffers ?? []);
    } else if (kind === "comm_close") {
      const model = this.models.get(content.comm_id);
      this.models.delete(content.comm_id);
      model?.emit("destroy");
    }
  }
}

// --- Drawing ------------------------------------------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  Object.entries(attributes).forEach(([name, value]) => {
    if (value !== null && value !== undefined && value !== false) made.setAttribute(name, value === true ? "" : value);
  });
  made.append(...children.filter((child) => child !== null && child !== undefined));
  return made;
}

const LAYOUT = ["align_content", "align_items", "align_self", "border_top", "border_right", "border_bottom",
  "border_left", "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow",
  "grid_auto_rows", "grid_gap", "grid_template_areas", "grid_template_columns", "grid_template_rows", "height",
  "justify_content", "justify_items", "left", "margin", "max_height", "max_width", "min_height", "min_width",
  "object_fit", "object_position", "order", "overflow", "padding", "right", "top", "visibility", "width"];
const STYLE = {button_color: "backgroundColor", font_weight: "fontWeight", text_color: "color", font_size: "fontSize",
  background: "backgroundColor"};
const camel = (name) => name.replace(/_(.)/g, (_, letter) => letter.toUpperCase());

// Follow a model's layout and style (each a model of its own) onto an element; return what stops following.
async function dress(model, root, styled = root) {
  const stops = [];
  const follow = async (trait, draw) => {
    const reference = model.get(trait);
    if (typeof reference !== "string" || !reference.startsWith(REFERENCE)) return;
    const other = await model.widget_manager.get_model(reference.slice(REFERENCE.length));
    const redraw = () => draw(other);
    redraw();
    other.on("change", redraw);
    stops.push(() => other.off("change", redraw));
  };
  await follow("layout", (layout) => LAYOUT.forEach((name) => {
    root.style[camel(name)] = layout.get(name) ?? "";
  }));
  await follow("style", (style) => {
    Object.entries(STYLE).forEach(([name, property]) => {
      if (style.get(name) !== undefined) styled.style[property] = style.get(name) ?? "";
    });
    const width = style.get("description_width");
    if (width) root.style.setProperty("--colorlab-label-width", ["initial", "auto"].includes(width) ? "auto" : width);
  });
  const classes = () => {
    root.classList.remove(...(root.colorlabClasses ?? []));
    root.colorlabClasses = model.get("_dom_classes") ?? [];
    root.classList.add(...root.colorlabClasses);
  };
  classes();
  model.on("change:_dom_classes", classes);
  stops.push(() => model.off("change:_dom_classes", classes));
  return () => stops.forEach((stop) => stop());
}

// A control's label (its description), tied to its input by id.
let labels = 0;
function labelled(model, input) {
  input.id = `colorlab-control-${++labels}`;
  const label = element("label", {class: "widget-label", for: input.id});
  const draw = () => {
    label.textContent = model.get("description") ?? "";
    label.title = model.get("tooltip") ?? label.textContent;
    label.hidden = !label.textContent;
  };
  draw();
  model.on("change:description change:tooltip", draw);
  return label;
}

function boxView(kind) {
  return (model, root) => {
    root.className = `widget-container widget-box${kind ? ` widget-${kind}box` : ""}`;
    const shown = new Map();  // child model id -> its view
    let version = 0;
    const draw = async () => {
      const mine = ++version;
      const ids = (model.get("children") ?? []).map((child) => child.slice(REFERENCE.length));
      const children = await Promise.all(ids.map((id) => model.widget_manager.get_model(id)));
      if (mine !== version) return;
      ids.forEach((id, index) => { if (!shown.has(id)) shown.set(id, view(children[index])); });
      [...shown.keys()].filter((id) => !ids.includes(id)).forEach((id) => {
        shown.get(id).remove();
        shown.delete(id);
      });
      root.replaceChildren(...ids.map((id) => shown.get(id).el));
    };
    const style = () => {
      root.classList.remove("alert-success", "alert-info", "alert-warning", "alert-danger");
      if (model.get("box_style")) root.classList.add(`alert-${model.get("box_style")}`);
    };
    model.on("change:children", draw);
    model.on("change:box_style", style);
    draw();
    style();
    return () => {
      model.off("change:children", draw);
      model.off("change:box_style", style);
      shown.forEach((child) => child.remove());
    };
  };
}

function htmlView(model, root) {
  root.className = "widget-inline-hbox widget-html";
  const content = element("div", {class: "widget-html-content"});
  const draw = () => { content.innerHTML = model.get("value") ?? ""; };
  const label = element("label", {class: "widget-label"});
  const describe = () => { label.textContent = model.get("description") ?? ""; label.hidden = !label.textContent; };
  draw();
  describe();
  root.append(label, content);
  model.on("change:value", draw);
  model.on("change:description", describe);
  return () => { model.off("change:value", draw); model.off("change:description", describe); };
}

function buttonView(model, root) {
  const button = element("button", {class: "jupyter-button widget-button", type: "button"});
  root.className = "widget-button-holder";
  root.append(button);
  const draw = () => {
    button.textContent = model.get("description") ?? "";
    button.title = model.get("tooltip") ?? "";
    button.disabled = Boolean(model.get("disabled"));
    button.className = "jupyter-button widget-button";
    if (model.get("button_style")) button.classList.add(`mod-${model.get("button_style")}`);
  };
  draw();
  button.addEventListener("click", () => model.send({event: "click"}));
  model.on("change", draw);
  return () => model.off("change", draw);
}

// Text, number, drop-down and check-box fields: a label and one input, written back to the kernel as the learner
// leaves it (or on each key when the field asks for it).
function fieldView(kind) {
  return (model, root) => {
    root.className = `widget-inline-hbox widget-${kind}`;
    const input = kind === "dropdown" ? element("select") : element("input", {
      type: {text: "text", floattext: "number", checkbox: "checkbox"}[kind],
    });
    const label = labelled(model, input);
    const read = () => {
      if (kind === "checkbox") return {value: input.checked};
      if (kind === "dropdown") return {index: input.selectedIndex < 0 ? null : input.selectedIndex};
      if (kind === "floattext") {
        const number = Number.parseFloat(input.value);
        return Number.isFinite(number) ? {value: number} : null;
      }
      return {value: input.value};
    };
    const write = () => {
      const changes = read();
      if (changes === null) { draw(); return; }  // not a number: the field shows its value again
      model.set(changes);
      model.save_changes();
    };
    const draw = () => {
      input.disabled = Boolean(model.get("disabled"));
      input.title = model.get("tooltip") ?? "";
      if (kind === "checkbox") input.checked = Boolean(model.get("value"));
      else if (kind === "dropdown") {
        const labelsNow = model.get("_options_labels") ?? [];
        if (input.options.length !== labelsNow.length || [...input.options].some((o, i) => o.text !== labelsNow[i])) {
          input.replaceChildren(...labelsNow.map((text, index) => element("option", {value: index}, text)));
        }
        input.selectedIndex = model.get("index") ?? -1;
      } else {
        if (kind === "floattext" && model.get("step") !== undefined) input.step = model.get("step") ?? "any";
        if (document.activeElement !== input || String(model.get("value")) !== input.value) {
          input.value = model.get("value") ?? "";
        }
        input.placeholder = model.get("placeholder") ?? "";
      }
    };
    draw();
    const continuous = kind === "text" && model.get("continuous_update");
    input.addEventListener(kind === "checkbox" || kind === "dropdown" ? "change" : continuous ? "input" : "change",
                           write);
    if (kind === "text") {
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") model.send({event: "submit"});
      });
    }
    if (kind === "checkbox") {
      root.classList.toggle("mod-indent", Boolean(model.get("indent")));
      root.append(element("span", {class: "widget-label-indent"}), input, label);
    } else root.append(label, input);
    model.on("change", draw);
    return () => model.off("change", draw);
  };
}

// anywidget's protocol: the module text in `_esm`, its stylesheet in `_css` (one per widget class), `initialize`
// once per model and `render` once per view.
const modules = new Map();
function moduleOf(text) {
  if (!modules.has(text)) {
    const address = URL.createObjectURL(new Blob([text], {type: "text/javascript"}));
    modules.set(text, import(address).then((loaded) => {
      const made = loaded.default ?? loaded;
      return typeof made === "function" ? made() : made;
    }));
  }
  return modules.get(text);
}

function styleSheetOf(model) {
  const id = `colorlab-css-${model.get("_anywidget_id") ?? model.model_id}`;
  let sheet = document.getElementById(id);
  if (!sheet) {
    sheet = element("style", {id});
    document.head.append(sheet);
  }
  const draw = () => { sheet.textContent = model.get("_css") ?? ""; };
  draw();
  model.on("change:_css", draw);
}

const initialized = new WeakMap();
function anyView(model, root) {
  root.className = "colorlab-anywidget";
  let cleanup = null;
  let gone = false;
  (async () => {
    styleSheetOf(model);
    const widget = await moduleOf(model.get("_esm") ?? "");
    if (!initialized.has(model)) initialized.set(model, Promise.resolve(widget.initialize?.({model, experimental: {}})));
    await initialized.get(model);
    if (gone) return;
    cleanup = await widget.render?.({model, el: root, experimental: {}});
  })().catch((error) => {
    console.error("colorlab: a widget could not be drawn", error);
    root.replaceChildren(element("p", {class: "colorlab-page-error", role: "alert"},
                                 "This part of the page could not be drawn. Reload the page, or ask your teacher."));
  });
  return () => {
    gone = true;
    if (typeof cleanup === "function") cleanup();
  };
}

const VIEWS = {
  BoxModel: boxView(""), VBoxModel: boxView("v"), HBoxModel: boxView("h"), HTMLModel: htmlView,
  ButtonModel: buttonView, TextModel: fieldView("text"), FloatTextModel: fieldView("floattext"),
  DropdownModel: fieldView("dropdown"), CheckboxModel: fieldView("checkbox"), AnyModel: anyView,
};

// One view of a model: its element and how to take it away.
function view(model) {
  const root = element("div");
  const draw = VIEWS[model.get("_model_name")];
  if (!draw) {
    console.error("colorlab: no light view for", model.get("_model_name"));
    return {el: root, remove: () => root.remove()};
  }
  const stops = [draw(model, root)];
  dress(model, root).then((stop) => stops.push(stop));
  const gone = () => root.remove();
  model.on("destroy", gone);
  return {
    el: root,
    remove() {
      model.off("destroy", gone);
      stops.forEach((stop) => typeof stop === "function" && stop());
      root.remove();
    },
  };
}

const manager = new Manager();
window.colorlabWidgets = manager;  // for a look from the browser's console
manager.ready.then(() => {
  document.querySelectorAll(".colorlab-slot[data-model-id]").forEach(async (slot) => {
    const model = await manager.get_model(slot.dataset.modelId);
    slot.replaceChildren(view(model).el);
  });
});
