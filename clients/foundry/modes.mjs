// Who sees a message (docs/foundry.md, "Private rolls"): the message mode on Foundry v14, the roll
// mode on v12 and v13, the user's current choice or the one a call passes.
//
// - v14: `CONFIG.ChatMessage.modes` (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html),
//   each mode `{label, icon, handler(data)}`: its handler shapes the message data (whisper, blind);
//   the user's choice is the `core.messageMode` setting, and `ChatMessage.create(data, {messageMode})`
//   names the mode to the document too.
// - v12, v13: `ChatMessage.applyRollMode(chatData, rollMode)`
//   (https://foundryvtt.com/api/v12/classes/client.ChatMessage.html,
//   https://foundryvtt.com/api/v13/classes/foundry.documents.ChatMessage.html), the modes of
//   `CONST.DICE_ROLL_MODES` (https://foundryvtt.com/api/v13/variables/CONST.DICE_ROLL_MODES.html);
//   the user's choice is the `core.rollMode` setting, and `ChatMessage.create(data, {rollMode})`.
//
// Which one is read from what the game has (`CONFIG.ChatMessage.modes`), not from its version number.
// A mode of the other generation's name is taken as its counterpart (`gmroll` on v14 is `gm`).

/** v12-v13 roll modes and their v14 message modes. */
export const ROLL_TO_MESSAGE = Object.freeze({ publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" });
const MESSAGE_TO_ROLL = Object.freeze(Object.fromEntries(Object.entries(ROLL_TO_MESSAGE).map(([r, m]) => [m, r])));

/** `"message"` (v14: message modes) or `"roll"` (v12-v13: roll modes), from what `CONFIG` holds. */
export function generation(config) {
  return config?.ChatMessage?.modes && typeof config.ChatMessage.modes === "object" ? "message" : "roll";
}

/** The modes a user may pick, by key: v14's `CONFIG.ChatMessage.modes`, else `CONFIG.Dice.rollModes`. */
export function availableModes(config) {
  return generation(config) === "message" ? config.ChatMessage.modes : (config?.Dice?.rollModes ?? {});
}

/**
 * The mode to apply: `wanted` (a call's own, in either generation's name) when the game has it, else
 * the user's current choice (`core.messageMode` on v14, `core.rollMode` before).
 */
export function chosenMode({ config, settings }, wanted = null) {
  const kind = generation(config);
  const modes = availableModes(config);
  if (wanted) {
    const name = kind === "message" ? (ROLL_TO_MESSAGE[wanted] ?? wanted) : (MESSAGE_TO_ROLL[wanted] ?? wanted);
    if (name in modes) return name;
  }
  return settings.get("core", kind === "message" ? "messageMode" : "rollMode");
}

/**
 * Applies the mode to a message's `data` (in place: its `whisper` and `blind`, as Foundry's own call
 * sets them) and returns the options of `ChatMessage.create(data, options)` that name it.
 */
export function applyMode({ config, settings, ChatMessage }, data, wanted = null) {
  const mode = chosenMode({ config, settings }, wanted);
  if (generation(config) === "message") {
    const entry = config.ChatMessage.modes[mode];
    entry?.handler?.(data);
    return { messageMode: mode };
  }
  ChatMessage.applyRollMode(data, mode);
  return { rollMode: mode };
}
