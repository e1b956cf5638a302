// `invite --from-csv` with files as spreadsheets save them, against the sandbox in-process: the
// headings people write, `;` and Excel's `sep=` line, blank rows counted (not invalid), UTF-16,
// `--columns`, a UTF-8 local part (the same on the command line), and row errors that never
// quote the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runInProcess(args, { env: s.env });
const sentEmails = async () =>
  (await s.requests())
    .filter((q) => q.path === '/v3/tests/1001/invite')
    .map((q) => (q.body as { email: string; name: string }).email);

function csvFile(content: string | Buffer): string {
  const work = tempDir('assess-sheet-');
  onTestFinished(() => work.cleanup());
  const file = join(work.dir, 'cohort.csv');
  writeFileSync(file, content);
  return file;
}

describe('invite --from-csv: what spreadsheets save', () => {
  it('European Excel: sep=; line, semicolons, "E-mail"/"Full Name", blank rows skipped and counted', async () => {
    const file = csvFile(
      '\uFEFFsep=;\r\nE-mail;Full Name;Notes\r\nsheet1@example.com;Lee, Ann;x\r\n;;\r\n   \r\nsheet2@example.com;Bo ' +
        'Chen;\r\n',
    );
    const dry = await run(['invite', '1001', '--from-csv', file, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 2, valid: 2, invalid: 0, blank: 2, wouldSend: 2 });
    expect(dry.stderr).toMatch(/2 blank rows skipped/);
    expect(dry.stderr).toMatch(/ignoring unknown column Notes/);
    const r = await run(['invite', '1001', '--from-csv', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 invited in .*\(2 blank rows skipped\)/);
    const sent = (await s.requests()).filter((q) => q.path === '/v3/tests/1001/invite').slice(-2);
    expect(sent.map((q) => q.body)).toMatchObject([
      { email: 'sheet1@example.com', name: 'Lee, Ann' },
      { email: 'sheet2@example.com', name: 'Bo Chen' },
    ]);
    // the results file names the rows by their real lines (the sep= line counts)
    const results = readFileSync(`${file}.results.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((l: { line: number }) => l.line)).toEqual([3, 6]);
  });

  it('UTF-16BE with a byte order mark, first and last name joined, chloé@ accepted', async () => {
    const text = 'First Name\tLast Name\tEmail Address\nChloé\tMartin\tchloé@example.com\n';
    const file = csvFile(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    const r = await run(['invite', '1001', '--from-csv', file, '--json', 'done,failed']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ done: 1, failed: 0 });
    const last = (await s.requests()).filter((q) => q.path === '/v3/tests/1001/invite').at(-1)!;
    expect(last.body).toMatchObject({ email: 'chloé@example.com', name: 'Chloé Martin' });
  });

  it('--columns maps headings outright; an unknown one is exit 2 before anything is sent', async () => {
    const file = csvFile('Mail perso,Mail pro,Nom\nhome@example.com,cols1@example.com,Col One\n');
    const before = (await sentEmails()).length;
    const bad = await run(['invite', '1001', '--from-csv', file, '--columns', 'email=Courriel,name=Nom']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--columns: .*cohort\.csv has no column 'Courriel' for email \(its columns: Mail perso, Mail pro, Nom\)/,
    );
    expect((await sentEmails()).length).toBe(before);
    const r = await run(['invite', '1001', '--from-csv', file, '--columns', 'email=Mail pro,name=nom']);
    expect(r.code, r.stderr).toBe(0);
    expect((await sentEmails()).at(-1)).toBe('cols1@example.com');
  });

  it('a bad row is named by line and problem; the file text is not in the message', async () => {
    const file = csvFile('email,name\nrowok@example.com,Ann\nsk_live_4eC39HqLyjWDarjtT1zdp7dc,Bo\n');
    const r = await run(['invite', '1001', '--from-csv', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3: email: must be an e-mail address/);
    expect(r.stderr).not.toContain('4eC39HqLyjWDarjtT1zdp7dc');
  });
});

describe('one rule for e-mail addresses', () => {
  it('--email chloé@example.com is sent as typed (and a decomposed é as the same address)', async () => {
    const r = await run(['invite', '1001', '--email', 'chloe\u0301@example.com', '--name', 'Chloé', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((await sentEmails()).at(-1)).toBe('chloé@example.com');
    const bad = await run(['invite', '1001', '--email', 'chloé@', '--name', 'Chloé']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--email: must be an e-mail address/);
  });
});

describe('invite --from-csv --dry-run with bad rows', () => {
  it('lists every row a run would refuse, then fails the check (exit 2); with --skip-invalid it passes', async () => {
    const work = tempDir('assess-dry-bad-');
    onTestFinished(() => work.cleanup());
    const file = join(work.dir, 'bad.csv');
    writeFileSync(file, 'email,name\nnot-an-email,Ann Lee\ndry.ok@example.com,Bo Chen\nalso bad,Cy Dee\n');
    const before = (await s.requests()).length;
    const r = await run(['invite', '1001', '--from-csv', file, '--dry-run']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/line 2: .*\(a run would refuse it\)/);
    expect(r.stderr).toMatch(/line 4: .*\(a run would refuse it\)/);
    expect(r.stderr).toMatch(/Dry run of .*3 rows, 1 valid, 2 invalid/);
    expect(r.stderr).toMatch(/error: --from-csv: 2 bad rows in .* \(listed above\): a run would send nothing/);
    const skipping = await run(['invite', '1001', '--from-csv', file, '--dry-run', '--skip-invalid']);
    expect(skipping.code, skipping.stderr).toBe(0);
    expect(skipping.stderr).toMatch(/line 2: .*\(skipped with --skip-invalid\)/);
    expect((await s.requests()).length).toBe(before);
  });
});
