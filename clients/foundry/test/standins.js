// Stand-ins for the Foundry VTT globals the module touches. They are NOT Foundry: each records what
// the module asked of it and answers the way Foundry's public API documentation says it does, the
// page it follows named beside it (v12, v13 and v14 where they differ: `generation` "roll" is
// v12-v13's roll modes, "message" v14's message modes). No Foundry source and no community type
// package was read for them. They run in node (test/module.test.js, test/e2e.test.js) and in
// Chromium (tests/foundry/harness.html), so nothing here imports a node module: the language's
// strings are passed in.
//
// - game.settings.register/get/set with the scopes world, client and user
//   (https://foundryvtt.com/api/v14/classes/foundry.helpers.ClientSettings.html,
//   https://foundryvtt.com/api/v14/interfaces/foundry.types.SettingConfig.html), game.modules.get,
//   game.i18n.lang/localize/format, game.user and game.users
//   (https://foundryvtt.com/api/v14/classes/foundry.Game.html);
// - Hooks.on/once/call/callAll: `call` stops at the first listener returning false and says so
//   (https://foundryvtt.com/api/v14/classes/foundry.helpers.Hooks.html);
// - ChatMessage.create(data, options), getSpeaker (https://foundryvtt.com/api/v14/classes/foundry.documents.ChatMessage.html);
//   v12-v13: ChatMessage.applyRollMode(chatData, rollMode) and CONFIG.Dice.rollModes
//   (https://foundryvtt.com/api/v12/classes/client.ChatMessage.html,
//   https://foundryvtt.com/api/v13/variables/CONST.DICE_ROLL_MODES.html), the user's roll mode the
//   core.rollMode setting; v14: CONFIG.ChatMessage.modes, each {label, icon, handler(data)}
//   (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html), the user's mode the
//   core.messageMode setting. A GM-only mode whispers to the GMs, a blind one also hides the roll
//   from its roller, a self one whispers to the roller (https://foundryvtt.com/article/dice/);
// - CONFIG.Dice.fulfillment {dice, methods, defaultMethod} and a method's handler(term, options)
//   called once per die, its number the die's value, nothing left to randomUniform
//   (https://foundryvtt.com/api/v14/interfaces/CONFIG.DiceFulfillmentConfiguration.html,
//   https://foundryvtt.com/api/v14/types/CONFIG.DiceFulfillmentHandler.html);
// - Roll.fromData and Roll#render (https://foundryvtt.com/api/v14/classes/foundry.dice.Roll.html),
//   a Die's number, faces, modifiers, results and options (https://foundryvtt.com/api/v14/classes/foundry.dice.terms.Die.html);
// - ui.notifications.error/warn/info (https://foundryvtt.com/api/v14/classes/foundry.applications.ui.Notifications.html);
// - getSceneControlButtons' controls: v12 a list of controls with `tools` lists, v13 and v14 a record
//   of controls with `tools` records (https://foundryvtt.com/api/v12/functions/hookEvents.getSceneControlButtons.html,
//   https://foundryvtt.com/api/v14/functions/hookEvents.getSceneControlButtons.html);
// - ApplicationV2: render({force}) calls _prepareContext, _renderHTML and _replaceHTML into the
//   window's content; `tag: "form"` with `form.handler(event, form, formData)` called with the
//   application as `this` on submit (https://foundryvtt.com/api/v12/classes/foundry.applications.api.ApplicationV2.html),
//   foundry.applications.instances (https://foundryvtt.com/api/v14/variables/foundry.applications.instances.html).

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The term classes the stand-in knows (of CONFIG.Dice.termTypes, the ones it can add up). */
const TERMS = new Set(["Die", "FateDie", "OperatorTerm", "NumericTerm", "ParentheticalTerm"]);
const DICE = new Set(["Die", "FateDie"]);
const OPERATORS = new Set(["+", "-", "*", "/"]);
/**
 * Die modifiers as Foundry documents them: reroll (r once, rr again and again), explode (x again
 * and again, xo once), min/max, keep/drop highest/lowest (kh kl dh dl, N defaulting to 1), count
 * successes (cs) and deduct failures (df), each comparison `=`/`<`/`<=`/`>`/`>=` and a number.
 */
const MODIFIER = /^(?:(rr|r|xo|x)(?:(=|<=|>=|<|>)?(-?\d+))?|(min|max)(-?\d+)|(kh|kl|dh|dl)(\d+)?|(cs|df)(=|<=|>=|<|>)?(-?\d+))$/;
const COMPARE = { "=": (a, b) => a === b, "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b };

const refuse = (why, data) => {
  throw new Error(`Roll.fromData refused: ${why} (${JSON.stringify(data).slice(0, 160)})`);
};
const isInt = (n) => Number.isInteger(n);
const label = (term) => (term.options?.flavor ? `[${term.options.flavor}]` : "");

/** A term's expression as Foundry writes it: `5d10`, `2d20kh`, `4dF`, `(2d6 + 1)[fire]`, `+`, `44`. */
function expression(term) {
  if (DICE.has(term.class)) {
    return `${term.number}d${term.class === "FateDie" ? "F" : term.faces}${term.modifiers.join("")}${label(term)}`;
  }
  if (term.class === "OperatorTerm") return term.operator;
  if (term.class === "ParentheticalTerm") return `(${term.term})${label(term)}`;
  return `${term.number}${label(term)}`;
}

/** A Die's value: its active results, each by `count` when it has one (successes, min/max), else its face. */
function dieValue(term) {
  return term.results.filter((r) => r.active).reduce((sum, r) => sum + (r.count ?? r.result), 0);
}

/** The modifiers parsed: [{ kind, test?, n? }], in the order they apply. */
function parseModifiers(term) {
  if (!Array.isArray(term.modifiers)) refuse("a Die's modifiers", term);
  const lo = term.class === "FateDie" ? -1 : 1;
  return term.modifiers.map((m) => {
    const g = typeof m === "string" ? MODIFIER.exec(m) : null;
    if (!g) refuse("a Die's modifiers", term);
    if (g[1]) {
      // r/rr default to the lowest face, x/xo to the highest; a bare number means `=`.
      const target = g[3] !== undefined ? Number(g[3]) : g[1].startsWith("r") ? lo : term.faces;
      const op = COMPARE[g[2] ?? "="];
      return { kind: g[1], test: (v) => op(v, target) };
    }
    if (g[4]) return { kind: g[4], n: Number(g[5]) };
    if (g[6]) {
      const n = g[7] === undefined ? 1 : Number(g[7]);
      if (n < 1 || n > term.number) refuse(`${m} on ${term.number} dice`, term);
      return { kind: g[6], n };
    }
    const op = COMPARE[g[9] ?? "="];
    const target = Number(g[10]);
    return { kind: g[8], test: (v) => op(v, target) };
  });
}

function checkDie(term) {
  const fate = term.class === "FateDie";
  if (!isInt(term.number) || term.number < 0 || !isInt(term.faces) || term.faces < 1) refuse("a Die's number or faces", term);
  if (fate && term.faces !== 3) refuse("a FateDie not of three faces", term);
  const [lo, hi] = fate ? [-1, 1] : [1, term.faces];
  const mods = parseModifiers(term);
  const kinds = mods.map((m) => m.kind);
  const once = kinds.filter((k) => !/^(kh|kl|dh|dl)$/.test(k)).map((k) => k.replace(/^rr$/, "r").replace(/^xo$/, "x"));
  if (new Set(once).size !== once.length) refuse("a modifier twice", term);
  if (!Array.isArray(term.results)) refuse("a Die without results", term);
  for (const r of term.results) {
    if (!r || typeof r !== "object") refuse("a result that is no object", term);
    if (!isInt(r.result) || r.result < lo || r.result > hi) refuse(`a result off a d${fate ? "F" : term.faces}`, term);
    if (typeof r.active !== "boolean") refuse("a result neither active nor not", term);
    if (r.count !== undefined && !isInt(r.count)) refuse("a count that is no integer", term);
    for (const flag of ["discarded", "exploded", "rerolled", "success", "failure"]) {
      if (r[flag] !== undefined && typeof r[flag] !== "boolean") refuse(`a ${flag} flag that is no boolean`, term);
    }
  }
  // A Die without modifiers is a system's own pool (dragonroll's systems drop, explode and count
  // by their own rules, outside Foundry's modifiers): only its results' shape is checked.
  if (!mods.length) {
    if (term.results.length < term.number) refuse("a Die with fewer results than dice", term);
    return;
  }
  for (const r of term.results) {
    if (r.active !== !(r.rerolled || r.discarded)) refuse("a result active though rerolled or discarded, or inactive for nothing", term);
  }
  const reroll = mods.find((m) => m.kind === "r" || m.kind === "rr");
  const explode = mods.find((m) => m.kind === "x" || m.kind === "xo");
  const rerolled = term.results.filter((r) => r.rerolled);
  const exploded = term.results.filter((r) => r.exploded);
  // Each reroll and each explosion adds exactly one die to the term's own `number`.
  if (term.results.length !== term.number + rerolled.length + exploded.length) {
    refuse(`${term.results.length} results for ${term.number} dice, ${rerolled.length} rerolled and ${exploded.length} exploded`, term);
  }
  if (rerolled.length && !reroll) refuse("a result rerolled without r", term);
  if (exploded.length && !explode) refuse("a result exploded without x", term);
  const kept = term.results.filter((r) => !r.rerolled); // the dice that stood
  if (reroll) {
    if (rerolled.some((r) => !reroll.test(r.result))) refuse(`${reroll.kind} rerolled a die it does not reroll`, term);
    const left = kept.filter((r) => reroll.test(r.result)).length;
    // rr rerolls until no die matches; r once, so only a replacement may match (not more of them than rerolls).
    // A die an explosion after the reroll adds is not rerolled.
    const later = explode && mods.indexOf(explode) > mods.indexOf(reroll) ? exploded.length : 0;
    if (left > (reroll.kind === "rr" ? 0 : rerolled.length) + later) refuse(`${reroll.kind} left a die it rerolls`, term);
    if (reroll.kind === "r" && rerolled.length > term.number) refuse("r rerolled more dice than the term rolls", term);
  }
  if (explode) {
    if (exploded.some((r) => !explode.test(r.result))) refuse(`${explode.kind} exploded a die it does not explode`, term);
    if (exploded.some((r) => r.rerolled)) refuse("a rerolled die exploded", term);
    const unexploded = kept.filter((r) => !r.exploded && explode.test(r.result)).length;
    // A die a reroll after the explosion puts in is not exploded.
    const later = reroll && mods.indexOf(reroll) > mods.indexOf(explode) ? rerolled.length : 0;
    if (unexploded > (explode.kind === "x" ? 0 : exploded.length) + later) refuse(`${explode.kind} left a die unexploded`, term);
    if (explode.kind === "xo" && exploded.length > term.number) refuse("xo exploded more than once a die", term);
    if (explode.kind === "x" && exploded.length > 100 * Math.max(1, term.number)) refuse("x exploded without end", term);
    if (explode.kind === "x" && explode.test(lo) && explode.test(hi)) refuse("x on every face", term);
  }
  // min/max change a die's value (dragonroll writes it as `count`); cs/df then count it.
  const min = mods.find((m) => m.kind === "min");
  const max = mods.find((m) => m.kind === "max");
  const value = (r) => Math.min(max ? max.n : Infinity, Math.max(min ? min.n : -Infinity, r.result));
  // Keep and drop in order, each among the dice the last one kept.
  let pool = kept;
  for (const m of mods.filter((x) => /^(kh|kl|dh|dl)$/.test(x.kind))) {
    const sorted = [...pool].sort((a, b) => value(b) - value(a)); // highest first
    const n = m.kind[0] === "k" ? Math.min(m.n, pool.length) : Math.max(pool.length - m.n, 0);
    const keepValues = (m.kind === "kh" || m.kind === "dl" ? sorted : sorted.reverse()).slice(0, n).map(value);
    const survivors = pool.filter((r) => !r.discarded);
    const have = survivors.map(value).sort((a, b) => a - b);
    const want = [...keepValues].sort((a, b) => a - b);
    if (have.length !== want.length || have.some((v, i) => v !== want[i])) refuse(`${m.kind}${m.n} keeps other dice`, term);
    pool = survivors;
  }
  if (kept.some((r) => r.discarded && pool.includes(r))) refuse("a discarded die kept", term);
  if (kept.filter((r) => r.discarded).length !== kept.length - pool.length) refuse("a die discarded by no keep or drop", term);
  const cs = mods.find((m) => m.kind === "cs");
  const df = mods.find((m) => m.kind === "df");
  if (df && !cs) refuse("df without cs", term);
  for (const r of term.results.filter((x) => x.active)) {
    if (cs) {
      const success = cs.test(value(r));
      const failure = Boolean(df && !success && df.test(value(r)));
      if (r.count !== (success ? 1 : failure ? -1 : 0)) refuse(`cs counts a die wrong`, term);
      if (Boolean(r.success) !== success || Boolean(r.failure) !== failure) refuse("a die's success or failure flag wrong", term);
    } else {
      if ((r.count ?? r.result) !== value(r)) refuse(`a die's count not its value`, term);
      if (r.success !== undefined || r.failure !== undefined) refuse("a success or failure without cs", term);
    }
  }
}

function checkTerm(term) {
  if (!term || typeof term !== "object") refuse("a term is not an object", term);
  if (!TERMS.has(term.class)) refuse(`unknown term class ${term.class}`, term);
  if (term.evaluated !== true) refuse("a term is not evaluated", term);
  if (term.options !== undefined && (typeof term.options !== "object" || term.options === null)) refuse("a term's options", term);
  const flavor = term.options?.flavor;
  if (flavor !== undefined && (typeof flavor !== "string" || /[[\]]/.test(flavor))) refuse("a flavor that is no label", term);
  if (term.class === "OperatorTerm" && !OPERATORS.has(term.operator)) refuse("an unknown operator", term);
  if (term.class === "NumericTerm" && !Number.isFinite(term.number)) refuse("a number that is none", term);
  if (term.class === "ParentheticalTerm") {
    if (typeof term.term !== "string" || !term.roll) refuse("a ParentheticalTerm without its roll", term);
    checkRoll(term.roll, false);
    if (term.roll.formula !== term.term) refuse("a ParentheticalTerm not its roll's formula", term);
  }
  if (DICE.has(term.class)) checkDie(term);
}

/** A term's value once evaluated. */
function value(term) {
  if (DICE.has(term.class)) return dieValue(term);
  if (term.class === "ParentheticalTerm") return term.roll.total;
  return term.number;
}

/**
 * The terms' total, as the service adds them up: `* /` before `+ -`, a leading or doubled `-` a
 * negation, `/` floored. Refuses terms that are not operand-operator-operand.
 */
function evaluate(terms, data) {
  let i = 0;
  const isOp = (t, ops) => t && t.class === "OperatorTerm" && ops.includes(t.operator);
  const operand = () => {
    const t = terms[i];
    if (!t) refuse("a formula ending in an operator", data);
    if (isOp(t, ["-", "+"])) {
      i += 1;
      return t.operator === "-" ? -operand() : operand();
    }
    if (t.class === "OperatorTerm") refuse("terms that do not alternate with operators", data);
    i += 1;
    return value(t);
  };
  const product = () => {
    let v = operand();
    while (isOp(terms[i], ["*", "/"])) {
      const op = terms[i++].operator;
      const w = operand();
      if (op === "/" && w === 0) refuse("a division by zero", data);
      v = op === "*" ? v * w : Math.floor(v / w);
    }
    return v;
  };
  let total = product();
  while (isOp(terms[i], ["+", "-"])) {
    const op = terms[i++].operator;
    total = op === "+" ? total + product() : total - product();
  }
  if (i !== terms.length) refuse("terms that do not alternate with operators", data);
  return total;
}

/** Checks an evaluated Roll's data (a ParentheticalTerm's own roll need hold no dice). */
function checkRoll(data, top) {
  if (!data || data.class !== "Roll" || data.evaluated !== true) refuse("not an evaluated Roll", data);
  if (!Array.isArray(data.terms) || !data.terms.length) refuse("no terms", data);
  data.terms.forEach(checkTerm);
  const dice = (terms) => terms.some((t) => DICE.has(t.class) || (t.class === "ParentheticalTerm" && dice(t.roll.terms)));
  if (top && !dice(data.terms)) refuse("no dice terms", data);
  const formula = data.terms.map(expression).join(" ");
  if (data.formula !== formula) refuse(`the formula ${data.formula} is not its terms' ${formula}`, data);
  const total = evaluate(data.terms, data);
  if (data.total !== total) refuse(`the total ${data.total} is not its terms' ${total}`, data);
  return { formula, total };
}

/** Foundry's `Roll`, as far as dragonroll uses it: `fromData` of an evaluated roll, `render`. */
export class StandInRoll {
  static CHAT_TEMPLATE = "templates/dice/roll.html";

  /**
   * Refuses what Foundry's Roll could not be: not an evaluated Roll, no terms or no dice among
   * them, a term of an unknown class or shape, terms that are not term-operator-term, a formula that
   * is not its terms' own, or a total its terms do not add up to.
   */
  static fromData(data) {
    const { formula, total } = checkRoll(data, true);
    const roll = new StandInRoll();
    Object.assign(roll, { terms: data.terms, formula, total, options: data.options ?? {}, _evaluated: true });
    return roll;
  }

  get dice() {
    const dice = (terms) => terms.flatMap((t) => (DICE.has(t.class) ? [t] : t.class === "ParentheticalTerm" ? dice(t.roll.terms) : []));
    return dice(this.terms);
  }

  /** The roll as chat HTML (`Promise<string>`), in the shape of Foundry's dice template. */
  async render({ flavor, isPrivate = false } = {}) {
    const tooltip = this.dice
      .map((d) => `<ol class="dice-rolls">${d.results.map((r) => `<li class="roll d${d.faces}">${r.result}</li>`).join("")}</ol>`)
      .join("");
    return (
      `<div class="dice-roll">` +
      (flavor && !isPrivate ? `<div class="dice-flavor">${escape(flavor)}</div>` : "") +
      `<div class="dice-result"><div class="dice-formula">${isPrivate ? "???" : escape(this.formula)}</div>` +
      `<div class="dice-tooltip">${tooltip}</div>` +
      `<h4 class="dice-total">${isPrivate ? "?" : this.total}</h4></div></div>`
    );
  }
}


/** A plain die term (`Die`, denomination "d"): `evaluate()` rolls its dice through the user's
 * fulfillment method (`method`, else `CONFIG.Dice.fulfillment.defaultMethod`): the method's handler
 * once per die, in order, each result appended to `results` before the next die; a die the handler
 * leaves (nothing returned) is Foundry's own (`randomUniform`, here a fixed stand-in value). `x`
 * explodes: each die showing the highest face rolls one more, through the same handler. */
export class StandInDie {
  static DENOMINATION = "d";

  constructor({ number = 1, faces = 6, modifiers = [], method = null, options = {} } = {}) {
    Object.assign(this, { number, faces, modifiers, method, options, results: [] });
  }

  async #one() {
    const fulfillment = globalThis.CONFIG.Dice.fulfillment;
    const method = fulfillment.methods[this.method ?? fulfillment.defaultMethod];
    const value = method?.handler ? await method.handler(this, {}) : undefined;
    const result = { result: value ?? Math.ceil(this.faces / 2), active: true };
    this.results.push(result);
    return result;
  }

  async evaluate() {
    for (let i = 0; i < this.number; i += 1) await this.#one();
    if (this.modifiers.includes("x")) {
      for (let i = 0; i < this.results.length && i < 100; i += 1) {
        if (this.results[i].result === this.faces) {
          this.results[i].exploded = true;
          await this.#one();
        }
      }
    }
    return this;
  }

  get total() {
    return this.results.reduce((sum, r) => sum + r.result, 0);
  }

  /** As RollTermData: its class, options (dragonroll's record among them), results. */
  toJSON() {
    return { class: "Die", options: this.options, evaluated: true, number: this.number, faces: this.faces, modifiers: this.modifiers, results: this.results };
  }
}

/** A coin (denomination "c"): a term dragonroll leaves to Foundry. */
export class StandInCoin extends StandInDie {
  static DENOMINATION = "c";
}

const GM = { id: "gm000000000000aa", name: "Gamemaster", isGM: true };
const PLAYERS = [
  { id: "pl000000000000bb", name: "Ada", isGM: false },
  { id: "pl000000000000cc", name: "Bartek", isGM: false },
];

/** The message data a mode sets, as its documentation says (https://foundryvtt.com/article/dice/). */
function visibility(kind, user, gms) {
  return {
    public: { whisper: [], blind: false },
    gm: { whisper: gms, blind: false },
    blind: { whisper: gms, blind: true },
    self: { whisper: [user.id], blind: false },
  }[kind];
}

/** v12-v13: CONFIG.Dice.rollModes and ChatMessage.applyRollMode; v14: CONFIG.ChatMessage.modes. */
function modes(generation, userOf, settingOf) {
  const gms = () => globalThis.game.users.filter((u) => u.isGM).map((u) => u.id);
  if (generation === "message") {
    const mode = (kind, label, icon) => ({ label, icon, handler: (data) => Object.assign(data, visibility(kind, userOf(), gms())) });
    return {
      config: {
        ChatMessage: {
          modes: {
            public: mode("public", "CHAT.Modes.Public", "fa-solid fa-globe"),
            gm: mode("gm", "CHAT.Modes.GM", "fa-solid fa-user-secret"),
            blind: mode("blind", "CHAT.Modes.Blind", "fa-solid fa-eye-slash"),
            self: mode("self", "CHAT.Modes.Self", "fa-solid fa-user"),
            ic: { label: "CHAT.Modes.IC", icon: "fa-solid fa-comment", handler: (data) => Object.assign(data, visibility("public", userOf(), gms()), { style: 2 }) },
          },
        },
      },
      applyRollMode: undefined,
    };
  }
  const kinds = { publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" };
  return {
    config: {
      Dice: {
        rollModes: {
          publicroll: { label: "CHAT.RollPublic", icon: "fa-solid fa-globe" },
          gmroll: { label: "CHAT.RollPrivate", icon: "fa-solid fa-user-secret" },
          blindroll: { label: "CHAT.RollBlind", icon: "fa-solid fa-eye-slash" },
          selfroll: { label: "CHAT.RollSelf", icon: "fa-solid fa-user" },
        },
      },
    },
    // "roll" is the user's own current roll mode.
    applyRollMode: (data, mode) => {
      const kind = kinds[mode === "roll" ? settingOf("core.rollMode") : mode];
      if (!kind) throw new Error(`applyRollMode: no roll mode ${mode}`);
      return Object.assign(data, visibility(kind, userOf(), gms()));
    },
  };
}

/** Installs the stand-ins on globalThis (`generation`: "message", v14, or "roll", v12-v13; `user`:
 * the user this client is, the GM by default). `record` holds what the module did, and
 * `record.respond(url, init)` answers its fetches (the network stand-in) unless `fetch` is real. */
export function installStandIns({ lang = "en", strings = {}, generation = "message", user = GM, realFetch = false } = {}) {
  const hooks = new Map();
  const settings = new Map();
  const record = { registered: [], messages: [], errors: [], warnings: [], infos: [], requests: [], respond: null, hookCalls: [] };
  const module = { id: "dragonroll", active: true };
  const on = (name, fn, once = false) => hooks.set(name, [...(hooks.get(name) ?? []), { fn, once }]);
  const run = (name, args, stopOnFalse) => {
    const listeners = hooks.get(name) ?? [];
    hooks.set(name, listeners.filter((l) => !l.once));
    for (const { fn } of listeners) if (fn(...args) === false && stopOnFalse) return false;
    return true;
  };
  globalThis.Hooks = {
    on: (name, fn) => on(name, fn),
    once: (name, fn) => on(name, fn, true),
    call: (name, ...args) => run(name, args, true),
    callAll: (name, ...args) => run(name, args, false),
  };
  const localize = (key) => strings[key] ?? key;
  const settingOf = (id) => settings.get(id);
  const current = { user };
  const visibilityModes = modes(generation, () => current.user, settingOf);
  globalThis.CONST = generation === "message"
    ? { SETTING_SCOPES: { CLIENT: "client", USER: "user", WORLD: "world" } }
    : { DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" } };
  globalThis.CONFIG = {
    ...visibilityModes.config,
    Dice: {
      ...(visibilityModes.config.Dice ?? {}),
      fulfillment: { dice: { d4: {}, d6: {}, d8: {}, d10: {}, d12: {}, d20: {}, d100: {} }, methods: {}, defaultMethod: "" },
    },
  };
  settings.set("core.rollMode", "publicroll");
  settings.set("core.messageMode", "public");
  globalThis.game = {
    i18n: {
      lang,
      localize,
      format: (key, data = {}) => localize(key).replace(/\{(\w+)\}/g, (whole, name) => (name in data ? String(data[name]) : whole)),
    },
    // Foundry's game.modules is a Collection (a Map with more methods): get(id) is all we use.
    modules: new Map([["dragonroll", module]]),
    get user() {
      return current.user;
    },
    users: [GM, ...PLAYERS],
    settings: {
      register: (namespace, key, data) => {
        if (!["world", "client", "user"].includes(data.scope)) throw new Error(`${key}: no such scope ${data.scope}`);
        if (data.scope === "user" && generation !== "message") throw new Error(`${key}: no user scope before v13`);
        record.registered.push({ namespace, key, data });
        settings.set(`${namespace}.${key}`, structuredClone(data.default));
      },
      get: (namespace, key) => {
        const id = `${namespace}.${key}`;
        if (!settings.has(id)) throw new Error(`${id} is not a registered setting`);
        return structuredClone(settings.get(id));
      },
      set: async (namespace, key, value) => {
        const id = `${namespace}.${key}`;
        settings.set(id, structuredClone(value));
        const registered = record.registered.find((r) => `${r.namespace}.${r.key}` === id);
        registered?.data.onChange?.(value);
        return value;
      },
    },
  };
  globalThis.Roll = StandInRoll;
  globalThis.ChatMessage = {
    getSpeaker: () => ({ alias: current.user.name }),
    applyRollMode: visibilityModes.applyRollMode,
    create: async (data, options = {}) => {
      record.messages.push({ ...data, options });
      return data;
    },
  };
  if (!visibilityModes.applyRollMode) delete globalThis.ChatMessage.applyRollMode;
  globalThis.ui = {
    notifications: {
      error: (text) => record.errors.push(text),
      warn: (text) => record.warnings.push(text),
      info: (text) => record.infos.push(text),
    },
  };
  if (!realFetch) {
    globalThis.fetch = async (url, init) => {
      record.requests.push({ url, init });
      return record.respond(url, init);
    };
  }
  return {
    record,
    module,
    strings,
    settings,
    /** Becomes another user of the table (the same client's globals). */
    become: (next) => (current.user = next),
    users: { GM, PLAYERS },
    hooks,
  };
}

/** Foundry's ApplicationV2 as far as the dialog uses it (a browser page: a DOM is needed). */
export class StandInApplicationV2 {
  static DEFAULT_OPTIONS = {};

  constructor(options = {}) {
    this.options = { ...this.constructor.DEFAULT_OPTIONS, ...options };
    this.element = null;
  }

  async render({ force = false } = {}) {
    const document = globalThis.document;
    if (!this.element) {
      if (!force) return this;
      const { id, tag = "div", window: frame = {}, form } = this.options;
      const element = document.createElement(tag);
      element.id = id;
      element.className = "application";
      const header = document.createElement("header");
      header.className = "window-header";
      header.textContent = globalThis.game.i18n.localize(frame.title ?? "");
      const content = document.createElement("section");
      content.className = "window-content";
      element.append(header, content);
      if (tag === "form" && form?.handler) {
        element.addEventListener("submit", (event) => {
          event.preventDefault();
          form.handler.call(this, event, element, new FormData(element));
        });
      }
      document.body.append(element);
      this.element = element;
      globalThis.foundry.applications.instances.set(id, this);
    }
    const context = await this._prepareContext({});
    const result = await this._renderHTML(context, {});
    this._replaceHTML(result, this.element.querySelector(".window-content"), {});
    return this;
  }

  async close() {
    this.element?.remove();
    globalThis.foundry.applications.instances.delete(this.options.id);
    this.element = null;
  }
}

/** `foundry.applications` with ApplicationV2 (for the dialog's browser test). */
export function installApplications() {
  globalThis.foundry = { applications: { api: { ApplicationV2: StandInApplicationV2 }, instances: new Map() } };
}
