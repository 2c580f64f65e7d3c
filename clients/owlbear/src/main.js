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
  problemParts,
  resolveWithTableDice,
  resultMessage,
  serviceUrl,
  setServiceUrl,
  share,
  systemName,
  textsFor,
  notificationText,
  themeStyle,
} from "./logic.js";
import { CATALOGS, N_, loadTexts, translatePage, translator } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const state = {
  base: location.origin, catalog: [], endpoint: null, form: null, player: null, lang: "en",
  texts: translator(), status: null,
};
const LANGUAGE_KEY = "dragonroll.owlbear.lang";
const t = (msgid, params) => state.texts.t(msgid, params);
const fieldName = (field) => state.texts.inContext("field", field.name) ?? field.label;
const valueName = (value) => state.texts.inContext("value", String(value)) ?? String(value);
const summaryOf = (endpoint, fallback = "") => {
  const summary = endpoint?.summary ?? fallback;
  return state.texts.inContext("summary", summary) ?? summary;
};
const slotName = (slot) =>
  String(slot).split(".").map((part) => state.texts.inContext("slot", part) ?? part).join(" · ");

// The status line: an English message id and its parameters, shown (again, on a change of language)
// in the player's language.
function status(msgid, params = {}) {
  state.status = [msgid, params];
  $("status").textContent = t(msgid, params);
}

// An error: a TextError of src/logic.js, a problem of the service (problemParts), or another
// Error (the browser's own message, in the browser's language).
function showError(error) {
  const node = $("error");
  node.replaceChildren();
  if (!error) return;
  if (error.problem) {
    const { lead, detail } = problemParts(error.problem, t);
    node.append(lead);
    if (detail) node.append(" ", Object.assign(document.createElement("span"), { lang: "en", dir: "ltr", textContent: detail }));
    return;
  }
  node.textContent = error.msgid ? t(error.msgid, error.params) : String(error.message ?? error);
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
  const chosen = select.value;
  select.replaceChildren(...(system?.endpoints ?? []).map((e) => option(e.path, summaryOf(e))));
  if (system?.endpoints.some((e) => e.path === chosen)) select.value = chosen;
  renderForm();
}

function renderForm() {
  const system = state.catalog.find((s) => s.id === $("system").value);
  state.endpoint = system?.endpoints.find((e) => e.path === $("endpoint").value) ?? null;
  const fieldset = $("fields");
  fieldset.replaceChildren(fieldset.querySelector("legend"));
  if (!state.endpoint) return;
  state.form = formFor(state.endpoint);
  for (const field of state.form.fields) field.label = fieldName(field);
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
      input.append(...field.values.map((v) => option(v, valueName(v))));
      input.value = field.value ?? "";
    } else if (field.kind === "boolean") {
      input = document.createElement("select");
      input.append(option("", "—"), option("true", t("yes")), option("false", t("no")));
      input.value = field.value === "" ? "" : String(field.value);
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.step = field.kind === "integer" ? "1" : "any";
      input.value = field.value;
    }
    input.id = id;
    input.name = field.name;
    // The schema's description is English: a tooltip for an English reader only.
    if (field.description && state.lang === "en") input.title = field.description;
    row.append(label, input);
    fieldset.append(row);
  }
  $("rest").value = state.form.rest;
  $("rest-row").hidden = !state.form.rest;
  $("dice-plus").closest("label").title = state.endpoint.rollsDice ? "" : t("This roll uses no dice");
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
    showError(error);
    return;
  }
  const gmOnly = $("gm-only").checked && state.player.role === "GM";
  const send = (b) => post(state.base, state.endpoint.path, b);
  $("roll").disabled = true;
  try {
    let result;
    if ($("dice-plus").checked && state.endpoint.rollsDice) {
      const rollDice = (count, sides) =>
        dicePlusRoll(OBR, state.player, count, sides, { label: summaryOf(state.endpoint), gmOnly });
      result = await resolveWithTableDice(send, body, rollDice);
    } else {
      result = { ...(await send(body)), request: body };
    }
    if (!result.ok) {
      showError({ problem: { status: result.status, ...result.body } });
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
    showError(error);
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
  const player = Object.assign(document.createElement("bdi"), { textContent: message.player });
  const span = (text) => Object.assign(document.createElement("span"), { textContent: text });
  who.append(player, ": ", span(summaryOf(endpoint, message.title)));
  if (gmOnly) who.append(" ", span(t("(GM only)")));
  const outcome = document.createElement("p");
  outcome.className = "outcome";
  outcome.textContent = told;
  outcome.lang = lang;
  outcome.dir = lang === "ar" ? "rtl" : "auto";
  const dice = document.createElement("ul");
  dice.className = "dice";
  dice.setAttribute("aria-label", t("Dice"));
  for (const [slot, sides, value, source] of message.dice) {
    const die = document.createElement("li");
    die.className = source === "d" ? "die table" : "die";
    const face = t("{value} on a d{sides}", { value, sides });
    die.title = `${slotName(slot)}: ${face}${source === "d" ? ` ${t("(the table's die)")}` : ""}`;
    die.textContent = String(value);
    dice.append(die);
  }
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = state.texts.nt("{count} step, seed {seed}", "All {count} steps, seed {seed}", texts.length, { seed: message.seed });
  const steps = document.createElement("ol");
  steps.append(...texts.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
  more.append(summary, steps);
  item.append(who, outcome, dice, more);
  item.dataset.id = message.id;
  $("log").prepend(item);
  await OBR.notification.show(notificationText(message.player, outcome.textContent, lang), "DEFAULT");
}

async function loadService() {
  state.base = await serviceUrl(OBR, location.origin);
  $("service-url").value = state.base;
  try {
    state.catalog = await loadCatalog(state.base);
    await renderLanguages();
    renderSystems();
    status(N_("Service: {url}"), { url: state.base });
  } catch (error) {
    const reason = error.msgid ? t(error.msgid, error.params) : error.message;
    status(N_("The service at {url} could not be read: {error}"), { url: state.base, error: reason });
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

function browserLanguages() {
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

// The popover's texts and the narration in one language: the player's choice (Settings), else the
// browser's first language the service has texts for, else English. Owlbear Rodeo's SDK tells an
// extension no language, so the browser's is the player's.
async function useLanguage(lang) {
  const texts = await loadTexts(lang, new URL(CATALOGS, location.href)).catch(() => translator());
  state.lang = lang;
  state.texts = texts;
  translatePage(document, texts);
  if (state.status) status(...state.status);
  const select = $("language");
  if (select.value !== lang && [...select.options].some((o) => o.value === lang)) select.value = lang;
  if (state.catalog.length) renderSystems();
}

// Before the service's languages are known: the first of the choice and the browser's languages
// that has a catalog.
async function firstLanguage() {
  const candidates = [stored(LANGUAGE_KEY), ...browserLanguages()].filter(Boolean);
  for (const tag of candidates) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (base === "en") return "en";
    const texts = await loadTexts(base, new URL(CATALOGS, location.href)).catch(() => null);
    if (texts && texts.lang === base) return base;
  }
  return "en";
}

// The languages the service speaks (GET /systems), each in its own name; the player's choice kept.
async function renderLanguages() {
  const languages = languagesOf(state.catalog);
  const select = $("language");
  select.replaceChildren(...languages.map((code) => {
    const o = option(code, languageName(code));
    o.lang = code;
    return o;
  }));
  const lang = playerLanguage(stored(LANGUAGE_KEY), browserLanguages(), languages);
  select.value = lang;
  if (lang !== state.lang) await useLanguage(lang);
}

function setUpLanguage() {
  $("language").addEventListener("change", () => {
    store(LANGUAGE_KEY, $("language").value);
    useLanguage($("language").value).catch((error) => showError(error));
  });
}

// Owlbear Rodeo's theme, light or dark, on the popover (logic.js's themeStyle); followed when the
// player changes it.
function applyTheme(theme) {
  const style = themeStyle(theme);
  if (!style) return;
  for (const [name, value] of Object.entries(style)) document.documentElement.style.setProperty(name, value);
  document.documentElement.dataset.theme = theme.mode === "LIGHT" ? "light" : "dark";
}

async function start() {
  setUpLanguage();
  OBR.theme.getTheme().then(applyTheme, () => {});
  OBR.theme.onChange(applyTheme);
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
      showError(null);
    } catch (error) {
      showError(error);
    }
  });
  await loadService();
  dicePlusReady(OBR).then((ready) => {
    $("dice-plus").disabled = !ready;
    $("dice-plus").closest("label").dataset.ready = String(ready);
  });
}

const ready = firstLanguage().then(useLanguage);
if (OBR.isAvailable) {
  OBR.onReady(() =>
    ready
      .then(start)
      .catch((error) => status(N_("The extension could not start: {error}"), { error: error.message })),
  );
} else {
  ready.then(() =>
    status(N_("Open this page from Owlbear Rodeo: add the extension by its manifest URL, /owlbear/manifest.json.")),
  );
}
