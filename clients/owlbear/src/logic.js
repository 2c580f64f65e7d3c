// The extension's logic, free of the page and of the Owlbear SDK: every function that talks to
// Owlbear takes the SDK object (`obr`) as an argument, so the unit tests pass a stand-in
// (test/logic.test.js) and the popover passes the real `OBR` (src/main.js). What the popover shares
// with the playground, the Foundry dialog and the MCP roll card (the texts, the calls to the service,
// the form, an answer's outcome, dice and events) is the shared modules' (service/static/shared/);
// this is what is Owlbear's own: the room, Dice+, the message every player gets, the theme and the
// notifications. A text a player may see is an English message id marked with `N_`: an error is a
// `TextError` carrying its id and parameters, which the popover shows in the player's language.

import { diceOf, outcomeText } from "../../../service/static/shared/card.js";
import { N_, direction } from "../../../service/static/shared/i18n.js";

/** An error a player reads: `message` is the English; `msgid` and `params` translate it. */
export class TextError extends Error {
  constructor(msgid, params = {}) {
    super(msgid.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole)));
    this.msgid = msgid;
    this.params = params;
  }
}

/** Room metadata key (reverse DNS) holding the room's settings: `{ serviceUrl }`. */
export const METADATA_KEY = "dev.dragonroll.owlbear/settings";
/** Broadcast channel of the results. */
export const CHANNEL = "dev.dragonroll.owlbear/result";
/** Dice+ answers on `${DICE_PLUS_SOURCE}/roll-result` (and `/roll-error`). */
export const DICE_PLUS_SOURCE = "dev.dragonroll.owlbear";
/** Owlbear refuses a broadcast over 16 KB; a result message stays under this many bytes. */
export const MAX_MESSAGE_BYTES = 15_000;
/** The request's fields the popover sets itself (the envelope): the form neither shows nor offers them. */
export const ENVELOPE = ["seed", "dice", "lang", "foundry"];

/** The service URL of the room (its metadata), else the origin that served the page. */
export async function serviceUrl(obr, fallback) {
  const metadata = await obr.room.getMetadata();
  const url = metadata?.[METADATA_KEY]?.serviceUrl;
  return typeof url === "string" && url ? url.replace(/\/+$/, "") : fallback;
}

/** Stores the room's service URL (a GM's change: every player's popover then uses it). */
export async function setServiceUrl(obr, url) {
  const clean = String(url).trim().replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(clean)) {
    if (!clean) throw new TextError(N_("(empty) is not a URL like https://dragonroll.example.org"));
    throw new TextError(N_("{url} is not a URL like https://dragonroll.example.org"), { url });
  }
  await obr.room.setMetadata({ [METADATA_KEY]: { serviceUrl: clean } });
  return clean;
}

/** The languages the service speaks: those its systems' names are given in (`GET /systems`). */
export function languagesOf(catalog) {
  return catalog.length ? Object.keys(catalog[0].name) : ["en"];
}

/** A player's narration language: their choice, else the browser's, else English. */
export function playerLanguage(choice, browserLanguages = [], languages = ["en"]) {
  if (choice && languages.includes(choice)) return choice;
  for (const tag of browserLanguages) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (languages.includes(base)) return base;
  }
  return "en";
}

/**
 * The systems a player can roll, from what service.js's load() read (`GET /systems` and the OpenAPI
 * document: discover()'s entries): each system with its resolving endpoints in `GET /systems`'s order
 * (no odds, no simulation), each marked `rollsDice` when it draws any die (Dice+ has work to do).
 */
export function rollable({ systems, doc, paths }) {
  return systems.map((system) => ({
    id: system.id,
    name: system.name,
    languages: system.languages,
    endpoints: system.endpoints.flatMap((e) => {
      const entry = paths.find((p) => p.path === e.path);
      const op = doc.paths?.[e.path]?.post;
      return entry ? [{ ...entry, rollsDice: !/\*\*Dice slots\*\*: none/.test(op?.description ?? "") }] : [];
    }),
  }));
}

/** What the popover says when the service at `baseUrl` did not answer (no connection, not JSON). */
function silent(baseUrl, error) {
  return new TextError(N_("The service did not answer: {error}"), { error: `${baseUrl}: ${error?.message}` });
}

/**
 * The service's answer to one request (service.js's send(): `{ok, status, body, language, ...}`), or,
 * when the service did not answer, `{ok: false, status: 0, error}` with a TextError saying so.
 */
export async function reach(service, baseUrl, path, body, lang) {
  try {
    return await service.send(path, body, lang);
  } catch (error) {
    return { ok: false, status: 0, body: null, error: silent(baseUrl, error) };
  }
}

/** What the popover says when the service's description of itself could not be read. */
export function unreadable(error, baseUrl) {
  if (error?.status) return new TextError(N_("{url} answered {status}"), { url: `${baseUrl}${error.path}`, status: error.status });
  return error?.msgid ? error : silent(baseUrl, error);
}

/** A system's name in the player's language (English where it has none of its own). */
export function systemName(system, lang) {
  return system.name?.[lang] ?? system.name?.en ?? system.id;
}

/** The endpoint of `path` in the catalog (null for one it does not list). */
export function endpointOf(catalog, path) {
  return catalog.flatMap((s) => s.endpoints).find((e) => e.path === path) ?? null;
}

/** A seed for a roll: 32 hex characters from the browser's secure source (replayable). */
export function newSeed(crypto = globalThis.crypto) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The dice slot, size and count a `dice-exhausted` problem asks for (null for another problem). */
export function missingDice(problem) {
  if (!String(problem?.type ?? "").endsWith("/dice-exhausted")) return null;
  const error = problem.errors?.[0] ?? {};
  const m = /needed at least (\d+) more d(\d+) values? for slot '([^']+)'/.exec(error.msg ?? problem.detail ?? "");
  if (!m) return null;
  return { count: Number(m[1]), sides: Number(m[2]), slot: m[3] };
}

/**
 * Resolve `body` with the table's own dice: every slot the resolution draws is scripted with dice
 * rolled by `rollDice(count, sides)` (Dice+ in the room). Starting from no script, each answer says
 * what is missing: a slot the answer drew from the seed gets a script, an exhausted script asks
 * for more dice; at most `rounds` requests. The last answer comes back with the request that got it
 * (`request`: the body and its complete script).
 */
export async function resolveWithTableDice(send, body, rollDice, rounds = 12) {
  const script = {};
  let last = null;
  for (let round = 0; round < rounds; round += 1) {
    const request = { ...body, dice: structuredClone(script) };
    last = { ...(await send(request)), request };
    if (last.ok) {
      const fromSeed = [...new Set((last.body.rolls ?? []).filter((r) => r.source === "seed").map((r) => r.slot))];
      if (fromSeed.length === 0) return last;
      for (const slot of fromSeed) script[slot] = [];
      continue;
    }
    const missing = missingDice(last.body);
    if (!missing) return last;
    const values = await rollDice(missing.count, missing.sides);
    script[missing.slot] = [...(script[missing.slot] ?? []), ...values];
  }
  return last;
}

/** Is Dice+ in the room? It answers `dice-plus/isReady` with `{ requestId, ready: true }`. */
export function dicePlusReady(obr, timeoutMs = 1000, uuid = () => globalThis.crypto.randomUUID()) {
  const requestId = uuid();
  return new Promise((resolve) => {
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      unsubscribe();
      resolve(value);
    };
    const unsubscribe = obr.broadcast.onMessage("dice-plus/isReady", (event) => {
      if (event?.data?.ready === true && event.data.requestId === requestId) finish(true);
    });
    obr.broadcast
      .sendMessage("dice-plus/isReady", { requestId, timestamp: Date.now() }, { destination: "LOCAL" })
      .catch(() => finish(false));
    setTimeout(() => finish(false), timeoutMs);
  });
}

/**
 * Roll `count` d`sides` with Dice+ (its 3D dice, shown to the table or, for a GM-only roll, to the
 * GM alone); resolves to the values, in the order Dice+ lists them.
 */
export function dicePlusRoll(obr, player, count, sides, options = {}) {
  const { label = "dragonroll", gmOnly = false, timeoutMs = 30_000, uuid = () => globalThis.crypto.randomUUID() } = options;
  const rollId = uuid();
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      offResult();
      offError();
      fn(value);
    };
    const offResult = obr.broadcast.onMessage(`${DICE_PLUS_SOURCE}/roll-result`, (event) => {
      const data = event?.data;
      if (data?.rollId !== rollId) return;
      const values = (data.result?.groups ?? []).flatMap((g) => (g.dice ?? []).filter((d) => d.kept !== false).map((d) => d.value));
      if (values.length < count || values.some((v) => !Number.isInteger(v) || v < 1 || v > sides)) {
        finish(reject, new TextError(N_("Dice+ answered {values} for {count}d{sides}"), { values: JSON.stringify(values), count, sides }));
      } else {
        finish(resolve, values.slice(0, count));
      }
    });
    const offError = obr.broadcast.onMessage(`${DICE_PLUS_SOURCE}/roll-error`, (event) => {
      if (event?.data?.rollId !== rollId) return;
      const error = event.data.error;
      finish(reject, error ? new TextError(N_("Dice+: {error}"), { error }) : new TextError(N_("Dice+: the roll failed")));
    });
    const timer = setTimeout(() => finish(reject, new TextError(N_("Dice+ did not answer in time"))), timeoutMs);
    obr.broadcast
      .sendMessage(
        "dice-plus/roll-request",
        {
          rollId,
          playerId: player.id,
          playerName: player.name,
          rollTarget: gmOnly ? "self" : "everyone",
          diceNotation: `${count}d${sides} # ${label}`,
          showResults: true,
          timestamp: Date.now(),
          source: DICE_PLUS_SOURCE,
        },
        { destination: "LOCAL" },
      )
      .catch((error) => finish(reject, error));
  });
}

/**
 * The message every player gets for a result: who rolled what, the outcome sentence, the texts,
 * the dice (and what the shared card shows of them: each slot's formula, each die's fate: dropped,
 * cancelled, exploded ...), and the request (so a player reading another language can have the same
 * result narrated in theirs: the seed and the dice make it the same). Under MAX_MESSAGE_BYTES: the
 * request, then the dice's fates, then texts, then dice are dropped when it would be larger.
 */
export function resultMessage({ answer, request, endpoint, player, baseUrl, lang }) {
  const texts = (answer.events ?? []).map((e) => e.text).filter((t) => typeof t === "string");
  const { rolls, ...diceFacts } = diceOf(answer);
  const message = {
    v: 1,
    id: `${answer.seed}:${Date.now()}`,
    player: String(player.name ?? "").slice(0, 80),
    path: endpoint.path,
    title: endpoint.summary,
    lang,
    outcome: outcomeText(answer.events, endpoint.outcome),
    texts,
    dice: rolls.slice(0, 200).map((r) => [r.slot, r.sides, r.value, r.source === "dice" ? "d" : "s"]),
    diceFacts,
    seed: answer.seed,
    service: baseUrl,
    request,
  };
  const size = (m) => new TextEncoder().encode(JSON.stringify(m)).length;
  if (size(message) > MAX_MESSAGE_BYTES) delete message.request;
  if (size(message) > MAX_MESSAGE_BYTES) delete message.diceFacts;
  while (size(message) > MAX_MESSAGE_BYTES && message.texts.length > 1) message.texts.pop();
  while (size(message) > MAX_MESSAGE_BYTES && message.dice.length > 0) message.dice.pop();
  if (size(message) > MAX_MESSAGE_BYTES) message.outcome = message.outcome.slice(0, 2000);
  return message;
}

/** Is `data` a result message of this extension (what the log shows)? */
export function isResultMessage(data) {
  return (
    data !== null && typeof data === "object" && data.v === 1 && typeof data.outcome === "string" &&
    Array.isArray(data.texts) && Array.isArray(data.dice) && typeof data.path === "string"
  );
}

/**
 * What a result message holds of its answer, as the shared card's dice view reads an answer
 * (card.js's diceOf): the seed, the dice (`rolls`, each `source` "dice" when the table's Dice+ rolled
 * it, else "seed") and their formulas and fates.
 */
export function messageAnswer(message) {
  const facts = message.diceFacts !== null && typeof message.diceFacts === "object" ? message.diceFacts : {};
  return {
    ...facts,
    seed: message.seed,
    rolls: message.dice.map(([slot, sides, value, source]) => ({ slot, sides, value, source: source === "d" ? "dice" : "seed" })),
  };
}

/**
 * Share a result: broadcast to every player (`ALL`: the others and this popover, whose log shows
 * it from the same message). A GM-only roll is not broadcast: `deliver` shows it here alone.
 */
export async function share(obr, message, { gmOnly, deliver }) {
  if (gmOnly) {
    deliver(message);
    return "LOCAL_ONLY";
  }
  await obr.broadcast.sendMessage(CHANNEL, message, { destination: "ALL" });
  return "ALL";
}

/**
 * The texts and the outcome a player reads for a message: in their language when it is the
 * roller's, else the same request re-resolved in theirs (same seed, same dice: the same result),
 * else the roller's. `endpoint` (from the catalog) names the outcome's event codes.
 */
export async function textsFor(message, lang, send, endpoint = null) {
  const theirs = { texts: message.texts, outcome: message.outcome, lang: message.lang };
  if (message.lang === lang || !message.request) return theirs;
  const again = await send(message.path, { ...message.request, lang });
  if (!again.ok) return theirs;
  const texts = (again.body.events ?? []).map((e) => e.text);
  return { texts, outcome: outcomeText(again.body.events, endpoint?.outcome) || message.outcome, lang };
}

// ---------------------------------------------------------------- Owlbear's theme and notifications

/**
 * The popover's colours from Owlbear Rodeo's theme (`OBR.theme.getTheme()`, `onChange`: its mode,
 * primary colour, background and text, as the SDK's Theme type gives them): the CSS properties the
 * popover's stylesheet reads (`var(--obr-...)`, with the browser's own colours where there is none),
 * so the popover looks like the room it is in, light or dark. Null for no theme.
 */
export function themeStyle(theme) {
  if (!theme || typeof theme !== "object") return null;
  const light = theme.mode === "LIGHT";
  const style = {
    "color-scheme": light ? "light" : "dark",
    "--obr-background": theme.background?.paper ?? theme.background?.default,
    "--obr-text": theme.text?.primary,
    "--obr-muted": theme.text?.secondary,
    "--obr-line": theme.text?.disabled,
    "--obr-accent": theme.primary?.main,
    "--obr-on-accent": theme.primary?.contrastText,
    // the accent as a line or text on the background: the darker shade on a light theme
    "--obr-accent-line": light ? (theme.primary?.dark ?? theme.primary?.main) : (theme.primary?.light ?? theme.primary?.main),
  };
  return Object.fromEntries(Object.entries(style).filter(([, value]) => typeof value === "string" && value));
}

const FSI = "\u2068";
const RLI = "\u2067";
const PDI = "\u2069";

/**
 * A result's notification (`OBR.notification.show`): "<player>: <outcome>", at most `max`
 * characters. Owlbear shows it in its own direction, so the text carries its own: the player's name
 * isolated (FSI ... PDI: an Arabic name in an English line, a Latin one in an Arabic line, each
 * keeps its place), and in a right-to-left language the whole line a right-to-left isolate (RLI ...
 * PDI), so the name stands at its right and the sentence reads on from there.
 */
export function notificationText(player, outcome, lang, max = 300) {
  const rtl = direction(String(lang ?? "en")) === "rtl";
  const open = rtl ? RLI : "";
  const close = rtl ? PDI : "";
  const name = `${FSI}${String(player ?? "")}${PDI}: `;
  const room = Math.max(0, max - open.length - close.length - name.length);
  // A cut never leaves one of the service's isolates (its names and numbers) open.
  let said = "";
  let depth = 0;
  for (const c of String(outcome ?? "")) {
    const next = depth + (c >= "\u2066" && c <= "\u2068" ? 1 : c === PDI && depth ? -1 : 0);
    if (said.length + c.length + next > room) break;
    said += c;
    depth = next;
  }
  return `${open}${name}${said}${PDI.repeat(depth)}${close}`;
}
