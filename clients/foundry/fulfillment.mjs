// dragonroll as the table's dice (docs/foundry.md, "The table's dice"): a Dice Fulfillment method,
// `CONFIG.Dice.fulfillment.methods.dragonroll` (v12 onwards), whose handler gives every die of a
// Foundry roll from the service's seeded stream (`POST /dice/draw`), so every roll of the world, of
// any game system, is replayable from its seed and checkable by anyone with the stream's
// specification (docs/dice.md, rng-vectors.json).
//
// The documented shape (the same on the v12, v13 and v14 API pages):
// - `CONFIG.Dice.fulfillment`: `{dice, methods, defaultMethod}`
//   (https://foundryvtt.com/api/v14/interfaces/CONFIG.DiceFulfillmentConfiguration.html);
// - a method: `{label, icon?, interactive?, handler?, resolver?}`
//   (https://foundryvtt.com/api/v14/interfaces/CONFIG.DiceFulfillmentMethod.html);
// - its handler: `(term: DiceTerm, options?) => number | void | Promise<number | void>`, one die of
//   the term each call; nothing (void) leaves the die to Foundry's own `randomUniform`
//   (https://foundryvtt.com/api/v14/types/CONFIG.DiceFulfillmentHandler.html).
//
// A slot per term: `<user id>.<n>`, n counting the terms this user rolled under this seed (kept in
// a setting of the user's), so no two terms of the world share a stream and none is chosen after the
// fact. The term records what it was drawn from in its own options (`options.dragonroll: {seed, rng,
// slot, rules_version}`), which Foundry keeps with the roll (RollTermData.options,
// https://foundryvtt.com/api/v14/interfaces/foundry.dice.terms.RollTermData.html): the chat message
// of the roll carries everything a player needs to check it. Nothing here touches a Foundry global.

export const METHOD = "dragonroll";
/** The stream every value comes from (docs/dice.md). */
export const RNG = "sha256-v1";
/** What one draw of `POST /dice/draw` may ask: 100 dice, from die 900 at most (its schema). */
const MAX_COUNT = 100;
const MAX_START = 900;

/** The method as `CONFIG.Dice.fulfillment.methods.dragonroll` takes it (the label a lang key). */
export function fulfillmentMethod(handler) {
  return { label: "DRAGONROLL.Fulfillment.Label", icon: "fa-solid fa-dragon", interactive: false, handler };
}

/** A term dragonroll fills: a plain die (`Die`, denomination `d`) of 2..2^32-1 faces. */
export function isPlainDie(term) {
  const faces = term?.faces;
  return term?.constructor?.DENOMINATION === "d" && Number.isInteger(faces) && faces >= 2 && faces <= 2 ** 32 - 1;
}

/** A slot of the stream for a user's n-th term: `<user id>.<n>` (only the characters a slot takes). */
export function slotOf(userId, n) {
  const user = String(userId ?? "").replace(/[^A-Za-z0-9_-]/g, "_") || "user";
  return `${user}.${n}`;
}

/**
 * The table's dice for one client. `env`:
 * - `draw(body)`: `POST /dice/draw` with `body` (`{seed?, draws}`), the answer (rejects on failure);
 * - `seed()`: the session seed (the world's setting; empty: the service makes one for the term);
 * - `user()`: this user's id;
 * - `next(seed)`: the number of this user's next term under `seed` (and counts it);
 * - `warn(error)`: tells the user a die was left to Foundry (no answer, a refusal).
 */
export class TableDice {
  #env;
  #terms = new WeakMap();

  constructor(env) {
    this.#env = env;
  }

  /** The handler: the value of the term's next die, or nothing (Foundry rolls it itself). */
  async fulfil(term, options = {}) {
    if (options?.minimize || options?.maximize || !isPlainDie(term)) return undefined;
    let state = this.#terms.get(term);
    if (!state) {
      state = this.#open(term);
      this.#terms.set(term, state);
    }
    if (state.failed) return undefined;
    const index = state.next++;
    try {
      while (state.values.length <= index) {
        state.pending ??= this.#more(term, state).finally(() => (state.pending = null));
        await state.pending;
      }
    } catch (error) {
      // The term is left to Foundry from here on, and claims no stream: a roll that is partly
      // dragonroll's is not dragonroll's.
      state.failed = true;
      if (term.options?.dragonroll) delete term.options.dragonroll;
      this.#env.warn(error);
      return undefined;
    }
    return state.values[index];
  }

  #open(term) {
    const seed = String(this.#env.seed() ?? "").trim();
    return { seed, slot: slotOf(this.#env.user(), this.#env.next(seed)), sides: term.faces, values: [], next: 0, pending: null, failed: false };
  }

  /** The term's next dice: its whole pool first (one request), then as many again for its rerolls
   * and explosions. */
  async #more(term, state) {
    const start = state.values.length;
    const count = Math.min(MAX_COUNT, Math.max(1, Number(term.number) || 1));
    if (start > MAX_START) throw new Error(`a term of more than ${MAX_START + MAX_COUNT} dice`);
    const draw = { slot: state.slot, sides: state.sides, count, start };
    const answer = await this.#env.draw(state.seed ? { seed: state.seed, draws: [draw] } : { draws: [draw] });
    const [drawn] = answer.draws;
    state.seed = String(answer.seed);
    state.values.push(...drawn.values);
    term.options ??= {};
    term.options.dragonroll = { seed: answer.seed, rng: answer.rng, slot: state.slot, rules_version: answer.rules_version };
  }
}

/** The terms of a roll's data (`Roll#toJSON`) dragonroll filled, its parenthetical rolls' too. */
export function claimedTerms(rollData) {
  const found = [];
  const walk = (terms) => {
    for (const term of terms ?? []) {
      if (term?.options?.dragonroll?.slot && Array.isArray(term.results)) found.push(term);
      if (term?.roll?.terms) walk(term.roll.terms);
      if (Array.isArray(term?.rolls)) for (const roll of term.rolls) walk(roll?.terms);
    }
  };
  walk(rollData?.terms);
  return found;
}

/** SHA-256 of `data` (a Uint8Array), an ArrayBuffer: the browser's and node's Web Crypto. */
export function webDigest(data) {
  return globalThis.crypto.subtle.digest("SHA-256", data);
}

/**
 * The first `count` dice of `sides` sides of a slot's stream, computed here from the specification
 * (docs/dice.md, sha256-v1): block i = SHA-256(seed 0x1F slot 0x1F i as 8 bytes big-endian), each
 * block eight 32-bit big-endian words in order; a die takes the next word w, discards it when
 * w >= 2^32 - (2^32 mod sides), else shows 1 + (w mod sides). `digest` is SHA-256 (`webDigest`:
 * Web Crypto, which a browser offers on an https:// or localhost page).
 */
export async function streamValues(seed, slot, sides, count, digest = webDigest) {
  const prefix = new TextEncoder().encode(`${seed}\x1f${slot}\x1f`);
  const limit = 2 ** 32 - (2 ** 32 % sides);
  const out = [];
  for (let block = 0; out.length < count; block += 1) {
    const data = new Uint8Array(prefix.length + 8);
    data.set(prefix);
    new DataView(data.buffer).setBigUint64(prefix.length, BigInt(block));
    const words = new DataView(await digest(data));
    for (let i = 0; i < 8 && out.length < count; i += 1) {
      const w = words.getUint32(4 * i);
      if (w < limit) out.push(1 + (w % sides));
    }
  }
  return out;
}

/**
 * Checks the dice of rolls (each `Roll#toJSON`) against the streams they claim, one entry per
 * claimed term: `{seed, slot, sides, shown, expected, ok}`. Computed here from the specification
 * (`streamValues`) where the page has Web Crypto, else asked of the service (`draw(body)`, one
 * `POST /dice/draw` per seed for all its terms).
 */
export async function verifyRolls(rolls, draw, digest = globalThis.crypto?.subtle ? webDigest : null) {
  const terms = rolls.flatMap(claimedTerms);
  const expected = new Map();
  const key = (seed, slot, sides) => `${seed}\u0000${slot}\u0000${sides}`;
  if (digest) {
    for (const t of terms) {
      const { seed, slot } = t.options.dragonroll;
      expected.set(key(seed, slot, t.faces), await streamValues(seed, slot, t.faces, t.results.length, digest));
    }
  } else {
    const bySeed = new Map();
    for (const t of terms) {
      const { seed, slot } = t.options.dragonroll;
      if (!bySeed.has(seed)) bySeed.set(seed, new Map());
      bySeed.get(seed).set(slot, { slot, sides: t.faces, start: 0, count: Math.max(1, Math.min(MAX_COUNT, t.results.length)) });
    }
    for (const [seed, draws] of bySeed) {
      const answer = await draw({ seed, draws: [...draws.values()] });
      for (const d of answer.draws) expected.set(key(seed, d.slot, d.sides), d.values);
    }
  }
  return terms.map((t) => {
    const { seed, slot } = t.options.dragonroll;
    const shown = t.results.map((r) => r.result);
    const values = (expected.get(key(seed, slot, t.faces)) ?? []).slice(0, shown.length);
    const ok = values.length === shown.length && shown.every((v, i) => v === values[i]);
    return { seed, slot, sides: t.faces, shown, expected: values, ok };
  });
}
