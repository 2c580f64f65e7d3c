// Shared front-end module: a page's texts in the reader's language, from the playground's compiled
// catalogs (service/static/playground/i18n/<lang>.json; service/playground_catalog.py gives the
// format and how `make catalogs-playground` extracts `t("...")`, `nt("...", "...", n)` and
// `N_("...")` from service/static/shared/*.js). No globals: the host passes its fetch and base URL.
//
//   N_("text")                        marks a text for extraction only (translated where it is shown)
//   direction(lang)                   "rtl" or "ltr", from the browser's own tables
//   languageName(code)                a language's name in that language ("pl": "Polski")
//   translator(catalog)               the `texts` object every shared module takes:
//     texts.lang, texts.dir, texts.locale (for Intl: Arabic with Western digits, as the narration)
//     texts.t(msgid, params)          the text in the catalog's language (else the English), {name}s filled
//     texts.nt(singular, plural, n, params)   the form the language's plural rules give n ({count} is n)
//     texts.inContext(context, key)   a message of a context (field, value, slot, summary, item) or undefined
//     texts.field(key), texts.value(v), texts.item(key)   a field's name, a value, a list's item in words
//     texts.number(v, digits), texts.percent(p) (p a probability), texts.withSign(v) (v in percent),
//     texts.signed(v), texts.list(items)
//     texts.isolate(text), texts.ltr(text)   a name (FSI..PDI) or a path or formula (LRI..PDI) kept whole in any direction
//     texts.forSystem(id)             the same texts for one system's things: a field name that means
//                                     different things in different systems (`location`) is that
//                                     system's (context field, `<id>.<key>`)
//   In a right-to-left language every value `t` and `nt` fill in is isolated (FSI..PDI), as the
//   service's narration does: a Latin name or a number then keeps its place in the sentence.
//   loadTexts(lang, {base, fetch})    the compiled catalog of `lang` fetched from `base` (a URL ending
//                                     in /), as a translator; the English texts when there is none
//   translatePage(document, texts)    the page's `data-i18n` texts and `data-i18n-<attribute>`s

export const N_ = (text) => text;

const CONTEXT = "\u0004";
const isolate = (text) => `\u2068${text}\u2069`;
const ENGLISH = { lang: "en", dir: "ltr", messages: {}, plurals: {} };

export function direction(lang) {
  try {
    const info = new Intl.Locale(lang);
    const text = info.getTextInfo ? info.getTextInfo() : info.textInfo;
    return text && text.direction === "rtl" ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

export function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

export function humanize(key) {
  return String(key).replace(/_/g, " ");
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

function pluralRules(lang) {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return new Intl.PluralRules("en");
  }
}

// Numbers in the reader's conventions; a percentage's sign as the catalog writes it ("{value}%":
// Finnish "89,3 %", Arabic "89.3٪").
function numbers(locale, messages, rtl) {
  const number = (value, digits = 2) => Number(value).toLocaleString(locale, { maximumFractionDigits: digits });
  const withSign = (value) => fill(messages["{value}%"] || N_("{value}%"), { value });
  const percent = (p) => {
    const digits = p !== 0 && p < 0.001 ? 4 : p < 0.01 ? 2 : 1;
    return withSign((100 * p).toLocaleString(locale, { maximumFractionDigits: digits }));
  };
  const signed = (value) => (value > 0 ? "+" : "") + number(value);
  const list = (values) => {
    const items = values.map((v) => (rtl ? isolate(String(v)) : String(v)));
    try {
      return new Intl.ListFormat(locale, { type: "conjunction" }).format(items);
    } catch {
      return items.join(", ");
    }
  };
  return { number, percent, signed, list, withSign };
}

export function translator(catalog = ENGLISH, system = null) {
  const messages = catalog.messages || {};
  const plurals = catalog.plurals || {};
  const lang = catalog.lang || "en";
  const dir = catalog.dir === "rtl" ? "rtl" : "ltr";
  const rules = pluralRules(lang);
  const inContext = (context, key) => messages[`${context}${CONTEXT}${key}`];
  const shown = (params) => (dir === "rtl"
    ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, isolate(v)]))
    : params);
  const t = (msgid, params = {}) => fill(messages[msgid] || msgid, shown(params));
  const nt = (singular, plural, n, params = {}) => {
    const forms = plurals[singular];
    const text = forms ? (forms[rules.select(n)] || forms.other) : n === 1 ? singular : plural;
    return fill(text, shown({ count: n, ...params }));
  };
  const field = (key) => (system && inContext("field", `${system}.${key}`)) || inContext("field", key) || humanize(key);
  const locale = lang === "ar" ? "ar-u-nu-latn" : lang;
  return {
    lang,
    dir,
    locale,
    system,
    t,
    nt,
    inContext,
    field,
    value: (value) => inContext("value", String(value)) || messages[String(value)] || humanize(value),
    item: (key) => inContext("item", key) || field(key),
    isolate,
    ltr: (text) => `\u2066${text}\u2069`,
    forSystem: (id) => translator(catalog, id),
    ...numbers(locale, messages, dir === "rtl"),
  };
}

export async function loadTexts(lang, { base, fetch: fetchFn = globalThis.fetch } = {}) {
  const response = await fetchFn(new URL(`${lang}.json`, base).href);
  if (response.status === 404) return translator({ ...ENGLISH, lang, dir: direction(lang) });
  if (!response.ok) throw new Error(`no catalog for ${lang} (${response.status})`);
  return translator(await response.json());
}

export function translatePage(document, texts) {
  document.documentElement.lang = texts.lang;
  document.documentElement.dir = texts.dir;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (node.tagName === "TITLE") document.title = texts.t(node.dataset.i18n);
    else node.textContent = texts.t(node.dataset.i18n);
  }
  for (const node of document.querySelectorAll("*")) {
    for (const name of node.getAttributeNames()) {
      if (name.startsWith("data-i18n-")) node.setAttribute(name.slice("data-i18n-".length), texts.t(node.getAttribute(name)));
    }
  }
}
