// A real dragonroll for the end-to-end test: uvicorn on 127.0.0.1 (DRAGONROLL_FOUNDRY_PORT, else
// 8741), started from the repository's .venv and stopped after; the approach of
// clients/typescript/test/server.js.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PYTHON = process.env.DRAGONROLL_PYTHON ?? `${ROOT}.venv/bin/python`;
const PORT = process.env.DRAGONROLL_FOUNDRY_PORT ?? "8741";

/** Resolves to `{ baseUrl, stop }` once /readyz answers 200 (20 s at most). */
export async function startServer() {
  const args = ["-m", "uvicorn", "service.app:create_app", "--factory", "--host", "127.0.0.1", "--port", PORT];
  const proc = spawn(PYTHON, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const baseUrl = `http://127.0.0.1:${PORT}`;
  const stop = () =>
    new Promise((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", resolve);
      proc.kill("SIGTERM");
    });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && proc.exitCode === null) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`dragonroll did not get ready on ${baseUrl}: ${stderr}`);
}
