// The roll card's script (service/mcp_card.py bundles it, with the shared modules it imports, into
// the card's one HTML document). A tool's result arrives from the host with the call's facts in its
// `_meta` (service/mcp.py: the tool, the endpoint, the kind of answer, the odds endpoint, the outcome
// codes, the language); the card asks the host for the whole answer (the same seed gives the same
// answer) and the odds before the roll, draws them with the playground's shared modules, and rolls
// again with a new seed through the host (tools/call).

import { renderProblem } from "../shared/card.js";
import { direction, translator } from "../shared/i18n.js";
import { renderOddsCard, renderRollCard } from "../shared/roll-card.js";
import { connect } from "./view.js";

const CALL = "dragonroll.dev/call";
const catalogs = JSON.parse(document.getElementById("catalogs").textContent);
const container = document.getElementById("card");
const state = { input: null, context: {}, rolling: false };
const connected = connect({
  window,
  appInfo: { name: "dragonroll roll card", version: document.documentElement.dataset.version || "" },
  onInput: (args) => { state.input = args; },
  onResult: (result) => { show(result).catch(failed); },
  onContext: (fields) => { Object.assign(state.context, fields); },
});
connected.then((host) => { state.context = host.hostContext; }, failed);

// The catalog of `lang` (the page's texts), the document's language and direction set to it.
function textsFor(lang) {
  const base = String(lang || "en").split("-")[0];
  const texts = translator(catalogs[base] || { lang: base, dir: direction(base), messages: {}, plurals: {} });
  document.documentElement.lang = texts.lang;
  document.documentElement.dir = texts.dir;
  return texts;
}

function requestOf(args) {
  const request = args && args.request;
  if (typeof request === "string") {
    try { return JSON.parse(request); } catch { return {}; }
  }
  return request && typeof request === "object" ? request : {};
}

function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function failed(error) {
  container.replaceChildren(Object.assign(document.createElement("p"), { className: "status bad", textContent: String(error && error.message || error) }));
}

// The whole answer: the structured content when the call asked for it (`full`), else asked for
// again with `full` (the same seed gives the same answer).
async function wholeAnswer(result, call, request) {
  if (call.full) return result.structuredContent;
  const summary = result.structuredContent || {};
  const host = await connected;
  const again = { ...request, ...(summary.seed !== undefined ? { seed: summary.seed } : {}) };
  const full = await host.callTool(call.tool, { endpoint: call.endpoint, request: again, full: true });
  return full.structuredContent;
}

async function oddsOf(call, request) {
  if (!call.odds) return null;
  const body = { ...request };
  delete body.seed;
  delete body.dice;
  const host = await connected;
  const result = await host.callTool(call.tool, { endpoint: call.odds, request: body, full: true });
  return result.isError ? null : { ok: true, odds: result.structuredContent, request: body };
}

async function show(result) {
  const call = (result._meta || {})[CALL] || {};
  const texts = textsFor(call.lang || state.context.locale || "en");
  if (result.isError) {
    const body = JSON.parse(result.content[0].text);
    renderProblem(container, { status: body.status, ok: false, body, language: texts.lang }, { document, texts });
    return;
  }
  const request = requestOf(state.input);
  const body = await wholeAnswer(result, call, request);
  if (call.kind === "odds") {
    renderOddsCard(container, { document, texts, odds: body, request });
    return;
  }
  const answer = { status: 200, ok: true, body, request, language: call.lang || texts.lang };
  const draw = (odds) => renderRollCard(container, {
    document, texts, answer, outcome: call.outcome, odds, onRollAgain: call.tool ? () => rollAgain(call, request) : null,
  });
  draw(null);
  draw(await oddsOf(call, request).catch(() => null));
}

// Roll again: the same request with a new seed, through the host.
async function rollAgain(call, request) {
  if (state.rolling) return;
  state.rolling = true;
  container.setAttribute("aria-busy", "true");
  try {
    const args = { endpoint: call.endpoint, request: { ...request, seed: newSeed() } };
    const host = await connected;
    const result = await host.callTool(call.tool, args);
    state.input = args;
    await show(result);
  } catch (error) {
    failed(error);
  } finally {
    state.rolling = false;
    container.removeAttribute("aria-busy");
  }
}
