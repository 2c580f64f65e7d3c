// dragonroll playground: reads the systems from `GET /systems`, edits a request as a form or as
// JSON, sends it, and shows what the answer means. The form, the card that shows an answer and its
// odds, the texts and the calls to the service are the shared modules of service/static/shared/
// (the Foundry dialog and the MCP roll card use them too); this file is the page around them: the
// pickers, the tabs, the JSON view, Replay and "copy as curl". The page's own texts come from its
// catalogs (i18n/<lang>.json, compiled from service/locale/*/LC_MESSAGES/playground.po). No framework,
// nothing fetched from another origin.

import { renderAnswer, oddsView } from "../shared/card.js";
import { builder } from "../shared/dom.js";
import { createForm } from "../shared/form.js";
import { direction, languageName, loadTexts, translatePage, translator } from "../shared/i18n.js";
import { createService } from "../shared/service.js";

const $ = (id) => document.getElementById(id);
const el = builder(document);
const CATALOGS = new URL("/static/playground/i18n/", location.href).href;
const service = createService({ baseUrl: "", fetch: (...args) => fetch(...args) });

const state = {
  texts: translator(),
  catalogs: new Map(), // lang -> texts
  doc: null, // the OpenAPI document
  systems: [], // GET /systems: [{id, name: {lang: name}, languages, endpoints}]
  paths: [], // service.js's discover(): [{path, system, summary, example, requestSchema, odds, outcome}]
  path: null,
  request: {},
  form: null,
  last: null, // the last answer shown
  odds: null, // the last odds answer shown
  oddsTimer: 0,
  oddsSeq: 0,
};
const t = (msgid, params) => state.texts.t(msgid, params);

async function useLanguage(lang) {
  if (!state.catalogs.has(lang)) state.catalogs.set(lang, await loadTexts(lang, { base: CATALOGS }));
  state.texts = state.catalogs.get(lang);
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

const systemOf = (id) => state.systems.find((s) => s.id === id);
const systemName = (system) => system.name[state.texts.lang] || system.name.en || system.id;
const endpoint = () => state.paths.find((p) => p.path === state.path);
const summaryOf = (ep) => state.texts.inContext("summary", ep.summary) || ep.summary;
// The texts for one endpoint's things: its system's word where a field name means different things.
const textsOf = (ep) => (ep ? state.texts.forSystem(ep.system) : state.texts);

// ------------------------------------------------------------------ the form and the JSON view
function renderForm() {
  const ep = endpoint();
  if (!ep) return;
  if (!state.form) {
    state.form = createForm({
      document, container: $("form-view"), doc: state.doc, schema: ep.requestSchema, value: state.request, texts: textsOf(ep),
      onChange: (value) => { state.request = value; syncJson(); scheduleOdds(); },
    });
  } else {
    state.form.setTexts(textsOf(ep));
  }
}

function newForm() {
  state.form = null;
  renderForm();
}

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
  if (form && state.form) state.form.setValue(state.request);
  (form ? $("tab-form") : $("tab-json")).focus();
}

// ------------------------------------------------------------------ pickers
function fillPickers() {
  const system = $("system").value || (endpoint() && endpoint().system);
  $("system").replaceChildren(...state.systems.map((s) =>
    el("option", { value: s.id, text: systemName(s), selected: s.id === system })));
  fillEndpoints();
}

// Each endpoint as "<path> · <summary>", the path kept left to right in any language.
function fillEndpoints() {
  const system = $("system").value;
  const eps = state.paths.filter((p) => p.system === system);
  $("endpoint").replaceChildren(...eps.map((p) =>
    el("option", { value: p.path, text: `${state.texts.ltr(p.path)} · ${summaryOf(p)}`, selected: p.path === state.path })));
  const ep = endpoint();
  if (ep) $("summary").textContent = summaryOf(ep);
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
  $("summary").textContent = summaryOf(ep);
  state.request = structuredClone(ep.example);
  syncJson();
  newForm();
  const url = new URL(location.href);
  url.hash = state.path;
  history.replaceState(null, "", url);
  scheduleOdds();
}

async function pickLanguage() {
  try {
    await useLanguage($("lang").value);
  } catch (err) {
    $("json-error").textContent = t("The texts of this language could not be loaded: {error}", { error: err.message });
    return;
  }
  translatePage(document, state.texts);
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
    showResult(await service.send(state.path, state.request, $("lang").value));
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
  if (state.form) state.form.setValue(state.request);
  send();
}

function showResult(answer) {
  state.last = answer;
  const ep = state.paths.find((p) => p.path === answer.path);
  renderAnswer($("result"), answer, {
    document, texts: textsOf(ep), outcome: ep ? ep.outcome : [],
    actions: [{ id: "replay", text: t("Replay"), onClick: replay }],
  });
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

// ------------------------------------------------------------------ odds (when the endpoint has them)
function scheduleOdds() {
  clearTimeout(state.oddsTimer);
  state.oddsTimer = setTimeout(fetchOdds, 300);
}

async function fetchOdds() {
  const ep = endpoint();
  if (!ep || !ep.odds) { $("odds").hidden = true; state.odds = null; return; }
  const seq = ++state.oddsSeq;
  try {
    const answer = await service.odds(ep, state.request, $("lang").value);
    if (seq === state.oddsSeq) showOdds(answer);
  } catch {
    $("odds").hidden = true;
  }
}

// The odds, or why there are none: the page's words, then the service's in their own language.
function showOdds(answer) {
  state.odds = answer;
  $("odds").hidden = false;
  if (answer.ok) {
    $("odds-body").replaceChildren(oddsView({ document, texts: textsOf(endpoint()), odds: answer.odds, request: answer.request }));
    return;
  }
  const lang = answer.language || "en";
  $("odds-body").replaceChildren(
    el("p", { class: "help", text: t("No odds for this request.") }),
    el("p", { class: "help", lang, dir: direction(lang), text: answer.odds.detail || answer.odds.title || "" }));
}

// ------------------------------------------------------------------ start
function listen() {
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
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") selectTab(tab.id === "tab-form" ? "json" : "form");
    });
  }
  $("json").addEventListener("input", () => { if (readJson()) scheduleOdds(); });
  $("json").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) send();
  });
}

async function start() {
  const { systems, doc, paths } = await service.load();
  fillLanguages(systems);
  const wantedLang = new URL(location.href).searchParams.get("lang") || (navigator.language || "en").slice(0, 2);
  if ([...$("lang").options].some((o) => o.value === wantedLang)) $("lang").value = wantedLang;
  await useLanguage($("lang").value);
  translatePage(document, state.texts);
  Object.assign(state, { doc, systems, paths });
  const wanted = decodeURIComponent(location.hash.slice(1));
  const first = paths.find((p) => p.path === wanted) || paths[0];
  state.path = first.path;
  $("system").value = first.system;
  fillPickers();
  $("system").value = first.system;
  fillEndpoints();
  $("endpoint").value = first.path;
  pickEndpoint();
  listen();
  document.body.dataset.ready = "true";
}

start().catch((err) => {
  $("result").replaceChildren(el("p", { class: "status bad", text: t("The playground could not start: {error}", { error: err.message }) }));
});
