// The popover's texts in the player's language, from the playground's catalogs (gettext domain
// `playground`, service/locale/<lang>/LC_MESSAGES/playground.po): `make catalogs-playground`
// extracts this extension's `t(...)`, `nt(...)`, `N_(...)` and index.html's `data-i18n` with the
// playground's texts and compiles them to service/static/playground/i18n/<lang>.json, which the
// popover fetches from the service that served it (service/playground_catalog.py has the format).

/** Marks a text for extraction only (it is translated where it is shown, with `t`). */
export const N_ = (text) => text;

/** The catalogs, next to the popover on the service: /owlbear/index.html -> /static/playground/i18n/. */
export const CATALOGS = "../static/playground/i18n/";

const ENGLISH = { lang: "en", dir: "ltr", messages: {}, plurals: {} };

/** A translator over one compiled catalog (`{lang, dir, messages, plurals}`). */
export function translator(catalog = ENGLISH) {
  const messages = catalog.messages ?? {};
  const plurals = catalog.plurals ?? {};
  const lang = catalog.lang ?? "en";
  let rules;
  try {
    rules = new Intl.PluralRules(lang);
  } catch {
    rules = new Intl.PluralRules("en");
  }
  const fill = (text, params) =>
    text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  return {
    lang,
    dir: catalog.dir === "rtl" ? "rtl" : "ltr",
    /** `t("English text", {name: value})`: the text in the catalog's language, else the English. */
    t: (msgid, params = {}) => fill(messages[msgid] || msgid, params),
    /** `nt("{count} step", "{count} steps", n, params)`: the form the language's rules give `n`. */
    nt: (singular, plural, n, params = {}) => {
      const forms = plurals[singular];
      const text = forms ? (forms[rules.select(n)] ?? forms.other) : n === 1 ? singular : plural;
      return fill(text, { count: n, ...params });
    },
    /** A message in a context (`field`, `value`, `slot`, `summary`), or undefined. */
    inContext: (context, key) => messages[`${context}\u0004${key}`],
  };
}

/**
 * The compiled catalog of `lang`, fetched from `base` (a URL ending in /); the English source texts
 * when the service has none for it (the English catalog has a few texts better than their ids).
 */
export async function loadTexts(lang, base, fetchFn = fetch) {
  const response = await fetchFn(new URL(`${lang}.json`, base).href);
  if (!response.ok) return translator(ENGLISH);
  return translator(await response.json());
}

/** The page's fixed texts: `data-i18n` (an element's text) and `data-i18n-<attribute>`. */
export function translatePage(document, texts) {
  document.documentElement.lang = texts.lang;
  document.documentElement.dir = texts.dir;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    // An element with children (a checkbox in its label) keeps them: its text is its last node.
    const text = texts.t(node.dataset.i18n);
    const last = node.lastChild;
    if (node.children.length && last && last.nodeType === 3) last.textContent = ` ${text}`;
    else node.textContent = text;
  }
  for (const node of document.querySelectorAll("*")) {
    for (const name of node.getAttributeNames()) {
      if (!name.startsWith("data-i18n-")) continue;
      node.setAttribute(name.slice("data-i18n-".length), texts.t(node.getAttribute(name)));
    }
  }
}
