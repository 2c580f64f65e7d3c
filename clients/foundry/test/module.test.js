// The module inside stand-ins for Foundry's globals (standins.js: not Foundry, only what the module
// touches): the settings, the api against the OpenAPI document, the request it sends, the chat card
// it posts and how it fails. The answers are the service's own (scripts/foundry_answers.py, the
// in-process app, run once here); the network is a stand-in (record.respond).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { installStandIns, StandInRoll } from "./standins.js";
import { readdirSync } from "node:fs";
import { camel, endpoints, render, TARGET } from "../tools/generate.mjs";

const ROOT = new URL("../../../", import.meta.url);
const DOCUMENT = JSON.parse(readFileSync(new URL("openapi/openapi.json", ROOT), "utf8"));
const MANIFEST = JSON.parse(readFileSync(new URL("../module.json", import.meta.url), "utf8"));
const PYTHON = process.env.DRAGONROLL_PYTHON ?? fileURLToPath(new URL(".venv/bin/python", ROOT));
/** [{name, lang, path, body, answer}]: real answers, `foundry: true`. */
const ANSWERS = JSON.parse(
  execFileSync(PYTHON, [fileURLToPath(new URL("scripts/foundry_answers.py", ROOT))], {
    cwd: fileURLToPath(ROOT),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  }),
);
const answerOf = (path, lang = "en") => structuredClone(ANSWERS.find((a) => a.path === path && a.lang === lang).answer);

const LANG = (lang) => JSON.parse(readFileSync(new URL(`../lang/${lang}.json`, import.meta.url), "utf8"));
const { record, module, strings } = installStandIns({ lang: "pl", strings: LANG("pl") });
const mod = await import("../dragonroll.mjs");

const POSTS = Object.entries(DOCUMENT.paths).filter(([, item]) => item.post);
const json = (status, body, type = "application/json", lang = null) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type, ...(lang ? { "content-language": lang } : {}) } });
const withSettings = async (values, fn) => {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, game.settings.get("dragonroll", k)]));
  for (const [k, v] of Object.entries(values)) game.settings.set("dragonroll", k, v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) game.settings.set("dragonroll", k, v);
  }
};

before(() => Hooks.callAll("init"));
beforeEach(() => {
  for (const list of [record.messages, record.errors, record.requests]) list.length = 0;
  record.respond = async () => json(200, answerOf("/dos/test", "pl"));
  game.i18n.lang = "pl";
  delete globalThis.location;
});

test("the answers are the service's: every endpoint with Foundry rolls, with rolls", () => {
  const paths = new Set(ANSWERS.map((a) => a.path));
  for (const { path } of mod.ENDPOINTS.filter((e) => e.foundry)) assert.ok(paths.has(path), `no answer of ${path}`);
  assert.ok(ANSWERS.every((a) => Array.isArray(a.answer.foundry?.rolls) && a.answer.seed !== undefined));
  assert.ok(ANSWERS.reduce((n, a) => n + a.answer.foundry.rolls.length, 0) > 50);
});

test("the manifest: id, v12 to v14 (verified on a v14 build), the entry point, the styles, the four languages", () => {
  assert.equal(MANIFEST.id, mod.MODULE_ID);
  // Foundry installs a package whose `minimum` is at most its own version and whose `maximum`, a
  // generation, is at least it (https://foundryvtt.com/article/module-development/): v14 must be
  // within, v12 the oldest whose APIs the module uses (ApplicationV2, Dice Fulfillment).
  const { minimum, verified, maximum } = MANIFEST.compatibility;
  assert.deepEqual([minimum, maximum], ["12", "14"]);
  assert.match(verified, /^14\.\d{3}$/);
  assert.ok(Number(verified.split(".")[1]) >= 366, `verified ${verified}: the current v14 build is 14.366 or later`);
  assert.deepEqual(MANIFEST.esmodules, ["dragonroll.mjs"]);
  for (const style of MANIFEST.styles) assert.ok(readFileSync(new URL(`../${style}`, import.meta.url)).length > 0, style);
  assert.equal(MANIFEST.version, JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version);
  assert.deepEqual(MANIFEST.languages.map((l) => l.lang), ["en", "pl", "fi", "ar"]);
  // The service writes url, manifest and download for the host it is reached at (service.foundry).
  for (const key of ["url", "manifest", "download"]) assert.equal(key in MANIFEST, false, key);
  const en = JSON.parse(readFileSync(new URL("../lang/en.json", import.meta.url), "utf8"));
  assert.deepEqual(Object.keys(strings).sort(), Object.keys(en).sort(), "pl.json and en.json differ");
  for (const [key, text] of Object.entries(en)) {
    const names = (s) => (s.match(/\{\w+\}/g) ?? []).sort();
    assert.deepEqual(names(strings[key]), names(text), `${key}: placeholders differ`);
  }
});

// Every text a player or the GM sees from the module (the settings' names and hints, the chat card's
// heading, the notifications) is a key of the lang files, in each language the manifest declares.
const SOURCE = readdirSync(new URL("..", import.meta.url))
  .filter((name) => name.endsWith(".mjs"))
  .map((name) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8"))
  .join("\n");
const LANGS = Object.fromEntries(
  MANIFEST.languages.map(({ lang, path }) => [lang, JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), "utf8"))]),
);

/** The keys the module localizes: every "DRAGONROLL.…" literal, and a cause's key for each cause
 * `unreachableCause` returns (`DRAGONROLL.Error.Cause.${Cause}`). */
function usedKeys() {
  const literal = [...SOURCE.matchAll(/["'`](DRAGONROLL\.[\w.]+)["'`]/g)].map((m) => m[1]);
  const body = SOURCE.slice(SOURCE.indexOf("export function unreachableCause"), SOURCE.indexOf("export function failureText"));
  const causes = [...new Set([...body.matchAll(/return "(\w+)";/g)].map((m) => m[1]))];
  assert.deepEqual(causes.sort(), ["address", "down", "https", "insecure", "permission"]);
  assert.match(SOURCE, /`DRAGONROLL\.Error\.Cause\.\$\{cause\[0\]\.toUpperCase\(\)\}\$\{cause\.slice\(1\)\}`/);
  const dynamic = causes.map((c) => `DRAGONROLL.Error.Cause.${c[0].toUpperCase()}${c.slice(1)}`);
  return [...new Set([...literal, ...dynamic])];
}

test("every text the module shows is in every language's lang file, with the same keys and placeholders", () => {
  const used = usedKeys();
  assert.ok(used.length >= 30, used.join(", "));
  const english = LANGS.en;
  const names = (s) => (s.match(/\{\w+\}/g) ?? []).sort();
  for (const [lang, texts] of Object.entries(LANGS)) {
    for (const key of used) assert.equal(typeof texts[key], "string", `${lang}: no ${key}`);
    assert.deepEqual(Object.keys(texts).sort(), Object.keys(english).sort(), `${lang}.json and en.json have other keys`);
    for (const [key, text] of Object.entries(texts)) {
      assert.ok(text.trim(), `${lang}: ${key} is empty`);
      assert.deepEqual(names(text), names(english[key]), `${lang}: ${key}: placeholders differ`);
      if (lang !== "en" && !/^dragonroll$/.test(text)) assert.notEqual(text, english[key], `${lang}: ${key} is the English`);
    }
  }
  // No key is left unused (a lang file holds the module's texts, not another's).
  assert.deepEqual(Object.keys(english).sort(), [...used].sort());
  // An Arabic text is Arabic (a letter of the Arabic script in every one), and the others are not.
  for (const text of Object.values(LANGS.ar)) assert.match(text, /[\u0600-\u06FF]/);
  for (const lang of ["en", "pl", "fi"]) for (const text of Object.values(LANGS[lang])) assert.doesNotMatch(text, /[\u0600-\u06FF]/);
});

test("a failure's notification is in the game's language in every declared language", () => {
  for (const [lang, texts] of Object.entries(LANGS)) {
    const format = (key, data = {}) => texts[key].replace(/\{(\w+)\}/g, (whole, name) => (name in data ? String(data[name]) : whole));
    const unreachable = new mod.DragonrollError({ title: "unreachable", status: 0, detail: "x", url: "http://10.0.0.5:8000" });
    const text = mod.failureText(unreachable, format, { pageUrl: "https://vtt.example/game" });
    assert.ok(text.startsWith(format("DRAGONROLL.Error.Unreachable", { url: "http://10.0.0.5:8000" })), `${lang}: ${text}`);
    assert.ok(text.includes(format("DRAGONROLL.Error.Cause.Https", {})), `${lang}: ${text}`);
    const refused = new mod.DragonrollError({ title: "The request does not match the schema", status: 422, detail: "dc: too big" });
    assert.ok(mod.failureText(refused, format).startsWith(`${texts["DRAGONROLL.Error.Answer"]}: `), lang);
  }
});

test("the address: the world's for everyone, each player's own in their browser first", () => {
  const [world, client] = record.registered;
  assert.deepEqual([world.key, world.data.scope, world.data.default], ["url", "world", "http://127.0.0.1:8000"]);
  assert.deepEqual([client.key, client.data.scope, client.data.default], ["clientUrl", "client", ""]);
  for (const { data } of [world, client]) {
    assert.equal(data.type, String);
    assert.equal(data.config, true);
    for (const key of [data.name, data.hint]) assert.ok(key in strings, key);
  }
  assert.equal(mod.serviceUrl("", "https://dice.example"), "https://dice.example");
  assert.equal(mod.serviceUrl("  http://127.0.0.1:9000 ", "https://dice.example"), "http://127.0.0.1:9000");
  assert.equal(mod.serviceUrl("", ""), mod.DEFAULT_URL);
  assert.equal(game.modules.get("dragonroll").api, module.api);
});

test("the hints say how the service is reached, and nothing of self-signed certificates", () => {
  for (const [lang, texts] of Object.entries(LANGS)) {
    const hint = texts["DRAGONROLL.Settings.Url.Hint"];
    for (const word of ["http://127.0.0.1", "HTTPS", "Chrome", "Edge", "Firefo", "142", "143", "https://"]) {
      assert.ok(hint.includes(word), `${lang}: the hint lacks ${word}`);
    }
    const all = Object.values(texts).join(" ");
    assert.doesNotMatch(all, /self-signed|certificate|certyfikat|samopodpis|varmen|شهادة/i);
    assert.ok(texts["DRAGONROLL.Error.Cause.Permission"].includes("{host}"));
  }
});

test("the api: one function per POST of the OpenAPI document, named by its operationId", () => {
  const expected = Object.fromEntries(POSTS.map(([path, item]) => [camel(item.post.operationId), path]));
  assert.deepEqual({ ...mod.RESOLVERS, ...mod.CALCULATORS }, expected);
  // The endpoints' functions, `resolve` (any endpoint by its path), the dialog and the check of a roll.
  assert.deepEqual(Object.keys(module.api).sort(), [...Object.keys(expected), "open", "resolve", "verify"].sort());
  // Resolves (posts its card) exactly when its answer tells what happened; odds and simulations do not.
  for (const path of Object.values(mod.CALCULATORS)) assert.match(path, /\/(odds|simulate)(\/|$)/);
  for (const path of Object.values(mod.RESOLVERS)) assert.doesNotMatch(path, /\/(odds|simulate)(\/|$)/);
  // Sends `foundry: true` exactly where the request offers it: never to /dice/draw, which draws for
  // a client (the schema says so; its system has Foundry rolls).
  const byPath = Object.fromEntries(mod.ENDPOINTS.map((e) => [e.path, e]));
  assert.deepEqual(byPath["/dice/draw"], { name: "diceDraw", path: "/dice/draw", resolves: true, foundry: false });
  assert.equal(byPath["/dice/roll"].foundry, true);
  for (const [path, item] of POSTS) {
    const schema = item.post.requestBody.content["application/json"].schema;
    const request = schema.$ref ? DOCUMENT.components.schemas[schema.$ref.split("/").at(-1)] : schema;
    const offers = "foundry" in (request.properties ?? {});
    assert.equal(byPath[path].foundry, offers && byPath[path].resolves, path);
  }
});

test("endpoints.mjs is what tools/generate.mjs writes from openapi/openapi.json (make clients)", () => {
  assert.equal(readFileSync(TARGET, "utf8"), render(DOCUMENT), "endpoints.mjs is stale: run `make clients`");
  assert.deepEqual(mod.ENDPOINTS, endpoints(DOCUMENT));
  // A drift is caught: a new operation in the document is a new function.
  const grown = structuredClone(DOCUMENT);
  grown.paths["/dos/new"] = structuredClone(DOCUMENT.paths["/dos/test"]);
  grown.paths["/dos/new"].post.operationId = "dos_new";
  assert.notEqual(render(grown), render(DOCUMENT));
  assert.deepEqual(endpoints(grown).at(-1), { name: "dosNew", path: "/dos/new", resolves: true, foundry: true });
});

test("a system without Foundry rolls is callable: its endpoints are not sent `foundry`", async () => {
  // A sixth system added by the documented steps (docs/development.md): its request based on the
  // plain RollRequest (no `foundry` in its schema), its answer the Envelope (which declares it).
  const grown = structuredClone(DOCUMENT);
  const request = structuredClone(DOCUMENT.components.schemas[DOCUMENT.paths["/dos/test"].post.requestBody.content["application/json"].schema.$ref.split("/").at(-1)]);
  delete request.properties.foundry;
  grown.components.schemas.OmenRequest = request;
  grown.paths["/omen/roll"] = structuredClone(DOCUMENT.paths["/dos/test"]);
  grown.paths["/omen/roll"].post.operationId = "omen_roll";
  grown.paths["/omen/roll"].post.requestBody.content["application/json"].schema = { $ref: "#/components/schemas/OmenRequest" };
  const omen = endpoints(grown).at(-1);
  assert.deepEqual(omen, { name: "omenRoll", path: "/omen/roll", resolves: true, foundry: false });
  // Through the api as the generated list gives it: posted to chat, never `foundry: true`.
  record.respond = async () => json(200, { ...answerOf("/dos/test"), foundry: undefined });
  const calls = [];
  const api = mod.createApi({ url: () => "http://svc", lang: () => "en", fetch, post: async (a) => calls.push(a), fail: () => {} });
  const built = mod.buildRequest("http://svc", omen.path, { target: 7 }, { lang: "en", foundry: omen.foundry });
  assert.deepEqual(JSON.parse(built.init.body), { target: 7 });
  await api.diceDraw({ draws: [{ slot: "a", sides: 6, count: 1 }] });
  assert.equal("foundry" in JSON.parse(record.requests.at(-1).init.body), false);
  assert.equal(calls.length, 1, "a resolving endpoint without Foundry rolls still posts its card");
});

test("a request: the address in use, foundry: true, the game's language", async () => {
  await withSettings({ url: "https://dice.example:8443/", clientUrl: "" }, () =>
    module.api.dosTest({ stat: 44, skill: 5, dc: 47 }),
  );
  await withSettings({ url: "https://dice.example:8443/", clientUrl: "http://127.0.0.1:9000" }, () =>
    module.api.dosTest({ stat: 44, skill: 5, dc: 47 }),
  );
  const [shared, own] = record.requests;
  assert.equal(shared.url, "https://dice.example:8443/dos/test");
  assert.equal(own.url, "http://127.0.0.1:9000/dos/test");
  assert.equal(shared.init.method, "POST");
  assert.equal(shared.init.headers["accept-language"], "pl");
  assert.equal(shared.init.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(shared.init.body), { stat: 44, skill: 5, dc: 47, foundry: true });
});

test("the answer's language is its Content-Language, read from the header", async () => {
  assert.equal(mod.contentLanguage(new Headers({ "content-language": "ar" })), "ar");
  assert.equal(mod.contentLanguage(new Headers({ "content-language": "pl, en" })), "pl");
  assert.equal(mod.contentLanguage(new Headers({})), null);
  assert.equal(mod.contentLanguage(new Headers({ "content-language": "<script>" })), null);
  record.respond = async () => new Response(JSON.stringify({ ok: 1 }), { headers: { "content-type": "application/json", "content-language": "fi" } });
  const got = await mod.exchange(fetch, mod.buildRequest("http://svc", "/x", {}, {}));
  assert.deepEqual(got, { answer: { ok: 1 }, lang: "fi" });
});

test("buildRequest is pure: no Foundry global read, the same arguments give the same request", () => {
  const saved = globalThis.game;
  delete globalThis.game;
  try {
    const a = mod.buildRequest("http://h:1", "/dragon/odds", { x: 1 }, { lang: "fi", foundry: false });
    assert.deepEqual(a, mod.buildRequest("http://h:1", "/dragon/odds", { x: 1 }, { lang: "fi", foundry: false }));
    assert.equal(a.url, "http://h:1/dragon/odds");
    assert.deepEqual(JSON.parse(a.init.body), { x: 1 });
    assert.equal(a.init.headers["accept-language"], "fi");
  } finally {
    globalThis.game = saved;
  }
});

test("the card: Foundry's rendering of each roll, the narration beside it, the rolls kept", async () => {
  const answer = answerOf("/dnd5e/attack", "pl");
  record.respond = async () => json(200, answer, "application/json", "pl");
  game.i18n.lang = "en";
  await module.api.dnd5eAttack({});
  assert.equal(record.requests[0].init.headers["accept-language"], "en");
  const [message] = record.messages;
  assert.deepEqual(message.speaker, { alias: "Gamemaster" });
  assert.equal(message.rolls.length, answer.foundry.rolls.length);
  assert.ok(message.rolls.length >= 2, "an attack and its damage");
  assert.deepEqual(message.flags.dragonroll, { seed: answer.seed, rng: "sha256-v1", rules_version: answer.rules_version, path: "/dnd5e/attack", lang: "pl" });
  const content = message.content;
  for (const [i, roll] of message.rolls.entries()) {
    const data = answer.foundry.rolls[i];
    assert.ok(roll instanceof StandInRoll);
    assert.equal(roll.total, data.total);
    // Each roll as Foundry renders it (its formula, its dice, its total), left to right; its
    // flavor (the service's, in the answer's language) above it in that language's direction.
    const html = await roll.render({});
    assert.ok(content.includes(`<p class="dragonroll-flavor" lang="pl" dir="ltr">${mod.escapeHtml(data.options.flavor)}</p><div dir="ltr">${html}</div>`), `roll ${i} is not rendered into the card`);
    assert.match(html, new RegExp(`<h4 class="dice-total">${data.total}</h4>`));
  }
  assert.equal(content.match(/class="dice-roll"/g).length, message.rolls.length);
  const outcome = mod.escapeHtml(answer.events.at(-1).text);
  assert.ok(content.startsWith(`<div class="dragonroll" lang="pl" dir="ltr"><p class="dragonroll-outcome" lang="pl" dir="ltr"><strong>${outcome}</strong></p>`));
  assert.ok(content.indexOf("dragonroll-rolls") < content.indexOf("<details"));
  for (const event of answer.events) assert.ok(content.includes(`<li lang="pl" dir="ltr">${mod.escapeHtml(event.text)}</li>`));
  // The fold's heading is the module's own text, in the game's language.
  assert.match(content, new RegExp(`<details lang="en" dir="ltr"><summary>${strings["DRAGONROLL.Chat.Events"]}</summary>`));
});

test("an Arabic answer's card is right to left, its rolls' formulas left to right", async () => {
  const answer = answerOf("/dos/test", "ar");
  record.respond = async () => json(200, answer, "application/json", "ar");
  game.i18n.lang = "ar";
  await module.api.dosTest({});
  const { content, flags } = record.messages[0];
  assert.equal(flags.dragonroll.lang, "ar");
  assert.ok(content.startsWith('<div class="dragonroll" lang="ar" dir="rtl"><p class="dragonroll-outcome" lang="ar" dir="rtl">'));
  assert.match(content, /<p class="dragonroll-flavor" lang="ar" dir="rtl">[^<]*[\u0600-\u06FF][^<]*<\/p><div dir="ltr"><div class="dice-roll">/);
  assert.equal(content.match(/<li lang="ar" dir="rtl">/g).length, answer.events.length);
  // The names and numbers come isolated from the service (FSI ... PDI), and stay so.
  assert.ok(content.includes("\u2068") && content.includes("\u2069"));
  for (const [lang, dir] of [["ar", "rtl"], ["ar-EG", "rtl"], ["he", "rtl"], ["pl", "ltr"], ["fi", "ltr"], [null, "ltr"]]) assert.equal(mod.direction(lang), dir, lang);
});

test("the card escapes the service's sentences and flavors", async () => {
  const answer = answerOf("/dos/test");
  answer.events.at(-1).text = "5 kości: <b>4</b> & 7.";
  answer.foundry.rolls[0].options.flavor = "<img src=x onerror=alert(1)>";
  const message = await mod.chatMessage(answer, { Roll: StandInRoll, localize: (k) => k, speaker: {}, lang: 'pl"><script>' });
  assert.match(message.content, /5 kości: &lt;b&gt;4&lt;\/b&gt; &amp; 7\./);
  assert.doesNotMatch(message.content, /<b>|<img|<script/);
});

test("an answer without rolls is a card without a roll", async () => {
  const answer = answerOf("/dos/actions");
  assert.deepEqual(answer.foundry.rolls, []);
  const message = await mod.chatMessage(answer, { Roll: StandInRoll, localize: (k) => k, speaker: {} });
  assert.deepEqual(message.rolls, []);
  assert.doesNotMatch(message.content, /dice-roll|dragonroll-rolls/);
});

test("the stand-in Roll.fromData takes every roll the service sends", () => {
  let count = 0;
  for (const { name, answer } of ANSWERS) {
    for (const data of answer.foundry.rolls) {
      const roll = StandInRoll.fromData(data);
      assert.equal(roll.total, data.total, name);
      assert.equal(roll.formula, data.formula, name);
      count += 1;
    }
  }
  assert.ok(count > 50);
});

test("the stand-in Roll.fromData refuses what Foundry's Roll could not be", () => {
  const real = answerOf("/dnd5e/attack").foundry.rolls[0]; // 1d20 + n, or 2d20kh + n
  const die = real.terms.findIndex((t) => t.class === "Die");
  const broken = {
    "no terms": (r) => (r.terms = []),
    "no dice terms": (r) => {
      r.terms = [{ class: "NumericTerm", options: {}, evaluated: true, number: r.total }];
      r.formula = String(r.total);
    },
    "an unknown term class": (r) => (r.terms[die].class = "MysteryTerm"),
    "a formula not its terms'": (r) => (r.formula = r.formula.replace(/d20/, "d12")),
    "a total its terms do not add up to": (r) => (r.total += 1),
    "a result off its die": (r) => (r.terms[die].results[0].result = 21),
    "kh keeping the lower die": (r) => {
      r.terms[die] = { ...r.terms[die], number: 2, modifiers: ["kh"], results: [{ result: 3, active: true }, { result: 17, active: false, discarded: true }] };
      r.formula = r.terms.map((t) => (t.class === "Die" ? `2d20kh` : t.operator ?? String(t.number))).join(" ");
      r.total = 3 + r.total - real.terms[die].results.filter((x) => x.active).reduce((s, x) => s + x.result, 0);
    },
    "terms that do not alternate": (r) => {
      r.terms = [r.terms[die], r.terms[die]];
      r.formula = r.terms.map((t) => `${t.number}d${t.faces}${t.modifiers.join("")}`).join(" ");
    },
    "not evaluated": (r) => (r.evaluated = false),
  };
  assert.ok(StandInRoll.fromData(structuredClone(real)));
  for (const [why, breakIt] of Object.entries(broken)) {
    const data = structuredClone(real);
    breakIt(data);
    assert.throws(() => StandInRoll.fromData(data), /Roll\.fromData refused/, why);
  }
});

test("odds and simulations are answered without foundry and without a chat message", async () => {
  const answer = { chance: 0.5 };
  record.respond = async () => json(200, answer);
  assert.deepEqual(await module.api.dosOddsTest({ stat: 44, skill: 5, dc: 47 }), answer);
  assert.equal("foundry" in JSON.parse(record.requests[0].init.body), false);
  assert.equal(record.messages.length, 0);
});

test("a problem+json becomes a localized notification and an Error carrying the problem", async () => {
  const problem = { type: "about:blank#x", title: "Unprocessable request", status: 422, detail: "stat: not an integer" };
  record.respond = async () => json(422, problem, "application/problem+json");
  await assert.rejects(module.api.dosTest({ stat: "many" }), (error) => {
    assert.ok(error instanceof mod.DragonrollError);
    assert.deepEqual(error.problem, problem);
    assert.equal(error.status, 422);
    return true;
  });
  assert.deepEqual(record.errors, [`${strings["DRAGONROLL.Error.Answer"]}: Unprocessable request (stat: not an integer)`]);
  assert.equal(record.messages.length, 0);
});

test("no answer at all: a notification naming the address and the likely cause", async () => {
  record.respond = async () => {
    throw new TypeError("Failed to fetch");
  };
  const cause = (key, data) => game.i18n.format(`DRAGONROLL.Error.Cause.${key}`, data);
  const cases = [
    // An HTTPS game on the internet, the service on the player's machine: Chrome's permission.
    ["https://vtt.example.org/game", "http://127.0.0.1:8000", cause("Permission", { host: "127.0.0.1:8000" })],
    // An HTTPS game and an http:// service elsewhere: blocked as mixed content.
    ["https://vtt.example.org/game", "http://dice.example.org", cause("Https", {})],
    ["https://vtt.example.org/game", "http://192.168.1.5:8000", cause("Https", {})],
    // A game on this machine and a service on it too: nothing answers.
    ["http://localhost:30000/game", "http://127.0.0.1:8000", cause("Down", {})],
    ["https://vtt.example.org/game", "https://dice.example.org", cause("Down", {})],
    ["https://vtt.example.org/game", "dice.example.org", cause("Address", {})],
  ];
  for (const [page, url, reason] of cases) {
    record.errors.length = 0;
    globalThis.location = { href: page };
    await withSettings({ clientUrl: url }, () => assert.rejects(module.api.ridersCombat({}), mod.DragonrollError));
    const [text] = record.errors;
    assert.ok(text.startsWith(game.i18n.format("DRAGONROLL.Error.Unreachable", { url: `${url}/riders/combat` })), text);
    assert.ok(text.endsWith(reason), `${page} -> ${url}: ${text}`);
  }
});

test("the browser's own word on local-network access decides between permission and down", async () => {
  const page = { pageUrl: "https://vtt.example.org/" };
  assert.equal(mod.unreachableCause("http://127.0.0.1:8000/x", { ...page, permission: "granted" }), "down");
  assert.equal(mod.unreachableCause("http://127.0.0.1:8000/x", { ...page, permission: "denied" }), "permission");
  assert.equal(mod.unreachableCause("http://192.168.1.9/x", { pageUrl: "http://192.168.1.2/" }), "down");
  // An http:// game on the local network cannot be allowed to reach the player's own machine.
  assert.equal(mod.unreachableCause("http://127.0.0.1:8000/x", { pageUrl: "http://192.168.1.2:30000/" }), "insecure");
  assert.equal(mod.unreachableCause("http://127.0.0.1:8000/x", { pageUrl: "http://localhost:30000/" }), "down");
  assert.equal(mod.unreachableCause("https://nas.local/x", page), "permission");
  assert.equal(mod.unreachableCause("ftp://127.0.0.1/x", page), "address");
  const permissions = (answers) => ({
    query: async ({ name }) => {
      if (!(name in answers)) throw new TypeError(`unknown permission ${name}`);
      return { state: answers[name] };
    },
  });
  assert.equal(await mod.localNetworkPermission(permissions({ "local-network-access": "denied" })), "denied");
  assert.equal(await mod.localNetworkPermission(permissions({ "loopback-network": "granted" })), "granted");
  assert.equal(await mod.localNetworkPermission(permissions({})), null);
  assert.equal(await mod.localNetworkPermission(undefined), null);
});

test("a non-JSON answer names its status", async () => {
  record.respond = async () => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" });
  await assert.rejects(module.api.ridersCombat({}), (error) => error.problem.status === 502);
  assert.match(record.errors[0], new RegExp(`^${strings["DRAGONROLL.Error.Answer"]}: Bad Gateway`));
  assert.equal(record.messages.length, 0);
});

test("escapeHtml escapes the five characters HTML gives meaning to", () => {
  assert.equal(mod.escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});
