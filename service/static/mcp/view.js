// The view side of an MCP App (the extension io.modelcontextprotocol/ui, SEP-1865): JSON-RPC 2.0 with
// the host over postMessage, as the specification's "Communication Protocol" and "Lifecycle" sections
// describe it. No SDK: the frame has no network to load one from, and these few messages are all a
// card needs (the host side is tested against @modelcontextprotocol/ext-apps's AppBridge).
//
//   connect({window, appInfo, onInput, onResult, onContext}) -> Promise<{hostContext, callTool}>
//       sends ui/initialize, then ui/notifications/initialized; calls onInput(arguments) at
//       ui/notifications/tool-input, onResult(result) at ui/notifications/tool-result,
//       onContext(fields) at ui/notifications/host-context-changed; answers ping and
//       ui/resource-teardown; reports the document's size (ui/notifications/size-changed).
//       callTool(name, arguments) -> Promise<CallToolResult>: tools/call through the host.

export const PROTOCOL_VERSION = "2026-01-26";

export function connect({ window, appInfo, onInput, onResult, onContext }) {
  const host = window.parent;
  const pending = new Map();
  let next = 1;
  const post = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    post({ id, method, params });
  });
  const notify = (method, params) => post({ method, params });
  const notifications = {
    "ui/notifications/tool-input": (params) => onInput(params.arguments || {}),
    "ui/notifications/tool-result": (params) => onResult(params),
    "ui/notifications/host-context-changed": (params) => onContext(params),
  };

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== host || !message || message.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message || "the host refused"));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      const known = message.method === "ping" || message.method === "ui/resource-teardown";
      post(known ? { id: message.id, result: {} } : { id: message.id, error: { code: -32601, message: `${message.method} is not handled by this view` } });
      return;
    }
    const handle = notifications[message.method];
    if (handle) handle(message.params || {});
  });

  return request("ui/initialize", {
    appInfo,
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: PROTOCOL_VERSION,
  }).then((result) => {
    notify("ui/notifications/initialized", {});
    reportSize(window, notify);
    return {
      hostContext: (result && result.hostContext) || {},
      callTool: (name, args) => request("tools/call", { name, arguments: args }),
    };
  });
}

// The document's size, each time it changes (a host sizes the frame to it).
function reportSize(window, notify) {
  const root = window.document.documentElement;
  let last = "";
  const send = () => {
    const size = { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key !== last) {
      last = key;
      notify("ui/notifications/size-changed", size);
    }
  };
  new window.ResizeObserver(send).observe(root);
  send();
}
