// Stand-ins for the few Foundry VTT globals dragonroll.mjs touches: `game` (settings, modules, i18n),
// `Hooks`, `ChatMessage`, `Roll` and `ui`. They are NOT Foundry: each records what the module asked
// of it and answers the way Foundry's public API documentation says it does (settings.register/get
// with their scopes, modules.get(id), i18n.lang/localize/format, Hooks.once/callAll,
// ChatMessage.create/getSpeaker, Roll.fromData and Roll#render, ui.notifications.error), so the
// tests can check what the module would do inside Foundry.
import { readFileSync } from "node:fs";

const LANG = (lang) => JSON.parse(readFileSync(new URL(`../lang/${lang}.json`, import.meta.url), "utf8"));
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The term classes the stand-in knows (of CONFIG.Dice.termTypes, the ones it can add up). */
const TERMS = new Set(["Die", "OperatorTerm", "NumericTerm"]);
/** Die modifiers as Foundry writes them: keep highest/lowest, count successes over a number. */
const MODIFIER = /^(kh|kl|cs>\d+)$/;

const refuse = (why, data) => {
  throw new Error(`Roll.fromData refused: ${why} (${JSON.stringify(data).slice(0, 160)})`);
};
const isInt = (n) => Number.isInteger(n);

/** A term's expression as Foundry writes it: `5d10`, `2d20kh`, `3d6cs>4`, `+`, `44`. */
function expression(term) {
  if (term.class === "Die") return `${term.number}d${term.faces}${term.modifiers.join("")}`;
  if (term.class === "OperatorTerm") return term.operator;
  return String(term.number);
}

/** A Die's value: its active results, each by `count` when it has one (successes), else its face. */
function dieValue(term) {
  return term.results.filter((r) => r.active).reduce((sum, r) => sum + (r.count ?? r.result), 0);
}

function checkTerm(term) {
  if (!term || typeof term !== "object") refuse("a term is not an object", term);
  if (!TERMS.has(term.class)) refuse(`unknown term class ${term.class}`, term);
  if (term.evaluated !== true) refuse("a term is not evaluated", term);
  if (term.class === "OperatorTerm" && !["+", "-"].includes(term.operator)) refuse("an unknown operator", term);
  if (term.class === "NumericTerm" && !Number.isFinite(term.number)) refuse("a number that is none", term);
  if (term.class !== "Die") return;
  if (!isInt(term.number) || term.number < 0 || !isInt(term.faces) || term.faces < 1) refuse("a Die's number or faces", term);
  if (!Array.isArray(term.modifiers) || !term.modifiers.every((m) => MODIFIER.test(m))) refuse("a Die's modifiers", term);
  if (!Array.isArray(term.results) || term.results.length < term.number) refuse("a Die with fewer results than dice", term);
  for (const r of term.results) {
    if (!isInt(r.result) || r.result < 1 || r.result > term.faces) refuse(`a result off a d${term.faces}`, term);
    if (typeof r.active !== "boolean") refuse("a result neither active nor not", term);
    if (r.count !== undefined && !isInt(r.count)) refuse("a count that is no integer", term);
  }
  for (const modifier of term.modifiers) {
    const active = term.results.filter((r) => r.active).map((r) => r.result);
    if (modifier === "kh" || modifier === "kl") {
      const all = term.results.map((r) => r.result);
      const keep = modifier === "kh" ? Math.max(...all) : Math.min(...all);
      if (active.length !== 1 || active[0] !== keep) refuse(`${modifier} keeps another die`, term);
    } else {
      const bar = Number(modifier.slice(3));
      for (const r of term.results.filter((x) => x.active)) {
        if (r.count !== (r.result > bar ? 1 : 0)) refuse(`${modifier} counts a die wrong`, term);
      }
    }
  }
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
    if (!data || data.class !== "Roll" || data.evaluated !== true) refuse("not an evaluated Roll", data);
    if (!Array.isArray(data.terms) || !data.terms.length) refuse("no terms", data);
    data.terms.forEach(checkTerm);
    if (!data.terms.some((t) => t.class === "Die")) refuse("no dice terms", data);
    data.terms.forEach((term, i) => {
      if ((term.class === "OperatorTerm") !== (i % 2 === 1)) refuse("terms that do not alternate with operators", data);
    });
    if (data.terms.length % 2 === 0) refuse("a formula ending in an operator", data);
    const formula = data.terms.map(expression).join(" ");
    if (data.formula !== formula) refuse(`the formula ${data.formula} is not its terms' ${formula}`, data);
    let total = 0;
    let sign = 1;
    for (const term of data.terms) {
      if (term.class === "OperatorTerm") sign = term.operator === "+" ? 1 : -1;
      else total += sign * (term.class === "Die" ? dieValue(term) : term.number);
    }
    if (data.total !== total) refuse(`the total ${data.total} is not its terms' ${total}`, data);
    const roll = new StandInRoll();
    Object.assign(roll, { terms: data.terms, formula, total, options: data.options ?? {}, _evaluated: true });
    return roll;
  }

  get dice() {
    return this.terms.filter((t) => t.class === "Die");
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

/** Installs the stand-ins on globalThis; `record` holds what the module did, and `record.respond`
 * (url, init) -> Response answers its fetches (the network stand-in). */
export function installStandIns({ lang = "en" } = {}) {
  const hooks = new Map();
  const settings = new Map();
  const strings = LANG(lang);
  const record = { registered: [], messages: [], errors: [], requests: [], respond: null };
  const module = { id: "dragonroll", active: true };
  globalThis.Hooks = {
    once: (name, fn) => hooks.set(name, [...(hooks.get(name) ?? []), fn]),
    callAll: (name, ...args) => {
      for (const fn of hooks.get(name) ?? []) fn(...args);
      hooks.delete(name);
    },
  };
  const localize = (key) => strings[key] ?? key;
  globalThis.game = {
    i18n: {
      lang,
      localize,
      format: (key, data = {}) => localize(key).replace(/\{(\w+)\}/g, (whole, name) => (name in data ? String(data[name]) : whole)),
    },
    // Foundry's game.modules is a Collection (a Map with more methods): get(id) is all we use.
    modules: new Map([["dragonroll", module]]),
    settings: {
      register: (namespace, key, data) => {
        if (!["world", "client", "user"].includes(data.scope)) throw new Error(`${key}: no such scope ${data.scope}`);
        record.registered.push({ namespace, key, data });
        settings.set(`${namespace}.${key}`, data.default);
      },
      get: (namespace, key) => {
        const id = `${namespace}.${key}`;
        if (!settings.has(id)) throw new Error(`${id} is not a registered setting`);
        return settings.get(id);
      },
      set: (namespace, key, value) => settings.set(`${namespace}.${key}`, value),
    },
  };
  globalThis.Roll = StandInRoll;
  globalThis.ChatMessage = {
    getSpeaker: () => ({ alias: "Gamemaster" }),
    create: async (data) => {
      record.messages.push(data);
      return data;
    },
  };
  globalThis.ui = { notifications: { error: (text) => record.errors.push(text) } };
  globalThis.fetch = async (url, init) => {
    record.requests.push({ url, init });
    return record.respond(url, init);
  };
  return { record, module, strings };
}
