// The shells `completion` writes a script for: its schema and the build's snapshot (scripts/build.mjs)
// read this list. Data only, so the build can load it without the program.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
