// The chat card of an answer (docs/foundry.md): the outcome, the rolls as Foundry renders them and
// every event's sentence, in the language the service wrote them in (the answer's Content-Language):
// `lang` and `dir` on every text of the service's, so an Arabic card reads right to left inside
// Foundry's left-to-right chat; the names and numbers in it come isolated from the service (FSI ...
// PDI). A roll's formula, dice and total stay left to right. Nothing here touches a Foundry global.

/** The languages written right to left (of those a service may answer in, and their kin). */
export const RTL = Object.freeze(new Set(["ar", "fa", "he", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"]));

/** `rtl` for a right-to-left language (`ar`, `ar-EG`), else `ltr`. */
export function direction(lang) {
  return RTL.has(String(lang ?? "").toLowerCase().split("-")[0]) ? "rtl" : "ltr";
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` safe inside HTML. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** ` lang="ar" dir="rtl"`: the attributes of a text in `lang` (only `dir` when it is unknown). */
export function languageAttributes(lang) {
  const tag = lang ? ` lang="${escapeHtml(lang)}"` : "";
  return `${tag} dir="${direction(lang)}"`;
}

/**
 * The card's HTML: the outcome (the last event's sentence), each roll (`rolls[i]`: `{flavor, html}`,
 * the flavor the service wrote and Foundry's `Roll#render` of the roll without it) and every event's
 * sentence under a fold. `lang` is the language of the service's texts (the answer's
 * Content-Language), `uiLang` the game's (the fold's heading, `localize`d from lang/<lang>.json).
 * Every text is escaped.
 */
export function chatContent(answer, localize = (key) => key, rolls = [], { lang = null, uiLang = null } = {}) {
  const said = languageAttributes(lang);
  const texts = (answer.events ?? []).map((e) => escapeHtml(e.text ?? e.code));
  const outcome = texts.at(-1) ?? "";
  const items = texts.map((t) => `<li${said}>${t}</li>`).join("");
  const shown = rolls.map(
    ({ flavor, html }) =>
      `<div class="dragonroll-roll">` +
      (flavor ? `<p class="dragonroll-flavor"${said}>${escapeHtml(flavor)}</p>` : "") +
      `<div dir="ltr">${html}</div></div>`,
  );
  return (
    `<div class="dragonroll"${said}>` +
    `<p class="dragonroll-outcome"${said}><strong>${outcome}</strong></p>` +
    (shown.length ? `<div class="dragonroll-rolls">${shown.join("")}</div>` : "") +
    `<details${languageAttributes(uiLang)}><summary>${escapeHtml(localize("DRAGONROLL.Chat.Events"))}</summary>` +
    `<ol${said}>${items}</ol></details></div>`
  );
}

/**
 * The chat message data of an answer: each of its rolls made a Foundry `Roll` (`Roll.fromData`) and
 * rendered by Foundry (`Roll#render`) into the card beside the narration; the message keeps the
 * rolls, so Dice So Nice throws their dice, and in its flags what replays it (seed, rules version,
 * the endpoint).
 */
export async function chatMessage(answer, { Roll, localize, speaker, lang = null, uiLang = null, path = null }) {
  const rolls = (answer.foundry?.rolls ?? []).map((data) => Roll.fromData(data));
  const shown = [];
  for (const roll of rolls) shown.push({ flavor: roll.options?.flavor ?? "", html: await roll.render({}) });
  const flags = { dragonroll: { seed: answer.seed, rng: answer.rng, rules_version: answer.rules_version, path, lang } };
  return { rolls, content: chatContent(answer, localize, shown, { lang, uiLang }), speaker, flags };
}
