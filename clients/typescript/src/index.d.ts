import type { Client, ClientOptions } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type ProblemError = Schemas["ProblemError"];
export type DragonrollClient = Client<paths>;

/** Make a client for a dragonroll at `baseUrl` (default http://127.0.0.1:8000). */
export declare function createDragonrollClient(options?: ClientOptions): DragonrollClient;

/** A problem+json answer (RFC 9457) as an exception. */
export declare class DragonrollError extends Error {
  constructor(status: number, problem: unknown);
  readonly status: number;
  readonly problem: Partial<Problem>;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly errors: ProblemError[];
  readonly requestId: string | null;
}

/** The data of a 2xx answer; throws DragonrollError for anything else. */
export declare function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T;
