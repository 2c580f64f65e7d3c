// Shared front-end module: what changed at the table, read from an answer beside its request, in
// the reader's language: each participant's hit points (before -> after, of their maximum), their
// conditions (out of the fight, unconscious, dead ...), the counts a game tracks (prosperity,
// wounds, fatigue, rage, death saves) where they changed, and who is out (defeated, surprised,
// riders lost). The answer's shapes are the systems' own words (`hp`, `max_hp`, `prosperity` ...),
// so a new system that uses them is summed up too.
//
//   changes(texts, body, request) -> [{who, what: [text, ...]}], one per participant, in the
//       answer's order; texts is i18n.js's translator

import { N_ } from "./i18n.js";
import { nameOf } from "./words.js";

// Counts compared with the request: shown where they changed.
const TRACKED = ["temp_hp", "prosperity", "wounds", "fatigue", "rage"];
// A creature's death saves, kept beside its hit points.
const SAVES = ["successes", "failures", "death_save_failures"];
// Conditions, by the answer's flag, as a GM says them.
const CONDITIONS = {
  dead: N_("dead"),
  unconscious: N_("unconscious"),
  incapacitated: N_("out of the fight"),
  critical: N_("critically wounded"),
  beaten: N_("beaten"),
  stable: N_("stable"),
  massive_damage: N_("killed outright by massive damage"),
  running: N_("running"),
  stopped: N_("stopped"),
};
// Lists of who is out (or cannot act), anywhere in the answer.
const OUT = {
  defeated: N_("Defeated"),
  surprised: N_("Surprised"),
  riders_lost: N_("Riders lost"),
};

const isRecord = (node) => node && typeof node === "object" && !Array.isArray(node);

// The request's record that an answer's record is: the one with its id, else the one at its path.
function counterpart(request, record, path) {
  if (typeof record.id === "string") {
    let found = null;
    const walk = (node) => {
      if (found || !node || typeof node !== "object") return;
      if (Array.isArray(node)) { node.forEach(walk); return; }
      if (node.id === record.id) { found = node; return; }
      Object.values(node).forEach(walk);
    };
    walk(request);
    if (found) return found;
  }
  // At its path, or below the answer's wrapper (`state.initiator`, `next_state.dragon`).
  for (let start = 0; start < path.length || start === 0; start++) {
    let node = request;
    for (const key of path.slice(start)) node = node && typeof node === "object" ? node[key] : undefined;
    if (isRecord(node)) return node;
    if (start >= path.length - 1) break;
  }
  return {};
}

// A participant: a record with an id, a name (null when none was given) or hit points.
const isParticipant = (node) => "id" in node || "name" in node || "hp" in node;

function hitPoints(texts, record, before) {
  const what = texts.field("hp");
  const max = record.max_hp ?? before.max_hp;
  const was = typeof before.hp === "number" && before.hp !== record.hp ? before.hp : null;
  const now = was === null ? texts.number(record.hp) : texts.t("{before} → {after}", { before: was, after: record.hp });
  return typeof max === "number"
    ? texts.t("{what}: {value} of {max}", { what, value: now, max })
    : texts.t("{what}: {value}", { what, value: now });
}

function recordChanges(texts, record, before) {
  const what = [];
  if (typeof record.hp === "number") what.push(hitPoints(texts, record, before));
  for (const key of TRACKED) {
    const after = record[key];
    const was = typeof before[key] === "number" ? before[key] : 0;
    if (typeof after === "number" && after !== was) what.push(texts.t("{what}: {before} → {after}", { what: texts.field(key), before: was, after }));
  }
  if (typeof record.hp === "number") {
    for (const key of SAVES) {
      const after = record[key];
      if (typeof after === "number" && (after !== (before[key] ?? 0))) what.push(texts.t("{what}: {value}", { what: texts.field(key), value: after }));
    }
  }
  for (const [flag, words] of Object.entries(CONDITIONS)) if (record[flag] === true) what.push(texts.t(words));
  return what;
}

function whoIs(texts, record, before, path, request) {
  const own = record.name || before.name;
  if (typeof own === "string" && own) return own;
  if (typeof record.id === "string") return nameOf(request, record.id);
  const key = [...path].reverse().find((k) => typeof k === "string");
  return key ? texts.field(key) : typeof request.name === "string" && request.name ? request.name : texts.t("The character");
}

// Each id of a list of who is out: strings, or records with an id.
function outOf(list, request) {
  return list.map((x) => (typeof x === "string" ? x : isRecord(x) && typeof x.id === "string" ? x.id : null))
    .filter((id) => id !== null).map((id) => nameOf(request, id));
}

export function changes(texts, body, request = {}) {
  const rows = new Map();
  const out = new Map();
  const add = (who, what) => {
    if (!what.length) return;
    const row = rows.get(who) || { who, what: [] };
    for (const text of what) if (!row.what.includes(text)) row.what.push(text);
    rows.set(who, row);
  };
  const walk = (node, path) => {
    if (Array.isArray(node)) { node.forEach((item, i) => walk(item, path.concat(i))); return; }
    if (!isRecord(node)) return;
    if (isParticipant(node)) {
      const before = counterpart(request, node, path);
      add(whoIs(texts, node, before, path, request), recordChanges(texts, node, before));
    }
    for (const [key, value] of Object.entries(node)) {
      if (OUT[key] && Array.isArray(value)) for (const name of outOf(value, request)) out.set(name, (out.get(name) || new Set()).add(key));
      else if (key !== "events" && key !== "rolls") walk(value, path.concat(key));
    }
  };
  walk(body, []);
  for (const key of Object.keys(OUT)) {
    const names = [...out].filter(([, keys]) => keys.has(key)).map(([name]) => name);
    if (names.length) add(texts.t(OUT[key]), [texts.list(names)]);
  }
  return [...rows.values()];
}
