// The Markdown the npm package carries (package.json `files`) links only to files it carries too:
// someone reading the installed README (or the registry page) finds every link's target.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
const shipped = (path: string) =>
  !files.some((f) => f.startsWith('!') && (path === f.slice(1) || path.startsWith(`${f.slice(1)}/`))) &&
  files.some((f) => !f.startsWith('!') && (path === f || path.startsWith(`${f}/`)));

describe('links in the packaged Markdown', () => {
  it.each(['README.md', ...files.filter((f) => f.endsWith('.md'))])('%s links only to files in the package', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z][a-z0-9+.-]*:|^#/i.test(t));
    const missing = targets.map((t) => join(doc, '..', t.split('#')[0]!)).filter((t) => !shipped(t));
    expect(missing, `${doc}: linked but left out of package.json "files"`).toEqual([]);
  });
});
