// Shared front-end module: an answer of the service drawn as a card, in the reader's language: first
// what a GM needs (the outcome in one line, then what changed: hit points, conditions, who is out),
// a simulation's win rates, the dice as dice (scripted, cancelled, exploded, extra, dropped and
// rerolled ones told apart), the events as the service told them (with their lang and dir), the seed
// and the host's buttons, and the rest of the answer folded (in words, then as JSON). A refusal
// (problem+json) is shown one language per line. The odds are odds.js's (re-exported here).
//
//   renderAnswer(container, answer, options)    draw an answer into `container` (its children replaced)
//       answer   {status, ok, body, request, language}: service.js's send() gives it (`language` the
//                answer's Content-Language)
//       options  {document, texts, outcome, actions}
//                document: the host's; texts: i18n.js's translator (the page's language);
//                outcome: the endpoint's outcome event codes (GET /systems), told in the first line;
//                actions: [{text, onClick, id, class}] buttons beside the seed (Replay, Roll again)
//   renderProblem(container, answer, options)   a refusal alone (renderAnswer calls it for !answer.ok)
//   oddsView, barChart                          from odds.js
// The card's parts, for a host that shows an answer its own way (the Owlbear popover's log):
//   outcomeText(events, codes)                  the outcome in one line: the texts of the events whose
//                                               codes are the endpoint's outcome, else the last event's
//   outcomeSentence(document, text, lang)       that line as the card's first paragraph
//   diceOf(body)                                what of an answer diceView reads, small and of the
//                                               answer's shape: diceView draws it as it draws the answer
//   diceView(document, texts, body, request, {scripted})   the dice as dice, a group per slot;
//                                               `scripted`: the words of a die the request scripted
//                                               (default "scripted by you"; the popover's Dice+ dice)
//   eventsView(document, events, lang)          the events' texts, a list in their language and direction
//
// The card's elements carry classes (`.sentence`, `.changes`, `.dice .die.dropped`, `.narration`,
// `.seed`, `.words`), never ids, so a page may show several; shared/card.css styles them.

import { builder } from "./dom.js";
import { changes } from "./summary.js";
import { indexedFormula, inWords, meanLengthLabel, outcomeName, ownFormula, slotName } from "./words.js";

export { barChart, oddsView } from "./odds.js";

const ENVELOPE = new Set(["seed", "rng", "rules_version", "rolls", "unused_dice", "events", "foundry"]);
const rtl = (lang) => String(lang || "").split("-")[0] === "ar";

export function renderAnswer(container, answer, options) {
  if (!answer.ok) { renderProblem(container, answer, options); return; }
  const { document, texts } = options;
  const el = builder(document);
  const { t } = texts;
  const body = answer.body;
  const simulation = Array.isArray(body.outcomes) && body.outcomes.every((o) => "rate" in o && "ci95" in o);
  const events = body.events || [];
  const rows = simulation ? [] : changes(texts, body, answer.request || {});
  container.classList.add("dr-card");
  container.replaceChildren(...[
    outcomeLine(document, texts, answer, options.outcome || [], simulation),
    rows.length ? changesList(el, texts, rows) : null,
    simulation ? simulationView(el, texts, body, answer.request || {}) : null,
    simulation ? null : el("h3", { text: t("Dice") }),
    simulation ? null : diceView(document, texts, body, answer.request || {}),
    events.length ? el("h3", { text: t("What happened") }) : null,
    events.length ? eventsView(document, events, answer.language) : null,
    seedRow(el, texts, body, options.actions || []),
    el("details", { class: "rest" }, el("summary", { text: t("The whole answer") }),
      wordsTable(el, texts, body),
      el("details", {}, el("summary", { text: t("As JSON") }), el("pre", { dir: "ltr", lang: "en", text: JSON.stringify(body, null, 2) }))),
  ].filter(Boolean));
}

// A refusal, one language per line: the page's own words, then the problem's title, detail and each
// field's message in the language the service wrote each in (the problem's `lang` for its title,
// `detail_lang` for its detail, each error's `lang`; else the answer's Content-Language, else
// English), each on its own line with that `lang` and its direction.
export function renderProblem(container, answer, { document, texts }) {
  const el = builder(document);
  const body = answer.body || {};
  const lang = typeof body.lang === "string" ? body.lang : answer.language || "en";
  const detailLang = typeof body.detail_lang === "string" ? body.detail_lang : lang;
  const line = (cls, text, language) => el("p", { class: cls, lang: language, dir: rtl(language) ? "rtl" : "ltr", text });
  container.classList.add("dr-card");
  const errors = (Array.isArray(body.errors) ? body.errors : []).map((e) => {
    const own = typeof e.lang === "string" ? e.lang : lang;
    return el("li", {}, el("code", { dir: "ltr", lang: "en", text: (e.loc || []).join(".") }), " ",
      el("span", { lang: own, dir: rtl(own) ? "rtl" : "ltr", text: e.msg }));
  });
  container.replaceChildren(...[
    el("p", { class: "status bad", text: texts.t("Refused ({status})", { status: answer.status }) }),
    body.title ? line("problem-title", body.title, lang) : null,
    body.detail ? line("problem-detail", body.detail, detailLang) : null,
    errors.length ? el("ul", { class: "problem-errors" }, errors) : null,
  ].filter(Boolean));
}

export function outcomeText(events, codes) {
  const wanted = new Set(codes || []);
  const said = (events || []).filter((e) => typeof e.text === "string");
  const told = said.filter((e) => wanted.has(e.code));
  if (told.length) return told.map((e) => e.text).join(" ");
  return said.length ? said[said.length - 1].text : "";
}

export function outcomeSentence(document, text, lang) {
  return builder(document)("p", { class: "status ok sentence", lang, dir: rtl(lang) ? "rtl" : "ltr", text });
}

// The outcome in one line: the answer's events whose codes are the endpoint's outcome, in the
// answer's language; a simulation's likeliest ending; else the last event's text.
function outcomeLine(document, texts, answer, codes, simulation) {
  const b = answer.body;
  const events = b.events || [];
  const line = (text, lang) => outcomeSentence(document, text, lang);
  if (events.some((e) => codes.includes(e.code))) return line(outcomeText(events, codes), answer.language);
  if (simulation && b.outcomes.length) {
    const top = b.outcomes.reduce((x, y) => (y.rate > x.rate ? y : x));
    return line(texts.nt("Over {count} run the likeliest outcome: {outcome}, {rate}.", "Over {count} runs the likeliest outcome: {outcome}, {rate}.", b.runs, {
      outcome: outcomeName(texts, answer.request || {}, top.outcome), rate: texts.percent(top.rate),
    }), texts.lang);
  }
  if (events.length) return line(outcomeText(events, codes), answer.language);
  return line(texts.t("Resolved."), texts.lang);
}

function changesList(el, texts, rows) {
  return el("dl", { class: "changes", "aria-label": texts.t("What changed") },
    rows.map((row) => [el("dt", { text: row.who }), el("dd", { text: row.what.join(" · ") })]));
}

function seedRow(el, texts, body, actions) {
  return el("div", { class: "seed-row" },
    el("span", { text: texts.t("Seed:") }), el("code", { class: "seed", dir: "ltr", text: String(body.seed) }),
    actions.map((a) => el("button", { type: "button", id: a.id, class: a.class, text: a.text, onclick: a.onClick })));
}

function wordsTable(el, texts, body) {
  const rows = [];
  for (const [key, value] of Object.entries(body)) {
    if (ENVELOPE.has(key) || key === "outcomes" || key === "examples" || key === "length_unit") continue;
    const text = inWords(texts, key, value);
    if (text === null || text === "") continue;
    const label = key === "mean_length" ? meanLengthLabel(texts, body.length_unit) : texts.field(key);
    rows.push(el("tr", {}, el("th", { scope: "row", text: label }), el("td", { text })));
  }
  return el("table", { class: "words" }, el("tbody", {}, rows));
}

// A simulation's win rates, each with its 95% interval, as bars (HTML, so they mirror in Arabic).
function simulationView(el, texts, body, request) {
  const { t, percent } = texts;
  const rows = body.outcomes.map((o) => {
    const [lo, hi] = o.ci95;
    const value = t("{rate} (95% interval {low}–{high})", { rate: percent(o.rate), low: percent(lo), high: percent(hi) });
    const bar = el("span", { class: "rate" });
    bar.style.inlineSize = `${100 * o.rate}%`;
    const ci = el("span", { class: "ci" });
    ci.style.insetInlineStart = `${100 * lo}%`;
    ci.style.inlineSize = `${Math.max(100 * (hi - lo), 0.5)}%`;
    return el("div", { class: "win-row", role: "listitem" },
      el("span", { class: "win-label", text: outcomeName(texts, request, o.outcome) }),
      el("span", { class: "track", "aria-hidden": "true" }, bar, ci),
      el("span", { class: "win-value", text: value, title: texts.nt("{wins} of {count} run", "{wins} of {count} runs", body.runs, { wins: o.runs }) }));
  });
  return el("figure", { class: "win-rates" },
    el("div", { role: "list", "aria-label": t("Win rates") }, rows),
    el("figcaption", { class: "help", text: texts.nt("Win rates over {count} run; the thin bar is the 95% interval.", "Win rates over {count} runs; the thin bar is the 95% interval.", body.runs) }));
}

// ------------------------------------------------------------------ the dice
// Each die's fate where the answer gives one: a DoS pool's {slot, dice: [{value, cancelled, extra}]}
// or a notation term's {slot, dice: [{value, status, exploded}]}, by slot.
function fatesBySlot(body) {
  const fates = new Map();
  const walk = (node) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== "object") return;
    const dice = node.dice;
    if (typeof node.slot === "string" && Array.isArray(dice) && dice.length > 0 &&
        dice.every((d) => d && typeof d === "object" && ("cancelled" in d || "status" in d))) {
      fates.set(node.slot, dice);
    }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return fates;
}

// 5e rolls with advantage or disadvantage carry {d20s: [a, b], natural}: the other die is dropped.
function droppedD20s(body) {
  const pairs = [];
  const walk = (node) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node.d20s) && node.d20s.length === 2 && typeof node.natural === "number") {
      pairs.push({ values: node.d20s, dropped: node.d20s[0] === node.natural ? 1 : 0 });
    }
    Object.values(node).forEach(walk);
  };
  walk(body);
  return pairs;
}

// What of an answer diceView reads, as a small answer of the same shape: its rolls, a record per
// slot with its own formula and its dice's fates, the formula a slot's index counts in a list
// (`damage.1`: `damage[1]`), and the pairs of d20s of an advantage.
const FATE = ["value", "cancelled", "extra", "status", "exploded"];

export function diceOf(body) {
  const rolls = body.rolls || [];
  const fates = fatesBySlot(body);
  const pairs = droppedD20s(body).map(({ values, dropped }) => ({ d20s: values, natural: values[1 - dropped] }));
  const out = { rolls, slots: [], pairs };
  for (const slot of new Set(rolls.map((r) => r.slot))) {
    const own = ownFormula(body, slot);
    const dice = (fates.get(slot) || []).map((d) => Object.fromEntries(FATE.filter((k) => k in d).map((k) => [k, d[k]])));
    if (own || dice.length) out.slots.push({ slot, ...(own ? { notation: own } : {}), ...(dice.length ? { dice } : {}) });
    // A formula counted by the slot's index stays where indexedFormula reads it: out[name][index].
    const indexed = indexedFormula(body, slot);
    const [name, index] = String(slot).split(".").slice(-2);
    if (indexed && !["rolls", "slots", "pairs"].includes(name)) {
      out[name] = out[name] || [];
      out[name][Number(index)] = { notation: indexed };
    }
  }
  return out;
}

function markDropped(group, pairs) {
  const marks = new Array(group.length).fill(false);
  for (const pair of pairs) {
    for (let i = 0; i + 1 < group.length; i++) {
      if (group[i].sides === 20 && group[i].value === pair.values[0] && group[i + 1].value === pair.values[1] && !marks[i] && !marks[i + 1]) {
        marks[i + pair.dropped] = true;
        pair.used = true;
        break;
      }
    }
  }
  return marks;
}

export function diceView(document, texts, body, request, { scripted = texts.t("scripted by you") } = {}) {
  const el = builder(document);
  const rolls = body.rolls || [];
  if (!rolls.length) return el("p", { class: "help", text: texts.t("No dice were needed.") });
  const fates = fatesBySlot(body);
  const pairs = droppedD20s(body);
  const groups = new Map();
  for (const roll of rolls) {
    if (!groups.has(roll.slot)) groups.set(roll.slot, []);
    groups.get(roll.slot).push(roll);
  }
  const box = el("div", { class: "dice-groups" });
  for (const [slot, group] of groups) {
    const fate = fates.get(slot) || [];
    const dropped = markDropped(group, pairs.filter((p) => !p.used));
    const name = slotName(texts, slot, request, body);
    box.append(el("div", { class: "dice-group" },
      el("h4", { text: name, title: slot }),
      el("ul", { class: "dice", "aria-label": texts.t("dice of {slot}", { slot: name }) }, group.map((roll, i) => die(el, texts, roll, fate[i], dropped[i], scripted)))));
  }
  return box;
}

// A die's statuses: [class, words] for each that holds.
function statuses(texts, roll, fate, dropped, scripted) {
  const { t } = texts;
  const out = [];
  if (roll.source === "dice") out.push(["scripted", scripted]);
  const status = fate && fate.status;
  if (dropped || status === "dropped") out.push(["dropped", t("dropped")]);
  if (status === "rerolled") out.push(["rerolled", t("rerolled")]);
  if (status === "success") out.push(["counted", t("counted as a success")]);
  if (status === "failure") out.push(["counted-failure", t("counted as a failure")]);
  if (fate && fate.cancelled) out.push(["cancelled", t("cancelled")]);
  else if (fate && fate.extra) out.push(["extra", t("extra die")]);
  const dosTen = fate && "cancelled" in fate && !fate.cancelled && !fate.extra && roll.value === roll.sides && roll.sides === 10;
  if (dosTen || (fate && fate.exploded === true)) out.push(["exploded", t("exploded")]);
  return out;
}

function die(el, texts, roll, fate, dropped, scripted) {
  const marks = statuses(texts, roll, fate, dropped, scripted);
  const words = [texts.t("{value} on a d{sides}", { value: roll.value, sides: roll.sides }), ...marks.map(([, w]) => w)];
  const struck = marks.some(([c]) => c === "cancelled" || c === "rerolled");
  const face = el(struck ? "del" : "span", { text: String(roll.value) });
  return el("li", { class: ["die", ...marks.map(([c]) => c)].join(" "), title: words.join(", "), "aria-label": words.join(", ") },
    face, el("span", { class: "sides", "aria-hidden": "true", text: texts.t("d{sides}", { sides: roll.sides }) }));
}

export function eventsView(document, events, language) {
  const el = builder(document);
  return el("ol", { class: "narration", lang: language, dir: rtl(language) ? "rtl" : "ltr" }, events.map((e) => el("li", { text: e.text })));
}
