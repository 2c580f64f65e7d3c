// Type-checked by `npm run typecheck` (tsc): the generated types reach the caller, and a wrong body or a
// wrong field does not compile. Also the shortest example of the client in TypeScript.
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
