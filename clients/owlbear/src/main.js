// The popover: the page around src/logic.js, with the real Owlbear SDK.
import OBR from "@owlbear-rodeo/sdk";
import {
  CHANNEL,
  buildBody,
  dicePlusReady,
  dicePlusRoll,
  endpointOf,
  formFor,
  isResultMessage,
  languageName,
  languagesOf,
  loadCatalog,
  newSeed,
  playerLanguage,
  post,
  problemText,
  resolveWithTableDice,
  resultMessage,
  serviceUrl,
  setServiceUrl,
  share,
  systemName,
  textsFor,
} from "./logic.js";

const $ = (id) => document.getElementById(id);
const state = { base: location.origin, catalog: [], endpoint: null, form: null, player: null, lang: "en" };
const LANGUAGE_KEY = "dragonroll.owlbear.lang";

function status(text) {
  $("status").textContent = text;
}

function showError(text) {
  $("error").textContent = text ?? "";
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function renderSystems() {
  const select = $("system");
  select.replaceChildren(...state.catalog.map((s) => option(s.id, systemName(s, state.lang))));
  renderEndpoints();
}

function renderEndpoints() {
  const system = state.catalog.find((s) => s.id === $("system").value) ?? state.catalog[0];
  const select = $("endpoint");
  select.replaceChildren(...(system?.endpoints ?? []).map((e) => option(e.path, e.summary)));
  renderForm();
}

function renderForm() {
  const system = state.catalog.find((s) => s.id === $("system").value);
  state.endpoint = system?.endpoints.find((e) => e.path === $("endpoint").value) ?? null;
  const fieldset = $("fields");
  fieldset.replaceChildren(fieldset.querySelector("legend"));
  if (!state.endpoint) return;
  state.form = formFor(state.endpoint);
  for (const field of state.form.fields) {
    const row = document.createElement("div");
    row.className = "row";
    const id = `f-${field.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = field.label + (field.required ? " *" : "");
    let input;
    if (field.kind === "enum") {
      input = document.createElement("select");
      if (!field.required) input.append(option("", "—"));
      input.append(...field.values.map((v) => option(v, v)));
      input.value = field.value ?? "";
    } else if (field.kind === "boolean") {
      input = document.createElement("select");
      input.append(option("", "—"), option("true", "yes"), option("false", "no"));
      input.value = field.value === "" ? "" : String(field.value);
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.step = field.kind === "integer" ? "1" : "any";
      input.value = field.value;
    }
    input.id = id;
    input.name = field.name;
    if (field.description) input.title = field.description;
    row.append(label, input);
    fieldset.append(row);
  }
  $("rest").value = state.form.rest;
  $("rest-row").hidden = !state.form.rest;
  $("dice-plus").closest("label").title = state.endpoint.rollsDice ? "" : "this endpoint rolls no dice";
}

function formValues() {
  const values = {};
  for (const field of state.form.fields) values[field.name] = $(`f-${field.name}`).value;
  return values;
}

async function roll(event) {
  event.preventDefault();
  showError("");
  if (!state.endpoint) return;
  let body;
  try {
    body = { ...buildBody(state.form, formValues(), $("rest").value, state.lang), seed: newSeed() };
  } catch (error) {
    showError(error.message);
    return;
  }
  const gmOnly = $("gm-only").checked && state.player.role === "GM";
  const send = (b) => post(state.base, state.endpoint.path, b);
  $("roll").disabled = true;
  try {
    let result;
    if ($("dice-plus").checked && state.endpoint.rollsDice) {
      const rollDice = (count, sides) =>
        dicePlusRoll(OBR, state.player, count, sides, { label: state.endpoint.summary, gmOnly });
      result = await resolveWithTableDice(send, body, rollDice);
    } else {
      result = { ...(await send(body)), request: body };
    }
    if (!result.ok) {
      showError(problemText(result.body));
      return;
    }
    const message = resultMessage({
      answer: result.body,
      request: result.request,
      endpoint: state.endpoint,
      player: state.player,
      baseUrl: state.base,
      lang: state.lang,
    });
    await share(OBR, message, { gmOnly, deliver: (m) => receive(m, true) });
  } catch (error) {
    showError(error.message);
  } finally {
    $("roll").disabled = false;
  }
}

async function receive(message, gmOnly = false) {
  if (!isResultMessage(message)) return;
  const endpoint = endpointOf(state.catalog, message.path);
  const send = (path, b) => post(state.base, path, b);
  const { texts, outcome: told, lang } = await textsFor(message, state.lang, send, endpoint);
  const item = document.createElement("li");
  const who = document.createElement("div");
  who.className = "who";
  who.textContent = `${message.player}: ${message.title}${gmOnly ? " (GM only)" : ""}`;
  const outcome = document.createElement("p");
  outcome.className = "outcome";
  outcome.textContent = told;
  outcome.lang = lang;
  outcome.dir = lang === "ar" ? "rtl" : "auto";
  const dice = document.createElement("ul");
  dice.className = "dice";
  dice.setAttribute("aria-label", "dice");
  for (const [slot, sides, value, source] of message.dice) {
    const die = document.createElement("li");
    die.className = source === "d" ? "die table" : "die";
    die.title = `${slot}: d${sides}${source === "d" ? " (the table's die)" : ""}`;
    die.textContent = String(value);
    dice.append(die);
  }
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = `All ${texts.length} steps, seed ${message.seed}`;
  const steps = document.createElement("ol");
  steps.append(...texts.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
  more.append(summary, steps);
  item.append(who, outcome, dice, more);
  item.dataset.id = message.id;
  $("log").prepend(item);
  await OBR.notification.show(`${message.player}: ${outcome.textContent}`.slice(0, 300), "DEFAULT");
}

async function loadService() {
  state.base = await serviceUrl(OBR, location.origin);
  $("service-url").value = state.base;
  try {
    state.catalog = await loadCatalog(state.base);
    renderLanguages();
    renderSystems();
    status(`Service: ${state.base}`);
  } catch (error) {
    status(`The service at ${state.base} could not be read: ${error.message}`);
  }
}

// A cross-site iframe may be refused storage (the browser's third-party rules): then the choice
// lasts as long as the popover.
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not kept
  }
}

// The languages the service speaks (GET /systems), each in its own name; the player's choice kept.
function renderLanguages() {
  const languages = languagesOf(state.catalog);
  state.lang = playerLanguage(stored(LANGUAGE_KEY), navigator.languages ?? [navigator.language], languages);
  const select = $("language");
  select.replaceChildren(...languages.map((code) => option(code, languageName(code))));
  select.value = state.lang;
}

function setUpLanguage() {
  renderLanguages();
  $("language").addEventListener("change", () => {
    state.lang = $("language").value;
    store(LANGUAGE_KEY, state.lang);
    for (const o of $("system").options) {
      const system = state.catalog.find((s) => s.id === o.value);
      if (system) o.textContent = systemName(system, state.lang);
    }
  });
}

async function start() {
  setUpLanguage();
  const [id, name, role] = await Promise.all([OBR.player.getId(), OBR.player.getName(), OBR.player.getRole()]);
  state.player = { id, name, role };
  $("gm-only-label").hidden = role !== "GM";
  $("service-url").readOnly = role !== "GM";
  $("save-url").hidden = role !== "GM";
  OBR.broadcast.onMessage(CHANNEL, (event) => receive(event.data));
  OBR.room.onMetadataChange(() => loadService());
  $("system").addEventListener("change", renderEndpoints);
  $("endpoint").addEventListener("change", renderForm);
  $("roll-form").addEventListener("submit", roll);
  $("save-url").addEventListener("click", async () => {
    try {
      await setServiceUrl(OBR, $("service-url").value);
      showError("");
    } catch (error) {
      showError(error.message);
    }
  });
  await loadService();
  dicePlusReady(OBR).then((ready) => {
    $("dice-plus").disabled = !ready;
    $("dice-plus").closest("label").dataset.ready = String(ready);
  });
}

if (OBR.isAvailable) {
  OBR.onReady(() => start().catch((error) => status(error.message)));
} else {
  status("Open this page from Owlbear Rodeo: add the extension by its manifest URL, /owlbear/manifest.json.");
}
