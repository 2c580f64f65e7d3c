// Type-checked by `npm run typecheck` (tsc): the generated types reach the caller, and a wrong body or a
// wrong field does not compile. Also the shortest example of the client in TypeScript; run it against a
// running service with `npm run example` in clients/typescript (DRAGONROLL_URL, default
// http://127.0.0.1:8000): it prints one roll of /dos/test and one dragon battle round.
import { createDragonrollClient, DragonrollError, unwrap } from "../src/index.js";
import type { Schemas } from "../src/index.js";

export async function rollTest(baseUrl: string): Promise<string> {
  const client = createDragonrollClient({ baseUrl });
  const request: Schemas["TestRequest"] = { stat: 24, skill: 3, dc: 43, seed: "Sarathael" };
  try {
    const result = unwrap(await client.POST("/dos/test", { body: request }));
    const total: number = result.total;
    const success: boolean = result.success;
    return `${total} ${success ? "beats" : "does not beat"} DC ${request.dc}`;
  } catch (e) {
    if (e instanceof DragonrollError) return e.errors.map((err) => err.loc.join(".")).join(", ");
    throw e;
  }
}

export async function mistakes(baseUrl: string): Promise<void> {
  const client = createDragonrollClient({ baseUrl });
  // @ts-expect-error: `stat` must be a number
  await client.POST("/dos/test", { body: { stat: "24", skill: 3, dc: 43, seed: "x" } });
  // @ts-expect-error: no such endpoint
  await client.POST("/dos/nothing", { body: {} });
  const { data } = await client.POST("/dnd5e/check", {
    body: { modifier: 3, dc: 15, seed: "x" },
  });
  // @ts-expect-error: a check result has no `damage`
  void data?.damage;
}

export async function battleRound(baseUrl: string): Promise<string> {
  const client = createDragonrollClient({ baseUrl });
  const body: Schemas["BattleRequest"] = {
    seed: "vale",
    dragon: { age: 3, battle: 2, target: "tribe" },
    entities: [{ id: "tribe", controller: "gm", kind: "group", prosperity: 4, level: 2, target: "dragon" }],
  };
  const round = unwrap(await client.POST("/dragon/battle", { body }));
  return round.events.map((e) => e.text).join("\n");
}

// Run as a program (`npm run example`), not when imported. (Node's `process`, declared here so the
// example needs no @types/node.)
declare const process: { argv: string[]; env: Record<string, string | undefined> };
if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.env.DRAGONROLL_URL ?? "http://127.0.0.1:8000";
  console.log(await rollTest(baseUrl));
  console.log(await battleRound(baseUrl));
}
