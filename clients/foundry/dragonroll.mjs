// dragonroll for Foundry VTT v12-v13: the service's address (the world's, and each player's own in
// their browser), and `game.modules.get("dragonroll").api`, one function per endpoint of the service
// (endpoints.mjs, generated from its OpenAPI document; docs/foundry.md).
//
// A function of an endpoint that draws dice sends the request with `foundry: true` and the game's
// language as Accept-Language, posts a chat card with Foundry's own rendering of every roll (Dice So
// Nice throws them) beside the narration, and returns the answer. Odds and simulations draw no dice:
// their functions only return the answer. A failure is a notification naming its likely cause and an
// Error carrying the problem.
//
// Everything before the hooks at the end touches no Foundry global, so node's tests run it as it is.
import { ENDPOINTS } from "./endpoints.mjs";

export { ENDPOINTS };
export const MODULE_ID = "dragonroll";
export const DEFAULT_URL = "http://127.0.0.1:8000";

/** The endpoints that draw dice (posted to chat), by the api's function name. */
export const RESOLVERS = Object.freeze(
  Object.fromEntries(ENDPOINTS.filter((e) => e.rolls).map((e) => [e.name, e.path])),
);
/** Odds and simulations: answered, never posted to chat. */
export const CALCULATORS = Object.freeze(
  Object.fromEntries(ENDPOINTS.filter((e) => !e.rolls).map((e) => [e.name, e.path])),
);

/** The error thrown for an answer that is not a success: `problem` is its problem+json. */
export class DragonrollError extends Error {
  constructor(problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = "DragonrollError";
    this.problem = problem;
    this.status = problem.status;
  }
}

/** The address in use: the player's own (a client setting) when set, else the world's. */
export function serviceUrl(own, world) {
  const mine = String(own ?? "").trim();
  return mine || String(world ?? "").trim() || DEFAULT_URL;
}

/**
 * The fetch arguments of one request: `{url, init}`. Pure: `baseUrl` is the address in use, `lang`
 * the game's language; `foundry` adds `"foundry": true` to the body (an endpoint that draws dice).
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

/**
 * Sends a built request with `fetchFn`: the answer, else a DragonrollError with its problem. A
 * request that got no answer at all (`status: 0`) carries `url` for the diagnosis.
 */
export async function send(fetchFn, { url, init }) {
  let response;
  try {
    response = await fetchFn(url, init);
  } catch (cause) {
    throw new DragonrollError({ title: "unreachable", status: 0, detail: `${url}: ${cause.message}`, url });
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

// ---------------------------------------------------------------- why a request got no answer

const RANK = { public: 0, local: 1, loopback: 2 };

/** The address space of a host name as browsers class it: `loopback`, `local` or `public`. */
export function addressSpace(hostname) {
  const host = String(hostname).toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1") {
    return "loopback";
  }
  const local =
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    /^f[cd][0-9a-f]{0,2}:/.test(host) ||
    /^fe[89ab][0-9a-f]?:/.test(host) ||
    host.endsWith(".local") ||
    (!host.includes(".") && !host.includes(":")); // a bare name on the local network
  return local ? "local" : "public";
}

/**
 * The likely reason a request to `serviceUrl` got no answer, from the game's page (`pageUrl`) and
 * the browser's local-network permission (`"granted"`, `"denied"`, `"prompt"` or null: unknown):
 * - `address`: not an http:// or https:// URL;
 * - `https`: an HTTPS game and an http:// service that is not this machine (127.0.0.1, localhost):
 *   mixed content, which every browser blocks; a shared service needs an https:// address;
 * - `permission`: a service nearer than the game (this machine or the local network, a game on the
 *   internet), which Chrome (142+) and Edge (143+) reach only with the player's permission;
 * - `insecure`: the same from an http:// game, which cannot be given that permission at all;
 * - `down`: nothing answered there (not running, a wrong address or port, or CORS refused).
 */
export function unreachableCause(url, { pageUrl, permission = null } = {}) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return "address";
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return "address";
  let page = null;
  try {
    page = pageUrl ? new URL(pageUrl) : null;
  } catch {
    page = null;
  }
  const to = addressSpace(target.hostname);
  if (page?.protocol === "https:" && target.protocol === "http:" && to !== "loopback") return "https";
  if (permission === "denied") return "permission";
  const from = page ? addressSpace(page.hostname) : "public";
  if (RANK[to] > RANK[from]) {
    // Only a secure (https://) page may ask for the permission at all.
    if (page && page.protocol !== "https:") return "insecure";
    if (permission !== "granted") return "permission";
  }
  return "down";
}

/**
 * The notification of a failure: what failed and, for no answer at all, its likely cause (see
 * `unreachableCause`). `format(key, data)` is Foundry's `game.i18n.format`.
 */
export function failureText(error, format, { pageUrl, permission } = {}) {
  const { title, detail, status, url } = error.problem;
  if (status) return `${format("DRAGONROLL.Error.Answer", {})}: ${title}${detail ? ` (${detail})` : ""}`;
  const target = url ?? "";
  const cause = unreachableCause(target, { pageUrl, permission });
  let host = target;
  try {
    host = new URL(target).host;
  } catch {
    // not a URL: the cause says so
  }
  const reason = format(`DRAGONROLL.Error.Cause.${cause[0].toUpperCase()}${cause.slice(1)}`, { url: target, host });
  return `${format("DRAGONROLL.Error.Unreachable", { url: target })}: ${reason}`;
}

/** The local-network permission of this page (Chrome and Edge name it; elsewhere null). */
export async function localNetworkPermission(permissions) {
  if (!permissions?.query) return null;
  for (const name of ["local-network-access", "loopback-network", "local-network"]) {
    try {
      const { state } = await permissions.query({ name });
      if (state) return state;
    } catch {
      // a name this browser does not know
    }
  }
  return null;
}

// ---------------------------------------------------------------- the chat card

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` safe inside HTML. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * The card's HTML: the outcome (the last event's sentence), the rolls as Foundry rendered them
 * (`rendered`: the HTML of each `Roll#render`), and every event's sentence under a fold, each
 * sentence escaped. `localize` turns a key of lang/<lang>.json into its text.
 */
export function chatContent(answer, localize = (key) => key, rendered = []) {
  const texts = (answer.events ?? []).map((e) => escapeHtml(e.text ?? e.code));
  const outcome = texts.at(-1) ?? "";
  const items = texts.map((t) => `<li>${t}</li>`).join("");
  const rolls = rendered.length ? `<div class="dragonroll-rolls">${rendered.join("")}</div>` : "";
  return (
    `<div class="dragonroll"><p class="dragonroll-outcome"><strong>${outcome}</strong></p>` +
    rolls +
    `<details><summary>${escapeHtml(localize("DRAGONROLL.Chat.Events"))}</summary>` +
    `<ol>${items}</ol></details></div>`
  );
}

/**
 * The chat message of an answer: each of its rolls made a Foundry `Roll` (`Roll.fromData`), and
 * rendered by Foundry (`Roll#render`, with the roll's own flavor) into the card beside the
 * narration; the message keeps the rolls, so Dice So Nice throws their dice.
 */
export async function chatMessage(answer, { Roll, localize, speaker }) {
  const rolls = (answer.foundry?.rolls ?? []).map((data) => Roll.fromData(data));
  const rendered = [];
  for (const roll of rolls) rendered.push(await roll.render({ flavor: roll.options?.flavor }));
  return { rolls, content: chatContent(answer, localize, rendered), speaker };
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
      if (error instanceof DragonrollError) await env.fail(error);
      throw error;
    }
    if (foundry) await env.post(answer);
    return answer;
  };
  const api = {};
  for (const { name, path, rolls } of ENDPOINTS) api[name] = (body) => call(path, body, rolls);
  return Object.freeze(api);
}

// ---------------------------------------------------------------- inside Foundry

/** The env of `createApi` from Foundry's globals. */
function foundryEnv() {
  const localize = (key) => game.i18n.localize(key);
  const format = (key, data) => game.i18n.format(key, data);
  return {
    url: () => serviceUrl(game.settings.get(MODULE_ID, "clientUrl"), game.settings.get(MODULE_ID, "url")),
    lang: () => game.i18n.lang,
    fetch: (url, init) => globalThis.fetch(url, init),
    post: async (answer) =>
      ChatMessage.create(await chatMessage(answer, { Roll, localize, speaker: ChatMessage.getSpeaker() })),
    fail: async (error) => {
      const permission = error.problem.status ? null : await localNetworkPermission(globalThis.navigator?.permissions);
      ui.notifications.error(failureText(error, format, { pageUrl: globalThis.location?.href, permission }));
    },
  };
}

/** Registers the settings and the api (Foundry's `init` hook). */
export function init() {
  // The table's address, set by the GM: what every player uses unless they set their own.
  game.settings.register(MODULE_ID, "url", {
    name: "DRAGONROLL.Settings.Url.Name",
    hint: "DRAGONROLL.Settings.Url.Hint",
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_URL,
  });
  // Each player's own, in their browser (127.0.0.1 is a different machine for each of them).
  game.settings.register(MODULE_ID, "clientUrl", {
    name: "DRAGONROLL.Settings.ClientUrl.Name",
    hint: "DRAGONROLL.Settings.ClientUrl.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
  });
  game.modules.get(MODULE_ID).api = createApi(foundryEnv());
}

if (typeof Hooks !== "undefined") Hooks.once("init", init);
