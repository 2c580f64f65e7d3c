// The dialog (docs/foundry.md, "Rolling without JSON"): a GM picks a system and one of its rolls
// from the service's own list (`GET /systems`), fills the request as a form built from the
// endpoint's schema with its example filled in, sees the odds before rolling where the endpoint has
// them, picks who sees the result, and rolls: the card goes to chat (the api's function of the
// endpoint) and the answer is shown in the dialog too.
//
// The form, the answer's card in the dialog, the odds and the texts are the shared modules of the
// playground and the MCP roll card (service/static/shared/, in the module as shared/: form.js,
// card.js, odds.js, service.js, i18n.js), loaded when the dialog first opens; the labels of the
// form come from the service's catalogs (static/playground/i18n/<lang>.json), the dialog's own from
// lang/<lang>.json. The window is Foundry's ApplicationV2 (v12 onwards), which renders any subclass
// that defines `_renderHTML` and `_replaceHTML`
// (https://foundryvtt.com/api/v12/classes/foundry.applications.api.ApplicationV2.html,
// https://foundryvtt.com/api/v14/modules/foundry.applications.api.html): `DEFAULT_OPTIONS` with
// `tag: "form"` and `form.handler` (the Roll button, and Enter in a field). Nothing touches a
// Foundry global before the dialog opens.

import { availableModes, chosenMode } from "./modes.mjs";

export const DIALOG_ID = "dragonroll-dialog";
/** What the module sets itself: never a field of the form. */
const ENVELOPE = ["seed", "dice", "lang", "foundry"];

/** The shared modules (shared/, the playground's), loaded once. */
let shared = null;
export async function loadShared() {
  shared ??= Promise.all([
    import("./shared/card.js"),
    import("./shared/dom.js"),
    import("./shared/form.js"),
    import("./shared/i18n.js"),
    import("./shared/service.js"),
  ]).then(([card, dom, form, i18n, service]) => ({ ...card, ...dom, ...form, ...i18n, ...service }));
  return shared;
}

/** The resolving endpoints a GM can roll, by system (`GET /systems` and the document: discover()). */
export function rollable(systems, paths) {
  const resolving = new Set(systems.flatMap((s) => s.endpoints.map((e) => e.path)));
  return systems
    .map((system) => ({ system, endpoints: paths.filter((p) => p.system === system.id && resolving.has(p.path)) }))
    .filter(({ endpoints }) => endpoints.length);
}

/** An endpoint's example as the form's first value: without what the module sets itself. */
export function startingRequest(example) {
  const request = structuredClone(example ?? {});
  for (const key of ENVELOPE) delete request[key];
  return request;
}

/** The modes a user can pick for the card: `[{value, label}]` (labels localized). */
export function modeChoices(config, localize) {
  return Object.entries(availableModes(config)).map(([value, entry]) => ({
    value,
    label: localize(typeof entry === "string" ? entry : (entry?.label ?? value)),
  }));
}

/** The state of one dialog, and the work its controls do. `ctx`: `{api, baseUrl, lang, globals}`,
 * `globals` what it reads of Foundry: `{config, settings, localize, document, fetch}`. */
export class DialogState {
  constructor(ctx) {
    this.ctx = ctx;
    this.loaded = null;
    this.texts = null;
    this.system = null;
    this.endpoint = null;
    this.request = {};
    this.form = null;
    this.oddsTimer = 0;
    this.oddsSeq = 0;
  }

  async load() {
    const lib = await loadShared();
    const { baseUrl, lang, globals } = this.ctx;
    this.lib = lib;
    this.service = lib.createService({ baseUrl, fetch: (...args) => globals.fetch(...args) });
    const base = `${baseUrl.replace(/\/+$/, "")}/static/playground/i18n/`;
    const [loaded, texts] = await Promise.all([
      this.service.load(),
      lib.loadTexts(lang, { base, fetch: (...args) => globals.fetch(...args) }).catch(() => lib.translator()),
    ]);
    this.loaded = { ...loaded, groups: rollable(loaded.systems, loaded.paths) };
    this.texts = texts;
    this.choose(this.loaded.groups[0]?.system.id, null);
  }

  choose(systemId, path) {
    const group = this.loaded.groups.find((g) => g.system.id === systemId) ?? this.loaded.groups[0];
    this.system = group?.system ?? null;
    this.endpoint = group?.endpoints.find((e) => e.path === path) ?? group?.endpoints[0] ?? null;
    this.request = startingRequest(this.endpoint?.example);
    this.form = null;
  }

  systemName(system) {
    return system.name?.[this.texts.lang] ?? system.name?.en ?? system.id;
  }

  summary(endpoint) {
    return this.texts.inContext("summary", endpoint.summary) || endpoint.summary;
  }
}

/** The dialog's content: the pickers, the form, the odds, who sees it, Roll, the status and the
 * answer. Built in `state.ctx.globals.document`. */
export function buildContent(state) {
  const { globals } = state.ctx;
  const { localize, document } = globals;
  const el = state.lib.builder(document);
  const texts = state.texts;
  const pick = (name, label, options, chosen, onChange) => {
    const select = el("select", { name, id: `${DIALOG_ID}-${name}`, onchange: (e) => onChange(e.target.value) },
      options.map(({ value, label: text }) => el("option", { value, text, selected: value === chosen })));
    return el("div", { class: "form-group" }, el("label", { for: select.id, text: label }), select);
  };
  const groups = state.loaded.groups;
  const formHost = el("div", { class: "dragonroll-request" });
  const odds = el("section", { class: "dragonroll-odds", "aria-live": "polite" });
  const status = el("p", { class: "dragonroll-status", role: "status" });
  const result = el("section", { class: "dragonroll-result" });
  const body = el("div", { class: "dragonroll-dialog-body", lang: texts.lang, dir: texts.dir },
    pick("system", localize("DRAGONROLL.Dialog.System"), groups.map((g) => ({ value: g.system.id, label: state.systemName(g.system) })), state.system?.id, (id) => {
      state.choose(id, null);
      state.rerender();
    }),
    pick("endpoint", localize("DRAGONROLL.Dialog.Endpoint"), (groups.find((g) => g.system.id === state.system?.id)?.endpoints ?? []).map((e) => ({ value: e.path, label: state.summary(e) })), state.endpoint?.path, (path) => {
      state.choose(state.system.id, path);
      state.rerender();
    }),
    formHost,
    el("h3", { text: localize("DRAGONROLL.Dialog.Odds") }),
    odds,
    pick("mode", localize("DRAGONROLL.Dialog.Mode"), modeChoices(globals.config, localize), chosenMode(globals), () => {}),
    el("button", { type: "submit", name: "roll", class: "dragonroll-roll", text: localize("DRAGONROLL.Dialog.Roll") }),
    status,
    result,
  );
  state.parts = { formHost, odds, status, result, body };
  state.form = state.lib.createForm({
    document, container: formHost, doc: state.loaded.doc, schema: state.endpoint?.requestSchema ?? {}, value: state.request, texts,
    idPrefix: `${DIALOG_ID}-f`, onChange: (value) => {
      state.request = value;
      scheduleOdds(state);
    },
  });
  scheduleOdds(state, 0);
  return body;
}

/** The odds of the request as it is now, a moment after the last edit (where the endpoint has them). */
export function scheduleOdds(state, delay = 300) {
  const { odds } = state.parts;
  clearTimeout(state.oddsTimer);
  if (!state.endpoint?.odds) {
    odds.replaceChildren(state.lib.builder(state.ctx.globals.document)("p", { class: "help", text: state.ctx.globals.localize("DRAGONROLL.Dialog.NoOdds") }));
    return;
  }
  const seq = ++state.oddsSeq;
  state.oddsTimer = setTimeout(async () => {
    try {
      const answer = await state.service.odds(state.endpoint, state.request, state.texts.lang);
      if (seq !== state.oddsSeq || !answer) return;
      if (answer.ok) odds.replaceChildren(state.lib.oddsView({ document: state.ctx.globals.document, texts: state.texts, odds: answer.odds, request: answer.request }));
      else state.lib.renderProblem(odds, { ok: false, status: answer.odds?.status, body: answer.odds, request: answer.request, language: answer.language }, { document: state.ctx.globals.document, texts: state.texts });
    } catch (error) {
      if (seq === state.oddsSeq) odds.textContent = String(error.message ?? error);
    }
  }, delay);
}

/** Roll: the request (a new seed each time) through the api, the card to chat in the chosen mode,
 * the answer shown in the dialog; a refusal shown there too (the api has notified it). */
export async function roll(state, mode) {
  const { status, result } = state.parts;
  const { localize, document } = state.ctx.globals;
  const request = structuredClone(state.request);
  status.textContent = localize("DRAGONROLL.Dialog.Rolling");
  try {
    const { answer, lang } = await state.ctx.api.resolve(state.endpoint.path, request, { mode });
    status.textContent = localize("DRAGONROLL.Dialog.Posted");
    state.lib.renderAnswer(result, { ok: true, status: 200, body: answer, request, language: lang }, { document, texts: state.texts, outcome: state.endpoint.outcome });
    return answer;
  } catch (error) {
    status.textContent = localize("DRAGONROLL.Dialog.Refused");
    const problem = error.problem ?? { title: String(error.message ?? error), status: 0 };
    state.lib.renderProblem(result, { ok: false, status: problem.status, body: problem, request, language: problem.lang ?? "en" }, { document, texts: state.texts });
    return null;
  }
}

/** The ApplicationV2 subclass (made when first opened: `ApplicationV2` is Foundry's). */
export function dialogClass(ApplicationV2) {
  return class DragonrollDialog extends ApplicationV2 {
    static DEFAULT_OPTIONS = {
      id: DIALOG_ID,
      tag: "form",
      classes: ["dragonroll-dialog"],
      window: { title: "DRAGONROLL.Dialog.Title", icon: "fa-solid fa-dragon", resizable: true },
      position: { width: 560, height: 680 },
      form: { handler: DragonrollDialog.submit, closeOnSubmit: false, submitOnChange: false },
    };

    constructor(options = {}) {
      super(options);
      this.state = new DialogState(options.dragonroll);
      this.state.rerender = () => this.render();
    }

    async _prepareContext() {
      if (!this.state.loaded) await this.state.load();
      return {};
    }

    async _renderHTML() {
      return buildContent(this.state);
    }

    _replaceHTML(result, content) {
      content.replaceChildren(result);
    }

    /** The form's handler: `this` is the dialog. */
    static async submit(event, form) {
      event?.preventDefault?.();
      const mode = form.querySelector?.(`[name="mode"]`)?.value || null;
      await roll(this.state, mode);
    }
  };
}

let DialogClass = null;

/** Opens the dialog (or brings the open one forward). `ctx`: `{api, url(), lang()}`. */
export async function openDialog({ api, url, lang }) {
  const open = foundry.applications.instances?.get(DIALOG_ID);
  if (open) {
    open.bringToFront?.();
    return open;
  }
  await loadShared();
  DialogClass ??= dialogClass(foundry.applications.api.ApplicationV2);
  const globals = {
    config: CONFIG,
    settings: game.settings,
    localize: (key) => game.i18n.localize(key),
    document: globalThis.document,
    fetch: (...args) => globalThis.fetch(...args),
  };
  const app = new DialogClass({ dragonroll: { api, baseUrl: url(), lang: lang(), globals } });
  await app.render({ force: true });
  return app;
}
