// Shared front-end module: a request's and an answer's things in words, in the reader's language
// (`texts` is i18n.js's translator). Used by form.js (labels) and card.js (the result).
//
//   nameOf(request, id)                 a combatant's, side's or entity's name as the request gave it
//                                       (`name` beside that `id`), else the id
//   formulaOf(body, slot)               the dice formula an answer gives a slot (`term.0`: "4d6kh3",
//                                       `damage.1`: "2d6"), or null: the slot's own record's
//                                       (ownFormula), else that of the record its index counts
//                                       in the answer's list (indexedFormula)
//   slotName(texts, slot, request, body)   a dice slot in words: its formula where the answer has one,
//                                       else each part the slot's name (`attack`), an entity's name
//                                       (`pool.dragon`: "Pool · the dragon"), a value in words, or a number
//   outcomeName(texts, request, outcome)   a simulated outcome (`dragon_won`, a side's id) in words
//   inWords(texts, key, value)          any value of an answer in words (yes/no, values, signed
//                                       percentages, lists), or null for what words cannot show
//   meanLengthLabel(texts, unit)        a simulation's mean length's row name, its unit in it

import { N_ } from "./i18n.js";

export function nameOf(request, id) {
  let found = null;
  const walk = (node) => {
    if (found || !node || typeof node !== "object") return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (node.id === id && typeof node.name === "string" && node.name) { found = node.name; return; }
    Object.values(node).forEach(walk);
  };
  walk(request);
  return found || String(id);
}

function formulaIn(node) {
  if (!node || typeof node !== "object") return null;
  if (typeof node.notation === "string") return node.notation;
  return typeof node.dice === "string" ? node.dice : null;
}

// The formula of the record whose `slot` is this one (a notation's term is its formula).
export function ownFormula(body, slot) {
  let found = null;
  const walk = (node) => {
    if (found || !node || typeof node !== "object") return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (node.slot === slot && formulaIn(node)) { found = formulaIn(node); return; }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return found;
}

// The formula of the n-th record of the answer's list that a slot `<name>.<n>` counts (`damage.1`).
export function indexedFormula(body, slot) {
  const parts = String(slot).split(".");
  const [name, index] = parts.slice(-2);
  const list = body && parts.length >= 2 && /^\d+$/.test(index) ? body[name] : null;
  return Array.isArray(list) ? formulaIn(list[Number(index)]) : null;
}

export function formulaOf(body, slot) {
  return ownFormula(body, slot) || indexedFormula(body, slot);
}

export function slotName(texts, slot, request, body) {
  const parts = String(slot).split(".");
  const shown = (formula) => (texts.dir === "rtl" ? texts.ltr(formula) : formula);
  const own = body ? ownFormula(body, slot) : null;
  if (own) return shown(own);
  const indexed = body ? indexedFormula(body, slot) : null;
  const words = parts.map((part) => {
    if (/^\d+$/.test(part)) return part;
    const named = texts.inContext("slot", part);
    if (named) return named;
    const name = nameOf(request || {}, part);
    return name !== part ? name : texts.inContext("value", part) || part;
  });
  if (indexed) words[words.length - 1] = shown(indexed);
  return words.join(" · ");
}

// The words of simulated outcomes that are not sides' names.
const OUTCOME_WORDS = {
  draw: N_("a draw"),
  dragon_won: N_("the dragon wins"),
  dragon_defeated: N_("the dragon is defeated"),
  not_won: N_("nobody wins yet"),
  initiator: N_("the initiator wins"),
  defender: N_("the defender wins"),
  unfinished: N_("unfinished"),
};

export function outcomeName(texts, request, outcome) {
  return OUTCOME_WORDS[outcome] ? texts.t(OUTCOME_WORDS[outcome]) : nameOf(request, outcome);
}

// A simulation's mean length, its unit in the row's name (a number then needs no agreeing noun).
const MEAN_LENGTH = {
  turns: N_("Mean length, in turns"),
  rounds: N_("Mean length, in rounds"),
  decisions: N_("Mean length, in decisions"),
};

export function meanLengthLabel(texts, unit) {
  return MEAN_LENGTH[unit] ? texts.t(MEAN_LENGTH[unit]) : texts.field("mean_length");
}

export function inWords(texts, key, value) {
  const { t } = texts;
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value === "number") {
    if (/percent/.test(key)) return texts.withSign(texts.signed(value));
    if (key === "margin") return texts.signed(value);
    return texts.number(value);
  }
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return texts.list(value.map((v) => inWords(texts, key, v)));
    if (value.every((v) => v && typeof v === "object" && "id" in v)) return texts.list(value.map((v) => v.id));
    return null;
  }
  if (typeof value === "object") {
    const parts = [];
    if (value.roll && typeof value.roll === "object" && "result" in value.roll) parts.push(`${texts.field("result")}: ${texts.number(value.roll.result)}`);
    for (const [k, v] of Object.entries(value)) {
      if (k === "slot" || v === null) continue; // the dice show the slot; an absent value says nothing
      if (typeof v !== "object") parts.push(`${texts.field(k)}: ${inWords(texts, k, v)}`);
    }
    return parts.length ? parts.join(" · ") : null;
  }
  return texts.value(value);
}
