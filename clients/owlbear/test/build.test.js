// The built popover the service ships (service/static/owlbear, committed) is what the sources build
// to, and the manifest has the fields Owlbear Rodeo reads.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { build } from "vite";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const SHIPPED = fileURLToPath(new URL("../../../service/static/owlbear", import.meta.url));

function files(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return out;
}

test("service/static/owlbear is the build of these sources (npm run build, then commit)", async () => {
  const out = mkdtempSync(join(tmpdir(), "owlbear-build-"));
  try {
    await build({ root: HERE, logLevel: "silent", build: { outDir: out, emptyOutDir: true } });
    assert.deepEqual(files(SHIPPED), files(out));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the manifest: the fields Owlbear reads, the popover and the icon under /owlbear/", () => {
  const manifest = JSON.parse(readFileSync(join(SHIPPED, "manifest.json"), "utf8"));
  for (const key of ["name", "version", "author", "description", "icon", "homepage_url"]) {
    assert.equal(typeof manifest[key], "string", key);
  }
  assert.equal(manifest.manifest_version, 1);
  assert.deepEqual(Object.keys(manifest.action).sort(), ["height", "icon", "popover", "title", "width"]);
  assert.equal(manifest.action.popover, "/owlbear/index.html");
  assert.equal(manifest.icon, "/owlbear/icon.svg");
  const pkg = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8"));
  assert.equal(manifest.version, pkg.version);
  const page = readFileSync(join(SHIPPED, "index.html"), "utf8");
  assert.match(page, /<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js">/);
  assert.ok(!/https?:\/\//.test(page.replace(/xmlns="[^"]*"/g, "")), "no CDN: every file from the service");
});
