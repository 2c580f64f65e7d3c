// The extension's logic, free of the page and of the Owlbear SDK: every function that talks to
// Owlbear takes the SDK object (`obr`) as an argument, so the unit tests pass a stand-in
// (test/logic.test.js) and the popover passes the real `OBR` (src/main.js). A text a player may see
// is an English message id marked with `N_` (src/i18n.js): an error is a `TextError` carrying its id
// and parameters, which the popover shows in the player's language.

import { N_ } from "./i18n.js";

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
/** Fields the form never shows (the envelope: set by the extension itself). */
const ENVELOPE = new Set(["seed", "dice", "lang", "foundry"]);

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

/** A language's name in that language (`pl`: "polski"), from the browser's own tables. */
export function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
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
 * The systems and their rolling endpoints, from the service's description of itself: `GET /systems`
 * (names in every language, the languages, each endpoint and its outcome's event codes), and each
 * endpoint's example and request schema from its OpenAPI document.
 */
export async function loadCatalog(baseUrl, fetchFn = fetch) {
  const [systems, doc] = await Promise.all(
    ["/systems", "/openapi.json"].map(async (path) => {
      const response = await fetchFn(`${baseUrl}${path}`);
      if (!response.ok) throw new TextError(N_("{url} answered {status}"), { url: `${baseUrl}${path}`, status: response.status });
      return response.json();
    }),
  );
  return catalogFrom(systems, doc);
}

export function catalogFrom(systems, doc) {
  return systems.map((system) => ({
    id: system.id,
    name: system.name,
    languages: system.languages,
    endpoints: system.endpoints.flatMap((e) => {
      const op = doc.paths?.[e.path]?.post;
      const content = op?.requestBody?.content?.["application/json"];
      if (!content?.schema) return [];
      return [{
        path: e.path,
        summary: e.summary,
        outcome: e.outcome ?? [],
        example: content.example ?? {},
        schema: resolve(doc, content.schema),
        rollsDice: !/\*\*Dice slots\*\*: none/.test(op.description ?? ""),
      }];
    }),
  }));
}

/** A system's name in the player's language (English where it has none of its own). */
export function systemName(system, lang) {
  return system.name?.[lang] ?? system.name?.en ?? system.id;
}

/** The endpoint of `path` in the catalog (null for one it does not list). */
export function endpointOf(catalog, path) {
  return catalog.flatMap((s) => s.endpoints).find((e) => e.path === path) ?? null;
}

/**
 * An answer's outcome in one line: the texts of its events whose codes are the endpoint's outcome
 * (`GET /systems`), already in the answer's language; else its last text.
 */
export function outcomeOf(answer, endpoint) {
  const codes = new Set(endpoint?.outcome ?? []);
  const events = (answer?.events ?? []).filter((e) => typeof e.text === "string");
  const told = events.filter((e) => codes.has(e.code)).map((e) => e.text);
  return told.length ? told.join(" ") : (events.at(-1)?.text ?? "");
}

function resolve(doc, schema) {
  const ref = schema?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return schema ?? {};
  return doc.components?.schemas?.[ref.slice("#/components/schemas/".length)] ?? {};
}

/** One schema as a form field's kind: integer, number, boolean, an enum, or null (not a scalar). */
function scalar(schema) {
  const options = schema.anyOf ?? schema.oneOf ?? [schema];
  const real = options.filter((s) => s.type !== "null");
  if (real.length !== 1) return null;
  const s = real[0];
  if (s.enum) return { kind: "enum", values: s.enum };
  if (s.type === "integer" || s.type === "number" || s.type === "boolean") return { kind: s.type };
  return null;
}

/**
 * The compact form of an endpoint: a field per top-level scalar (a number, a yes/no, a choice),
 * and what is left (pools, combatants, options) as JSON, all prefilled from the endpoint's example.
 */
export function formFor(endpoint) {
  const fields = [];
  const rest = {};
  const required = new Set(endpoint.schema.required ?? []);
  for (const [name, schema] of Object.entries(endpoint.schema.properties ?? {})) {
    if (ENVELOPE.has(name)) continue;
    const kind = scalar(schema);
    if (kind) {
      fields.push({
        name,
        label: schema.title ?? name,
        description: schema.description ?? "",
        required: required.has(name),
        value: endpoint.example[name] ?? schema.default ?? "",
        ...kind,
      });
    } else if (name in endpoint.example) {
      rest[name] = endpoint.example[name];
    }
  }
  fields.sort((a, b) => Number(b.required) - Number(a.required)); // the required ones first
  return { fields, rest: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : "" };
}

/**
 * The request body from the form's values (strings from inputs, booleans from checkboxes) and its
 * JSON part; a clear Error naming the field for what cannot be sent.
 */
export function buildBody(form, values, restText, lang) {
  let body = {};
  if (restText && restText.trim()) {
    try {
      body = JSON.parse(restText);
    } catch (error) {
      throw new TextError(N_("The JSON part is not valid JSON: {error}"), { error: error.message });
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new TextError(N_("The JSON part must be an object, like {example}"), { example: '{"pool": 3}' });
    }
  }
  for (const field of form.fields) {
    const raw = values[field.name];
    if (field.kind === "boolean") {
      if (raw !== undefined && raw !== "") body[field.name] = raw === true || raw === "true";
      continue;
    }
    if (raw === undefined || raw === "") {
      if (field.required) throw new TextError(N_("{field} is required"), { field: field.label });
      continue;
    }
    if (field.kind === "integer" || field.kind === "number") {
      const n = Number(raw);
      if (!Number.isFinite(n) || (field.kind === "integer" && !Number.isInteger(n))) {
        const msgid = field.kind === "integer" ? N_("{field} must be a whole number") : N_("{field} must be a number");
        throw new TextError(msgid, { field: field.label });
      }
      body[field.name] = n;
    } else {
      body[field.name] = raw;
    }
  }
  if (lang) body.lang = lang;
  return body;
}

/** A seed for a roll: 32 hex characters from the browser's secure source (replayable). */
export function newSeed(crypto = globalThis.crypto) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** POST one request; `{ ok, status, body }` with the answer's JSON or its problem. */
export async function post(baseUrl, path, body, fetchFn = fetch) {
  let response;
  try {
    response = await fetchFn(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const text = { msgid: N_("The service did not answer: {error}"), params: { error: `${baseUrl}: ${error.message}` } };
    return { ok: false, status: 0, body: { title: "The service did not answer", detail: `${baseUrl}: ${error.message}`, text } };
  }
  let json = null;
  try {
    json = await response.json();
  } catch {
    const text = { msgid: N_("The service answered {status}, not in JSON"), params: { status: response.status } };
    json = { title: `HTTP ${response.status}`, detail: "the answer is not JSON", text };
  }
  return { ok: response.ok, status: response.status, body: json };
}

/** The sentence a problem shows a player: its detail (naming the field), else its title. */
export function problemText(problem) {
  return String(problem?.detail || problem?.title || "The request was refused");
}

/**
 * What a player reads for a problem, in their language (`t` from src/i18n.js): a sentence of the
 * popover's own (the service did not answer) in full; for the service's problem, a sentence saying
 * it refused the request, and the service's own detail (naming the field; the service writes it in
 * English) apart, to be shown marked as English.
 */
export function problemParts(problem, t) {
  if (problem?.text?.msgid) return { lead: t(problem.text.msgid, problem.text.params ?? {}), detail: "" };
  const detail = String(problem?.detail || problem?.title || "");
  const refused = N_("The service refused the request ({status}):");
  return { lead: t(refused, { status: problem?.status ?? "?" }), detail };
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
 * the dice, and the request (so a player reading another language can have the same result narrated
 * in theirs: the seed and the dice make it the same). Under MAX_MESSAGE_BYTES: the request, then
 * texts, then dice are dropped when it would be larger.
 */
export function resultMessage({ answer, request, endpoint, player, baseUrl, lang }) {
  const texts = (answer.events ?? []).map((e) => e.text).filter((t) => typeof t === "string");
  const message = {
    v: 1,
    id: `${answer.seed}:${Date.now()}`,
    player: String(player.name ?? "").slice(0, 80),
    path: endpoint.path,
    title: endpoint.summary,
    lang,
    outcome: outcomeOf(answer, endpoint),
    texts,
    dice: (answer.rolls ?? []).slice(0, 200).map((r) => [r.slot, r.sides, r.value, r.source === "dice" ? "d" : "s"]),
    seed: answer.seed,
    service: baseUrl,
    request,
  };
  const size = (m) => new TextEncoder().encode(JSON.stringify(m)).length;
  if (size(message) > MAX_MESSAGE_BYTES) delete message.request;
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
  return { texts, outcome: outcomeOf(again.body, endpoint) || message.outcome, lang };
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
  const rtl = ["ar", "fa", "he", "ur"].includes(String(lang ?? "").split("-")[0]);
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
