// The requests of the dragonroll module (docs/foundry.md): the fetch arguments of a call, its answer
// (with the language the service wrote it in: Content-Language) or a DragonrollError carrying the
// problem, and why a request got no answer at all. Nothing here touches a Foundry global.

export const DEFAULT_URL = "http://127.0.0.1:8000";

/** The error thrown for an answer that is not a success: `problem` is its problem+json. */
export class DragonrollError extends Error {
  constructor(problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = "DragonrollError";
    this.problem = problem;
    this.status = problem.status;
  }
}

/** The address in use: the player's own (a client setting) when set, else the world's. */
export function serviceUrl(own, world) {
  const mine = String(own ?? "").trim();
  return mine || String(world ?? "").trim() || DEFAULT_URL;
}

/**
 * The fetch arguments of one request: `{url, init}`. Pure: `baseUrl` is the address in use, `lang`
 * the game's language; `foundry` adds `"foundry": true` to the body (an endpoint that draws dice).
 */
export function buildRequest(baseUrl, path, body, { lang, foundry = true } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, application/problem+json",
  };
  if (lang) headers["accept-language"] = lang;
  return {
    url: `${String(baseUrl).replace(/\/+$/, "")}${path}`,
    init: {
      method: "POST",
      headers,
      body: JSON.stringify(foundry ? { ...body, foundry: true } : body),
    },
  };
}

/**
 * Sends a built request with `fetchFn`: `{answer, lang}`, the answer and the language its texts are
 * in (the `Content-Language` header, else null), or a DragonrollError with its problem. A request
 * that got no answer at all (`status: 0`) carries `url` for the diagnosis.
 */
export async function exchange(fetchFn, { url, init }) {
  let response;
  try {
    response = await fetchFn(url, init);
  } catch (cause) {
    throw new DragonrollError({ title: "unreachable", status: 0, detail: `${url}: ${cause.message}`, url });
  }
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (response.ok && data !== undefined) return { answer: data, lang: contentLanguage(response.headers) };
  const problem =
    data && typeof data === "object" && typeof data.title === "string"
      ? data
      : { title: response.statusText || "error", status: response.status, detail: text.slice(0, 200) };
  throw new DragonrollError(problem);
}

/** `exchange`'s answer alone. */
export async function send(fetchFn, request) {
  return (await exchange(fetchFn, request)).answer;
}

/** The first language of a `Content-Language` header (`ar`), lower case; null without one. */
export function contentLanguage(headers) {
  const value = headers?.get?.("content-language") ?? "";
  const first = value.split(",")[0].trim().toLowerCase();
  return /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(first) ? first : null;
}

// ---------------------------------------------------------------- why a request got no answer

const RANK = { public: 0, local: 1, loopback: 2 };

/** The address space of a host name as browsers class it: `loopback`, `local` or `public`. */
export function addressSpace(hostname) {
  const host = String(hostname).toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1") {
    return "loopback";
  }
  const local =
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    /^f[cd][0-9a-f]{0,2}:/.test(host) ||
    /^fe[89ab][0-9a-f]?:/.test(host) ||
    host.endsWith(".local") ||
    (!host.includes(".") && !host.includes(":")); // a bare name on the local network
  return local ? "local" : "public";
}

/**
 * The likely reason a request to `serviceUrl` got no answer, from the game's page (`pageUrl`) and
 * the browser's local-network permission (`"granted"`, `"denied"`, `"prompt"` or null: unknown):
 * - `address`: not an http:// or https:// URL;
 * - `https`: an HTTPS game and an http:// service that is not this machine (127.0.0.1, localhost):
 *   mixed content, which every browser blocks; a shared service needs an https:// address;
 * - `permission`: a service nearer than the game (this machine or the local network, a game on the
 *   internet), which Chrome (142+) and Edge (143+) reach only with the player's permission;
 * - `insecure`: the same from an http:// game, which cannot be given that permission at all;
 * - `down`: nothing answered there (not running, a wrong address or port, or CORS refused).
 */
export function unreachableCause(url, { pageUrl, permission = null } = {}) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return "address";
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return "address";
  let page = null;
  try {
    page = pageUrl ? new URL(pageUrl) : null;
  } catch {
    page = null;
  }
  const to = addressSpace(target.hostname);
  if (page?.protocol === "https:" && target.protocol === "http:" && to !== "loopback") return "https";
  if (permission === "denied") return "permission";
  const from = page ? addressSpace(page.hostname) : "public";
  if (RANK[to] > RANK[from]) {
    // Only a secure (https://) page may ask for the permission at all.
    if (page && page.protocol !== "https:") return "insecure";
    if (permission !== "granted") return "permission";
  }
  return "down";
}

/**
 * The notification of a failure: what failed and, for no answer at all, its likely cause (see
 * `unreachableCause`). `format(key, data)` is Foundry's `game.i18n.format`.
 */
export function failureText(error, format, { pageUrl, permission } = {}) {
  const { title, detail, status, url } = error.problem;
  if (status) return `${format("DRAGONROLL.Error.Answer", {})}: ${title}${detail ? ` (${detail})` : ""}`;
  const target = url ?? "";
  const cause = unreachableCause(target, { pageUrl, permission });
  let host = target;
  try {
    host = new URL(target).host;
  } catch {
    // not a URL: the cause says so
  }
  const reason = format(`DRAGONROLL.Error.Cause.${cause[0].toUpperCase()}${cause.slice(1)}`, { url: target, host });
  return `${format("DRAGONROLL.Error.Unreachable", { url: target })}: ${reason}`;
}

/** The local-network permission of this page (Chrome and Edge name it; elsewhere null). */
export async function localNetworkPermission(permissions) {
  if (!permissions?.query) return null;
  for (const name of ["local-network-access", "loopback-network", "local-network"]) {
    try {
      const { state } = await permissions.query({ name });
      if (state) return state;
    } catch {
      // a name this browser does not know
    }
  }
  return null;
}

