// dragonroll playground: reads the systems from `GET /systems` (discover()), edits a request as a form
// or as JSON, sends it, and shows what the answer means (its outcome, a table in words, win rates,
// odds) with the dice and the narration. The page's own texts come from its catalogs
// (i18n/<lang>.json, compiled from service/locale/*/LC_MESSAGES/playground.po); the systems' names
// from `GET /systems`; an answer's outcome from its own events, already in the reader's language. No
// framework, nothing fetched from another origin.

const ENVELOPE = new Set(["seed", "rng", "rules_version", "rolls", "unused_dice", "events", "foundry"]);
const $ = (id) => document.getElementById(id);

const state = {
  doc: null, // the OpenAPI document
  systems: [], // GET /systems: [{id, name: {lang: name}, languages, endpoints}]
  paths: [], // [{path, system, summary, example, requestSchema, odds, outcome}]
  path: null,
  request: {},
  last: null, // the last answer: {status, ok, body, language}
  odds: null, // the last odds answer shown
  oddsTimer: 0,
  oddsSeq: 0,
};

// ------------------------------------------------------------------ texts
// `t("English text", {name: value})` is the text in the chosen language (the English when the
// catalog has none), `{name}` filled in; `N_("...")` only marks a text for extraction.
const N_ = (text) => text;
const i18n = { lang: "en", dir: "ltr", messages: {} };
const catalogs = new Map();

// A language the service speaks but the page has no catalog of shows the page's English texts
// (the answers' texts are the service's, in that language).
async function loadCatalog(lang) {
  if (!catalogs.has(lang)) {
    const response = await fetch(`/static/playground/i18n/${lang}.json`);
    if (response.status === 404) {
      catalogs.set(lang, { lang, dir: direction(lang), messages: {} });
    } else {
      if (!response.ok) throw new Error(`no catalog for ${lang} (${response.status})`);
      catalogs.set(lang, await response.json());
    }
  }
  const catalog = catalogs.get(lang);
  i18n.lang = catalog.lang;
  i18n.dir = catalog.dir;
  i18n.messages = catalog.messages;
}

function direction(lang) {
  try {
    const info = new Intl.Locale(lang);
    const text = info.getTextInfo ? info.getTextInfo() : info.textInfo;
    return text && text.direction === "rtl" ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

// A language's name in that language ("pl": "Polski"), from the browser's own tables.
function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

// The languages the service speaks: those GET /systems gives every system's name in.
function fillLanguages(systems) {
  const languages = systems.length ? Object.keys(systems[0].name) : ["en"];
  const chosen = $("lang").value;
  $("lang").replaceChildren(...languages.map((code) => el("option", {
    value: code, lang: code, dir: direction(code) === "rtl" ? "rtl" : null, text: languageName(code),
  })));
  $("lang").value = languages.includes(chosen) ? chosen : "en";
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

function t(msgid, params = {}) {
  return fill(i18n.messages[msgid] || msgid, params);
}

function inContext(context, key) {
  return i18n.messages[`${context}\u0004${key}`];
}

function humanize(key) {
  return String(key).replace(/_/g, " ");
}

const fieldName = (key) => inContext("field", key) || humanize(key);
const word = (value) => inContext("value", String(value)) || i18n.messages[String(value)] || humanize(value);

// A dice slot in words: each part the name of a slot (`attack`, `pool`), an entity's name as the
// request gives it (`pool.dragon`, `initiative.k1`), a value in words, or a number as it is.
function slotName(slot, request) {
  return String(slot).split(".").map((part) => {
    if (/^\d+$/.test(part)) return part;
    const named = inContext("slot", part);
    if (named) return named;
    const name = nameOf(request || {}, part);
    return name !== part ? name : inContext("value", part) || part;
  }).join(" · ");
}

// Numbers in the chosen language's conventions, with the Western digits the narration uses.
function locale() {
  return i18n.lang === "ar" ? "ar-u-nu-latn" : i18n.lang;
}

function number(value, digits = 2) {
  return Number(value).toLocaleString(locale(), { maximumFractionDigits: digits });
}

function percent(p) {
  const digits = p !== 0 && p < 0.001 ? 4 : p < 0.01 ? 2 : 1;
  return (100 * p).toLocaleString(locale(), { maximumFractionDigits: digits }) + "%";
}

function signed(value) {
  return (value > 0 ? "+" : "") + number(value);
}

// The page's fixed texts: `data-i18n` (the element's text) and `data-i18n-<attribute>`.
function translatePage() {
  document.documentElement.lang = i18n.lang;
  document.documentElement.dir = i18n.dir;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (node.tagName === "TITLE") document.title = t(node.dataset.i18n);
    else node.textContent = t(node.dataset.i18n);
  }
  for (const node of document.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
}

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
    if (child !== null && child !== undefined && child !== false) node.append(child);
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

// ------------------------------------------------------------------ endpoint discovery
// The systems and their endpoints, from `GET /systems`: each resolving endpoint with its odds path
// and its outcome's event codes, then its simulation where it has one. Each endpoint's example and
// request schema come from the OpenAPI document. This is the one place that reads the list.
function discover(systems, doc) {
  const paths = [];
  const add = (system, path, summary, odds, outcome) => {
    const op = (doc.paths[path] || {}).post;
    if (!op || !op.requestBody) return;
    const media = op.requestBody.content["application/json"] || {};
    const example = media.example || Object.values(media.examples || {}).map((e) => e.value)[0] || {};
    paths.push({ path, system: system.id, summary: summary || op.summary || path, example, requestSchema: media.schema || {}, odds, outcome });
  };
  for (const system of systems) {
    for (const e of system.endpoints) {
      add(system, e.path, e.summary, e.odds || null, e.outcome || []);
      if (e.simulate) add(system, e.simulate, null, null, []);
    }
  }
  return { systems, paths };
}

function systemOf(id) {
  return state.systems.find((s) => s.id === id);
}

function systemName(system) {
  return system.name[i18n.lang] || system.name.en || system.id;
}

function endpoint() {
  return state.paths.find((p) => p.path === state.path);
}

// ------------------------------------------------------------------ the form view
function renderForm() {
  const ep = endpoint();
  if (!ep) return;
  $("form-view").replaceChildren(objectFields(state.request, ep.requestSchema, [], t("Request")));
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
  const box = el("fieldset", {}, el("legend", { text: label }));
  const props = s.properties || {};
  for (const [key, item] of Object.entries(value)) {
    const own = key in props;
    const sub = own ? props[key] : mapValue(s);
    box.append(field(item, sub, path.concat(key), own ? key : { mapKey: key, dice: Boolean(s.patternProperties) }));
  }
  const missing = Object.keys(props).filter((k) => !(k in value));
  if (missing.length) {
    const pick = el("select", { id: fieldId(path.concat("add")), "aria-label": t("Add a field to {name}", { name: label }) },
      el("option", { value: "", text: t("Add a field…") }),
      ...missing.map((k) => el("option", { value: k, text: fieldName(k) })));
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

// The schema of a map's values (`bonuses` by element, `dice` by slot).
function mapValue(s) {
  if (typeof s.additionalProperties === "object") return s.additionalProperties;
  const patterns = Object.values(s.patternProperties || {});
  return patterns[0] || {};
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

// A field's label: its name in the chosen language; items of a list are numbered; a map's key is a
// value in words (an element of `bonuses`) or a dice slot (a key of `dice`).
function labelOf(key) {
  if (typeof key === "number") return String(key + 1);
  if (key && typeof key === "object") return key.dice ? slotName(key.mapKey, state.request) : word(key.mapKey);
  return fieldName(key);
}

function field(value, schema, path, key) {
  if (Array.isArray(value)) return arrayField(value, schema, path, key);
  if (value !== null && typeof value === "object") return objectFields(value, schema, path, labelOf(key));
  return scalarField(value, schema, path, key);
}

function arrayField(value, schema, path, key) {
  const s = branch(schema, value);
  const items = s.items || {};
  const name = labelOf(key);
  const scalar = value.every((v) => v === null || typeof v !== "object");
  if (scalar && !(value.length === 0 && deref(items).type === "object")) {
    const id = fieldId(path);
    const numeric = ["integer", "number"].includes(branch(items, 0).type);
    const input = el("input", {
      type: "text", id, value: value.join(", "), dir: "ltr",
      inputmode: numeric ? "numeric" : null,
      "aria-describedby": id + "-help",
    });
    input.addEventListener("change", () => {
      const parts = input.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
      setAt(path, parts.map((p) => (numeric && /^-?\d+$/.test(p) ? Number(p) : p)));
    });
    return el("div", { class: "field" },
      el("label", { for: id, text: name }),
      el("div", {}, input, el("span", { class: "help", id: id + "-help", text: " " + t("comma-separated") })));
  }
  const box = el("fieldset", {}, el("legend", { text: name }));
  value.forEach((item, i) => {
    const part = field(item, items, path.concat(i), `${name} ${i + 1}`);
    const remove = el("button", { type: "button", class: "small", text: t("Remove {name} {n}", { name, n: i + 1 }) });
    remove.addEventListener("click", () => { setAt(path.concat(i), undefined); renderForm(); });
    part.append(el("div", { class: "row-actions" }, remove));
    box.append(part);
  });
  const add = el("button", { type: "button", class: "small", text: t("Add to {name}", { name }) });
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
  // The schema's description is English: screen readers are told so.
  const help = s.description ? id + "-help" : null;
  let input;
  if (s.enum || (s.anyOf && value === null)) {
    const options = s.enum || [];
    input = el("select", { id, "aria-describedby": help },
      ...options.map((o) => el("option", { value: o, text: word(o), selected: o === value })));
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
    input = el("input", { type: "text", id, value: value ?? "", dir: "auto", "aria-describedby": help });
    input.addEventListener("change", () => setAt(path, input.value));
  }
  return el("div", { class: "field" },
    el("label", { for: id, text: labelOf(key) }),
    el("div", {}, input, help ? el("span", { class: "visually-hidden", id: help, lang: "en", text: s.description }) : null));
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
      throw new Error(t("the request must be a JSON object"));
    }
    state.request = value;
    $("json-error").textContent = "";
    return true;
  } catch (err) {
    $("json-error").textContent = t("The JSON is not valid: {error}", { error: err.message });
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

// ------------------------------------------------------------------ pickers
function fillPickers() {
  const system = $("system").value || (endpoint() && endpoint().system);
  $("system").replaceChildren(...state.systems.map((s) =>
    el("option", { value: s.id, text: systemName(s), selected: s.id === system })));
  fillEndpoints();
}

function fillEndpoints() {
  const system = $("system").value;
  const eps = state.paths.filter((p) => p.system === system);
  $("endpoint").replaceChildren(...eps.map((p) =>
    el("option", { value: p.path, text: `${p.path} · ${inContext("summary", p.summary) || p.summary}`, selected: p.path === state.path })));
  const ep = endpoint();
  if (ep) $("summary").textContent = inContext("summary", ep.summary) || ep.summary;
  languageNote();
}

// When the system's texts are not all translated into the chosen language (GET /systems says which
// are), the page says so: the missing ones are told in English.
function languageNote() {
  const system = systemOf($("system").value);
  const missing = system && !system.languages.includes($("lang").value);
  $("language-note").hidden = !missing;
  $("language-note").textContent = missing
    ? t("{system} is not yet translated into this language: its texts are in English where a translation is missing.", { system: systemName(system) })
    : "";
}

function pickSystem() {
  fillEndpoints();
  pickEndpoint();
}

function pickEndpoint() {
  state.path = $("endpoint").value;
  const ep = endpoint();
  $("summary").textContent = inContext("summary", ep.summary) || ep.summary;
  state.request = structuredClone(ep.example);
  syncJson();
  renderForm();
  const url = new URL(location.href);
  url.hash = state.path;
  history.replaceState(null, "", url);
  scheduleOdds();
}

async function pickLanguage() {
  try {
    await loadCatalog($("lang").value);
  } catch (err) {
    $("json-error").textContent = t("The texts of this language could not be loaded: {error}", { error: err.message });
    return;
  }
  translatePage();
  fillPickers();
  renderForm();
  if (state.last) showResult(state.last);
  if (state.odds) showOdds(state.odds);
  scheduleOdds();
}

// ------------------------------------------------------------------ sending
async function send() {
  if (!$("json-view").hidden && !readJson()) return;
  const button = $("send");
  button.disabled = true;
  $("result").setAttribute("aria-busy", "true");
  try {
    const response = await fetch(state.path, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": $("lang").value },
      body: JSON.stringify(state.request),
    });
    const body = await response.json();
    showResult({
      status: response.status,
      ok: response.ok,
      body,
      path: state.path,
      request: structuredClone(state.request),
      language: response.headers.get("content-language") || i18n.lang,
    });
  } catch (err) {
    $("result").replaceChildren(el("p", { class: "status bad", text: t("The service did not answer: {error}", { error: err.message }) }));
  } finally {
    button.disabled = false;
    $("result").removeAttribute("aria-busy");
  }
}

function replay() {
  if (!state.last || !state.last.ok) return;
  state.request.seed = state.last.body.seed;
  syncJson();
  renderForm();
  send();
}

function curlCommand() {
  const quote = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  return [
    `curl -s ${location.origin}${state.path}`,
    `-H 'content-type: application/json'`,
    `-H 'accept-language: ${$("lang").value}'`,
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
    $("copy-curl").textContent = t("Copied");
  } catch {
    $("copy-curl").textContent = t("Shown below (copy it by hand)");
  }
  setTimeout(() => { $("copy-curl").textContent = t("Copy as curl"); }, 2500);
}

// ------------------------------------------------------------------ showing a result
function showResult(answer) {
  state.last = answer;
  const out = $("result");
  const body = answer.body;
  if (!answer.ok) {
    const errors = (body.errors || []).map((e) => el("li", {}, el("code", { dir: "ltr", text: (e.loc || []).join(".") }), " ", el("span", { lang: "en", text: e.msg })));
    out.replaceChildren(...[
      el("p", { class: "status bad", text: t("Refused ({status}): {title}", { status: answer.status, title: body.title || "" }) }),
      el("p", { lang: "en", text: body.detail || "" }),
      errors.length ? el("ul", {}, errors) : null,
    ].filter(Boolean));
    return;
  }
  const simulation = Array.isArray(body.outcomes) && body.outcomes.every((o) => "rate" in o && "ci95" in o);
  const events = body.events || [];
  out.replaceChildren(...[
    outcomeLine(answer, simulation),
    simulation ? simulationView(body) : null,
    el("h3", { text: t("In words") }),
    wordsTable(body),
    simulation ? null : el("h3", { text: t("Dice") }),
    simulation ? null : dice(body, answer.request),
    events.length ? el("h3", { text: t("What happened") }) : null,
    events.length ? narration(events, answer.language) : null,
    el("div", { class: "seed-row" },
      el("span", { text: t("Seed:") }), el("code", { id: "seed", dir: "ltr", text: String(body.seed) }),
      el("button", { type: "button", id: "replay", text: t("Replay"), onclick: replay })),
    el("details", {}, el("summary", { text: t("The whole answer (JSON)") }),
      el("pre", { dir: "ltr", text: JSON.stringify(body, null, 2) })),
  ].filter(Boolean));
}

// A combatant's, side's or entity's name as the request gave it (the id when it has none).
function nameOf(request, id) {
  let found = null;
  const walk = (node) => {
    if (found || !node || typeof node !== "object") return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (node.id === id && typeof node.name === "string") { found = node.name; return; }
    Object.values(node).forEach(walk);
  };
  walk(request);
  return found || String(id);
}

function list(items) {
  try {
    return new Intl.ListFormat(locale(), { type: "conjunction" }).format(items.map(String));
  } catch {
    return items.join(", ");
  }
}

// The outcome in one line: the answer's events whose codes GET /systems names as the endpoint's
// outcome, in the answer's language; a simulation's likeliest ending; else every event's text.
function outcomeLine(answer, simulation) {
  const b = answer.body;
  const ep = state.paths.find((p) => p.path === answer.path);
  const codes = new Set(ep ? ep.outcome : []);
  const events = b.events || [];
  const told = events.filter((e) => codes.has(e.code));
  const line = (text, lang) => el("p", { class: "status ok", id: "sentence", lang, dir: lang === "ar" ? "rtl" : null, text });
  if (told.length) return line(told.map((e) => e.text).join(" "), answer.language);
  if (simulation && b.outcomes.length) {
    const top = b.outcomes.reduce((x, y) => (y.rate > x.rate ? y : x));
    return line(t("Over {runs} runs the likeliest outcome: {outcome}, {rate}.", { runs: b.runs, outcome: outcomeName(answer.request, top.outcome), rate: percent(top.rate) }), i18n.lang);
  }
  if (events.length) return line(events[events.length - 1].text, answer.language);
  return line(t("Resolved."), i18n.lang);
}

// The words of simulated outcomes that are not sides' names.
const OUTCOME_WORDS = {
  draw: N_("a draw"),
  dragon_won: N_("the dragon wins"),
  dragon_defeated: N_("the dragon is defeated"),
  not_won: N_("nobody wins yet"),
  initiator: N_("the initiator wins"),
  defender: N_("the defender wins"),
  unfinished: N_("unfinished"),
};

function outcomeName(request, outcome) {
  return OUTCOME_WORDS[outcome] ? t(OUTCOME_WORDS[outcome]) : nameOf(request, outcome);
}

// A simulation's mean length, its unit in the row's name (a number then needs no agreeing noun).
const MEAN_LENGTH = {
  turns: N_("Mean length, in turns"),
  rounds: N_("Mean length, in rounds"),
  decisions: N_("Mean length, in decisions"),
};

// A value in words: yes and no, the enumerated values in the chosen language, percentages signed.
function inWords(key, value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value === "number") {
    if (/percent/.test(key)) return signed(value) + "%";
    if (key === "margin") return signed(value);
    return number(value);
  }
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return list(value.map((v) => inWords(key, v)));
    if (value.every((v) => v && typeof v === "object" && "id" in v)) return list(value.map((v) => v.id));
    return null;
  }
  if (typeof value === "object") {
    const parts = [];
    if (value.roll && typeof value.roll === "object" && "result" in value.roll) parts.push(`${fieldName("result")}: ${number(value.roll.result)}`);
    for (const [k, v] of Object.entries(value)) {
      if (k === "slot" || v === null) continue; // the dice show the slot; an absent value says nothing
      if (typeof v !== "object") parts.push(`${fieldName(k)}: ${inWords(k, v)}`);
    }
    return parts.length ? parts.join(" · ") : null;
  }
  return word(value);
}

function wordsTable(body) {
  const rows = [];
  for (const [key, value] of Object.entries(body)) {
    if (ENVELOPE.has(key) || key === "outcomes" || key === "examples") continue;
    if (key === "length_unit") continue;
    const text = inWords(key, value);
    if (text === null || text === "") continue;
    const unit = key === "mean_length" && MEAN_LENGTH[body.length_unit];
    rows.push(el("tr", {}, el("th", { scope: "row", text: unit ? t(unit) : fieldName(key) }), el("td", { text })));
  }
  return el("table", { class: "words" }, el("tbody", {}, rows));
}

// A simulation's win rates, each with its 95% interval, as bars (HTML, so they mirror in Arabic).
function simulationView(body) {
  const request = state.last ? state.last.request : {};
  const rows = body.outcomes.map((o) => {
    const [lo, hi] = o.ci95;
    const label = outcomeName(request, o.outcome);
    const value = t("{rate} (95% interval {low}–{high})", { rate: percent(o.rate), low: percent(lo), high: percent(hi) });
    const bar = el("span", { class: "rate" });
    bar.style.inlineSize = `${100 * o.rate}%`;
    const ci = el("span", { class: "ci" });
    ci.style.insetInlineStart = `${100 * lo}%`;
    ci.style.inlineSize = `${Math.max(100 * (hi - lo), 0.5)}%`;
    return el("div", { class: "win-row", role: "listitem" },
      el("span", { class: "win-label", text: label }),
      el("span", { class: "track", "aria-hidden": "true" }, bar, ci),
      el("span", { class: "win-value", text: value, title: t("{wins} of {runs} runs", { wins: o.runs, runs: body.runs }) }));
  });
  return el("figure", { class: "win-rates" },
    el("div", { role: "list", "aria-label": t("Win rates") }, rows),
    el("figcaption", { class: "help", text: t("Win rates over {runs} runs; the thin bar is the 95% interval.", { runs: body.runs }) }));
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

function dice(body, request) {
  const rolls = body.rolls || [];
  if (!rolls.length) return el("p", { class: "help", text: t("No dice were needed.") });
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
      el("h4", { text: slotName(slot, request), title: slot }),
      el("ul", { class: "dice", "aria-label": t("dice of {slot}", { slot: slotName(slot, request) }) }, items)));
  }
  return box;
}

function die(roll, fate, dropped) {
  const classes = ["die"];
  const words = [t("{value} on a d{sides}", { value: roll.value, sides: roll.sides })];
  let face = el("span", { text: String(roll.value) });
  if (roll.source === "dice") { classes.push("scripted"); words.push(t("scripted by you")); }
  if (dropped) { classes.push("dropped"); words.push(t("dropped")); }
  if (fate && fate.cancelled) { classes.push("cancelled"); words.push(t("cancelled")); face = el("del", { text: String(roll.value) }); }
  else if (fate && fate.extra) { classes.push("extra"); words.push(t("extra die")); }
  if (fate && !fate.cancelled && !fate.extra && roll.value === roll.sides && roll.sides === 10) {
    classes.push("exploded"); words.push(t("exploded"));
  }
  return el("li", { class: classes.join(" "), title: words.join(", "), "aria-label": words.join(", ") },
    face, el("span", { class: "sides", "aria-hidden": "true", text: `d${roll.sides}` }));
}

function narration(events, language) {
  const dir = language === "ar" ? "rtl" : "ltr";
  return el("ol", { class: "narration", lang: language, dir }, events.map((e) => el("li", { text: e.text })));
}

// ------------------------------------------------------------------ odds (when the endpoint has them)
function scheduleOdds() {
  clearTimeout(state.oddsTimer);
  state.oddsTimer = setTimeout(fetchOdds, 300);
}

async function fetchOdds() {
  const ep = endpoint();
  const path = ep && ep.odds;
  const panel = $("odds");
  if (!path) { panel.hidden = true; state.odds = null; return; }
  const body = structuredClone(state.request);
  delete body.seed;
  delete body.dice;
  const seq = ++state.oddsSeq;
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": $("lang").value },
      body: JSON.stringify(body),
    });
    const odds = await response.json();
    if (seq !== state.oddsSeq) return;
    showOdds({ ok: response.ok, odds, request: body });
  } catch {
    panel.hidden = true;
  }
}

function showOdds(answer) {
  state.odds = answer;
  $("odds").hidden = false;
  $("odds-body").replaceChildren(answer.ok
    ? oddsView(answer.odds, answer.request)
    : el("p", { class: "help", text: t("No odds for this request: {detail}", { detail: answer.odds.detail || "" }) }));
}

// What a GM reads for each chance and each distribution the odds answer, by its key.
const ODDS_LABELS = {
  success: N_("Success"),
  failure: N_("Failure"),
  luck: N_("Luck"),
  bad_luck: N_("Bad luck"),
  succeeds: N_("Succeeds, luck included"),
  hit: N_("Hits"),
  blocked: N_("Blocked"),
  dodged: N_("Dodged"),
  missed: N_("Misses"),
  miss: N_("Misses"),
  critical: N_("Critical hit"),
  incapacitated: N_("Target out of the fight"),
  drops_to_0: N_("Target drops to 0 hp"),
  dies: N_("Target dies"),
  tie: N_("A tie"),
  a_wins: N_("Side A wins"),
  b_wins: N_("Side B wins"),
  initiator_wins: N_("The initiator wins"),
  defender_wins: N_("The defender wins"),
  interrupted: N_("A tie: the fight stops, nobody loses"),
  triggered: N_("The dragon die triggers a sweep"),
  sweep: N_("A sweep takes an enemy"),
  turns: N_("The item turns the roll-off"),
  given_behind: N_("The side is behind before the item"),
  pool: N_("Dice result"),
  result: N_("Dice result"),
  total: N_("Total"),
  damage: N_("Damage"),
  natural: N_("The d20 kept"),
  initiator_total: N_("The initiator's total"),
  defender_total: N_("The defender's total"),
  a_total: N_("Side A's total"),
  b_total: N_("Side B's total"),
  a_successes: N_("Successes of side A when it wins"),
  b_successes: N_("Successes of side B when it wins"),
  sizes: N_("Enemies swept"),
};
// Inner workings of the computation, not chances a GM weighs.
const ODDS_HIDDEN = new Set(["truncation", "tail", "tail_from", "tail_below", "exact"]);

function oddsLabel(keys) {
  const named = keys.filter((k) => typeof k === "string");
  const last = named[named.length - 1];
  if (last && ODDS_LABELS[last]) return t(ODDS_LABELS[last]);
  return named.map(fieldName).join(" · ");
}

function isChance(node) {
  return node && typeof node === "object" && typeof node.p === "number" && typeof node.exact === "string";
}

function isDistribution(node) {
  return Array.isArray(node) && node.length > 0 && node.every((x) => x && typeof x === "object" && "value" in x && isChance(x.p));
}

function chanceCell(chance) {
  return el("td", { class: "num" }, el("span", { class: "chance", title: t("exactly {fraction}", { fraction: chance.exact }), tabindex: "0", text: percent(chance.p) }));
}

function oddsView(odds, request) {
  const box = el("div", {});
  if (Array.isArray(odds.pairs)) {
    odds.pairs.forEach((pair, i) => box.append(pairView(pair, i, request)));
  }
  const rows = [];
  const charts = [];
  const walk = (node, keys) => {
    const key = keys[keys.length - 1];
    if (ODDS_HIDDEN.has(key)) return;
    if (isChance(node)) { rows.push([oddsLabel(keys), node]); return; }
    if (isDistribution(node)) { charts.push([oddsLabel(keys.filter((k) => k !== "result")), node, null]); return; }
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    if (isDistribution(node.result)) {
      charts.push([oddsLabel(keys), node.result, node]);
      return;
    }
    for (const [k, v] of Object.entries(node)) walk(v, keys.concat(k));
  };
  for (const [k, v] of Object.entries(odds)) {
    if (k !== "pairs") walk(v, [k]);
  }
  if (typeof odds.defense === "string") box.append(el("p", { text: t("The defense: {defense}.", { defense: word(odds.defense) }) }));
  if (rows.length) {
    box.append(el("table", {}, el("tbody", {}, rows.slice(0, 30).map(([label, chance]) =>
      el("tr", {}, el("th", { scope: "row", text: label }), chanceCell(chance))))));
  }
  for (const [label, points, distribution] of charts.slice(0, 4)) box.append(barChart(label, points, distribution));
  return box;
}

// One battle pair's odds: who wins, or a tie that stops the fight.
function pairView(pair, index, request) {
  const a = nameOf(request, pair.a);
  const b = nameOf(request, pair.b);
  const rows = [
    [t("{side} wins", { side: a }), pair.a_wins],
    [t("{side} wins", { side: b }), pair.b_wins],
    [t(ODDS_LABELS.interrupted), pair.interrupted],
  ].filter(([, chance]) => isChance(chance));
  const caption = t("{a} against {b}", { a, b });
  return el("table", { class: "pair", "data-pair": String(index) },
    el("caption", { text: caption }),
    el("tbody", {}, rows.map(([label, chance]) => el("tr", {}, el("th", { scope: "row", text: label }), chanceCell(chance)))));
}

function barChart(label, points, distribution) {
  const ns = "http://www.w3.org/2000/svg";
  const shown = points.slice(0, 60);
  const top = Math.max(...shown.map((x) => x.p.p), 1e-9);
  const width = 400;
  const height = 120;
  const bar = width / shown.length;
  const rtl = i18n.dir === "rtl";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height + 14}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Distribution of {what}", { what: label }));
  shown.forEach((x, i) => {
    const h = (x.p.p / top) * height;
    const left = rtl ? width - (i + 1) * bar : i * bar;
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", String(left + 0.5));
    rect.setAttribute("y", String(height - h));
    rect.setAttribute("width", String(Math.max(bar - 1, 0.5)));
    rect.setAttribute("height", String(h));
    const title = document.createElementNS(ns, "title");
    title.textContent = `${x.value}: ${percent(x.p.p)} (${t("exactly {fraction}", { fraction: x.p.exact })})`;
    rect.append(title);
    svg.append(rect);
    if (shown.length <= 20 || i % Math.ceil(shown.length / 10) === 0) {
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", String(left + bar / 2));
      text.setAttribute("y", String(height + 11));
      text.setAttribute("text-anchor", "middle");
      text.textContent = String(x.value);
      svg.append(text);
    }
  });
  const notes = [t("Distribution of {what}", { what: label })];
  if (distribution && typeof distribution.mean === "number") notes.push(t("on average {mean}", { mean: number(distribution.mean) }));
  const pct = distribution && distribution.percentiles;
  if (pct && "p50" in pct) notes.push(t("half the time {median} or less", { median: pct.p50 }));
  if (pct && "p5" in pct && "p95" in pct) notes.push(t("9 times in 10 between {low} and {high}", { low: pct.p5, high: pct.p95 }));
  return el("figure", {}, svg, el("figcaption", { class: "help", text: notes.join("; ") }));
}

// ------------------------------------------------------------------ start
async function start() {
  const [systems, doc] = await Promise.all(["/systems", "/openapi.json"].map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }));
  fillLanguages(systems);
  const wantedLang = new URL(location.href).searchParams.get("lang") || (navigator.language || "en").slice(0, 2);
  if ([...$("lang").options].some((o) => o.value === wantedLang)) $("lang").value = wantedLang;
  await loadCatalog($("lang").value);
  translatePage();
  state.doc = doc;
  Object.assign(state, discover(systems, doc));
  const wanted = decodeURIComponent(location.hash.slice(1));
  const first = state.paths.find((p) => p.path === wanted) || state.paths[0];
  state.path = first.path;
  $("system").value = first.system;
  fillPickers();
  $("system").value = first.system;
  fillEndpoints();
  $("endpoint").value = first.path;
  pickEndpoint();

  $("system").addEventListener("change", pickSystem);
  $("endpoint").addEventListener("change", pickEndpoint);
  $("lang").addEventListener("change", pickLanguage);
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
  document.body.dataset.ready = "true";
}

start().catch((err) => {
  $("result").replaceChildren(el("p", { class: "status bad", text: t("The playground could not start: {error}", { error: err.message }) }));
});
