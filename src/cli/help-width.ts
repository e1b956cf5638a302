// The width help is wrapped to: the terminal's (COLUMNS wins, as in most CLIs), 80 when the
// output is not a terminal, so piped help stays stable. The snapshot in dist/help.json is made at
// SNAPSHOT_HELP_WIDTH; a terminal of another width gets help built for it.
export const SNAPSHOT_HELP_WIDTH = 80;

export function helpWidth(stream: { isTTY?: boolean; columns?: number }, env: Record<string, string | undefined>): number | undefined {
  if (!stream.isTTY) return undefined;
  const fromEnv = Number(env.COLUMNS);
  const width = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : stream.columns;
  // very narrow terminals still get readable help: commander needs room for the option column
  return width ? Math.max(40, width) : undefined;
}
