// undici for the bench scripts, as src/api/undici.ts picks it: undici 8 needs Node ≥ 22.19; an
// older Node gets undici 7 (the `undici-node20` alias).
const [major, minor] = process.versions.node.split('.').map(Number);
export const undici = await import(major > 22 || (major === 22 && minor >= 19) ? 'undici' : 'undici-node20');
