// node:crypto on first use: loading it costs ~5 ms, which a command that only checks its flags
// (a usage error) or does not hash anything should not pay when it loads.
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
