// Shared front-end module: an odds answer (`/<system>/odds...`) drawn for a GM, in the reader's
// language: the outcomes that exclude each other in one table (they add up to 100%), the chances
// that go with them (a critical hit among the hits, the target out of the fight) in another, each
// battle pair's chances, and each distribution as a small bar chart (SVG, mirrored right to left).
// Each percentage's exact fraction is its tooltip.
//
//   oddsView({document, texts, odds, request})   the element showing one odds answer
//       texts    i18n.js's translator; odds: the answer's body; request: what was asked (names)
//   barChart({document, texts, title, points, distribution})   one distribution as bars
//       points   [{value, p: {p, exact}}]; distribution: {mean, percentiles} or null

import { builder, svg } from "./dom.js";
import { N_ } from "./i18n.js";
import { nameOf } from "./words.js";

// What a GM reads for each chance the odds answer, by its key. The outcomes first: one of each
// group happens (success or failure, a hit or a miss, A, B or a tie).
const OUTCOMES = {
  success: N_("Success by the total"),
  failure: N_("Failure by the total"),
  luck: N_("Luck: a success whatever the total"),
  bad_luck: N_("Bad luck: a failure whatever the total"),
  hit: N_("Hits"),
  missed: N_("Misses"),
  miss: N_("Misses"),
  tie: N_("A tie"),
  a_wins: N_("Side A wins"),
  b_wins: N_("Side B wins"),
  initiator_wins: N_("The initiator wins"),
  defender_wins: N_("The defender wins"),
  interrupted: N_("A tie: the fight stops, nobody loses"),
};
// The chances that go with an outcome (counted within it, or a consequence of it); a key one system
// means otherwise is under `<system>.<key>` (Dragons of Shadows' `critical` is a critical wound).
const ALSO = {
  succeeds: N_("Succeeds in all, by the total or by luck"),
  blocked: N_("Of the misses: the block holds"),
  dodged: N_("Of the misses: the dodge holds"),
  critical: N_("A critical hit (counted among the hits)"),
  "dos.critical": N_("A critical wound"),
  incapacitated: N_("The target is out of the fight after it"),
  drops_to_0: N_("The target drops to 0 hp"),
  dies: N_("The target dies"),
  triggered: N_("The dragon die triggers a sweep"),
  sweep: N_("A sweep takes an enemy"),
  turns: N_("The item turns the roll-off"),
  given_behind: N_("The side is behind before the item"),
};
// A miss that is only ever the defense holding is told as that (`/dos/odds/attack`: `blocked` is
// `missed` when the defense is a block).
const MISS_BY = { block: N_("Misses: the block holds"), dodge: N_("Misses: the dodge holds") };
// Each distribution's chart, by its key: what its bars are.
const CHARTS = {
  pool: N_("How likely each dice result is"),
  result: N_("How likely each dice result is"),
  total: N_("How likely each total is"),
  damage: N_("How likely each amount of damage is"),
  natural: N_("How likely each number on the d20 kept is"),
  initiator_total: N_("How likely each total of the initiator is"),
  defender_total: N_("How likely each total of the defender is"),
  a_total: N_("How likely each total of side A is"),
  b_total: N_("How likely each total of side B is"),
  a_successes: N_("Side A's successes when it wins"),
  b_successes: N_("Side B's successes when it wins"),
  sizes: N_("How many enemies a sweep takes"),
  at_least: N_("The chance of at least each total"),
  at_most: N_("The chance of at most each total"),
};
// Inner workings of the computation, not chances a GM weighs.
const HIDDEN = new Set(["truncation", "tail", "tail_from", "tail_below", "exact"]);

const isChance = (node) => node && typeof node === "object" && typeof node.p === "number" && typeof node.exact === "string";
const isDistribution = (node) => Array.isArray(node) && node.length > 0 &&
  node.every((x) => x && typeof x === "object" && "value" in x && isChance(x.p));

function chanceLabel(texts, keys) {
  const named = keys.filter((k) => typeof k === "string");
  const last = named[named.length - 1];
  if (OUTCOMES[last]) return texts.t(OUTCOMES[last]);
  const also = ALSO[`${texts.system}.${last}`] || ALSO[last];
  if (also) return texts.t(also);
  return named.map(texts.field).join(" · ");
}

function chartTitle(texts, keys) {
  const named = keys.filter((k) => typeof k === "string" && k !== "result");
  const last = named[named.length - 1] || "result";
  return CHARTS[last] ? texts.t(CHARTS[last]) : texts.field(last);
}

// Every chance and distribution of the answer (its pairs apart), as [keys, node], in its order.
function collect(odds) {
  const chances = [];
  const charts = [];
  const walk = (node, keys) => {
    if (HIDDEN.has(keys[keys.length - 1])) return;
    if (isChance(node)) { chances.push([keys, node]); return; }
    if (isDistribution(node)) { charts.push([keys, node, null]); return; }
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    if (isDistribution(node.result)) { charts.push([keys, node.result, node]); return; }
    for (const [k, v] of Object.entries(node)) walk(v, keys.concat(k));
  };
  for (const [k, v] of Object.entries(odds)) if (k !== "pairs") walk(v, [k]);
  return { chances, charts };
}

// The outcomes and the chances along with them, as rows [label, chance].
function chanceRows(texts, odds, chances) {
  const defended = odds.defense === "block" ? "blocked" : odds.defense === "dodge" ? "dodged" : null;
  const held = defended && isChance(odds[defended]) && isChance(odds.missed) && odds[defended].exact === odds.missed.exact;
  const outcomes = [];
  const also = [];
  for (const [keys, chance] of chances) {
    const key = keys[keys.length - 1];
    if (held && key === defended) continue;
    const label = held && key === "missed" ? texts.t(MISS_BY[odds.defense]) : chanceLabel(texts, keys);
    (OUTCOMES[key] ? outcomes : also).push([label, chance]);
  }
  return { outcomes, also };
}

export function oddsView({ document, texts, odds, request }) {
  const el = builder(document);
  const box = el("div", { class: "dr-odds" });
  if (Array.isArray(odds.pairs)) odds.pairs.forEach((pair, i) => box.append(pairView(el, texts, pair, i, request || {})));
  const { chances, charts } = collect(odds);
  const { outcomes, also } = chanceRows(texts, odds, chances);
  if (typeof odds.defense === "string") box.append(el("p", { text: texts.t("The defense: {defense}.", { defense: texts.value(odds.defense) }) }));
  if (outcomes.length) box.append(chanceTable(el, texts, outcomes, "outcomes", texts.t("One of these happens")));
  if (also.length) box.append(chanceTable(el, texts, also, "also", outcomes.length ? texts.t("Along with it") : null));
  for (const [keys, points, distribution] of charts.slice(0, 4)) {
    box.append(barChart({ document, texts, title: chartTitle(texts, keys), points, distribution }));
  }
  return box;
}

function chanceCell(el, texts, chance) {
  return el("td", { class: "num" }, el("span", {
    class: "chance", title: texts.t("exactly {fraction}", { fraction: chance.exact }), tabindex: "0", text: texts.percent(chance.p),
  }));
}

function chanceTable(el, texts, rows, kind, caption) {
  return el("table", { class: `chances ${kind}` },
    caption ? el("caption", { text: caption }) : null,
    el("tbody", {}, rows.slice(0, 30).map(([label, chance]) =>
      el("tr", {}, el("th", { scope: "row", text: label }), chanceCell(el, texts, chance)))));
}

// One battle pair's odds: who wins, or a tie that stops the fight; then each side's successes.
function pairView(el, texts, pair, index, request) {
  const a = nameOf(request, pair.a);
  const b = nameOf(request, pair.b);
  const rows = [
    [texts.t("{side} wins", { side: a }), pair.a_wins],
    [texts.t("{side} wins", { side: b }), pair.b_wins],
    [texts.t(OUTCOMES.interrupted), pair.interrupted],
  ].filter(([, chance]) => isChance(chance));
  return el("table", { class: "pair chances outcomes", "data-pair": String(index) },
    el("caption", { text: texts.t("{a} against {b}", { a, b }) }),
    el("tbody", {}, rows.map(([label, chance]) => el("tr", {}, el("th", { scope: "row", text: label }), chanceCell(el, texts, chance)))));
}

export function barChart({ document, texts, title, points, distribution }) {
  const el = builder(document);
  const shown = points.slice(0, 60);
  const top = Math.max(...shown.map((x) => x.p.p), 1e-9);
  const [width, height] = [400, 120];
  const bar = width / shown.length;
  const chart = svg(document, "svg", { viewBox: `0 0 ${width} ${height + 14}`, role: "img", "aria-label": title });
  shown.forEach((x, i) => {
    const h = (x.p.p / top) * height;
    const left = texts.dir === "rtl" ? width - (i + 1) * bar : i * bar;
    const rect = svg(document, "rect", { x: left + 0.5, y: height - h, width: Math.max(bar - 1, 0.5), height: h });
    const tip = svg(document, "title");
    tip.textContent = `${x.value}: ${texts.percent(x.p.p)} (${texts.t("exactly {fraction}", { fraction: x.p.exact })})`;
    rect.append(tip);
    chart.append(rect);
    if (shown.length <= 20 || i % Math.ceil(shown.length / 10) === 0) {
      const label = svg(document, "text", { x: left + bar / 2, y: height + 11, "text-anchor": "middle" });
      label.textContent = String(x.value);
      chart.append(label);
    }
  });
  const notes = [title];
  if (distribution && typeof distribution.mean === "number") notes.push(texts.t("on average {mean}", { mean: texts.number(distribution.mean) }));
  const pct = distribution && distribution.percentiles;
  if (pct && "p50" in pct) notes.push(texts.t("half the time {median} or less", { median: pct.p50 }));
  if (pct && "p5" in pct && "p95" in pct) notes.push(texts.t("9 times in 10 between {low} and {high}", { low: pct.p5, high: pct.p95 }));
  return el("figure", { class: "chart" }, chart, el("figcaption", { class: "help", text: notes.join("; ") }));
}
