// The host side of MCP Apps for the roll card's browser test: @modelcontextprotocol/ext-apps's own
// AppBridge and PostMessageTransport (bundled by esbuild into host.js, an IIFE setting
// window.extApps), as a host such as Claude or VS Code embeds them.
export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
