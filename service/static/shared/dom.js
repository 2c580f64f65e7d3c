// Shared front-end module: elements built in the host's document (the playground's page, a Foundry
// dialog, an MCP App's frame), so no shared module touches a global `document`.
//
//   const el = builder(document)
//   el(tag, {text, class, id, on<event>: handler, <attribute>: value}, ...children)
//       an element; an attribute false, null or undefined is left out, true is present and empty;
//       children are nodes or strings (arrays are flattened, null and false skipped)
//   svg(document, tag, {attribute: value})   an SVG element

const SVG = "http://www.w3.org/2000/svg";

export function builder(document) {
  return function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === false || value === null || value === undefined) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  };
}

export function svg(document, tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}
