// The terminal's size, one rule for tables and help: `COLUMNS` / `LINES` when set to a sensible
// number (a user's choice, as in most CLIs), else the TTY's own. Kept free of imports: main.ts
// reads it before deciding whether the help snapshot can answer.

/** `fromEnv` when it is a whole number from 10 to 10,000, else the TTY's size, else `fallback`. */
export function terminalSize(fromEnv: string | undefined, fromTty: number | undefined, fallback: number): number {
  const n = Number(fromEnv);
  if (fromEnv && Number.isInteger(n) && n >= 10 && n <= 10_000) return n;
  return fromTty && fromTty > 0 ? fromTty : fallback;
}

/** The help snapshot in dist/help.json is wrapped at this width; piped help always uses it. */
export const SNAPSHOT_HELP_WIDTH = 80;

/** The width help is wrapped to on `stream`: undefined when it is not a terminal (the snapshot's). */
export function helpWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: Record<string, string | undefined>,
): number | undefined {
  if (!stream.isTTY) return undefined;
  // no floor: however narrow, help is laid out for it (src/cli/help-text.ts, HELP_LAYOUT)
  return terminalSize(env.COLUMNS, stream.columns, SNAPSHOT_HELP_WIDTH);
}
