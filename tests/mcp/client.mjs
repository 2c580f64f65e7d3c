// The official TypeScript MCP SDK's client against a live dragonroll (run by test_mcp_clients.py).
// Usage: node client.mjs <service URL> <arguments JSON> <bad arguments JSON>: connects to <URL>/mcp
// over streamable HTTP, lists the tools and resources, calls the dos tool with both, and prints
// what it got as one JSON object on stdout.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [base, args, badArgs] = process.argv.slice(2);

// On a loaded machine a request can reuse a kept-alive connection the server is closing at that
// moment (uvicorn closes idle ones after 5 s): undici then fails with "other side closed" before any
// answer. Such a request never reached the server; it is sent once more (every call here is
// stateless and read-only).
async function fetchOnce(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error?.cause?.code !== "UND_ERR_SOCKET") throw error;
    return fetch(url, init);
  }
}

const client = new Client({ name: "dragonroll-test", version: "0.1.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { fetch: fetchOnce }));
const tools = await client.listTools();
const resources = await client.listResources();
const dice = await client.readResource({ uri: "dragonroll://docs/dice.md" });
const call = await client.callTool({ name: "dos", arguments: JSON.parse(args) });
const bad = await client.callTool({ name: "dos", arguments: JSON.parse(badArgs) });
let unknown = null;
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
} catch (error) {
  unknown = { code: error.code, message: error.message };
}
await client.close();
process.stdout.write(
  JSON.stringify({
    protocolVersion: client.transport?.protocolVersion ?? null,
    server: client.getServerVersion(),
    tools: tools.tools.map((t) => ({ name: t.name, hasInput: !!t.inputSchema, hasOutput: !!t.outputSchema })),
    resources: resources.resources.map((r) => r.uri),
    diceText: dice.contents[0].text,
    call,
    bad,
    unknown,
  }),
);
