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

const { record, module, strings } = installStandIns({ lang: "pl" });
const mod = await import("../dragonroll.mjs");

const POSTS = Object.entries(DOCUMENT.paths).filter(([, item]) => item.post);
const json = (status, body, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
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

test("the answers are the service's: every endpoint that draws dice, with rolls", () => {
  const paths = new Set(ANSWERS.map((a) => a.path));
  for (const path of Object.values(mod.RESOLVERS)) assert.ok(paths.has(path), `no answer of ${path}`);
  assert.ok(ANSWERS.every((a) => Array.isArray(a.answer.foundry?.rolls) && a.answer.seed !== undefined));
  assert.ok(ANSWERS.reduce((n, a) => n + a.answer.foundry.rolls.length, 0) > 50);
});

test("the manifest: id, v12 to v13 at most, the two ES modules' entry point, the four languages", () => {
  assert.equal(MANIFEST.id, mod.MODULE_ID);
  assert.deepEqual(MANIFEST.compatibility, { minimum: "12", verified: "13", maximum: "13" });
  assert.deepEqual(MANIFEST.esmodules, ["dragonroll.mjs"]);
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
const SOURCE = readFileSync(new URL("../dragonroll.mjs", import.meta.url), "utf8");
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
  assert.ok(used.length >= 12, used.join(", "));
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
  assert.deepEqual(Object.keys(module.api).sort(), Object.keys(expected).sort());
  // Draws dice exactly when its answer can carry `foundry`; odds and simulations do not.
  for (const path of Object.values(mod.CALCULATORS)) assert.match(path, /\/(odds|simulate)(\/|$)/);
  for (const path of Object.values(mod.RESOLVERS)) assert.doesNotMatch(path, /\/(odds|simulate)(\/|$)/);
});

test("endpoints.mjs is what tools/generate.mjs writes from openapi/openapi.json (make clients)", () => {
  assert.equal(readFileSync(TARGET, "utf8"), render(DOCUMENT), "endpoints.mjs is stale: run `make clients`");
  assert.deepEqual(mod.ENDPOINTS, endpoints(DOCUMENT));
  // A drift is caught: a new operation in the document is a new function.
  const grown = structuredClone(DOCUMENT);
  grown.paths["/dos/new"] = structuredClone(DOCUMENT.paths["/dos/test"]);
  grown.paths["/dos/new"].post.operationId = "dos_new";
  assert.notEqual(render(grown), render(DOCUMENT));
  assert.deepEqual(endpoints(grown).at(-1), { name: "dosNew", path: "/dos/new", rolls: true });
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
  record.respond = async () => json(200, answer);
  game.i18n.lang = "en";
  await module.api.dnd5eAttack({});
  assert.equal(record.requests[0].init.headers["accept-language"], "en");
  const [message] = record.messages;
  assert.deepEqual(message.speaker, { alias: "Gamemaster" });
  assert.equal(message.rolls.length, answer.foundry.rolls.length);
  assert.ok(message.rolls.length >= 2, "an attack and its damage");
  const content = message.content;
  for (const [i, roll] of message.rolls.entries()) {
    const data = answer.foundry.rolls[i];
    assert.ok(roll instanceof StandInRoll);
    assert.equal(roll.total, data.total);
    // Each roll as Foundry renders it: its flavor (the service's, in the request's language), its
    // formula, its dice, its total.
    const html = await roll.render({ flavor: data.options.flavor });
    assert.ok(content.includes(html), `roll ${i} is not rendered into the card`);
    assert.match(html, new RegExp(`<h4 class="dice-total">${data.total}</h4>`));
  }
  assert.equal(content.match(/class="dice-roll"/g).length, message.rolls.length);
  const outcome = mod.escapeHtml(answer.events.at(-1).text);
  assert.ok(content.startsWith(`<div class="dragonroll"><p class="dragonroll-outcome"><strong>${outcome}</strong></p>`));
  assert.ok(content.indexOf("dragonroll-rolls") < content.indexOf("<details>"));
  for (const event of answer.events) assert.ok(content.includes(`<li>${mod.escapeHtml(event.text)}</li>`));
  assert.match(content, new RegExp(`<summary>${strings["DRAGONROLL.Chat.Events"]}</summary>`));
});

test("the card escapes the service's sentences and flavors", async () => {
  const answer = answerOf("/dos/test");
  answer.events.at(-1).text = "5 kości: <b>4</b> & 7.";
  answer.foundry.rolls[0].options.flavor = "<img src=x onerror=alert(1)>";
  const message = await mod.chatMessage(answer, { Roll: StandInRoll, localize: (k) => k, speaker: {} });
  assert.match(message.content, /5 kości: &lt;b&gt;4&lt;\/b&gt; &amp; 7\./);
  assert.doesNotMatch(message.content, /<b>|<img/);
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
