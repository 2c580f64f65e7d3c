// Shared front-end module: the service as a page reaches it. The host passes the base URL ("" for the
// page's own origin) and its fetch function; nothing else is assumed of the page.
//
//   discover(systems, doc)          the endpoints a form can fill, from `GET /systems` (each resolving
//                                   endpoint with its odds path and its outcome's event codes, then its
//                                   simulation) and the OpenAPI document (each one's example and
//                                   request schema): [{path, system, summary, example, requestSchema,
//                                   odds, outcome}]
//   createService({baseUrl, fetch}) the calls:
//     service.load()                GET /systems and GET /openapi.json: {systems, doc, paths}; an
//                                   answer not 200 is an Error with its `path` and `status`
//     service.send(path, request, lang)   POST the request: the answer the card shows,
//                                   {status, ok, body, path, request, language} (`language` the
//                                   answer's Content-Language; a problem without one is English)
//     service.odds(endpoint, request, lang)  POST the endpoint's odds path with the request less its
//                                   seed and dice: {ok, odds, request}, or null when it has none

export function discover(systems, doc) {
  const paths = [];
  const add = (system, path, summary, odds, outcome) => {
    const op = (doc.paths[path] || {}).post;
    if (!op || !op.requestBody) return;
    const media = op.requestBody.content["application/json"] || {};
    const example = media.example || Object.values(media.examples || {}).map((e) => e.value)[0] || {};
    paths.push({ path, system: system.id, summary: summary || op.summary || path, example, requestSchema: media.schema || {}, odds, outcome });
  };
  for (const system of systems) {
    for (const e of system.endpoints) {
      add(system, e.path, e.summary, e.odds || null, e.outcome || []);
      if (e.simulate) add(system, e.simulate, null, null, []);
    }
  }
  return paths;
}

export function createService({ baseUrl = "", fetch: fetchFn = globalThis.fetch } = {}) {
  const url = (path) => `${baseUrl.replace(/\/+$/, "")}${path}`;
  const post = (path, body, lang) => fetchFn(url(path), {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": lang },
    body: JSON.stringify(body),
  });
  return {
    async load() {
      const [systems, doc] = await Promise.all(["/systems", "/openapi.json"].map(async (path) => {
        const response = await fetchFn(url(path));
        if (!response.ok) throw Object.assign(new Error(`${path} answered ${response.status}`), { path, status: response.status });
        return response.json();
      }));
      return { systems, doc, paths: discover(systems, doc) };
    },
    async send(path, request, lang) {
      const response = await post(path, request, lang);
      const body = await response.json();
      const language = response.headers.get("content-language") || (response.ok ? lang : "en");
      return { status: response.status, ok: response.ok, body, path, request: structuredClone(request), language };
    },
    async odds(endpoint, request, lang) {
      if (!endpoint || !endpoint.odds) return null;
      const body = structuredClone(request);
      delete body.seed;
      delete body.dice;
      const response = await post(endpoint.odds, body, lang);
      const language = response.headers.get("content-language") || (response.ok ? lang : "en");
      return { ok: response.ok, odds: await response.json(), request: body, language };
    },
  };
}
