// The colours our own output paints (status words, headers, warnings in a table): chalk's when
// colour is on, the text as it is otherwise. Without colour nothing of chalk is loaded: its
// set-up probes the terminal and the environment, ~1.5 ms of every start on Node 24.
type Paint = (text: string) => string;

export interface Style {
  /** 0 without colour (chalk's levels otherwise). */
  level: number;
  bold: Paint;
  dim: Paint;
  green: Paint;
  red: Paint;
  yellow: Paint;
}

const same: Paint = (text) => text;

export const PLAIN: Style = { level: 0, bold: same, dim: same, green: same, red: same, yellow: same };

/** `color`: decided once (src/cli/globals.ts decideColor). */
export async function styleFor(color: boolean): Promise<Style> {
  if (!color) return PLAIN;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}
