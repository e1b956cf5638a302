// The quick-start workflow: a real story against the embedded sandbox, one `assess --sandbox`
// process per step (state persists between them under a throwaway config dir). The PDF report it
// downloads is kept (in a folder of its own under the system's temp directory) and named at the end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/assess.cjs', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'assess-demo-'));
const keep = mkdtempSync(join(tmpdir(), 'assess-demo-report-'));
const env = { ...process.env, ASSESS_CONFIG_DIR: configDir };

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
function shellWord(w) {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function assess(args, { capture = false } = {}) {
  // printed so that it can be pasted: `--name 'Ann Lee'`, not `--name Ann Lee`
  process.stderr.write(`\n$ assess --sandbox ${args.map(shellWord).join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, '--sandbox', ...args], {
    env,
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(`demo step failed with exit ${r.status}\n`);
    for (const dir of [configDir, keep]) rmSync(dir, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
  if (capture) process.stdout.write(r.stdout);
  return r.stdout;
}

try {
  assess(['tests', 'list']);
  assess(['links', 'list', '1001']);
  const invited = JSON.parse(
    assess(['invite', '1001', '--email', 'ann.lee@example.com', '--name', 'Ann Lee', '--json'], { capture: true }),
  );
  const id = String(invited.testInvitationId);
  assess(['sandbox', 'simulate', id, 'start']);
  assess(['sandbox', 'simulate', id, 'complete', '--score', '82']);
  assess(['report', id, '--type', 'both']);
  assess(['attempts', 'list', '--state', 'completed', '--from', '1d ago', '--to', 'in 1d']);
  const pdf = join(keep, `report-${id}.pdf`);
  assess(['report', id, '--pdf', '-o', pdf]);
  process.stderr.write(
    `\nDone: invited, completed and reported on invitation ${id} in the sandbox.\n` +
      `The PDF report is kept: ${pdf}\n` +
      'Try any command yourself: npx assess --sandbox tests list   (npx assess help for the rest)\n',
  );
} catch (err) {
  rmSync(keep, { recursive: true, force: true });
  throw err;
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
