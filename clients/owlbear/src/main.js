// The popover: the page around src/logic.js, with the real Owlbear SDK. The texts, the form, the
// service's answers and refusals are drawn by the shared modules of the playground, the Foundry dialog
// and the MCP roll card (service/static/shared/, bundled in by vite); the room, Dice+, the log of the
// table's results, the theme and the notifications are the popover's own.
import OBR from "@owlbear-rodeo/sdk";
import { diceView, eventsView, outcomeSentence, renderProblem } from "../../../service/static/shared/card.js";
import { builder } from "../../../service/static/shared/dom.js";
import { createForm } from "../../../service/static/shared/form.js";
import { N_, direction, languageName, loadTexts, translatePage, translator } from "../../../service/static/shared/i18n.js";
import { createService } from "../../../service/static/shared/service.js";
import {
  CHANNEL,
  ENVELOPE,
  TextError,
  dicePlusReady,
  dicePlusRoll,
  endpointOf,
  isResultMessage,
  languagesOf,
  messageAnswer,
  newSeed,
  notificationText,
  playerLanguage,
  reach,
  resolveWithTableDice,
  resultMessage,
  rollable,
  serviceUrl,
  setServiceUrl,
  share,
  systemName,
  textsFor,
  themeStyle,
  unreadable,
} from "./logic.js";

const $ = (id) => document.getElementById(id);
const el = builder(document);
/** The catalogs, next to the popover on the service: /owlbear/index.html -> /static/playground/i18n/. */
const CATALOGS = "../static/playground/i18n/";
const LANGUAGE_KEY = "dragonroll.owlbear.lang";
const pageFetch = (...args) => fetch(...args);
const state = {
  base: location.origin, service: null, doc: null, systems: [], endpoint: null, form: null, player: null,
  lang: "en", texts: translator(), status: null,
};
const t = (msgid, params) => state.texts.t(msgid, params);
/** The texts for one system's things (a field name that means different things in two systems). */
const textsOf = (systemId) => (systemId ? state.texts.forSystem(systemId) : state.texts);
const systemOf = (id) => state.systems.find((s) => s.id === id) ?? null;
const summaryOf = (endpoint, fallback = "") => {
  const summary = endpoint?.summary ?? fallback;
  return state.texts.inContext("summary", summary) ?? summary;
};

// The status line: an English message id and its parameters, shown (again, on a change of language)
// in the player's language.
function status(msgid, params = {}) {
  state.status = [msgid, params];
  $("status").textContent = t(msgid, params);
}

// An error: a TextError of src/logic.js, an answer the service refused (drawn by the shared card:
// the popover's words, then the service's, each line in its language), or another Error (the
// browser's own message, in the browser's language).
function showError(error) {
  const node = $("error");
  node.replaceChildren();
  if (!error) return;
  if (error.error) error = error.error; // the service did not answer
  if (error.ok === false) {
    renderProblem(node, error, { document, texts: textsOf(state.endpoint?.system) });
    return;
  }
  node.textContent = error.msgid ? t(error.msgid, error.params) : String(error.message ?? error);
}

function renderSystems() {
  const select = $("system");
  const chosen = select.value;
  select.replaceChildren(...state.systems.map((s) => el("option", { value: s.id, text: systemName(s, state.lang) })));
  if (systemOf(chosen)) select.value = chosen;
  renderEndpoints();
}

function renderEndpoints() {
  const system = systemOf($("system").value) ?? state.systems[0];
  const select = $("endpoint");
  const chosen = select.value;
  select.replaceChildren(...(system?.endpoints ?? []).map((e) => el("option", { value: e.path, text: summaryOf(e) })));
  if (system?.endpoints.some((e) => e.path === chosen)) select.value = chosen;
  renderForm();
}

// The request as the shared form (the playground's): its fields from the endpoint's schema, the
// example filled in; what the popover sets itself (seed, dice, lang) left out. A change of language
// redraws the same form in the new one, keeping what the player typed.
function renderForm() {
  const system = systemOf($("system").value);
  const endpoint = system?.endpoints.find((e) => e.path === $("endpoint").value) ?? null;
  const same = state.form && state.endpoint === endpoint;
  state.endpoint = endpoint;
  if (!endpoint) {
    state.form = null;
    $("fields").replaceChildren();
    return;
  }
  const texts = textsOf(system.id);
  if (same) state.form.setTexts(texts);
  else {
    state.form = createForm({
      document, container: $("fields"), doc: state.doc, schema: endpoint.requestSchema, value: endpoint.example, texts, omit: ENVELOPE,
    });
  }
  $("dice-plus-label").title = endpoint.rollsDice ? "" : t("This roll uses no dice");
}

// The request to send, or a TextError naming the first required field left empty.
function request() {
  const [missing] = state.form.missing();
  if (missing) {
    const texts = textsOf(state.endpoint.system);
    const field = missing.filter((key) => typeof key === "string").map((key) => texts.field(key)).join(" · ");
    throw new TextError(N_("{field} is required"), { field });
  }
  return { ...state.form.value, lang: state.lang, seed: newSeed() };
}

async function roll(event) {
  event.preventDefault();
  showError(null);
  if (!state.endpoint || !state.form) return;
  let body;
  try {
    body = request();
  } catch (error) {
    showError(error);
    return;
  }
  const endpoint = state.endpoint;
  const gmOnly = $("gm-only").checked && state.player.role === "GM";
  const send = (b) => reach(state.service, state.base, endpoint.path, b, state.lang);
  $("roll").disabled = true;
  try {
    let result;
    if ($("dice-plus").checked && endpoint.rollsDice) {
      const rollDice = (count, sides) =>
        dicePlusRoll(OBR, state.player, count, sides, { label: summaryOf(endpoint), gmOnly });
      result = await resolveWithTableDice(send, body, rollDice);
    } else {
      result = { ...(await send(body)), request: body };
    }
    if (!result.ok) {
      showError(result);
      return;
    }
    const message = resultMessage({
      answer: result.body, request: result.request, endpoint, player: state.player, baseUrl: state.base, lang: state.lang,
    });
    await share(OBR, message, { gmOnly, deliver: (m) => receive(m, true) });
  } catch (error) {
    showError(error);
  } finally {
    $("roll").disabled = false;
  }
}

// A result of the table in the log: who rolled what, then the shared card's outcome line, dice and
// events, in this player's language (textsFor: the same request re-resolved in it).
async function receive(message, gmOnly = false) {
  if (!isResultMessage(message)) return;
  const endpoint = endpointOf(state.systems, message.path);
  const send = (path, b) => reach(state.service, state.base, path, b, state.lang);
  const said = await textsFor(message, state.lang, send, endpoint);
  const texts = textsOf(endpoint?.system);
  const outcome = outcomeSentence(document, said.outcome, said.lang);
  outcome.classList.add("outcome");
  const steps = texts.nt("{count} step, seed {seed}", "All {count} steps, seed {seed}", said.texts.length, { seed: message.seed });
  const item = el("li", { class: "dr-card", "data-id": message.id },
    el("div", { class: "who" }, el("bdi", { text: message.player }), ": ", el("span", { text: summaryOf(endpoint, message.title) }),
      gmOnly ? [" ", el("span", { text: t("(GM only)") })] : null),
    outcome,
    diceView(document, texts, messageAnswer(message), message.request ?? {}, { scripted: t("the table's die") }),
    el("details", {}, el("summary", { text: steps }), eventsView(document, said.texts.map((text) => ({ text })), said.lang)));
  $("log").prepend(item);
  await OBR.notification.show(notificationText(message.player, said.outcome, said.lang), "DEFAULT");
}

async function loadService() {
  state.base = await serviceUrl(OBR, location.origin);
  $("service-url").value = state.base;
  state.service = createService({ baseUrl: state.base, fetch: pageFetch });
  try {
    const loaded = await state.service.load();
    state.doc = loaded.doc;
    state.systems = rollable(loaded);
    state.form = null;
    await renderLanguages();
    renderSystems();
    status(N_("Service: {url}"), { url: state.base });
  } catch (error) {
    const reason = unreadable(error, state.base);
    status(N_("The service at {url} could not be read: {error}"), { url: state.base, error: t(reason.msgid, reason.params) });
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
  const base = new URL(CATALOGS, location.href);
  const texts = await loadTexts(lang, { base, fetch: pageFetch }).catch(() => translator());
  state.lang = lang;
  state.texts = texts;
  translatePage(document, texts);
  if (state.status) status(...state.status);
  const select = $("language");
  if (select.value !== lang && [...select.options].some((o) => o.value === lang)) select.value = lang;
  if (state.systems.length) renderSystems();
}

// Before the room's service is known: the language chosen among those of the service that served
// the page (its GET /systems, whose catalogs the popover reads).
async function firstLanguage() {
  try {
    const response = await fetch(new URL("../systems", location.href));
    const languages = response.ok ? languagesOf(await response.json()) : ["en"];
    return playerLanguage(stored(LANGUAGE_KEY), browserLanguages(), languages);
  } catch {
    return "en";
  }
}

// The languages the service speaks (GET /systems), each in its own name; the player's choice kept.
async function renderLanguages() {
  const languages = languagesOf(state.systems);
  const select = $("language");
  select.replaceChildren(...languages.map((code) => el("option", {
    value: code, lang: code, dir: direction(code) === "rtl" ? "rtl" : null, text: languageName(code),
  })));
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
    $("dice-plus-label").dataset.ready = String(ready);
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
