// dragonroll for Foundry VTT v12-v13: a setting for the service's URL, and
// `game.modules.get("dragonroll").api`, one function per endpoint of the service (docs/foundry.md).
//
// A resolving endpoint's function sends the request with `foundry: true` and the game's language as
// Accept-Language, posts the answer to chat with its rolls (Dice So Nice throws them), and returns
// the answer. Odds and simulations draw no dice: their functions only return the answer. A
// problem+json answer becomes a notification and an Error carrying the problem.
//
// The first half (the endpoints, `buildRequest`, `send`, `chatContent`) touches no Foundry global,
// so node's tests run it as it is; the hooks at the end are the only part that needs Foundry.

export const MODULE_ID = "dragonroll";
export const DEFAULT_URL = "http://127.0.0.1:8000";

/** The resolving endpoints, by the api's function name (operationId in camelCase). */
export const RESOLVERS = Object.freeze({
  dosRoll: "/dos/roll",
  dosTest: "/dos/test",
  dosOpposed: "/dos/opposed",
  dosComplex: "/dos/complex",
  dosActions: "/dos/actions",
  dosInitiative: "/dos/initiative",
  dosAttack: "/dos/attack",
  dosDamage: "/dos/damage",
  dosManeuver: "/dos/maneuver",
  dosTurn: "/dos/turn",
  dragonBattle: "/dragon/battle",
  ridersCombat: "/riders/combat",
  dnd5eInitiative: "/dnd5e/initiative",
  dnd5eTurn: "/dnd5e/turn",
  dnd5eCheck: "/dnd5e/check",
  dnd5eAttack: "/dnd5e/attack",
  dnd5eDeathSave: "/dnd5e/death-save",
});

/** Odds and simulations: answered, never posted to chat. */
export const CALCULATORS = Object.freeze({
  dosOdds: "/dos/odds",
  dosOddsTest: "/dos/odds/test",
  dosOddsOpposed: "/dos/odds/opposed",
  dosOddsAttack: "/dos/odds/attack",
  dosSimulate: "/dos/simulate",
  dragonOdds: "/dragon/odds",
  dragonSimulate: "/dragon/simulate",
  ridersOdds: "/riders/odds",
  ridersSimulate: "/riders/simulate",
  dnd5eOdds: "/dnd5e/odds",
  dnd5eOddsCheck: "/dnd5e/odds/check",
  dnd5eOddsAttack: "/dnd5e/odds/attack",
});

/** The error thrown for an answer that is not a success: `problem` is its problem+json. */
export class DragonrollError extends Error {
  constructor(problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = "DragonrollError";
    this.problem = problem;
    this.status = problem.status;
  }
}

/**
 * The fetch arguments of one request: `{url, init}`. Pure: `baseUrl` is the setting's value, `lang`
 * the game's language; `foundry` adds `"foundry": true` to the body (a resolving endpoint).
 */
export function buildRequest(baseUrl, path, body, { lang, foundry = true } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, application/problem+json",
  };
  if (lang) headers["accept-language"] = lang;
  return {
    url: `${String(baseUrl).replace(/\/+$/, "")}${path}`,
    init: {
      method: "POST",
      headers,
      body: JSON.stringify(foundry ? { ...body, foundry: true } : body),
    },
  };
}

/** Sends a built request with `fetchFn`: the answer, else a DragonrollError with its problem. */
export async function send(fetchFn, { url, init }) {
  let response;
  try {
    response = await fetchFn(url, init);
  } catch (cause) {
    throw new DragonrollError({ title: "unreachable", status: 0, detail: `${url}: ${cause.message}` });
  }
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (response.ok && data !== undefined) return data;
  const problem =
    data && typeof data === "object" && typeof data.title === "string"
      ? data
      : { title: response.statusText || "error", status: response.status, detail: text.slice(0, 200) };
  throw new DragonrollError(problem);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` safe inside HTML. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * The chat message's HTML: the outcome (the last event's sentence) and every event's sentence
 * under a fold, each escaped. `localize` turns a key of lang/<lang>.json into its text.
 */
export function chatContent(answer, localize = (key) => key) {
  const texts = (answer.events ?? []).map((e) => escapeHtml(e.text ?? e.code));
  const outcome = texts.at(-1) ?? "";
  const items = texts.map((t) => `<li>${t}</li>`).join("");
  return (
    `<div class="dragonroll"><p class="dragonroll-outcome"><strong>${outcome}</strong></p>` +
    `<details><summary>${escapeHtml(localize("DRAGONROLL.Chat.Events"))}</summary>` +
    `<ol>${items}</ol></details></div>`
  );
}

/**
 * The api: one function per endpoint, each `(body) => Promise<answer>`. `env` gives what Foundry
 * holds: `url()`, `lang()`, `fetch`, `post(answer)` (to chat), `fail(error)` (a notification).
 */
export function createApi(env) {
  const call = async (path, body, foundry) => {
    const request = buildRequest(env.url(), path, body, { lang: env.lang(), foundry });
    let answer;
    try {
      answer = await send(env.fetch, request);
    } catch (error) {
      if (error instanceof DragonrollError) env.fail(error);
      throw error;
    }
    if (foundry) await env.post(answer);
    return answer;
  };
  const api = {};
  for (const [name, path] of Object.entries(RESOLVERS)) api[name] = (body) => call(path, body, true);
  for (const [name, path] of Object.entries(CALCULATORS)) api[name] = (body) => call(path, body, false);
  return Object.freeze(api);
}

// ---------------------------------------------------------------- inside Foundry

/** The env of `createApi` from Foundry's globals. */
function foundryEnv() {
  const localize = (key) => game.i18n.localize(key);
  return {
    url: () => game.settings.get(MODULE_ID, "url"),
    lang: () => game.i18n.lang,
    fetch: (url, init) => globalThis.fetch(url, init),
    post: (answer) =>
      ChatMessage.create({
        rolls: (answer.foundry?.rolls ?? []).map((r) => Roll.fromData(r)),
        content: chatContent(answer, localize),
        speaker: ChatMessage.getSpeaker(),
      }),
    fail: (error) => {
      const { title, detail, status } = error.problem;
      const label = localize(status ? "DRAGONROLL.Error.Answer" : "DRAGONROLL.Error.Unreachable");
      ui.notifications.error(`${label}: ${title}${detail ? ` (${detail})` : ""}`);
    },
  };
}

/** Registers the setting and the api (Foundry's `init` hook). */
export function init() {
  game.settings.register(MODULE_ID, "url", {
    name: "DRAGONROLL.Settings.Url.Name",
    hint: "DRAGONROLL.Settings.Url.Hint",
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_URL,
  });
  game.modules.get(MODULE_ID).api = createApi(foundryEnv());
}

if (typeof Hooks !== "undefined") Hooks.once("init", init);
