// The dragonroll client: openapi-fetch over the generated `paths` (src/schema.d.ts, `npm run generate`).
// Every POST takes `{ body }` and resolves to `{ data }` on 2xx or `{ error }` (the problem+json) on 4xx;
// `unwrap()` turns that into the data or a thrown DragonrollError.
import createClient from "openapi-fetch";

/** Make a client for a dragonroll at `baseUrl` (other openapi-fetch options pass through). */
export function createDragonrollClient(options = {}) {
  const { baseUrl = "http://127.0.0.1:8000", ...rest } = options;
  return createClient({ baseUrl, ...rest });
}

/** A problem+json answer (RFC 9457) as an exception: status, type, title, detail, errors, request_id. */
export class DragonrollError extends Error {
  constructor(status, problem) {
    const body = problem && typeof problem === "object" ? problem : {};
    super(`${status} ${body.title ?? "error"}: ${body.detail ?? String(problem)}`);
    this.name = "DragonrollError";
    this.status = status;
    this.problem = body;
    this.type = body.type;
    this.title = body.title;
    this.detail = body.detail;
    this.errors = body.errors ?? [];
    this.requestId = body.request_id ?? null;
  }
}

/** The data of a 2xx answer; a DragonrollError for anything else. */
export function unwrap({ data, error, response }) {
  if (response.ok) return data;
  throw new DragonrollError(response.status, error);
}
