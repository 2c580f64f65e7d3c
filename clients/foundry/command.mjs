// The `/dr` chat command (docs/foundry.md, "Rolling without JSON"): `/dr 4d6kh3 + 2` rolls the dice
// notation on the service (`POST /dice/roll`), read in the table's dialect (a world setting), posted
// as the card in the user's message mode. Foundry offers a module the `chatMessage` hook for its own
// commands, with the same signature on v12, v13 and v14 (`(chatLog, message, {user, speaker})`, the
// message trimmed; https://foundryvtt.com/api/v12/functions/hookEvents.chatMessage.html,
// https://foundryvtt.com/api/functions/hookEvents.chatMessage.html,
// https://foundryvtt.com/api/v14/functions/hookEvents.chatMessage.html), called with `Hooks.call`,
// so a listener returning `false` stops Foundry from handling the text itself
// (https://foundryvtt.com/api/v14/classes/foundry.helpers.Hooks.html). Nothing here touches a
// Foundry global.

/** `/dr` (any case), then the notation. */
const COMMAND = /^\/dr(?=\s|$)\s*([\s\S]*)$/i;
/** What a name may not hold to be sent as the roller's (the service's free-text rule). */
const UNSHOWABLE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e]/;

/** `null` for a message that is not the command; else `{notation}` (empty: show the usage). */
export function parseCommand(message) {
  const match = COMMAND.exec(String(message ?? "").trim());
  return match ? { notation: match[1].trim() } : null;
}

/**
 * The `/dice/roll` request of a command: the notation, the table's dialect and, as the roller's name
 * for the narration, the speaker's alias where the service can take it (1-64 characters, no control
 * characters or bidi overrides).
 */
export function commandBody({ notation }, { dialect = "foundry", speaker = null } = {}) {
  const body = { notation, dialect };
  const alias = typeof speaker?.alias === "string" ? speaker.alias.trim() : "";
  if (alias && [...alias].length <= 64 && !UNSHOWABLE.test(alias)) body.name = alias;
  return body;
}

/** The dialects the service reads (`/dice/roll`'s `dialect`), the world setting's choices. */
export const DIALECTS = Object.freeze({ foundry: "Foundry VTT", roll20: "Roll20", avrae: "avrae (Discord)" });
