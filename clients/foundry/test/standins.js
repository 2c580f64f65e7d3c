// Stand-ins for the few Foundry VTT globals dragonroll.mjs touches: `game` (settings, modules, i18n),
// `Hooks`, `ChatMessage`, `Roll` and `ui`. They are NOT Foundry: each records what the module asked
// of it and answers the way Foundry's documented API does (settings.register/get, modules.get(id),
// i18n.lang/localize, Hooks.once/callAll, ChatMessage.create/getSpeaker, Roll.fromData,
// ui.notifications.error), so the tests can check what the module would do inside Foundry.
import { readFileSync } from "node:fs";

const LANG = (lang) => JSON.parse(readFileSync(new URL(`../lang/${lang}.json`, import.meta.url), "utf8"));

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
  globalThis.game = {
    i18n: { lang, localize: (key) => strings[key] ?? key },
    // Foundry's game.modules is a Collection (a Map with more methods): get(id) is all we use.
    modules: new Map([["dragonroll", module]]),
    settings: {
      register: (scope, key, data) => {
        record.registered.push({ scope, key, data });
        settings.set(`${scope}.${key}`, data.default);
      },
      get: (scope, key) => {
        const id = `${scope}.${key}`;
        if (!settings.has(id)) throw new Error(`${id} is not a registered setting`);
        return settings.get(id);
      },
      set: (scope, key, value) => settings.set(`${scope}.${key}`, value),
    },
  };
  globalThis.Roll = class Roll {
    static fromData(data) {
      if (data.class !== "Roll" || !data.evaluated) throw new Error("not an evaluated Roll");
      return Object.assign(new Roll(), { data, total: data.total, formula: data.formula });
    }
  };
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
