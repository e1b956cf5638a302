// A timeout in seconds: one rule for `--timeout S`, `--try-timeout S` and their `config set` keys.
// Decimal text only (Number() alone would also take '1e1', '0x10' and '' as 0); fractions allowed.

export const TIMEOUT_MIN_S = 1;
export const TIMEOUT_MAX_S = 3600;
/** What the rule says, for messages: `must be ${TIMEOUT_RULE}`. */
export const TIMEOUT_RULE = `seconds between ${TIMEOUT_MIN_S} and ${TIMEOUT_MAX_S}`;

/** The seconds `text` says, or undefined when it is not a timeout the CLI takes. */
export function timeoutSeconds(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d{1,7}(\.\d{1,9})?$/.test(t)) return undefined;
  const s = Number(t);
  return s >= TIMEOUT_MIN_S && s <= TIMEOUT_MAX_S ? s : undefined;
}
