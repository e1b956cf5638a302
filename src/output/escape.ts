// Text from the service (names, e-mails, messages) may carry ESC and other control characters;
// written raw to a terminal they could move the cursor, rewrite earlier lines, set the window
// title or hide text. Human-readable output shows them as visible escapes instead. Machine
// formats stay exact when piped; on a terminal CSV cells are escaped like a table's, and JSON
// text gets `\uXXXX` for what JSON.stringify leaves raw (DEL, C1, bidi), still the same JSON.

// C0 controls, DEL and C1 controls; newline and tab are handled by the caller's choice.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ALL_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// Unicode bidi overrides, isolates and marks can reorder what a terminal shows (Trojan Source).
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify writes raw of the above: it escapes C0 itself.
const RAW_IN_JSON = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const visible = (ch: string) => {
  const code = ch.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
};

/** One cell or value: every control character (newline and tab too) shown as `\xNN`. */
export function escapeCell(s: string): string {
  return s.replace(ALL_CONTROLS, visible).replace(BIDI, visible);
}

/** A message of ours that may quote service text: keeps its newlines and tabs, escapes the rest. */
export function escapeMessage(s: string): string {
  return s.replace(CONTROLS, visible).replace(BIDI, visible);
}

/**
 * JSON text for a terminal: DEL, C1 and bidi characters (which JSON.stringify leaves raw) as
 * `\uXXXX`. Outside strings JSON holds none of them, so the text stays valid and means the same.
 */
export function escapeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
