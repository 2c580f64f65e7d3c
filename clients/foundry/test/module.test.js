// The module inside stand-ins for Foundry's globals (standins.js: not Foundry, only what the module
// touches): the setting, the api against the OpenAPI document, the request it sends, the chat
// message it posts and how it fails. The network is a stand-in too (record.respond).
import { readFileSync } from "node:fs";
import { before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { installStandIns } from "./standins.js";

const ROOT = new URL("../../../", import.meta.url);
const DOCUMENT = JSON.parse(readFileSync(new URL("openapi/openapi.json", ROOT), "utf8"));
const MANIFEST = JSON.parse(readFileSync(new URL("../module.json", import.meta.url), "utf8"));
const { record, module, strings } = installStandIns({ lang: "pl" });
const mod = await import("../dragonroll.mjs");

const camel = (id) => id.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const POSTS = Object.entries(DOCUMENT.paths).filter(([, item]) => item.post);
const ANSWER = {
  seed: "s",
  events: [
    { code: "dos.pool.rolled", text: "5 kości: <b>4</b> & 7." },
    { code: "dos.test.success", text: "Sukces." },
  ],
  foundry: { rolls: [{ class: "Roll", evaluated: true, total: 44, formula: "5d10 + 44", terms: [] }] },
};
const json = (status, body, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

before(() => Hooks.callAll("init"));
beforeEach(() => {
  for (const list of [record.messages, record.errors, record.requests]) list.length = 0;
  record.respond = async () => json(200, ANSWER);
  game.i18n.lang = "pl";
});

test("the manifest: id, v12-v13, the one ES module, English and Polish", () => {
  assert.equal(MANIFEST.id, mod.MODULE_ID);
  assert.deepEqual(MANIFEST.compatibility, { minimum: "12", verified: "13" });
  assert.deepEqual(MANIFEST.esmodules, ["dragonroll.mjs"]);
  assert.deepEqual(MANIFEST.languages.map((l) => l.lang), ["en", "pl"]);
  const en = JSON.parse(readFileSync(new URL("../lang/en.json", import.meta.url), "utf8"));
  assert.deepEqual(Object.keys(strings).sort(), Object.keys(en).sort(), "pl.json and en.json differ");
});

test("init registers the URL as a world setting and exposes the api", () => {
  const [setting] = record.registered;
  assert.equal(setting.scope, "dragonroll");
  assert.equal(setting.key, "url");
  assert.equal(setting.data.scope, "world");
  assert.equal(setting.data.type, String);
  assert.equal(setting.data.default, "http://127.0.0.1:8000");
  for (const key of [setting.data.name, setting.data.hint]) assert.ok(key in strings, key);
  assert.equal(game.modules.get("dragonroll").api, module.api);
  assert.equal(typeof module.api.dosTest, "function");
});

test("the api has one function per POST of the OpenAPI document, named by its operationId", () => {
  const expected = Object.fromEntries(POSTS.map(([path, item]) => [camel(item.post.operationId), path]));
  const have = { ...mod.RESOLVERS, ...mod.CALCULATORS };
  assert.deepEqual(have, expected);
  assert.deepEqual(Object.keys(module.api).sort(), Object.keys(expected).sort());
  for (const path of Object.values(mod.CALCULATORS)) assert.match(path, /\/(odds|simulate)(\/|$)/);
  for (const path of Object.values(mod.RESOLVERS)) assert.doesNotMatch(path, /\/(odds|simulate)(\/|$)/);
});

test("a resolver's request: the setting's URL, foundry: true, the game's language", async () => {
  game.settings.set("dragonroll", "url", "https://dice.example:8443/");
  try {
    const answer = await module.api.dosTest({ stat: 44, skill: 5, dc: 47 });
    assert.deepEqual(answer, ANSWER);
  } finally {
    game.settings.set("dragonroll", "url", mod.DEFAULT_URL);
  }
  const [{ url, init }] = record.requests;
  assert.equal(url, "https://dice.example:8443/dos/test");
  assert.equal(init.method, "POST");
  assert.equal(init.headers["accept-language"], "pl");
  assert.equal(init.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(init.body), { stat: 44, skill: 5, dc: 47, foundry: true });
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

test("a resolver posts its rolls and its escaped sentences to chat", async () => {
  game.i18n.lang = "en";
  await module.api.dragonBattle({});
  assert.equal(record.requests[0].init.headers["accept-language"], "en");
  const [message] = record.messages;
  assert.equal(message.rolls.length, 1);
  assert.ok(message.rolls[0] instanceof Roll);
  assert.equal(message.rolls[0].total, 44);
  assert.deepEqual(message.speaker, { alias: "Gamemaster" });
  assert.match(message.content, /<strong>Sukces\.<\/strong>/);
  assert.match(message.content, /5 kości: &lt;b&gt;4&lt;\/b&gt; &amp; 7\./);
  assert.doesNotMatch(message.content, /<b>/);
  assert.match(message.content, new RegExp(`<summary>${strings["DRAGONROLL.Chat.Events"]}</summary>`));
});

test("odds and simulations are answered without foundry and without a chat message", async () => {
  const answer = await module.api.dosOddsTest({ stat: 44, skill: 5, dc: 47 });
  assert.deepEqual(answer, ANSWER);
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
  assert.deepEqual(record.errors, [
    `${strings["DRAGONROLL.Error.Answer"]}: Unprocessable request (stat: not an integer)`,
  ]);
  assert.equal(record.messages.length, 0);
});

test("an unreachable service and a non-JSON answer fail the same way", async () => {
  record.respond = async () => {
    throw new TypeError("fetch failed");
  };
  await assert.rejects(module.api.ridersCombat({}), mod.DragonrollError);
  assert.match(record.errors[0], new RegExp(`^${strings["DRAGONROLL.Error.Unreachable"]}: `));
  record.respond = async () => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" });
  await assert.rejects(module.api.ridersCombat({}), (error) => error.problem.status === 502);
  assert.equal(record.errors.length, 2);
  assert.equal(record.messages.length, 0);
});

test("escapeHtml escapes the five characters HTML gives meaning to", () => {
  assert.equal(mod.escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});
