// Shared front-end module: the roll card, an answer as a chat shows it beside the message that
// asked for it (the MCP App's frame, service/static/mcp/): the answer drawn by card.js (the outcome,
// the dice as dice, the events in the answer's language), a button that rolls again with a new
// seed, and the odds before the roll drawn by odds.js as a small chart.
//
//   renderRollCard(container, {document, texts, answer, outcome, odds, onRollAgain})
//       answer       {status, ok, body, request, language}, as service.js's send() gives it
//       outcome      the endpoint's outcome event codes (told in the first line)
//       odds         {ok, odds, request} (service.js's odds()), or null: no chart
//       onRollAgain  called by the "Roll again" button; null: no button
//   renderOddsCard(container, {document, texts, odds, request})   an odds answer alone

import { oddsView, renderAnswer } from "./card.js";
import { builder } from "./dom.js";

export function renderRollCard(container, { document, texts, answer, outcome, odds, onRollAgain }) {
  const el = builder(document);
  const actions = onRollAgain ? [{ text: texts.t("Roll again"), onClick: onRollAgain, class: "roll-again" }] : [];
  const card = el("div", { class: "roll-answer" });
  renderAnswer(card, answer, { document, texts, outcome: outcome || [], actions });
  const parts = [card];
  if (odds && odds.ok) {
    parts.push(el("section", { class: "roll-odds", "aria-label": texts.t("Odds before you roll") },
      el("h3", { text: texts.t("Odds before you roll") }),
      oddsView({ document, texts, odds: odds.odds, request: odds.request })));
  }
  container.replaceChildren(...parts);
}

export function renderOddsCard(container, { document, texts, odds, request }) {
  const el = builder(document);
  container.replaceChildren(el("section", { class: "roll-odds dr-card" },
    el("h3", { text: texts.t("Odds before you roll") }),
    oddsView({ document, texts, odds, request })));
}
