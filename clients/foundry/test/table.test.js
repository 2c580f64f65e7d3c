// The module at the table, against the stand-ins of Foundry's public API (standins.js): who sees a
// card (v14's message modes, v12-v13's roll modes), the `/dr` command, dragonroll as the table's
// dice (the Dice Fulfillment method), the dialog's button among the scene controls, the session
// seed. The network is a stand-in that answers `POST /dice/draw` from the stream's specification
// (fulfillment.mjs's streamValues, itself checked against every vector of tests/data/rng-vectors.json).
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { installStandIns, StandInCoin, StandInDie } from "./standins.js";

const LANG = (lang) => JSON.parse(readFileSync(new URL(`../lang/${lang}.json`, import.meta.url), "utf8"));
const VECTORS = JSON.parse(readFileSync(new URL("../../../tests/data/rng-vectors.json", import.meta.url), "utf8")).cases;
const ANSWER = JSON.parse(readFileSync(new URL("../../../tests/golden/notation/roll-keep.response.json", import.meta.url), "utf8"));

// The stand-ins first (the module registers its hooks on import when Hooks exists), then the module.
installStandIns({ strings: LANG("en") });
const mod = await import("../dragonroll.mjs");

const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "content-language": "en" } });

/** A service stand-in: /dice/draw answered from the specification, /dice/roll with a real answer. */
function service(record, { seed: made = "made-by-the-service" } = {}) {
  record.respond = async (url, init) => {
    const body = JSON.parse(init.body);
    if (url.endsWith("/dice/draw")) {
      const seed = body.seed ?? made;
      const draws = [];
      for (const d of body.draws) {
        const values = await mod.streamValues(seed, d.slot, d.sides, d.start + d.count);
        draws.push({ slot: d.slot, sides: d.sides, start: d.start, values: values.slice(d.start) });
      }
      return json({ seed, rng: "sha256-v1", rules_version: "notation-3", rolls: [], unused_dice: {}, events: [], draws });
    }
    return json(ANSWER);
  };
}

/** A fresh table: the stand-ins of `generation`, this client's user, the module initialised. */
function table({ generation = "message", user = null } = {}) {
  const standins = installStandIns({ strings: LANG("en"), generation, ...(user ? { user } : {}) });
  mod.init();
  service(standins.record);
  return { ...standins, api: standins.module.api };
}

const settle = async (until, tries = 200) => {
  for (let i = 0; i < tries && !until(); i += 1) await new Promise((r) => setTimeout(r, 1));
  assert.ok(until(), "did not happen");
};

test("the stream computed here is the specification's: all 288 vectors", async () => {
  for (const c of VECTORS) assert.deepEqual(await mod.streamValues(c.seed, c.label, c.sides, 16), c.values, `${c.seed} ${c.label} d${c.sides}`);
});

test("v14: the card takes the user's message mode, or the one the call passes; a private roll is private", async () => {
  const { record, api, users, settings } = table({ generation: "message" });
  const gms = [users.GM.id];
  const cases = [
    ["public", [], false],
    ["gm", gms, false],
    ["blind", gms, true],
    ["self", [users.GM.id], false],
    ["gmroll", gms, false], // a v12-v13 name: its v14 counterpart
  ];
  for (const [mode, whisper, blind] of cases) {
    record.messages.length = 0;
    await api.diceRoll({ notation: "4d6kh3" }, { mode });
    const [message] = record.messages;
    assert.deepEqual([message.whisper, message.blind], [whisper, blind], mode);
    assert.deepEqual(message.options, { messageMode: mode === "gmroll" ? "gm" : mode });
  }
  // No mode passed: the user's own choice (core.messageMode).
  settings.set("core.messageMode", "blind");
  record.messages.length = 0;
  await api.diceRoll({ notation: "4d6kh3" });
  assert.deepEqual([record.messages[0].whisper, record.messages[0].blind, record.messages[0].options], [gms, true, { messageMode: "blind" }]);
  // A mode the game does not have: the user's own.
  record.messages.length = 0;
  await api.diceRoll({ notation: "4d6kh3" }, { mode: "nonsense" });
  assert.deepEqual(record.messages[0].options, { messageMode: "blind" });
});

test("v12-v13: the card takes the user's roll mode (ChatMessage.applyRollMode), or the call's", async () => {
  const player = { id: "pl000000000000bb", name: "Ada", isGM: false };
  const { record, api, users, settings } = table({ generation: "roll", user: player });
  const gms = [users.GM.id];
  for (const [mode, whisper, blind, rollMode] of [
    ["publicroll", [], false, "publicroll"],
    ["gmroll", gms, false, "gmroll"],
    ["blindroll", gms, true, "blindroll"],
    ["selfroll", [player.id], false, "selfroll"],
    ["blind", gms, true, "blindroll"], // a v14 name: its v12-v13 counterpart
  ]) {
    record.messages.length = 0;
    await api.dosTest({ stat: 44, skill: 5, dc: 47 }, { mode });
    const [message] = record.messages;
    assert.deepEqual([message.whisper, message.blind, message.options], [whisper, blind, { rollMode }], mode);
    // A GM-only or blind roll reaches no other player.
    for (const other of users.PLAYERS.filter((p) => p.id !== player.id)) assert.ok(!message.whisper.length || !message.whisper.includes(other.id));
  }
  settings.set("core.rollMode", "gmroll");
  record.messages.length = 0;
  await api.dosTest({ stat: 44, skill: 5, dc: 47 });
  assert.deepEqual([record.messages[0].whisper, record.messages[0].options], [gms, { rollMode: "gmroll" }]);
});

test("/dr: the notation rolled in the table's dialect, as the speaker, in the user's mode; Foundry does not handle the text", async () => {
  const { record, settings } = table({ generation: "message" });
  settings.set("core.messageMode", "gm");
  settings.set("dragonroll.dialect", "roll20");
  const speaker = { alias: "Ala", actor: "a1", token: null, scene: null };
  const handled = Hooks.call("chatMessage", {}, "/dr 4d6kh3 + 2", { user: "gm000000000000aa", speaker });
  assert.equal(handled, false, "the hook must return false so Foundry does not refuse /dr as an unknown command");
  await settle(() => record.messages.length === 1);
  const request = record.requests.at(-1);
  assert.match(request.url, /\/dice\/roll$/);
  assert.deepEqual(JSON.parse(request.init.body), { notation: "4d6kh3 + 2", dialect: "roll20", name: "Ala", foundry: true });
  const [message] = record.messages;
  assert.equal(message.speaker, speaker);
  assert.deepEqual(message.options, { messageMode: "gm" });
  assert.ok(message.content.includes(ANSWER.events.at(-1).text));
  // `/DR` too; an alias the service would refuse is left out of the request.
  record.messages.length = 0;
  Hooks.call("chatMessage", {}, "/DR d20", { speaker: { alias: "A\u202eB" } });
  await settle(() => record.messages.length === 1);
  assert.deepEqual(JSON.parse(record.requests.at(-1).init.body), { notation: "d20", dialect: "roll20", foundry: true });
  // Not the command: Foundry handles it; the command alone: its usage.
  const sent = record.requests.length;
  for (const text of ["hello", "/draw 1d6", "/roll 1d20", "/drx"]) assert.notEqual(Hooks.call("chatMessage", {}, text, {}), false, text);
  assert.equal(Hooks.call("chatMessage", {}, "/dr", {}), false);
  assert.deepEqual(record.infos, [LANG("en")["DRAGONROLL.Command.Usage"]]);
  assert.equal(record.requests.length, sent);
  assert.deepEqual(mod.parseCommand("  /dr   2d20kh + 5 "), { notation: "2d20kh + 5" });
  assert.equal(mod.parseCommand("/dr2d6"), null);
});

test("a refused /dr is a notification with the service's problem, and no card", async () => {
  const { record } = table();
  record.respond = async () => json({ type: "about:blank", title: "The notation cannot be read", status: 422, detail: "column 3: expected a die" }, 422);
  Hooks.call("chatMessage", {}, "/dr 4d", { speaker: { alias: "Ala" } });
  await settle(() => record.errors.length === 1);
  assert.match(record.errors[0], /The notation cannot be read \(column 3: expected a die\)/);
  assert.equal(record.messages.length, 0);
});

test("dragonroll as the table's dice: a 4d6 takes the stream's dice for its seed and slot, in one request", async () => {
  const { record, settings, users } = table();
  const method = CONFIG.Dice.fulfillment.methods.dragonroll;
  assert.deepEqual(Object.keys(method).sort(), ["handler", "icon", "interactive", "label"]);
  assert.equal(method.interactive, false);
  assert.equal(method.label, "DRAGONROLL.Fulfillment.Label");
  settings.set("dragonroll.seed", "session-7");
  const term = new StandInDie({ number: 4, faces: 6, method: "dragonroll" });
  await term.evaluate();
  const slot = `${users.GM.id}.0`;
  assert.deepEqual(term.results.map((r) => r.result), await mod.streamValues("session-7", slot, 6, 4));
  assert.deepEqual(term.options.dragonroll, { seed: "session-7", rng: "sha256-v1", slot, rules_version: "notation-3" });
  assert.equal(record.requests.length, 1, "a term's dice are one request");
  assert.deepEqual(JSON.parse(record.requests[0].init.body), { seed: "session-7", draws: [{ slot, sides: 6, count: 4, start: 0 }] });
  // The next term is the next slot; the count is kept for the user and the seed.
  const d20 = await new StandInDie({ number: 1, faces: 20, method: "dragonroll" }).evaluate();
  assert.equal(d20.options.dragonroll.slot, `${users.GM.id}.1`);
  assert.deepEqual(settings.get("dragonroll.terms"), { seed: "session-7", next: 2 });
  // A new seed starts counting again.
  settings.set("dragonroll.seed", "session-8");
  assert.equal((await new StandInDie({ number: 1, faces: 8, method: "dragonroll" }).evaluate()).options.dragonroll.slot, `${users.GM.id}.0`);
});

test("an exploding term asks for more of its own slot from where it stopped; the roll checks out", async () => {
  const { record, settings, users } = table();
  // A seed whose first 3d6 of the slot explode: found by the specification, not by hand.
  let seed = null;
  for (let i = 0; !seed; i += 1) {
    const dice = await mod.streamValues(`boom-${i}`, `${users.GM.id}.0`, 6, 3);
    if (dice.includes(6)) seed = `boom-${i}`;
  }
  settings.set("dragonroll.seed", seed);
  const term = await new StandInDie({ number: 3, faces: 6, modifiers: ["x"], method: "dragonroll" }).evaluate();
  assert.ok(term.results.length > 3);
  assert.deepEqual(term.results.map((r) => r.result), await mod.streamValues(seed, `${users.GM.id}.0`, 6, term.results.length));
  const draws = record.requests.map((r) => JSON.parse(r.init.body).draws[0]);
  assert.deepEqual(draws.map((d) => d.start), draws.map((_, i) => 3 * i), "each request starts where the dice given end");
  // Anyone checks it from the roll's data: from the specification here, or through the service.
  const data = term.toJSON();
  for (const digest of [mod.webDigest, null]) {
    const [checked] = await mod.verifyRolls([{ terms: [data] }], (body) => record.respond("http://svc/dice/draw", { body: JSON.stringify(body) }).then((r) => r.json()), digest);
    assert.equal(checked.ok, true);
    assert.deepEqual(checked.shown, checked.expected);
  }
  const forged = structuredClone(data);
  forged.results[0].result = (forged.results[0].result % 6) + 1;
  const [caught] = await mod.verifyRolls([{ terms: [{ class: "ParentheticalTerm", roll: { terms: [forged] } }] }], null);
  assert.equal(caught.ok, false);
});

test("no service: the dice are Foundry's, the term claims no stream, the user is told once", async () => {
  const { record, settings } = table();
  settings.set("dragonroll.seed", "s");
  record.respond = async () => {
    throw new TypeError("Failed to fetch");
  };
  const a = await new StandInDie({ number: 2, faces: 6, method: "dragonroll" }).evaluate();
  const b = await new StandInDie({ number: 1, faces: 6, method: "dragonroll" }).evaluate();
  assert.deepEqual(a.results.map((r) => r.result), [3, 3]); // the stand-in's own randomUniform
  assert.equal(a.options.dragonroll, undefined);
  assert.equal(b.options.dragonroll, undefined);
  assert.equal(record.errors.length, 1);
  assert.match(record.errors[0], /dragonroll/);
});

test("the table's dice leave a coin, a minimized roll and a term without a seed to what fits", async () => {
  const { record, settings } = table();
  const method = CONFIG.Dice.fulfillment.methods.dragonroll;
  assert.equal(await method.handler(new StandInCoin({ number: 1, faces: 2 }), {}), undefined);
  assert.equal(await method.handler(new StandInDie({ faces: 6 }), { minimize: true }), undefined);
  assert.equal(record.requests.length, 0);
  // No session seed yet: the service makes one for the term, and the term keeps it.
  settings.set("dragonroll.seed", "");
  const term = await new StandInDie({ number: 2, faces: 10, method: "dragonroll" }).evaluate();
  assert.equal("seed" in JSON.parse(record.requests[0].init.body), false);
  assert.equal(term.options.dragonroll.seed, "made-by-the-service");
  assert.deepEqual(term.results.map((r) => r.result), await mod.streamValues("made-by-the-service", term.options.dragonroll.slot, 10, 2));
});

test("the world setting makes dragonroll every user's default method; a GM's client makes the session seed", async () => {
  const { record, settings, become, users } = table();
  assert.equal(CONFIG.Dice.fulfillment.defaultMethod, "");
  await game.settings.set("dragonroll", "tableDice", true);
  assert.equal(CONFIG.Dice.fulfillment.defaultMethod, "dragonroll");
  const term = await new StandInDie({ number: 1, faces: 20 }).evaluate(); // no method of its own
  assert.ok(term.options.dragonroll);
  await game.settings.set("dragonroll", "tableDice", false);
  assert.equal(CONFIG.Dice.fulfillment.defaultMethod, "");
  // ready: the GM's client asks the service for a seed when the world has none; a player's does not.
  settings.set("dragonroll.seed", "");
  become(users.PLAYERS[0]);
  record.requests.length = 0;
  await mod.ready();
  assert.equal(record.requests.length, 0);
  become(users.GM);
  await mod.ready();
  assert.equal(game.settings.get("dragonroll", "seed"), "made-by-the-service");
  await mod.ready(); // kept
  assert.equal(record.requests.length, 1);
});

test("the dialog's button among the token controls, in v12's list and in v13-v14's record", () => {
  table();
  const v14 = { tokens: { name: "tokens", tools: { select: { name: "select", order: 0 } } } };
  Hooks.callAll("getSceneControlButtons", v14);
  const tool = v14.tokens.tools.dragonroll;
  assert.deepEqual([tool.name, tool.button, tool.order, typeof tool.onChange, tool.title], ["dragonroll", true, 1, "function", "DRAGONROLL.Dialog.Title"]);
  const v12 = [{ name: "token", tools: [{ name: "select" }] }, { name: "walls", tools: [] }];
  Hooks.callAll("getSceneControlButtons", v12);
  assert.deepEqual(v12[0].tools.map((t) => t.name), ["select", "dragonroll"]);
  assert.equal(typeof v12[0].tools[1].onClick, "function");
  assert.deepEqual(v12[1].tools, []);
});

test("the settings: the dialect's choices are the service's dialects; the terms' count per user where Foundry has user settings", () => {
  const { record } = table({ generation: "message" });
  const by = Object.fromEntries(record.registered.map((r) => [r.key, r.data]));
  assert.deepEqual(Object.keys(by.dialect.choices), ["foundry", "roll20", "avrae"]);
  assert.deepEqual([by.dialect.scope, by.seed.scope, by.tableDice.scope, by.terms.scope], ["world", "world", "world", "user"]);
  assert.equal(by.terms.config, false);
  const old = table({ generation: "roll" }).record;
  assert.equal(old.registered.find((r) => r.key === "terms").data.scope, "client");
});

test("two terms of one roll, rolled before the world's database answers, take two slots", async () => {
  const { settings, users } = table();
  settings.set("dragonroll.seed", "busy");
  // A user setting Foundry writes through its server: here it never answers.
  const write = game.settings.set;
  game.settings.set = () => new Promise(() => {});
  try {
    const [a, b] = await Promise.all([
      new StandInDie({ number: 2, faces: 20, method: "dragonroll" }).evaluate(),
      new StandInDie({ number: 1, faces: 6, method: "dragonroll" }).evaluate(),
    ]);
    assert.deepEqual([a.options.dragonroll.slot, b.options.dragonroll.slot], [`${users.GM.id}.0`, `${users.GM.id}.1`]);
  } finally {
    game.settings.set = write;
  }
});
