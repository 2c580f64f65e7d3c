// End to end: a real uvicorn, every POST in openapi/openapi.json called through the typed client with
// the document's own request example, and bad requests that come back as problem+json.
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createDragonrollClient, DragonrollError, unwrap } from "../src/index.js";
import { ROOT, startServer } from "./server.js";

const DOCUMENT = JSON.parse(readFileSync(`${ROOT}openapi/openapi.json`, "utf8"));
const POSTS = Object.entries(DOCUMENT.paths)
  .filter(([, item]) => item.post)
  .map(([path, item]) => [path, item.post]);

let server;
let client;
before(async () => {
  server = await startServer();
  client = createDragonrollClient({ baseUrl: server.baseUrl });
});
after(() => server?.stop());

test("the document has POST endpoints, each with a request example", () => {
  assert.ok(POSTS.length >= 17, `only ${POSTS.length} POSTs`);
  for (const [path, op] of POSTS) {
    assert.ok(op.requestBody.content["application/json"].example, `${path} has no request example`);
  }
});

for (const [path, op] of POSTS) {
  test(`POST ${path} with its OpenAPI example`, async () => {
    const example = op.requestBody.content["application/json"].example;
    const data = unwrap(await client.POST(path, { body: example }));
    assert.equal(data.rng, "sha256-v1");
    assert.equal(typeof data.rules_version, "string");
    assert.ok(Array.isArray(data.events) && data.events.length > 0, "no events");
    for (const event of data.events) assert.equal(typeof event.code, "string");
    for (const die of data.rolls) assert.ok(die.value >= 1 && die.value <= die.sides, JSON.stringify(die));
    if ("seed" in example) assert.deepEqual(data.seed, example.seed);
    const again = unwrap(await client.POST(path, { body: example }));
    assert.deepEqual(again, data, "the same request gave a different answer");
  });
}

test("a typed field: /dos/test's total is stat + dice result with no modifier", async () => {
  const body = { stat: 24, skill: 3, dc: 43, seed: "Sarathael" };
  const data = unwrap(await client.POST("/dos/test", { body }));
  const result = data.events.find((e) => e.code === "dos.pool.result").params.result;
  assert.equal(data.total, 24 + result);
  assert.equal(data.success, data.total > 43);
});

test("a bad request is a DragonrollError carrying the problem+json", async () => {
  const response = await client.POST("/dos/test", { body: { stat: "many", skill: 3, dc: 43 } });
  assert.equal(response.response.status, 422);
  assert.match(response.response.headers.get("content-type"), /^application\/problem\+json/);
  assert.throws(() => unwrap(response), (err) => {
    assert.ok(err instanceof DragonrollError);
    assert.equal(err.status, 422);
    assert.equal(typeof err.title, "string");
    assert.ok(err.errors.some((e) => e.loc.includes("stat")), JSON.stringify(err.errors));
    assert.equal(typeof err.requestId, "string");
    return true;
  });
});

test("malformed JSON is a 400 problem+json too", async () => {
  const response = await fetch(`${server.baseUrl}/dos/test`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(response.status, 400);
  const problem = await response.json();
  assert.equal(problem.status, 400);
  assert.ok(Array.isArray(problem.errors) && problem.errors.length > 0, JSON.stringify(problem));
});
