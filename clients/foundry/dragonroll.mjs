// dragonroll for Foundry VTT v12 to v14 (docs/foundry.md): the service's address (the world's, and
// each player's own in their browser), `game.modules.get("dragonroll").api` (one function per
// endpoint of the service: endpoints.mjs, generated from its OpenAPI document), the `/dr` chat
// command, the dialog (a scene control and `api.open()`), and the Dice Fulfillment method that makes
// dragonroll the table's dice.
//
// A function of a resolving endpoint sends the request with the game's language as Accept-Language
// (and `foundry: true` where its system has Foundry rolls), posts a chat card in the user's message
// mode (or the one the call passes) with Foundry's own rendering of every roll (Dice So Nice throws
// them) beside the narration, in the answer's language and direction, and returns the answer. Odds
// and simulations only return the answer. A failure is a notification naming its likely cause and
// an Error carrying the problem.
//
// Everything before the hooks at the end touches no Foundry global, so node's tests run it as it is;
// the parts live in their own files: request.mjs (the requests), card.mjs (the chat card),
// modes.mjs (who sees a message), command.mjs (`/dr`), fulfillment.mjs (the table's dice) and
// dialog.mjs (the dialog).
import { ENDPOINTS } from "./endpoints.mjs";
import { chatMessage } from "./card.mjs";
import { commandBody, DIALECTS, parseCommand } from "./command.mjs";
import { openDialog } from "./dialog.mjs";
import { fulfillmentMethod, METHOD, TableDice, verifyRolls } from "./fulfillment.mjs";
import { applyMode } from "./modes.mjs";
import { buildRequest, DEFAULT_URL, DragonrollError, exchange, failureText, localNetworkPermission, serviceUrl } from "./request.mjs";

export { ENDPOINTS };
export * from "./request.mjs";
export * from "./card.mjs";
export * from "./modes.mjs";
export * from "./command.mjs";
export * from "./fulfillment.mjs";
export const MODULE_ID = "dragonroll";

/** The resolving endpoints (each answer posted to chat), by the api's function name. */
export const RESOLVERS = Object.freeze(Object.fromEntries(ENDPOINTS.filter((e) => e.resolves).map((e) => [e.name, e.path])));
/** Odds and simulations: answered, never posted to chat. */
export const CALCULATORS = Object.freeze(Object.fromEntries(ENDPOINTS.filter((e) => !e.resolves).map((e) => [e.name, e.path])));

/**
 * The api: one function per endpoint, each `(body, {mode, speaker}) => Promise<answer>` (`mode`: a
 * message or roll mode for this call's card, else the user's own; `speaker`: the card's), and
 * `resolve(path, body, options)`, the same for an endpoint by its path, giving `{answer, lang}` (the
 * language of the answer's texts). `env` gives what Foundry holds: `url()`, `lang()`, `fetch`,
 * `post(answer, {lang, mode, speaker, path})` (to chat), `fail(error)` (a notification).
 */
export function createApi(env) {
  const call = async ({ path, resolves, foundry }, body, options = {}) => {
    const request = buildRequest(env.url(), path, body, { lang: env.lang(), foundry });
    let exchanged;
    try {
      exchanged = await exchange(env.fetch, request);
    } catch (error) {
      if (error instanceof DragonrollError) await env.fail(error);
      throw error;
    }
    const answer = exchanged.answer;
    const lang = exchanged.lang ?? env.lang();
    if (resolves) await env.post(answer, { lang, mode: options?.mode ?? null, speaker: options?.speaker ?? null, path });
    return { answer, lang };
  };
  const api = {};
  for (const endpoint of ENDPOINTS) api[endpoint.name] = async (body, options) => (await call(endpoint, body, options)).answer;
  api.resolve = (path, body, options) => {
    const endpoint = ENDPOINTS.find((e) => e.path === path);
    if (!endpoint) return Promise.reject(new DragonrollError({ title: "no such endpoint", status: 404, detail: path }));
    return call(endpoint, body, options);
  };
  return Object.freeze(api);
}

/** The api function of a path (`/dice/roll`: `diceRoll`). */
export function functionOf(path) {
  return ENDPOINTS.find((e) => e.path === path)?.name ?? null;
}

// ---------------------------------------------------------------- inside Foundry

/** What the parts need of Foundry's globals, read when called. */
function foundryGlobals() {
  return { config: CONFIG, settings: game.settings, ChatMessage };
}

/** The address in use: the player's own when set, else the world's. */
function currentUrl() {
  return serviceUrl(game.settings.get(MODULE_ID, "clientUrl"), game.settings.get(MODULE_ID, "url"));
}

async function notifyFailure(error) {
  const format = (key, data) => game.i18n.format(key, data);
  const permission = error.problem?.status ? null : await localNetworkPermission(globalThis.navigator?.permissions);
  ui.notifications.error(failureText(error, format, { pageUrl: globalThis.location?.href, permission }));
}

/** The env of `createApi` from Foundry's globals. */
function foundryEnv() {
  const localize = (key) => game.i18n.localize(key);
  return {
    url: currentUrl,
    lang: () => game.i18n.lang,
    fetch: (url, init) => globalThis.fetch(url, init),
    post: async (answer, { lang, mode, speaker, path }) => {
      const data = await chatMessage(answer, { Roll, localize, speaker: speaker ?? ChatMessage.getSpeaker(), lang, uiLang: game.i18n.lang, path });
      const options = applyMode(foundryGlobals(), data, mode);
      return ChatMessage.create(data, options);
    },
    fail: notifyFailure,
  };
}

/** `POST /dice/draw` for the table's dice and for checking a roll (no chat message). */
async function draw(body) {
  const request = buildRequest(currentUrl(), "/dice/draw", body, { lang: game.i18n.lang, foundry: false });
  return (await exchange((url, init) => globalThis.fetch(url, init), request)).answer;
}

function registerSettings() {
  const world = (key, data) => game.settings.register(MODULE_ID, key, { scope: "world", config: true, ...data });
  // The table's address, set by the GM: what every player uses unless they set their own.
  world("url", { name: "DRAGONROLL.Settings.Url.Name", hint: "DRAGONROLL.Settings.Url.Hint", type: String, default: DEFAULT_URL });
  // Each player's own, in their browser (127.0.0.1 is a different machine for each of them).
  game.settings.register(MODULE_ID, "clientUrl", {
    name: "DRAGONROLL.Settings.ClientUrl.Name",
    hint: "DRAGONROLL.Settings.ClientUrl.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
  });
  // How /dr and the dialog read dice notation (the names of the dialects are their own).
  world("dialect", {
    name: "DRAGONROLL.Settings.Dialect.Name",
    hint: "DRAGONROLL.Settings.Dialect.Hint",
    type: String,
    choices: { ...DIALECTS },
    default: "foundry",
  });
  world("seed", { name: "DRAGONROLL.Settings.Seed.Name", hint: "DRAGONROLL.Settings.Seed.Hint", type: String, default: "" });
  world("tableDice", {
    name: "DRAGONROLL.Settings.TableDice.Name",
    hint: "DRAGONROLL.Settings.TableDice.Hint",
    type: Boolean,
    default: false,
    onChange: (on) => useTableDice(on),
  });
  // The number of this user's next term under the session seed (`{seed, next}`): in the world, per
  // user (scope "user", https://foundryvtt.com/api/v13/variables/CONST.SETTING_SCOPES.html and
  // https://foundryvtt.com/api/v14/variables/CONST.SETTING_SCOPES.html), else in this browser.
  const scope = globalThis.CONST?.SETTING_SCOPES?.USER ?? "client";
  game.settings.register(MODULE_ID, "terms", { scope, config: false, type: Object, default: { seed: "", next: 0 } });
}

/** This user's count of terms under the session seed, in memory (the setting is read once and then
 * written in the background: two terms of one roll must not wait for the world's database, nor
 * read the same count before it answers). */
let terms = null;

/** The next term number of this user under `seed`, counted (saved in the background). */
function nextTerm(seed) {
  if (terms?.seed !== seed) {
    const kept = game.settings.get(MODULE_ID, "terms") ?? {};
    terms = { seed, next: kept.seed === seed ? Number(kept.next) || 0 : 0 };
  }
  const next = terms.next;
  terms = { seed, next: next + 1 };
  Promise.resolve(game.settings.set(MODULE_ID, "terms", terms)).catch(() => {});
  return next;
}

/** dragonroll as every user's default way of rolling dice (their own Dice Configuration still wins). */
function useTableDice(on) {
  const fulfillment = CONFIG.Dice.fulfillment;
  if (on) fulfillment.defaultMethod = METHOD;
  else if (fulfillment.defaultMethod === METHOD) fulfillment.defaultMethod = "";
}

function registerTableDice() {
  let warned = false;
  const dice = new TableDice({
    draw,
    seed: () => game.settings.get(MODULE_ID, "seed"),
    user: () => game.user?.id,
    next: nextTerm,
    warn: (error) => {
      if (warned) return;
      warned = true; // once a session: a table without the service still rolls, with Foundry's dice
      if (error instanceof DragonrollError) notifyFailure(error);
      else ui.notifications.warn(game.i18n.format("DRAGONROLL.Fulfillment.Failed", { error: error.message }));
    },
  });
  CONFIG.Dice.fulfillment.methods[METHOD] = fulfillmentMethod((term, options) => dice.fulfil(term, options));
  useTableDice(game.settings.get(MODULE_ID, "tableDice"));
}

/** The `/dr` command: the notation rolled, in the table's dialect, in the user's message mode. */
function registerCommand(api) {
  Hooks.on("chatMessage", (chatLog, message, chatData) => {
    const command = parseCommand(message);
    if (!command) return undefined;
    if (!command.notation) {
      ui.notifications.info(game.i18n.localize("DRAGONROLL.Command.Usage"));
      return false;
    }
    const body = commandBody(command, { dialect: game.settings.get(MODULE_ID, "dialect"), speaker: chatData?.speaker });
    api.diceRoll(body, { speaker: chatData?.speaker ?? null }).catch(() => {}); // a failure is notified
    return false;
  });
}

/** The dialog's button among the token controls (v13 and v14: a record; v12: a list). */
function registerControl(open) {
  const tool = { name: MODULE_ID, title: "DRAGONROLL.Dialog.Title", icon: "fa-solid fa-dragon", button: true, visible: true };
  Hooks.on("getSceneControlButtons", (controls) => {
    if (Array.isArray(controls)) {
      // v12: https://foundryvtt.com/api/v12/functions/hookEvents.getSceneControlButtons.html
      controls.find((c) => c.name === "token")?.tools.push({ ...tool, onClick: open });
    } else if (controls?.tokens?.tools) {
      // v13, v14: https://foundryvtt.com/api/v14/functions/hookEvents.getSceneControlButtons.html
      controls.tokens.tools[MODULE_ID] = { ...tool, order: Object.keys(controls.tokens.tools).length, onChange: open };
    }
  });
}

/** Registers the settings, the api, the command, the table's dice and the dialog (the `init` hook). */
export function init() {
  terms = null;
  registerSettings();
  const api = createApi(foundryEnv());
  const open = () => openDialog({ api, url: currentUrl, lang: () => game.i18n.lang });
  const module = game.modules.get(MODULE_ID);
  // verify(rolls): each roll's dice (a Roll or its data) against the stream they claim (fulfillment.mjs)
  module.api = Object.freeze({ ...api, open, verify: (rolls) => verifyRolls(rolls.map((r) => (r.toJSON ? r.toJSON() : r)), draw) });
  registerCommand(api);
  registerTableDice();
  registerControl(open);
}

/** The GM's client makes the session seed when the world has none (the `ready` hook). */
export async function ready() {
  if (!game.user?.isGM || String(game.settings.get(MODULE_ID, "seed") ?? "").trim()) return;
  try {
    const answer = await draw({ draws: [{ slot: "session", sides: 2, count: 1 }] });
    await game.settings.set(MODULE_ID, "seed", String(answer.seed));
  } catch {
    // the service is unreachable: each term then gets a seed of its own, made by the service
  }
}

if (typeof Hooks !== "undefined") {
  Hooks.once("init", init);
  Hooks.once("ready", ready);
}
