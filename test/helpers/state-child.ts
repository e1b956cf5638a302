// A sandbox on a state file in its own process, for tests that kill it (kill -9): run with
// `node --import tsx test/helpers/state-child.ts <stateFile> [compactAfterBytes]`; prints
// {"baseUrl", "key"} on one line once it listens.
import { startSandbox } from '../../src/sandbox/index.js';

const [stateFile, compact] = process.argv.slice(2);
const sb = await startSandbox({ port: 0, stateFile, compactAfterBytes: compact ? Number(compact) : undefined });
process.stdout.write(`${JSON.stringify({ baseUrl: sb.baseUrl, key: sb.keys[0] })}\n`);
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)));
