// dragonroll playground: reads the service's own OpenAPI document, edits a request as a form or as
// JSON, sends it, and shows the dice, the outcome and the narration. No framework, nothing fetched
// from another origin.

const ENVELOPE = new Set(["seed", "rng", "rules_version", "rolls", "unused_dice", "events", "foundry"]);
const RTL = new Set(["ar"]);
const $ = (id) => document.getElementById(id);

const state = {
  doc: null, // the OpenAPI document
  paths: [], // [{path, system, summary, description, example, requestSchema}]
  path: null,
  request: {},
  last: null, // the last answer's body
  oddsTimer: 0,
  oddsSeq: 0,
};

// ------------------------------------------------------------------ elements
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// ------------------------------------------------------------------ schemas
function deref(schema) {
  let s = schema || {};
  for (let i = 0; i < 20 && s.$ref; i++) {
    s = state.doc.components.schemas[s.$ref.split("/").pop()] || {};
  }
  return s;
}

// The branch of a union that fits `value`: the non-null one, or the one whose properties hold
// every key of the value (discriminated unions of steps, decisions, weapons ...).
function branch(schema, value) {
  const s = deref(schema);
  const options = s.anyOf || s.oneOf;
  if (!options) return s;
  const live = options.map(deref).filter((o) => o.type !== "null");
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const fit = live.find((o) => o.properties && keys.every((k) => k in o.properties) &&
      Object.entries(o.properties).every(([k, p]) => !(k in value) || deref(p).const === undefined || deref(p).const === value[k]));
    if (fit) return fit;
  }
  if (Array.isArray(value)) return live.find((o) => o.type === "array") || live[0] || s;
  if (typeof value === "number") return live.find((o) => o.type === "integer" || o.type === "number") || live[0] || s;
  if (typeof value === "string") return live.find((o) => o.type === "string") || live[0] || s;
  return live[0] || s;
}

function humanize(key) {
  return String(key).replace(/_/g, " ");
}

// ------------------------------------------------------------------ the form view
function renderForm() {
  const root = $("form-view");
  root.replaceChildren(objectFields(state.request, endpoint().requestSchema, [], "request"));
}

function setAt(path, value) {
  if (path.length === 0) {
    state.request = value;
  } else {
    let node = state.request;
    for (const key of path.slice(0, -1)) node = node[key];
    const last = path[path.length - 1];
    if (value === undefined) {
      if (Array.isArray(node)) node.splice(last, 1);
      else delete node[last];
    } else {
      node[last] = value;
    }
  }
  syncJson();
  scheduleOdds();
}

function fieldId(path) {
  return "f-" + path.join("-").replace(/[^A-Za-z0-9_-]/g, "_");
}

function objectFields(value, schema, path, label) {
  const s = branch(schema, value);
  const box = el("fieldset", {}, el("legend", { text: humanize(label) }));
  const props = s.properties || {};
  for (const [key, item] of Object.entries(value)) {
    const sub = props[key] || (typeof s.additionalProperties === "object" ? s.additionalProperties : {});
    box.append(field(item, sub, path.concat(key), key));
  }
  const missing = Object.keys(props).filter((k) => !(k in value));
  if (missing.length) {
    const pick = el("select", { id: fieldId(path.concat("add")), "aria-label": `Add a field to ${humanize(label)}` },
      el("option", { value: "", text: "Add a field…" }),
      ...missing.map((k) => el("option", { value: k, text: humanize(k) })));
    pick.addEventListener("change", () => {
      const key = pick.value;
      if (!key) return;
      value[key] = starter(props[key]);
      syncJson();
      renderForm();
      const added = document.getElementById(fieldId(path.concat(key)));
      if (added) added.focus();
    });
    box.append(el("div", { class: "row-actions" }, pick));
  }
  return box;
}

function starter(schema) {
  const s = branch(schema, undefined);
  if (s.default !== undefined && s.default !== null) return structuredClone(s.default);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (s.type) {
    case "integer": case "number": return Math.max(0, s.minimum ?? 0);
    case "boolean": return false;
    case "array": return [];
    case "object": return {};
    default: return "";
  }
}

function field(value, schema, path, key) {
  if (Array.isArray(value)) return arrayField(value, schema, path, key);
  if (value !== null && typeof value === "object") return objectFields(value, schema, path, key);
  return scalarField(value, schema, path, key);
}

function arrayField(value, schema, path, key) {
  const s = branch(schema, value);
  const items = s.items || {};
  const scalar = value.every((v) => v === null || typeof v !== "object");
  if (scalar && !(value.length === 0 && deref(items).type === "object")) {
    const id = fieldId(path);
    const numeric = ["integer", "number"].includes(branch(items, 0).type);
    const input = el("input", {
      type: "text", id, value: value.join(", "),
      inputmode: numeric ? "numeric" : null,
      "aria-describedby": id + "-help",
    });
    input.addEventListener("change", () => {
      const parts = input.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
      setAt(path, parts.map((p) => (numeric && /^-?\d+$/.test(p) ? Number(p) : p)));
    });
    return el("div", { class: "field" },
      el("label", { for: id, text: humanize(key) }),
      el("div", {}, input, el("span", { class: "help", id: id + "-help", text: " comma-separated" })));
  }
  const box = el("fieldset", {}, el("legend", { text: humanize(key) }));
  value.forEach((item, i) => {
    const part = field(item, items, path.concat(i), `${humanize(key)} ${i + 1}`);
    const remove = el("button", { type: "button", class: "small", text: `Remove ${humanize(key)} ${i + 1}` });
    remove.addEventListener("click", () => { setAt(path.concat(i), undefined); renderForm(); });
    part.append(el("div", { class: "row-actions" }, remove));
    box.append(part);
  });
  const add = el("button", { type: "button", class: "small", text: `Add to ${humanize(key)}` });
  add.addEventListener("click", () => {
    value.push(value.length ? structuredClone(value[value.length - 1]) : starter(items));
    setAt(path, value);
    renderForm();
  });
  box.append(el("div", { class: "row-actions" }, add));
  return box;
}

function scalarField(value, schema, path, key) {
  const s = branch(schema, value);
  const id = fieldId(path);
  const help = s.description ? id + "-help" : null;
  let input;
  if (s.enum || (s.anyOf && value === null)) {
    const options = s.enum || [];
    input = el("select", { id, "aria-describedby": help },
      ...options.map((o) => el("option", { value: o, text: humanize(o), selected: o === value })));
    input.addEventListener("change", () => setAt(path, input.value));
  } else if (s.type === "boolean" || typeof value === "boolean") {
    input = el("input", { type: "checkbox", id, checked: Boolean(value), "aria-describedby": help });
    input.addEventListener("change", () => setAt(path, input.checked));
  } else if (s.type === "integer" || s.type === "number" || typeof value === "number") {
    input = el("input", { type: "number", id, value, step: 1, min: s.minimum, max: s.maximum, "aria-describedby": help });
    input.addEventListener("change", () => {
      if (input.value === "") return;
      setAt(path, Number(input.value));
    });
  } else {
    input = el("input", { type: "text", id, value: value ?? "", "aria-describedby": help });
    input.addEventListener("change", () => setAt(path, input.value));
  }
  return el("div", { class: "field" },
    el("label", { for: id, text: humanize(key) }),
    el("div", {}, input, help ? el("span", { class: "visually-hidden", id: help, text: s.description }) : null));
}

// ------------------------------------------------------------------ the JSON view and tabs
function syncJson() {
  $("json").value = JSON.stringify(state.request, null, 2);
  $("json-error").textContent = "";
}

function readJson() {
  try {
    const value = JSON.parse($("json").value);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new Error("the request must be a JSON object");
    }
    state.request = value;
    $("json-error").textContent = "";
    return true;
  } catch (err) {
    $("json-error").textContent = `The JSON is not valid: ${err.message}`;
    return false;
  }
}

function selectTab(which) {
  const form = which === "form";
  if (form && !readJson()) return;
  $("tab-form").setAttribute("aria-selected", String(form));
  $("tab-json").setAttribute("aria-selected", String(!form));
  $("tab-form").tabIndex = form ? 0 : -1;
  $("tab-json").tabIndex = form ? -1 : 0;
  $("form-view").hidden = !form;
  $("json-view").hidden = form;
  if (form) renderForm();
  (form ? $("tab-form") : $("tab-json")).focus();
}

// ------------------------------------------------------------------ endpoints
function endpoint() {
  return state.paths.find((p) => p.path === state.path);
}

function loadDoc(doc) {
  state.doc = doc;
  for (const [path, ops] of Object.entries(doc.paths)) {
    const op = ops.post;
    if (!op || !op.requestBody || path.endsWith("/odds") || path.includes("/odds/")) continue;
    const media = op.requestBody.content["application/json"] || {};
    state.paths.push({
      path,
      system: (op.tags || ["other"])[0],
      summary: op.summary || path,
      description: op.description || "",
      example: media.example || Object.values(media.examples || {}).map((e) => e.value)[0] || {},
      requestSchema: media.schema || {},
    });
  }
  const systems = [...new Set(state.paths.map((p) => p.system))];
  $("system").replaceChildren(...systems.map((s) => el("option", { value: s, text: s })));
}

function pickSystem() {
  const system = $("system").value;
  const eps = state.paths.filter((p) => p.system === system);
  $("endpoint").replaceChildren(...eps.map((p) => el("option", { value: p.path, text: `${p.path} · ${p.summary}` })));
  pickEndpoint();
}

function pickEndpoint() {
  state.path = $("endpoint").value;
  const ep = endpoint();
  $("summary").textContent = ep.summary;
  state.request = structuredClone(ep.example);
  syncJson();
  renderForm();
  const url = new URL(location.href);
  url.hash = state.path;
  history.replaceState(null, "", url);
  scheduleOdds();
}

// ------------------------------------------------------------------ sending
function lang() {
  return $("lang").value;
}

async function send() {
  if (!$("json-view").hidden && !readJson()) return;
  const button = $("send");
  button.disabled = true;
  $("result").setAttribute("aria-busy", "true");
  try {
    const response = await fetch(state.path, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": lang() },
      body: JSON.stringify(state.request),
    });
    const body = await response.json();
    showResult(response, body);
  } catch (err) {
    $("result").replaceChildren(el("p", { class: "status bad", text: `The service did not answer: ${err.message}` }));
  } finally {
    button.disabled = false;
    $("result").removeAttribute("aria-busy");
  }
}

function replay() {
  if (!state.last) return;
  state.request.seed = state.last.seed;
  syncJson();
  renderForm();
  send();
}

function curlCommand() {
  const quote = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  return [
    `curl -s ${location.origin}${state.path}`,
    `-H 'content-type: application/json'`,
    `-H 'accept-language: ${lang()}'`,
    `-d ${quote(JSON.stringify(state.request))}`,
  ].join(" \\\n  ");
}

async function copyCurl() {
  if (!$("json-view").hidden && !readJson()) return;
  const text = curlCommand();
  $("curl").textContent = text;
  $("curl").hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $("copy-curl").textContent = "Copied";
  } catch {
    $("copy-curl").textContent = "Shown below (copy it by hand)";
  }
  setTimeout(() => { $("copy-curl").textContent = "Copy as curl"; }, 2500);
}

// ------------------------------------------------------------------ showing a result
function showResult(response, body) {
  const out = $("result");
  if (!response.ok) {
    state.last = null;
    const errors = (body.errors || []).map((e) => el("li", {}, el("code", { text: (e.loc || []).join(".") }), ` ${e.msg}`));
    out.replaceChildren(
      el("p", { class: "status bad", text: `${response.status} ${body.title || ""}` }),
      el("p", { text: body.detail || "" }),
      errors.length ? el("ul", {}, errors) : null,
    );
    return;
  }
  state.last = body;
  const language = response.headers.get("content-language") || lang();
  out.replaceChildren(
    el("p", { class: "status ok", text: headline(body) }),
    outcome(body),
    el("h3", { text: "Dice" }),
    dice(body),
    el("h3", { text: "What happened" }),
    narration(body, language),
    el("div", { class: "seed-row" },
      el("span", { text: "Seed:" }), el("code", { id: "seed", text: String(body.seed) }),
      el("button", { type: "button", id: "replay", text: "Replay", onclick: replay })),
    el("details", {}, el("summary", { text: "The whole answer (JSON)" }),
      el("pre", { text: JSON.stringify(body, null, 2) })),
  );
}

function shown(value) {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return humanize(String(value));
}

function headline(body) {
  for (const key of ["outcome", "winner", "hit", "success"]) {
    if (key in body && body[key] !== null && typeof body[key] !== "object") return `${humanize(key)}: ${shown(body[key])}`;
  }
  return "Resolved";
}

function outcome(body) {
  const list = el("dl", { class: "outcome" });
  for (const [key, value] of Object.entries(body)) {
    if (ENVELOPE.has(key)) continue;
    if (value === null || typeof value !== "object") {
      list.append(el("dt", { text: humanize(key) }), el("dd", { text: shown(value) }));
    } else if (!Array.isArray(value)) {
      const parts = Object.entries(value)
        .filter(([, v]) => v !== null && typeof v !== "object")
        .map(([k, v]) => `${humanize(k)} ${shown(v)}`);
      if (parts.length) list.append(el("dt", { text: humanize(key) }), el("dd", { text: parts.join(", ") }));
    }
  }
  return list;
}

// DoS pools carry each die's fate: walk the answer for {slot, dice: [{value, cancelled, extra}]}.
function poolsBySlot(body) {
  const pools = new Map();
  const walk = (node) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== "object") return;
    if (typeof node.slot === "string" && Array.isArray(node.dice) && node.dice.length > 0 && node.dice.every((d) => d && typeof d === "object" && "cancelled" in d)) {
      pools.set(node.slot, node.dice);
    }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return pools;
}

// 5e rolls with advantage or disadvantage carry {d20s: [a, b], natural}: the other die is dropped.
function droppedD20s(body) {
  const pairs = [];
  const walk = (node) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node.d20s) && node.d20s.length === 2 && typeof node.natural === "number") {
      pairs.push({ values: node.d20s, dropped: node.d20s[0] === node.natural ? 1 : 0 });
    }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return pairs;
}

function markDropped(group, pairs) {
  const marks = new Array(group.length).fill(false);
  for (const pair of pairs) {
    for (let i = 0; i + 1 < group.length; i++) {
      if (group[i].sides === 20 && group[i].value === pair.values[0] && group[i + 1].value === pair.values[1] && !marks[i] && !marks[i + 1]) {
        marks[i + pair.dropped] = true;
        pair.used = true;
        break;
      }
    }
  }
  return marks;
}

function dice(body) {
  const rolls = body.rolls || [];
  if (!rolls.length) return el("p", { class: "help", text: "No dice were needed." });
  const pools = poolsBySlot(body);
  const pairs = droppedD20s(body);
  const groups = new Map();
  for (const roll of rolls) {
    if (!groups.has(roll.slot)) groups.set(roll.slot, []);
    groups.get(roll.slot).push(roll);
  }
  const box = el("div", {});
  for (const [slot, group] of groups) {
    const fates = pools.get(slot) || [];
    const dropped = markDropped(group, pairs.filter((p) => !p.used));
    const items = group.map((roll, i) => die(roll, fates[i], dropped[i]));
    box.append(el("div", { class: "dice-group" },
      el("h4", { text: slot }),
      el("ul", { class: "dice", "aria-label": `dice of ${slot}` }, items)));
  }
  return box;
}

function die(roll, fate, dropped) {
  const classes = ["die"];
  const words = [`${roll.value} on a d${roll.sides}`];
  let face = el("span", { text: String(roll.value) });
  if (roll.source === "dice") { classes.push("scripted"); words.push("scripted"); }
  if (dropped) { classes.push("dropped"); words.push("dropped"); }
  if (fate && fate.cancelled) { classes.push("cancelled"); words.push("cancelled"); face = el("del", { text: String(roll.value) }); }
  else if (fate && fate.extra) { classes.push("extra"); words.push("extra die"); }
  if (fate && !fate.cancelled && !fate.extra && roll.value === roll.sides && roll.sides === 10) {
    classes.push("exploded"); words.push("exploded");
  }
  return el("li", { class: classes.join(" "), title: words.join(", "), "aria-label": words.join(", ") },
    face, el("span", { class: "sides", "aria-hidden": "true", text: `d${roll.sides}` }));
}

function narration(body, language) {
  const events = body.events || [];
  const dir = RTL.has(language) ? "rtl" : "ltr";
  return el("ol", { class: "narration", lang: language, dir },
    events.map((e) => el("li", { text: e.text })));
}

// ------------------------------------------------------------------ odds (when the service has them)
// The odds of an endpoint: `/<system>/odds/<kind>` (a DoS test, a 5e attack), else `/<system>/odds`
// when that takes one question only (the dragon battle, the riders' combat). A `/<system>/odds` that
// takes several (its body is `anyOf` their requests) has each at its own path, tried first; the
// system's other endpoints (a DoS roll, a 5e turn) have no odds.
function oddsPath() {
  const system = state.path.split("/")[1];
  const doc = state.doc.paths;
  const kind = state.path.split("/")[2];
  const own = doc[`/${system}/odds/${kind}`];
  if (own && own.post) return `/${system}/odds/${kind}`;
  const shared = doc[`/${system}/odds`] && doc[`/${system}/odds`].post;
  const schema = shared && shared.requestBody && shared.requestBody.content["application/json"].schema;
  return schema && !schema.anyOf ? `/${system}/odds` : null;
}

function scheduleOdds() {
  clearTimeout(state.oddsTimer);
  state.oddsTimer = setTimeout(fetchOdds, 300);
}

async function fetchOdds() {
  const path = state.path && oddsPath();
  const panel = $("odds");
  if (!path) { panel.hidden = true; return; }
  const body = structuredClone(state.request);
  delete body.seed;
  delete body.dice;
  const seq = ++state.oddsSeq;
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": lang() },
      body: JSON.stringify(body),
    });
    const odds = await response.json();
    if (seq !== state.oddsSeq) return;
    panel.hidden = false;
    $("odds-body").replaceChildren(response.ok ? oddsView(odds) : el("p", { class: "help", text: odds.detail || "No odds for this request." }));
  } catch {
    panel.hidden = true;
  }
}

// Every {p, exact} in the answer becomes a row; the first distribution ([{value, p}]) a bar chart.
function oddsView(odds) {
  const rows = [];
  let chart = null;
  const walk = (node, label) => {
    if (!node || typeof node !== "object") return;
    if (typeof node.p === "number" && typeof node.exact === "string" && !("value" in node)) {
      rows.push([label, node.p]);
      return;
    }
    if (Array.isArray(node)) {
      if (!chart && node.length && node.every((x) => x && "value" in x && x.p !== undefined)) chart = [label, node];
      return;
    }
    for (const [key, value] of Object.entries(node)) walk(value, label ? `${label} · ${humanize(key)}` : humanize(key));
  };
  walk(odds, "");
  const table = el("table", {}, el("tbody", {}, rows.slice(0, 24).map(([label, p]) =>
    el("tr", {}, el("th", { scope: "row", text: label }), el("td", { class: "num", text: percent(p) })))));
  return el("div", {}, table, chart ? barChart(chart[0], chart[1]) : null);
}

function percent(p) {
  return (100 * p).toLocaleString(lang(), { maximumFractionDigits: p < 0.01 ? 3 : 1 }) + "%";
}

function barChart(label, points) {
  const ns = "http://www.w3.org/2000/svg";
  const shown = points.slice(0, 60);
  const pOf = (x) => (typeof x.p === "number" ? x.p : x.p.p);
  const top = Math.max(...shown.map(pOf), 1e-9);
  const width = 400;
  const height = 120;
  const bar = width / shown.length;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height + 14}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Distribution of ${label}`);
  shown.forEach((x, i) => {
    const h = (pOf(x) / top) * height;
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", String(i * bar + 0.5));
    rect.setAttribute("y", String(height - h));
    rect.setAttribute("width", String(Math.max(bar - 1, 0.5)));
    rect.setAttribute("height", String(h));
    const title = document.createElementNS(ns, "title");
    title.textContent = `${x.value}: ${percent(pOf(x))}`;
    rect.append(title);
    svg.append(rect);
    if (shown.length <= 20 || i % Math.ceil(shown.length / 10) === 0) {
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", String(i * bar + bar / 2));
      text.setAttribute("y", String(height + 11));
      text.setAttribute("text-anchor", "middle");
      text.textContent = String(x.value);
      svg.append(text);
    }
  });
  return el("figure", {}, svg, el("figcaption", { class: "help", text: `Distribution of ${label}` }));
}

// ------------------------------------------------------------------ start
async function start() {
  const response = await fetch("/openapi.json");
  loadDoc(await response.json());
  const wanted = decodeURIComponent(location.hash.slice(1));
  const start = state.paths.find((p) => p.path === wanted) || state.paths[0];
  $("system").value = start.system;
  pickSystem();
  $("endpoint").value = start.path;
  pickEndpoint();
  const preferred = (navigator.language || "en").slice(0, 2);
  if ([...$("lang").options].some((o) => o.value === preferred)) $("lang").value = preferred;

  $("system").addEventListener("change", pickSystem);
  $("endpoint").addEventListener("change", pickEndpoint);
  $("lang").addEventListener("change", scheduleOdds);
  $("send").addEventListener("click", send);
  $("reset").addEventListener("click", pickEndpoint);
  $("copy-curl").addEventListener("click", copyCurl);
  $("tab-form").addEventListener("click", () => selectTab("form"));
  $("tab-json").addEventListener("click", () => selectTab("json"));
  for (const tab of [$("tab-form"), $("tab-json")]) {
    tab.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        selectTab(tab.id === "tab-form" ? "json" : "form");
      }
    });
  }
  $("json").addEventListener("input", () => { if (readJson()) scheduleOdds(); });
  $("json").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) send();
  });
}

start().catch((err) => {
  $("result").replaceChildren(el("p", { class: "status bad", text: `The playground could not start: ${err.message}` }));
});
