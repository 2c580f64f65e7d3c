// The stand-in host's steps (SEP-1865, "Lifecycle"): read the tool's ui:// resource, load it in a
// sandboxed frame under the restrictive CSP a host must apply when the resource declares no domain,
// connect an AppBridge to it, and after its ui/notifications/initialized send the tool's input and
// then its result; every tools/call the card makes goes to the server (window.mcp).
"use strict";

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src data:; media-src data:; font-src data:; object-src 'none'; connect-src 'none'; " +
  "frame-src 'none'; base-uri 'none'; form-action 'none'";

window.host = { calls: [], sizes: [], violations: [], initialized: 0 };

window.showCard = async function showCard({ tool, args, locale }) {
  const { AppBridge, PostMessageTransport } = window.extApps;
  const listed = await window.mcp("tools/list", {});
  const spec = listed.tools.find((t) => t.name === tool);
  const uri = spec._meta.ui.resourceUri;
  const read = await window.mcp("resources/read", { uri });
  const [content] = read.contents;
  if (content.mimeType !== "text/html;profile=mcp-app") throw new Error(`not an MCP App: ${content.mimeType}`);
  const html = content.text.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  const frame = document.getElementById("view");
  const bridge = new AppBridge(null, { name: "dragonroll-test-host", version: "1.0.0" },
    { serverTools: {}, openLinks: {} },
    { hostContext: { locale, theme: "light", displayMode: "inline", availableDisplayModes: ["inline"], toolInfo: { tool: spec } } });
  bridge.oncalltool = async (params) => {
    window.host.calls.push(params);
    return window.mcp("tools/call", params);
  };
  bridge.onsizechange = (size) => {
    window.host.sizes.push(size);
    if (size.height) frame.style.height = `${size.height + 2}px`;
  };
  bridge.oninitialized = async () => {
    window.host.initialized += 1;
    await bridge.sendToolInput({ arguments: args });
    const result = await window.mcp("tools/call", { name: tool, arguments: args });
    await bridge.sendToolResult(result);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  window.host.bridge = bridge;
  frame.srcdoc = html;
};
