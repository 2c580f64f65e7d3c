// Start a real dragonroll (`.venv/bin/python -m service`) on a free loopback port for the e2e tests.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PYTHON = process.env.DRAGONROLL_PYTHON ?? `${ROOT}.venv/bin/python`;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves to `{ baseUrl, stop }` once /readyz answers 200 (20 s at most). */
export async function startServer() {
  const port = await freePort();
  const proc = spawn(PYTHON, ["-m", "service", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = () => new Promise((resolve) => {
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
