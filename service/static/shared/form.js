// Shared front-end module: a request as a form, built from its JSON schema (the endpoint's request
// schema in the service's OpenAPI document) and a value (its example), and read back as the body to
// send. Labels are in the reader's language (`texts`, i18n.js's translator); field descriptions
// (English in the document) are read to screen readers, marked lang="en".
//
//   const form = createForm({document, container, doc, schema, value, texts, onChange, idPrefix, omit})
//       document   the host's document; container: the element the form is drawn in (replaced)
//       doc        the OpenAPI document ($refs are resolved in doc.components.schemas)
//       schema     the request schema; value: the starting body (copied; an endpoint's example)
//       onChange(value)   called after every edit with the body as it now is
//       idPrefix   ids of the inputs: `${idPrefix}-<path joined by ->` (default "f": #f-skill)
//       omit       the request's fields the host sets itself (["seed", "lang"]): left out of the
//                  value, never shown nor offered
//   form.value           the body as edited (a plain object: JSON.stringify it to send it)
//   form.setValue(value) replace the body and draw the form again (no onChange)
//   form.setTexts(texts) draw it again in another language
//   form.missing()       the paths of the required fields the body lacks ([["stat"]]): a number
//                        field emptied leaves the body, it does not keep its last value
//   schemaTools(doc)     {deref, branch, starter}: a schema's $ref resolved, the branch of a union
//                        that fits a value, a fresh value for a schema

import { builder } from "./dom.js";
import { slotName } from "./words.js";

export function schemaTools(doc) {
  const schemas = (doc && doc.components && doc.components.schemas) || {};
  const deref = (schema) => {
    let s = schema || {};
    for (let i = 0; i < 20 && s.$ref; i++) s = schemas[s.$ref.split("/").pop()] || {};
    return s;
  };
  // The branch of a union that fits `value`: the non-null one, or the one whose properties hold every
  // key of the value (discriminated unions of steps, decisions, weapons ...).
  const branch = (schema, value) => {
    const s = deref(schema);
    const options = s.anyOf || s.oneOf;
    if (!options) return s;
    const live = options.map(deref).filter((o) => o.type !== "null");
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const fit = live.find((o) => o.properties && keys.every((k) => k in o.properties) &&
        Object.entries(o.properties).every(([k, p]) => !(k in value) || deref(p).const === undefined || deref(p).const === value[k]));
      if (fit) return fit;
    }
    const wanted = Array.isArray(value) ? ["array"] : typeof value === "number" ? ["integer", "number"] : typeof value === "string" ? ["string"] : null;
    return (wanted && live.find((o) => wanted.includes(o.type))) || live[0] || s;
  };
  const starter = (schema) => {
    const s = branch(schema, undefined);
    if (s.default !== undefined && s.default !== null) return structuredClone(s.default);
    if (s.enum) return s.enum[0];
    if (s.const !== undefined) return s.const;
    switch (s.type) {
      case "integer": case "number": return Math.max(0, s.minimum ?? 0);
      case "boolean": return false;
      case "array": return [];
      case "object": return {};
      default: return "";
    }
  };
  return { deref, branch, starter };
}

// The schema of a map's values (`bonuses` by element, `dice` by slot).
function mapValue(s) {
  if (typeof s.additionalProperties === "object") return s.additionalProperties;
  const patterns = Object.values(s.patternProperties || {});
  return patterns[0] || {};
}

// An item of a list of records: its own name or id where it has one, else "<item> <n>".
function itemLabel(texts, listKey, item, index) {
  const own = item && typeof item === "object" && !Array.isArray(item) ? item.name || item.id : null;
  if (typeof own === "string" && own) return own;
  return texts.t("{item} {n}", { item: texts.item(listKey), n: index + 1 });
}

// The paths of the required fields `value` lacks, in its records at any depth.
function missingIn(value, schema, branch, path = []) {
  if (Array.isArray(value)) {
    const items = branch(schema, value).items || {};
    return value.flatMap((item, i) => missingIn(item, items, branch, path.concat(i)));
  }
  if (!value || typeof value !== "object") return [];
  const s = branch(schema, value);
  const props = s.properties || {};
  const absent = (s.required || []).filter((k) => !(k in value)).map((k) => path.concat(k));
  const below = Object.entries(value).flatMap(([k, v]) => (k in props ? missingIn(v, props[k], branch, path.concat(k)) : []));
  return absent.concat(below);
}

export function createForm(options) {
  const { document, container, doc, onChange = () => {}, idPrefix = "f", omit = [] } = options;
  const el = builder(document);
  const { deref, branch, starter } = schemaTools(doc);
  const kept = (v) => {
    const copy = structuredClone(v || {});
    for (const key of omit) delete copy[key];
    return copy;
  };
  let texts = options.texts;
  let value = kept(options.value);
  const schema = options.schema || {};

  const fieldId = (path) => `${idPrefix}-` + path.join("-").replace(/[^A-Za-z0-9_-]/g, "_");
  const changed = () => onChange(value);
  const setAt = (path, v) => {
    if (path.length === 0) { value = v; changed(); return; }
    let node = value;
    for (const key of path.slice(0, -1)) node = node[key];
    const last = path[path.length - 1];
    if (v !== undefined) node[last] = v;
    else if (Array.isArray(node)) node.splice(last, 1);
    else delete node[last];
    changed();
  };
  // A field's label: its name in the chosen language; a list's items by their names or numbers; a
  // map's key a value in words (an element of `bonuses`) or a dice slot (a key of `dice`).
  const labelOf = (key) => {
    if (typeof key === "string") return texts.field(key);
    if (key.mapKey !== undefined) return key.dice ? slotName(texts, key.mapKey, value) : texts.value(key.mapKey);
    return key.label;
  };

  function objectFields(node, s0, path, label) {
    const s = branch(s0, node);
    const box = el("fieldset", {}, el("legend", { text: label }));
    const props = s.properties || {};
    for (const [key, item] of Object.entries(node)) {
      const own = key in props;
      box.append(field(item, own ? props[key] : mapValue(s), path.concat(key), own ? key : { mapKey: key, dice: Boolean(s.patternProperties) }));
    }
    const missing = Object.keys(props).filter((k) => !(k in node) && !(path.length === 0 && omit.includes(k)));
    if (missing.length) box.append(el("div", { class: "row-actions" }, addPicker(node, props, missing, path, label)));
    return box;
  }

  function addPicker(node, props, missing, path, label) {
    const pick = el("select", { id: fieldId(path.concat("add")), "aria-label": texts.t("Add a field to {name}", { name: label }) },
      el("option", { value: "", text: texts.t("Add a field…") }),
      ...missing.map((k) => el("option", { value: k, text: texts.field(k) })));
    pick.addEventListener("change", () => {
      const key = pick.value;
      if (!key) return;
      node[key] = starter(props[key]);
      changed();
      render();
      const added = document.getElementById(fieldId(path.concat(key)));
      if (added) added.focus();
    });
    return pick;
  }

  function field(item, s, path, key) {
    if (Array.isArray(item)) return arrayField(item, s, path, key);
    if (item !== null && typeof item === "object") return objectFields(item, s, path, labelOf(key));
    return scalarField(item, s, path, key);
  }

  function listInput(items, numeric, path, name) {
    const id = fieldId(path);
    const input = el("input", { type: "text", id, value: items.join(", "), dir: "ltr", inputmode: numeric ? "numeric" : null, "aria-describedby": id + "-help" });
    input.addEventListener("change", () => {
      const parts = input.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
      setAt(path, parts.map((p) => (numeric && /^-?\d+$/.test(p) ? Number(p) : p)));
    });
    return el("div", { class: "field" },
      el("label", { for: id, text: name }),
      el("div", {}, input, el("span", { class: "help", id: id + "-help", text: " " + texts.t("comma-separated") })));
  }

  function arrayField(items, s0, path, key) {
    const s = branch(s0, items);
    const itemSchema = s.items || {};
    const name = labelOf(key);
    const scalar = items.every((v) => v === null || typeof v !== "object");
    if (scalar && !(items.length === 0 && deref(itemSchema).type === "object")) {
      return listInput(items, ["integer", "number"].includes(branch(itemSchema, 0).type), path, name);
    }
    const listKey = typeof key === "string" ? key : path[path.length - 1];
    const box = el("fieldset", {}, el("legend", { text: name }));
    items.forEach((item, i) => {
      const label = itemLabel(texts, listKey, item, i);
      const part = field(item, itemSchema, path.concat(i), { label });
      const remove = el("button", { type: "button", class: "small", text: texts.t("Remove: {name}", { name: label }) });
      remove.addEventListener("click", () => { setAt(path.concat(i), undefined); render(); });
      part.append(el("div", { class: "row-actions" }, remove));
      box.append(part);
    });
    const add = el("button", { type: "button", class: "small", text: texts.t("Add to {name}", { name }) });
    add.addEventListener("click", () => {
      items.push(items.length ? structuredClone(items[items.length - 1]) : starter(itemSchema));
      setAt(path, items);
      render();
    });
    box.append(el("div", { class: "row-actions" }, add));
    return box;
  }

  function scalarInput(item, s, path, help) {
    const id = fieldId(path);
    if (s.enum || (s.anyOf && item === null)) {
      const input = el("select", { id, "aria-describedby": help },
        ...(s.enum || []).map((o) => el("option", { value: o, text: texts.value(o), selected: o === item })));
      input.addEventListener("change", () => setAt(path, input.value));
      return input;
    }
    if (s.type === "boolean" || typeof item === "boolean") {
      const input = el("input", { type: "checkbox", id, checked: Boolean(item), "aria-describedby": help });
      input.addEventListener("change", () => setAt(path, input.checked));
      return input;
    }
    if (s.type === "integer" || s.type === "number" || typeof item === "number") {
      const input = el("input", { type: "number", id, value: item, step: 1, min: s.minimum, max: s.maximum, "aria-describedby": help });
      input.addEventListener("change", () => {
        if (input.value !== "") setAt(path, Number(input.value));
        else if (typeof path[path.length - 1] === "string") setAt(path, undefined); // the field left empty
      });
      return input;
    }
    const input = el("input", { type: "text", id, value: item ?? "", dir: "auto", "aria-describedby": help });
    input.addEventListener("change", () => setAt(path, input.value));
    return input;
  }

  function scalarField(item, s0, path, key) {
    const s = branch(s0, item);
    const id = fieldId(path);
    // The schema's description is English: screen readers are told so.
    const help = s.description ? id + "-help" : null;
    return el("div", { class: "field" },
      el("label", { for: id, text: labelOf(key) }),
      el("div", {}, scalarInput(item, s, path, help),
        help ? el("span", { class: "visually-hidden", id: help, lang: "en", text: s.description }) : null));
  }

  function render() {
    container.classList.add("dr-form");
    container.replaceChildren(objectFields(value, schema, [], texts.t("Request")));
  }

  render();
  return {
    get value() { return value; },
    setValue(next) { value = kept(next); render(); },
    setTexts(next) { texts = next; render(); },
    missing: () => missingIn(value, schema, branch),
    render,
  };
}
