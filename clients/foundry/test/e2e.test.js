// End to end: a real uvicorn, every POST of openapi/openapi.json called through the module's own
// api (createApi with buildRequest and send, real fetch) with the document's request example, in
// each of the service's languages; every roll the module would post to chat passes
// schemas/foundry-roll.schema.json (ajv), its terms add up to its total, and that total is the
// service's own where the plain answer states one; each is taken by the stand-in Roll.fromData and
// rendered into the chat card. Then the install: the manifest and the zip it names, as served.
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync as read } from "node:fs";
import { installStandIns, StandInDie, StandInRoll } from "./standins.js";
// The stand-ins installed before the module, which registers its hooks on import (Hooks exists).
installStandIns({ strings: JSON.parse(read(new URL("../lang/en.json", import.meta.url), "utf8")), realFetch: true });
const { CALCULATORS, chatMessage, createApi, DragonrollError, ENDPOINTS, init, streamValues, verifyRolls } = await import("../dragonroll.mjs");
// The TypeScript client's helper: `python -m service` on a free loopback port, stopped after.
import { ROOT, startServer } from "../../typescript/test/server.js";

const DOCUMENT = JSON.parse(readFileSync(`${ROOT}openapi/openapi.json`, "utf8"));
const SCHEMA = JSON.parse(readFileSync(`${ROOT}schemas/foundry-roll.schema.json`, "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(SCHEMA);
const LANGUAGES = ["en", "pl", "fi", "ar"];

/** Our own number for a roll, by endpoint, where the plain answer states one (tests/foundry). */
const OURS = {
  "/dos/test": (a) => a.total,
  "/dos/roll": (a) => a.roll.result,
  "/dos/opposed": (a, slot) => a[slot].total,
  "/dos/complex": (a, slot) => a.attempts[Number(slot.split(".")[1]) - 1].total,
  "/dnd5e/check": (a) => a.total,
  "/dnd5e/death-save": (a) => a.total,
  "/dnd5e/attack": (a, slot) => (slot === "attack" ? a.attack.total : a.damage[Number(slot.slice(7))].total),
};

/** Endpoints whose flavor holds no words to translate: /dice/roll's is the formula itself (after
 * the roller's name, when one is given), the same in every language (notation.foundry.roll). */
const WORDLESS_FLAVORS = new Set(["/dice/roll"]);

function example(path) {
  const media = DOCUMENT.paths[path].post.requestBody.content["application/json"];
  return media.example ?? Object.values(media.examples ?? {})[0]?.value;
}

/** A Die's value as Foundry counts it (active results, by `count` where set); then the terms. */
function arithmetic(terms) {
  let total = 0;
  let sign = 1;
  for (const term of terms) {
    if (term.class === "OperatorTerm") sign = term.operator === "+" ? 1 : -1;
    else if (term.class === "NumericTerm") total += sign * term.number;
    else total += sign * term.results.filter((r) => r.active).reduce((s, r) => s + (r.count ?? r.result), 0);
  }
  return total;
}

let server;
let lang = "en";
const posted = [];
let api;
before(async () => {
  server = await startServer();
  api = createApi({
    url: () => server.baseUrl,
    lang: () => lang,
    fetch: (url, init) => fetch(url, init),
    post: async (answer, { lang: language }) => {
      const message = await chatMessage(answer, { Roll: StandInRoll, localize: (key) => key, speaker: {}, lang: language });
      posted.push({ rolls: answer.foundry?.rolls ?? [], content: message.content, made: message.rolls, lang: language, answer });
    },
    fail: () => {},
  });
});
after(() => server?.stop());

for (const { name, path } of ENDPOINTS.filter((e) => e.foundry)) {
  test(`api.${name} (${path}) posts rolls that pass the schema and add up, in every language`, async () => {
    const body = example(path);
    assert.ok(body, `${path} has no request example`);
    const flavors = {};
    for (const language of LANGUAGES) {
      lang = language;
      posted.length = 0;
      const answer = await api[name](body);
      assert.equal(posted.length, 1, "one chat message per call");
      const { rolls, content, made } = posted[0];
      // The card is in the language the service answered in (its Content-Language), and its direction.
      assert.equal(posted[0].lang, language);
      assert.ok(content.startsWith(`<div class="dragonroll" lang="${language}" dir="${language === "ar" ? "rtl" : "ltr"}">`));
      assert.equal(Boolean(rolls.length), Boolean(answer.rolls.length), "dice drawn but no rolls");
      assert.match(content, /class="dragonroll-outcome"/);
      assert.equal(made.length, rolls.length);
      assert.equal((content.match(/class="dice-roll"/g) ?? []).length, rolls.length, "a roll not in the card");
      for (const roll of rolls) {
        assert.ok(validate(roll), JSON.stringify(validate.errors));
        assert.equal(arithmetic(roll.terms), roll.total, roll.formula);
        const slot = roll.options.dragonroll.slot;
        if (OURS[path]) assert.equal(roll.total, OURS[path](answer, slot), `${path} ${slot}`);
      }
      flavors[language] = rolls.map((r) => r.options.flavor);
    }
    if (flavors.en.length && !WORDLESS_FLAVORS.has(path)) {
      for (const language of LANGUAGES.slice(1)) {
        assert.notDeepEqual(flavors[language], flavors.en, `${language} flavors are English`);
      }
    }
  });
}

for (const [name, path] of Object.entries(CALCULATORS)) {
  test(`api.${name} (${path}) answers without a chat message`, async () => {
    posted.length = 0;
    const answer = await api[name](example(path));
    assert.equal(typeof answer, "object");
    assert.equal("foundry" in answer, false);
    assert.equal(posted.length, 0);
  });
}

test("a request the service refuses is a DragonrollError with its problem+json", async () => {
  await assert.rejects(api.dosTest({ stat: "many", skill: 3, dc: 43 }), (error) => {
    assert.ok(error instanceof DragonrollError);
    assert.equal(error.problem.status, 422);
    assert.equal(typeof error.problem.title, "string");
    return true;
  });
});

test("the module installs from the service: the manifest names the zip, which is served", async () => {
  const response = await fetch(`${server.baseUrl}/foundry/module.json`);
  assert.equal(response.status, 200);
  const manifest = await response.json();
  const module = JSON.parse(readFileSync(`${ROOT}clients/foundry/module.json`, "utf8"));
  assert.equal(manifest.manifest, `${server.baseUrl}/foundry/module.json`);
  assert.equal(manifest.download, `${server.baseUrl}/foundry/dragonroll-${module.version}.zip`);
  assert.equal(manifest.version, module.version);
  const zip = await fetch(manifest.download);
  assert.equal(zip.status, 200);
  assert.equal(zip.headers.get("content-type"), "application/zip");
  const bytes = new Uint8Array(await zip.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 4)], [0x50, 0x4b, 0x03, 0x04]); // a zip (tests/service unzips it)
});

test("api.diceDraw: a resolving endpoint without Foundry rolls is called without `foundry` and posts its card", async () => {
  posted.length = 0;
  lang = "en";
  const answer = await api.diceDraw({ seed: "e2e", draws: [{ slot: "u.0", sides: 6, count: 4 }] });
  assert.deepEqual(answer.draws[0].values, await streamValues("e2e", "u.0", 6, 4));
  assert.equal(posted.length, 1);
  assert.match(posted[0].content, /Dice 1 to 4 of slot u\.0 \(4d6\)/);
});

test("the table's dice from the real service: a stand-in's 4d6 is the stream's dice for its seed and slot", async () => {
  const { settings, users, record } = installStandIns({ strings: {}, realFetch: true });
  init();
  settings.set("dragonroll.url", server.baseUrl);
  settings.set("dragonroll.seed", "table-e2e");
  const handler = CONFIG.Dice.fulfillment.methods.dragonroll.handler;
  const term = new StandInDie({ number: 4, faces: 6 });
  const values = [];
  for (let i = 0; i < 4; i += 1) {
    values.push(await handler(term, {}));
    term.results.push({ result: values.at(-1), active: true });
  }
  const slot = `${users.GM.id}.0`;
  // The service's stream, and the specification's (computed here, checked against rng-vectors.json).
  assert.deepEqual(values, await streamValues("table-e2e", slot, 6, 4));
  const drawn = await (await fetch(`${server.baseUrl}/dice/draw`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seed: "table-e2e", draws: [{ slot, sides: 6, count: 4 }] }),
  })).json();
  assert.deepEqual(values, drawn.draws[0].values);
  assert.equal(term.options.dragonroll.slot, slot);
  assert.equal(term.options.dragonroll.rules_version, drawn.rules_version);
  assert.deepEqual(record.errors, []);
  // Checked afterwards through the service (a page without Web Crypto does so).
  const draw = async (body) => (await fetch(`${server.baseUrl}/dice/draw`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
  const [checked] = await verifyRolls([{ terms: [term.toJSON()] }], draw, null);
  assert.equal(checked.ok, true);
});

test("/dr against the real service: the card of the notation's roll", async () => {
  const { settings, record } = installStandIns({ strings: {}, realFetch: true });
  init();
  settings.set("dragonroll.url", server.baseUrl);
  assert.equal(Hooks.call("chatMessage", {}, "/dr 4d6kh3 + 2", { speaker: { alias: "Ala" } }), false);
  for (let i = 0; i < 500 && !record.messages.length && !record.errors.length; i += 1) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(record.errors, []);
  const [message] = record.messages;
  assert.equal(message.rolls.length, 1);
  assert.equal(message.rolls[0].formula, "4d6kh3 + 2");
  assert.match(message.content, /Ala rolls 4d6kh3 \+ 2: \d+\./);
  assert.deepEqual(message.options, { messageMode: "public" });
});
