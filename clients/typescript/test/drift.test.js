// The committed src/schema.d.ts is exactly what `npm run generate` makes from the committed
// openapi/openapi.json. When this fails, run `make clients` (or `npm run generate` here) and commit.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL("..", import.meta.url));

test("src/schema.d.ts matches the generator's output for openapi/openapi.json", () => {
  const dir = mkdtempSync(join(tmpdir(), "dragonroll-ts-"));
  try {
    const out = join(dir, "schema.d.ts");
    const script = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")).scripts.generate;
    const args = script.split(" ").slice(1).map((a) => (a === "src/schema.d.ts" ? out : a));
    execFileSync(join(HERE, "node_modules/.bin/openapi-typescript"), args, { cwd: HERE, stdio: "pipe" });
    const fresh = readFileSync(out, "utf8");
    const committed = readFileSync(join(HERE, "src/schema.d.ts"), "utf8");
    assert.ok(fresh === committed, "src/schema.d.ts is stale: run `make clients` and commit the result");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
