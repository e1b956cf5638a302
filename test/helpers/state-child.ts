// A sandbox on a state file in its own process, for tests that kill it (kill -9) or run several
// on one file: run with `node --import tsx test/helpers/state-child.ts <stateFile>`; prints
// {"baseUrl", "key"} on one line once it listens.
import { startSandbox } from '../../src/sandbox/index.js';

const [stateFile] = process.argv.slice(2);
const sb = await startSandbox({ port: 0, stateFile });
process.stdout.write(`${JSON.stringify({ baseUrl: sb.baseUrl, key: sb.keys[0] })}\n`);
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)));
