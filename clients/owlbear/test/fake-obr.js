// A stand-in for the Owlbear SDK's `OBR` object, with the calls src/logic.js makes: broadcast
// (delivered to this client's subscribers for LOCAL and ALL, recorded for every destination),
// room metadata, notifications, the theme (the SDK's Theme type: mode, primary, secondary,
// background, text; these colours are the stand-in's, not Owlbear's).
export const THEMES = {
  DARK: {
    mode: "DARK",
    primary: { light: "#d9caff", main: "#bb99ff", dark: "#8c6bd9", contrastText: "#1b1530" },
    secondary: { light: "#ffd0c2", main: "#ee99ff", dark: "#b86bc7", contrastText: "#1b1530" },
    background: { default: "#1e2231", paper: "#222639" },
    text: { primary: "#ffffff", secondary: "#c9cbd6", disabled: "#8a8da0" },
  },
  LIGHT: {
    mode: "LIGHT",
    primary: { light: "#8f6fe0", main: "#5b3cc4", dark: "#3f2596", contrastText: "#ffffff" },
    secondary: { light: "#d58ae0", main: "#a64fb8", dark: "#773485", contrastText: "#ffffff" },
    background: { default: "#f2f1f7", paper: "#ffffff" },
    text: { primary: "#1b1530", secondary: "#4d4a5e", disabled: "#767384" },
  },
};

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
