// The terminal's size, one rule for tables, help and notices: `COLUMNS` / `LINES` when set to a
// sensible number (a user's choice, as in most CLIs), else the TTY's own.

/** `fromEnv` when it is a whole number from 10 to 10,000, else the TTY's size, else `fallback`. */
export function terminalSize(fromEnv: string | undefined, fromTty: number | undefined, fallback: number): number {
  const n = Number(fromEnv);
  if (fromEnv && Number.isInteger(n) && n >= 10 && n <= 10_000) return n;
  return fromTty && fromTty > 0 ? fromTty : fallback;
}

/**
 * The width help is laid out for on `stream`: COLUMNS, else the terminal's, else 80 — piped
 * too (`COLUMNS=70 assess invite --help | less`). No floor: however narrow, help is laid out
 * for it (src/cli/help-text.ts).
 */
export function helpWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: Record<string, string | undefined>,
): number {
  return terminalSize(env.COLUMNS, stream.isTTY ? stream.columns : undefined, 80);
}
