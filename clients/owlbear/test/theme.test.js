// The popover in the room's light or dark theme (OBR.theme), an icon that shows on both, and a
// notification that reads in the player's direction: node --test, the SDK replaced (fake-obr.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { notificationText, themeStyle } from "../src/logic.js";
import { fakeObr } from "./fake-obr.js";

/** WCAG 2 contrast of two #rrggbb colours. */
function contrast(a, b) {
  const lum = (hex) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test("the popover's colours are the theme's: background, text, accent, in its mode", async () => {
  const obr = fakeObr();
  for (const mode of ["DARK", "LIGHT"]) {
    obr.setTheme(mode);
    const theme = await obr.theme.getTheme();
    const style = themeStyle(theme);
    assert.equal(style["color-scheme"], mode === "LIGHT" ? "light" : "dark");
    assert.equal(style["--obr-background"], theme.background.paper);
    assert.equal(style["--obr-text"], theme.text.primary);
    assert.equal(style["--obr-accent"], theme.primary.main);
    assert.equal(style["--obr-on-accent"], theme.primary.contrastText);
    assert.equal(style["--obr-accent-line"], mode === "LIGHT" ? theme.primary.dark : theme.primary.light);
  }
  assert.equal(themeStyle(null), null);
  // A theme missing a colour leaves that one to the stylesheet's own default.
  assert.deepEqual(Object.keys(themeStyle({ mode: "LIGHT", text: { primary: "#000" } })), ["color-scheme", "--obr-text"]);
  // onChange: the popover follows a change of theme.
  const seen = [];
  obr.theme.onChange((t) => seen.push(t.mode));
  obr.setTheme("DARK");
  assert.deepEqual(seen, ["DARK"]);
});

test("the icon shows on Owlbear Rodeo's light toolbar and on its dark one", () => {
  for (const path of ["../public/icon.svg", "../../../service/static/owlbear/icon.svg"]) {
    const svg = readFileSync(new URL(path, import.meta.url), "utf8");
    const fill = /<path[^>]*\bfill="(#[0-9a-fA-F]{6})"/.exec(svg)[1];
    // Graphics need 3:1 (WCAG 1.4.11) against what they stand on: white, and Owlbear's dark #222639.
    assert.ok(contrast(fill, "#ffffff") >= 3, `${fill} on white: ${contrast(fill, "#ffffff")}`);
    assert.ok(contrast(fill, "#222639") >= 3, `${fill} on dark: ${contrast(fill, "#222639")}`);
    // and its facets are white lines on that fill (the same 3:1)
    assert.match(svg, /fill="none" stroke="#fff"/);
  }
});

test("a result's notification: the player's name isolated, an Arabic line right to left, cut whole", () => {
  const arabic = "\u2068كريم\u2069 يفوز بالاختبار المتقابل، \u206864\u2069 مقابل \u206829\u2069.";
  assert.equal(notificationText("Gandalf", arabic, "ar"), `\u2067\u2068Gandalf\u2069: ${arabic}\u2069`);
  assert.equal(notificationText("ليلى", "Total 61 against DC 43: success.", "en"), "\u2068ليلى\u2069: Total 61 against DC 43: success.");
  // At most 300 characters; a cut closes the isolates it cut into.
  const long = notificationText("Ada", `a ${"\u2068x\u2069 ".repeat(200)}`, "ar");
  assert.ok(long.length <= 300, long.length);
  const opens = (long.match(/[\u2066-\u2068]/g) ?? []).length;
  assert.equal(opens, (long.match(/\u2069/g) ?? []).length, "every isolate closed");
  assert.ok(long.startsWith("\u2067") && long.endsWith("\u2069"));
});
