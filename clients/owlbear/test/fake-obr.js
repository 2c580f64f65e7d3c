// A stand-in for the Owlbear SDK's `OBR` object, with the calls src/logic.js makes: broadcast
// (delivered to this client's subscribers for LOCAL and ALL, recorded for every destination),
// room metadata, notifications.
export function fakeObr({ metadata = {}, onSend = () => {} } = {}) {
  const subscribers = new Map();
  const sent = [];
  const notifications = [];
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
    notification: {
      async show(message, variant) {
        notifications.push({ message, variant });
        return String(notifications.length);
      },
    },
  };
  return obr;
}
