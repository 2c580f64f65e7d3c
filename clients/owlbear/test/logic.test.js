// The extension's logic with the Owlbear SDK replaced at its module boundary (test/fake-obr.js):
// node --test (npm test). The OpenAPI document is the service's committed one, and `GET /systems`'s
// answer is its example there.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { discover, createService } from "../../../service/static/shared/service.js";
import { languageName } from "../../../service/static/shared/i18n.js";
import {
  CHANNEL,
  DICE_PLUS_SOURCE,
  ENVELOPE,
  MAX_MESSAGE_BYTES,
  METADATA_KEY,
  TextError,
  dicePlusReady,
  dicePlusRoll,
  endpointOf,
  isResultMessage,
  languagesOf,
  messageAnswer,
  missingDice,
  newSeed,
  playerLanguage,
  reach,
  resolveWithTableDice,
  resultMessage,
  rollable,
  serviceUrl,
  setServiceUrl,
  share,
  systemName,
  textsFor,
  unreadable,
} from "../src/logic.js";
import { fakeObr } from "./fake-obr.js";

const DOC = JSON.parse(readFileSync(new URL("../../../openapi/openapi.json", import.meta.url), "utf8"));
const SYSTEMS = DOC.paths["/systems"].get.responses["200"].content["application/json"].example;
const CATALOG = rollable({ systems: SYSTEMS, doc: DOC, paths: discover(SYSTEMS, DOC) });
const endpoint = (path) => endpointOf(CATALOG, path);
/** A fetch answering from `answers` (url -> JSON), 404 for any other. */
const serving = (answers) => async (url) => {
  const known = url in answers;
  return {
    ok: known,
    status: known ? 200 : 404,
    headers: new Headers(known ? { "content-language": "pl" } : {}),
    json: async () => (known ? answers[url] : { title: "Not Found" }),
  };
};

test("the service URL: the room's metadata, else the page's origin; a GM's change is checked", async () => {
  const obr = fakeObr();
  assert.equal(await serviceUrl(obr, "http://127.0.0.1:8000"), "http://127.0.0.1:8000");
  assert.equal(await setServiceUrl(obr, " https://rolls.example.org/ "), "https://rolls.example.org");
  assert.deepEqual(obr.metadata[METADATA_KEY], { serviceUrl: "https://rolls.example.org" });
  assert.equal(await serviceUrl(obr, "http://127.0.0.1:8000"), "https://rolls.example.org");
  await assert.rejects(setServiceUrl(obr, "rolls.example.org"), /is not a URL like https:/);
  await assert.rejects(setServiceUrl(obr, ""), /\(empty\) is not a URL/);
});

test("the systems a player can roll: every system GET /systems lists, with its resolving endpoints", async () => {
  assert.deepEqual(CATALOG.map((s) => s.id), SYSTEMS.map((s) => s.id));
  const paths = CATALOG.flatMap((s) => s.endpoints.map((e) => e.path));
  assert.deepEqual(paths, SYSTEMS.flatMap((s) => s.endpoints.map((e) => e.path)));
  // Every resolving POST of the document, and no odds or simulation.
  const resolving = Object.keys(DOC.paths).filter((p) => DOC.paths[p].post && !/\/(odds|simulate)(\/|$)/.test(p));
  assert.deepEqual([...paths].sort(), resolving.sort());
  for (const e of CATALOG.flatMap((s) => s.endpoints)) {
    assert.ok(e.outcome.length > 0 && e.requestSchema.$ref && e.example, e.path);
    // What the popover sets itself is the form's to leave out: the example's other fields are the
    // request's own.
    const schema = DOC.components.schemas[e.requestSchema.$ref.split("/").pop()];
    assert.ok(Object.keys(e.example).every((k) => k in schema.properties), e.path);
    assert.ok(ENVELOPE.every((k) => k === "foundry" || k in schema.properties), e.path);
  }
  assert.equal(endpoint("/dos/actions").rollsDice, false);
  assert.equal(endpoint("/dos/test").rollsDice, true);
  assert.equal(endpoint("/dos/test").system, "dos");
  // Read through the shared service module, as the popover reads it.
  const service = createService({ baseUrl: "http://svc", fetch: serving({ "http://svc/systems": SYSTEMS, "http://svc/openapi.json": DOC }) });
  assert.deepEqual(rollable(await service.load()), CATALOG);
  const down = createService({ baseUrl: "http://svc", fetch: serving({ "http://svc/openapi.json": DOC }) });
  const error = await down.load().catch((e) => e);
  const said = unreadable(error, "http://svc");
  assert.ok(said instanceof TextError);
  assert.equal(said.message, "http://svc/systems answered 404");
  assert.equal(unreadable(new TypeError("Failed to fetch"), "http://svc").message, "The service did not answer: http://svc: Failed to fetch");
});

test("a request reaches the service, or the player is told it did not answer", async () => {
  const service = createService({ baseUrl: "http://svc", fetch: serving({ "http://svc/dos/test": { seed: "s", events: [] } }) });
  const answer = await reach(service, "http://svc", "/dos/test", { stat: 1 }, "pl");
  assert.deepEqual([answer.ok, answer.status, answer.body, answer.language], [true, 200, { seed: "s", events: [] }, "pl"]);
  const refused = await reach(service, "http://svc", "/dos/nothing", {}, "pl");
  assert.deepEqual([refused.ok, refused.status, refused.language], [false, 404, "en"]);
  const offline = createService({ baseUrl: "http://svc", fetch: async () => { throw new TypeError("Failed to fetch"); } });
  const failed = await reach(offline, "http://svc", "/dos/test", {}, "pl");
  assert.deepEqual([failed.ok, failed.status, failed.body], [false, 0, null]);
  assert.equal(failed.error.msgid, "The service did not answer: {error}");
  assert.deepEqual(failed.error.params, { error: "http://svc: Failed to fetch" });
});

test("the systems' names in the player's language, as GET /systems gives them", () => {
  for (const system of SYSTEMS) {
    const entry = CATALOG.find((s) => s.id === system.id);
    for (const [lang, name] of Object.entries(system.name)) assert.equal(systemName(entry, lang), name);
    assert.equal(systemName(entry, "xx"), system.name.en);
  }
});

test("the player's language: their choice, else the browser's, else English", () => {
  const languages = languagesOf(CATALOG);
  assert.deepEqual(languages, Object.keys(SYSTEMS[0].name));
  assert.ok(languages.includes("en") && languages.length > 1);
  assert.equal(playerLanguage(languages[1], ["xx-XX"], languages), languages[1]);
  assert.equal(playerLanguage(null, ["de-DE", `${languages[1]}-XX`], languages), languages[1]);
  assert.equal(playerLanguage("xx", ["de"], languages), "en");
  assert.equal(languageName("pl"), "Polski");
  assert.equal(languageName("en"), "English");
  assert.match(newSeed(), /^[0-9a-f]{32}$/);
});

test("a dice-exhausted problem says which dice to roll", () => {
  const problem = {
    type: "https://dragonroll.dev/problems/dice-exhausted",
    errors: [{ loc: ["body", "dice", "attack.k1"], msg: "dice.attack.k1 ran out: it holds 0 value(s), and the resolution needed at least 3 more d10 values for slot 'attack.k1'" }],
  };
  assert.deepEqual(missingDice(problem), { count: 3, sides: 10, slot: "attack.k1" });
  assert.equal(missingDice({ type: "https://dragonroll.dev/problems/validation-error" }), null);
  // One die more is "1 more d10 value" (rules/errors.py): a ten that explodes asks for one.
  const one = {
    type: "https://dragonroll.dev/problems/dice-exhausted",
    errors: [{ msg: "dice.check ran out: it holds 4 value(s), and the resolution needed at least 1 more d10 value for slot 'check'" }],
  };
  assert.deepEqual(missingDice(one), { count: 1, sides: 10, slot: "check" });
});

test("the table's dice: every slot scripted from Dice+ rolls, round by round", async () => {
  // A stand-in service: slot "check" needs 3 d10 (4 when the first is a 10), slot "bonus" 1 d6.
  const requests = [];
  const send = async (body) => {
    requests.push(structuredClone(body));
    const check = body.dice.check;
    const bonus = body.dice.bonus;
    if (check === undefined || bonus === undefined) {
      return { ok: true, body: { rolls: [{ slot: "check", source: "seed" }, { slot: "bonus", source: "seed" }] } };
    }
    const need = check[0] === 10 ? 4 : 3;
    if (check.length < need) {
      const msg = `needed at least ${need - check.length} more d10 values for slot 'check'`;
      return { ok: false, body: { type: "x/dice-exhausted", errors: [{ msg }] } };
    }
    if (bonus.length < 1) return { ok: false, body: { type: "x/dice-exhausted", errors: [{ msg: "needed at least 1 more d6 values for slot 'bonus'" }] } };
    return { ok: true, body: { rolls: [...check, ...bonus].map((v) => ({ value: v, source: "dice" })) } };
  };
  const rolled = [];
  const table = [[10, 4, 7], [2], [5]];
  const rollDice = async (count, sides) => {
    rolled.push(`${count}d${sides}`);
    return table.shift();
  };
  const result = await resolveWithTableDice(send, { stat: 1, seed: "s" }, rollDice);
  assert.equal(result.ok, true);
  assert.deepEqual(rolled, ["3d10", "1d10", "1d6"]);
  assert.deepEqual(result.request, { stat: 1, seed: "s", dice: { check: [10, 4, 7, 2], bonus: [5] } });
  assert.equal(requests.length, 5);
  // A refusal that is not about dice ends it.
  const refused = await resolveWithTableDice(async () => ({ ok: false, body: { type: "x/validation-error" } }), {}, rollDice);
  assert.equal(refused.ok, false);
});

test("Dice+: isReady answered, a roll request sent and its result read", async () => {
  const obr = fakeObr({
    onSend(channel, data) {
      if (channel === "dice-plus/isReady" && !("ready" in data)) {
        obr.deliver("dice-plus/isReady", { requestId: data.requestId, ready: true });
      }
      if (channel === "dice-plus/roll-request") {
        assert.equal(data.source, DICE_PLUS_SOURCE);
        assert.equal(data.diceNotation, "3d10 # Simple test");
        assert.equal(data.rollTarget, "everyone");
        assert.equal(data.playerId, "p1");
        obr.deliver(`${data.source}/roll-result`, { rollId: "other", result: { groups: [] } });
        obr.deliver(`${data.source}/roll-result`, {
          rollId: data.rollId,
          result: { totalValue: 18, groups: [{ diceType: "d10", total: 18, dice: [{ value: 9, kept: true }, { value: 1 }, { value: 8 }] }] },
        });
      }
    },
  });
  assert.equal(await dicePlusReady(obr, 200), true);
  const values = await dicePlusRoll(obr, { id: "p1", name: "Ada" }, 3, 10, { label: "Simple test" });
  assert.deepEqual(values, [9, 1, 8]);
  assert.equal(obr.listeners(`${DICE_PLUS_SOURCE}/roll-result`), 0, "listeners removed");
  assert.equal(await dicePlusReady(fakeObr(), 50), false, "no Dice+ in the room");
});

test("Dice+: an error, a bad value and silence are errors", async () => {
  const answering = (result) =>
    fakeObr({
      onSend(channel, data) {
        if (channel === "dice-plus/roll-request") obr.deliver(...result(data));
      },
    });
  let obr = answering((d) => [`${d.source}/roll-error`, { rollId: d.rollId, error: "no such die" }]);
  await assert.rejects(dicePlusRoll(obr, { id: "p" }, 1, 30), /Dice\+: no such die/);
  obr = answering((d) => [`${d.source}/roll-result`, { rollId: d.rollId, result: { groups: [{ dice: [{ value: 11 }] }] } }]);
  await assert.rejects(dicePlusRoll(obr, { id: "p" }, 1, 10), /Dice\+ answered \[11\] for 1d10/);
  obr = fakeObr();
  await assert.rejects(dicePlusRoll(obr, { id: "p" }, 1, 6, { timeoutMs: 20 }), /did not answer in time/);
});

const ANSWER = {
  seed: "abc",
  rolls: [{ slot: "check", sides: 10, value: 6, source: "seed" }, { slot: "check", sides: 10, value: 10, source: "dice" }],
  events: [
    { code: "dos.pool.rolled", text: "2 dice rolled: 6, 10." },
    { code: "dos.test.success", text: "Total 61 against DC 43: success." },
    { code: "dos.foundry.note", text: "A later step." },
  ],
  pool: { slot: "check", dice: [{ value: 6, cancelled: false, extra: false }, { value: 10, cancelled: false, extra: true }] },
  extra: "x".repeat(40_000),
};

test("the shared message: texts and dice, not the whole answer, under 16 KB", () => {
  const m = resultMessage({
    answer: ANSWER,
    request: { stat: 24, seed: "abc" },
    endpoint: endpoint("/dos/test"),
    player: { name: "Ada" },
    baseUrl: "http://svc",
    lang: "en",
  });
  // The outcome: the events of the endpoint's outcome codes (GET /systems), not the last one.
  assert.ok(endpoint("/dos/test").outcome.includes("dos.test.success"));
  assert.equal(m.outcome, "Total 61 against DC 43: success.");
  assert.deepEqual(m.dice, [["check", 10, 6, "s"], ["check", 10, 10, "d"]]);
  // Every player's log draws the dice from the message as the shared card reads an answer's: each
  // die's fate (card.js's diceOf) goes with them.
  assert.deepEqual(messageAnswer(m), { slots: [ANSWER.pool], pairs: [], seed: "abc", rolls: ANSWER.rolls });
  assert.deepEqual(messageAnswer({ ...m, diceFacts: undefined }), { seed: "abc", rolls: ANSWER.rolls });
  assert.ok(!JSON.stringify(m).includes("xxxx"));
  assert.ok(isResultMessage(m));
  assert.ok(!isResultMessage({ v: 2 }) && !isResultMessage(null));
  const huge = resultMessage({
    answer: { ...ANSWER, events: Array.from({ length: 400 }, (_, i) => ({ text: `step ${i} `.repeat(10) })) },
    request: { names: "y".repeat(20_000) },
    endpoint: { path: "/dos/turn", summary: "Turn" },
    player: { name: "Ada" },
    baseUrl: "http://svc",
    lang: "en",
  });
  assert.ok(new TextEncoder().encode(JSON.stringify(huge)).length <= MAX_MESSAGE_BYTES);
  assert.equal(huge.request, undefined);
  assert.equal(huge.diceFacts, undefined);
  assert.ok(huge.texts.length > 10);
});

test("sharing: ALL for the table (the roller's own log included), nothing sent for the GM only", async () => {
  const obr = fakeObr();
  const seen = [];
  obr.broadcast.onMessage(CHANNEL, (e) => seen.push(e.data));
  const m = { v: 1, outcome: "ok", texts: ["ok"], dice: [], path: "/dos/test" };
  assert.equal(await share(obr, m, { gmOnly: false, deliver: () => assert.fail() }), "ALL");
  assert.deepEqual(obr.sent, [{ channel: CHANNEL, data: m, destination: "ALL" }]);
  assert.deepEqual(seen, [m]);
  const local = [];
  assert.equal(await share(obr, m, { gmOnly: true, deliver: (x) => local.push(x) }), "LOCAL_ONLY");
  assert.equal(obr.sent.length, 1, "a GM-only roll is not broadcast");
  assert.deepEqual(local, [m]);
});

test("each player reads the narration and the outcome in their language: the same request, re-resolved", async () => {
  const m = { lang: "en", texts: ["Rolled.", "Success."], outcome: "Success.", path: "/dos/test", request: { stat: 1, seed: "s", lang: "en" } };
  const test = endpoint("/dos/test");
  assert.deepEqual(await textsFor(m, "en", () => assert.fail(), test), { texts: m.texts, outcome: "Success.", lang: "en" });
  const asked = [];
  const polish = await textsFor(m, "pl", async (path, body) => {
    asked.push([path, body]);
    return { ok: true, body: { events: [{ code: "dos.pool.rolled", text: "Rzut." }, { code: "dos.test.success", text: "Sukces." }] } };
  }, test);
  assert.deepEqual(polish, { texts: ["Rzut.", "Sukces."], outcome: "Sukces.", lang: "pl" });
  assert.deepEqual(asked, [["/dos/test", { stat: 1, seed: "s", lang: "pl" }]]);
  const failed = await textsFor(m, "fi", async () => ({ ok: false, body: {} }), test);
  assert.deepEqual(failed, { texts: m.texts, outcome: "Success.", lang: "en" });
});
