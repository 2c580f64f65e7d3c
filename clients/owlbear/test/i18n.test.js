// The popover's texts: the shared translator (service/static/shared/i18n.js, the playground's) over
// the compiled playground catalogs (service/static/playground/i18n), each form of a plural by the
// language's CLDR rules; in Arabic every value filled in is isolated (FSI ... PDI), as the service's
// narration does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadTexts, translator } from "../../../service/static/shared/i18n.js";

const I18N = fileURLToPath(new URL("../../../service/static/playground/i18n/", import.meta.url));
const catalog = (lang) => JSON.parse(readFileSync(`${I18N}${lang}.json`, "utf8"));
const STEPS = ["{count} step, seed {seed}", "All {count} steps, seed {seed}"];
const isolated = (text) => `\u2068${text}\u2069`;

test("a plural takes the form the language's rules give the count", () => {
  const pl = translator(catalog("pl"));
  assert.equal(pl.nt(...STEPS, 1, { seed: "s" }), "1 krok, ziarno s");
  for (const n of [2, 3, 4, 22, 104]) assert.match(pl.nt(...STEPS, n, { seed: "s" }), new RegExp(`^Wszystkie ${n} kroki,`));
  for (const n of [5, 12, 13, 14, 25, 111]) assert.match(pl.nt(...STEPS, n, { seed: "s" }), new RegExp(`^Wszystkie ${n} kroków,`));
  const ar = translator(catalog("ar"));
  const forms = catalog("ar").plurals[STEPS[0]];
  assert.deepEqual(Object.keys(forms).sort(), ["few", "many", "one", "other", "two", "zero"]);
  const rule = new Intl.PluralRules("ar");
  for (const n of [0, 1, 2, 3, 10, 11, 99, 100, 102]) {
    const form = forms[rule.select(n)].replace("{count}", isolated(n)).replace("{seed}", isolated("s"));
    assert.equal(ar.nt(...STEPS, n, { seed: "s" }), form);
  }
  assert.equal(translator(catalog("fi")).nt(...STEPS, 5, { seed: "s" }), "Kaikki 5 vaihetta, siemen s");
  assert.equal(translator().nt(...STEPS, 5, { seed: "s" }), "All 5 steps, seed s");
  assert.equal(translator().nt(...STEPS, 1, { seed: "s" }), "1 step, seed s");
});

test("texts in a context, the English where a catalog has none, the direction", async () => {
  const ar = translator(catalog("ar"));
  assert.equal(ar.dir, "rtl");
  assert.equal(ar.t("no such text {x}", { x: 1 }), `no such text ${isolated(1)}`);
  assert.notEqual(ar.inContext("field", "dc"), undefined);
  assert.equal(ar.inContext("field", "no_such_field"), undefined);
  assert.equal(ar.field("dc"), catalog("ar").messages["field\u0004dc"]);
  const served = async (url) => ({
    ok: url.endsWith("/fi.json"),
    status: url.endsWith("/fi.json") ? 200 : 404,
    json: async () => catalog("fi"),
  });
  const base = "http://svc/static/playground/i18n/";
  assert.equal((await loadTexts("fi", { base, fetch: served })).lang, "fi");
  // No catalog: the English texts (under the language asked for, in its direction).
  const german = await loadTexts("de", { base, fetch: served });
  assert.equal(german.t("Roll"), "Roll");
  assert.equal(german.dir, "ltr");
});
