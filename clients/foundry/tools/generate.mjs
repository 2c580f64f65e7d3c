// Writes endpoints.mjs from openapi/openapi.json: the api's functions come from the service's own
// list of operations, not from a list kept by hand. `make clients` runs it after the document
// changes; test/module.test.js fails while endpoints.mjs and the document disagree.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = new URL("../", import.meta.url);
export const DOCUMENT = new URL("../../openapi/openapi.json", HERE);
export const TARGET = new URL("endpoints.mjs", HERE);

/** `dnd5e_death_save` -> `dnd5eDeathSave`. */
export const camel = (id) => id.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

function resolve(document, schema) {
  const ref = schema?.$ref;
  return ref ? document.components.schemas[ref.split("/").at(-1)] : schema;
}

/**
 * Every POST with a JSON body, in the document's order: `{name, path, resolves, foundry}`. Read from
 * the schemas, never guessed from a path: `resolves` when its answer tells what happened (`events`:
 * a resolution, posted to chat; odds and simulations tell none), `foundry` when its request offers
 * `foundry` and its answer can carry the rolls (a system with Foundry rolls; a system without them
 * refuses the field, and `/dice/draw` draws for a client and offers none).
 */
export function endpoints(document) {
  const found = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const op = item.post;
    const media = op?.requestBody?.content?.["application/json"];
    if (!media) continue;
    const request = resolve(document, media.schema);
    const answer = resolve(document, op.responses?.["200"]?.content?.["application/json"]?.schema);
    const resolves = Boolean(answer?.properties?.events);
    const foundry = resolves && Boolean(request?.properties?.foundry) && Boolean(answer?.properties?.foundry);
    found.push({ name: camel(op.operationId), path, resolves, foundry });
  }
  return found;
}

export function render(document) {
  const lines = endpoints(document).map(
    ({ name, path, resolves, foundry }) =>
      `  { name: ${JSON.stringify(name)}, path: ${JSON.stringify(path)}, resolves: ${resolves}, foundry: ${foundry} },`,
  );
  return [
    "// Generated from openapi/openapi.json by tools/generate.mjs (`make clients`): do not edit by hand.",
    "// Every POST of the service: the api's function (its operationId in camelCase), its path, whether",
    "// it resolves (its answer tells what happened: posted to chat) and whether it offers Foundry rolls",
    "// (its request takes `foundry`: the module sends `foundry: true`).",
    "export const ENDPOINTS = Object.freeze([",
    ...lines,
    "].map((endpoint) => Object.freeze(endpoint)));",
    "",
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(TARGET, render(JSON.parse(readFileSync(DOCUMENT, "utf8"))));
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
