// The client as a user installs it (docs/clients.md): packed into a tarball (`npm pack`) or from its
// folder (`npm install --install-links ./clients/typescript`), each into a fresh npm project, then
// imported by name under node and calling a real uvicorn; and bundled for a browser with esbuild.
// npm prefers its cache here (--prefer-offline): `npm ci` in this folder (make test-node, .ci/run) has
// put openapi-fetch into it, so the test needs no registry once that has run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.js";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const QUIET = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

const CALLS = `
import { createDragonrollClient, unwrap } from "dragonroll-client";
const client = createDragonrollClient({ baseUrl: process.argv[2] });
const test = unwrap(await client.POST("/dos/test", { body: { stat: 24, skill: 3, dc: 43, seed: "Sarathael" } }));
const battle = unwrap(await client.POST("/dragon/battle", { body: {
  seed: "vale", dragon: { age: 3, battle: 2, target: "tribe" },
  entities: [{ id: "tribe", controller: "gm", kind: "group", prosperity: 4, level: 2, target: "dragon" }],
} }));
console.log(JSON.stringify({ test, battle }));
`;

let server;
let work;
before(async () => {
  server = await startServer();
  work = mkdtempSync(join(tmpdir(), "dragonroll-install-"));
});
after(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function freshProject(name) {
  const dir = join(work, name);
  execFileSync("mkdir", ["-p", dir]);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return dir;
}

function run(dir, spec, extra = []) {
  execFileSync(NPM, ["install", ...QUIET, ...extra, spec], { cwd: dir, stdio: "pipe" });
  writeFileSync(join(dir, "calls.mjs"), CALLS);
  const out = execFileSync("node", ["calls.mjs", server.baseUrl], { cwd: dir, encoding: "utf8" });
  return JSON.parse(out);
}

function checkAnswers({ test: t, battle }) {
  assert.equal(t.seed, "Sarathael");
  assert.equal(t.success, t.total > 43);
  assert.ok(t.roll.dice.every((d) => typeof d.value === "number"), "dice are objects with a value");
  assert.equal(battle.seed, "vale");
  assert.ok(battle.events.length > 0);
}

test("npm pack, then npm install the tarball into a fresh project, under node", () => {
  const packed = execFileSync(NPM, ["pack", "--silent", "--pack-destination", work], { cwd: HERE, encoding: "utf8" });
  const tarball = join(work, packed.trim().split("\n").pop());
  const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
  assert.deepEqual(listing, [
    "package/package.json",
    "package/src/index.d.ts",
    "package/src/index.js",
    "package/src/schema.d.ts",
  ]);
  const dir = freshProject("from-tarball");
  checkAnswers(run(dir, tarball));
  const installed = readdirSync(join(dir, "node_modules")).sort();
  assert.ok(installed.includes("openapi-fetch"), `openapi-fetch was not installed: ${installed}`);
  assert.ok(!installed.includes("typescript"), "a devDependency was installed");
});

test("npm install --install-links from the folder, as docs/clients.md says", () => {
  checkAnswers(run(freshProject("from-folder"), HERE, ["--install-links"]));
});

test("bundled for a browser with esbuild: one file, nothing left to resolve", () => {
  const entry = join(work, "page.js");
  writeFileSync(entry, `import { createDragonrollClient, unwrap } from "${HERE}src/index.js";
window.dragonroll = { createDragonrollClient, unwrap };`);
  const bundle = join(work, "page.bundle.js");
  execFileSync(join(HERE, "node_modules/.bin/esbuild"), [
    entry, "--bundle", "--platform=browser", "--format=iife", `--outfile=${bundle}`, "--log-level=warning",
  ], { stdio: "pipe" });
  const code = readFileSync(bundle, "utf8");
  assert.ok(!/\brequire\(|from\s*["']/.test(code), "the bundle still imports something");
  assert.ok(code.includes("createClient") || code.includes("baseUrl"), "openapi-fetch is not in the bundle");
});

test("npm run example calls the service and prints a roll and a battle round", () => {
  const out = execFileSync(NPM, ["run", "--silent", "example"], {
    cwd: HERE,
    encoding: "utf8",
    env: { ...process.env, DRAGONROLL_URL: server.baseUrl },
  });
  assert.match(out, /DC 43/);
  assert.ok(out.trim().split("\n").length >= 2, out);
});
