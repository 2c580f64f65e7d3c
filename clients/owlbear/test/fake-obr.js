// A stand-in for the Owlbear SDK's `OBR` object, with the calls src/logic.js makes: broadcast
// (delivered to this client's subscribers for LOCAL and ALL, recorded for every destination),
// room metadata, notifications, the theme (the SDK's Theme type: mode, primary, secondary,
// background, text; tests/owlbear/themes.json, the browser harness's too: the stand-in's colours,
// not Owlbear's).
import { readFileSync } from "node:fs";
export const THEMES = JSON.parse(readFileSync(new URL("../../../tests/owlbear/themes.json", import.meta.url), "utf8"));

export function fakeObr({ metadata = {}, onSend = () => {}, theme = "DARK" } = {}) {
  const subscribers = new Map();
  const sent = [];
  const notifications = [];
  const themeListeners = new Set();
  let current = THEMES[theme];
  const obr = {
    sent,
    notifications,
    metadata,
    broadcast: {
      async sendMessage(channel, data, options) {
        sent.push({ channel, data, destination: options?.destination ?? "REMOTE" });
        if (options?.destination !== "REMOTE") obr.deliver(channel, data);
        onSend(channel, data, options);
      },
      onMessage(channel, callback) {
        if (!subscribers.has(channel)) subscribers.set(channel, new Set());
        subscribers.get(channel).add(callback);
        return () => subscribers.get(channel).delete(callback);
      },
    },
    deliver(channel, data, connectionId = "local") {
      for (const callback of [...(subscribers.get(channel) ?? [])]) callback({ data, connectionId });
    },
    listeners(channel) {
      return subscribers.get(channel)?.size ?? 0;
    },
    room: {
      async getMetadata() {
        return obr.metadata;
      },
      async setMetadata(update) {
        Object.assign(obr.metadata, update);
      },
    },
    theme: {
      async getTheme() {
        return structuredClone(current);
      },
      onChange(callback) {
        themeListeners.add(callback);
        return () => themeListeners.delete(callback);
      },
    },
    /** The player switches Owlbear's theme: every onChange listener hears it. */
    setTheme(mode) {
      current = THEMES[mode];
      for (const callback of themeListeners) callback(structuredClone(current));
    },
    notification: {
      async show(message, variant) {
        notifications.push({ message, variant });
        return String(notifications.length);
      },
    },
  };
  return obr;
}
