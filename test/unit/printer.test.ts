import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import type { OutputFormat } from '../../src/output/format.js';
import { Printer, type Column } from '../../src/output/printer.js';
import { PLAIN } from '../../src/output/style.js';
import { Secrets, maskKey } from '../../src/api/redact.js';

function ctxFor(output: OutputFormat, fields?: string[]) {
  let out = '';
  let err = '';
  const ctx = {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      color: false,
      style: PLAIN,
      stdoutIsTTY: output === 'table',
      columns: 120,
      rows: 24,
    },
    env: {},
    globals: { output, fields, pager: true },
    info: (m: string) => (err += `${m}\n`),
    warn: (m: string) => (err += `warning: ${m}\n`),
  } as unknown as Context;
  return { ctx, out: () => out, err: () => err };
}

interface Row {
  testInvitationId: number;
  email: string;
  name: string;
  note: string | null;
}

const rows: Row[] = [
  { testInvitationId: 1, email: 'a@x.com', name: 'Ann, "the" Lee', note: 'two\nlines' },
  { testInvitationId: 2, email: 'b@x.com', name: 'Bo', note: null },
];
const spec: { columns: Column<Row>[] } = {
  columns: [
    { key: 'testInvitationId', header: 'Invitation' },
    { key: 'email', header: 'E-mail' },
    { key: 'name', header: 'Name' },
    { key: 'note', header: 'Note' },
  ],
};

describe('printer', () => {
  it('CSV quotes commas, quotes and newlines (RFC 4180)', async () => {
    const t = ctxFor('csv');
    await new Printer(t.ctx).list(rows, spec);
    expect(t.out()).toBe(
      'testInvitationId,email,name,note\r\n1,a@x.com,"Ann, ""the"" Lee","two\nlines"\r\n2,b@x.com,Bo,\r\n',
    );
  });

  it('TSV keeps one row per line, without header or colour', async () => {
    const t = ctxFor('tsv');
    await new Printer(t.ctx).list(rows, spec);
    expect(t.out().split('\n')).toEqual(['1\ta@x.com\tAnn, "the" Lee\ttwo lines', '2\tb@x.com\tBo\t', '']);
  });

  it('--json keeps only the named fields, with service field names', async () => {
    const t = ctxFor('json', ['testInvitationId', 'email']);
    await new Printer(t.ctx).list(rows, spec);
    expect(JSON.parse(t.out())).toEqual([
      { testInvitationId: 1, email: 'a@x.com' },
      { testInvitationId: 2, email: 'b@x.com' },
    ]);
  });

  it('--json with an unknown field is a usage error listing the valid ones', async () => {
    const t = ctxFor('json', ['nope']);
    const err = await new Printer(t.ctx).list(rows, { ...spec, fields: ['testInvitationId', 'email'] }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain("'nope'");
    expect(err.hint).toBe('valid fields (table heading): testInvitationId (Invitation), email (E-mail)');
    expect(t.out()).toBe('');
  });

  it('an empty list prints [] under --json and nothing under --ndjson', async () => {
    const j = ctxFor('json');
    expect(await new Printer(j.ctx).list([], spec)).toBe(0);
    expect(JSON.parse(j.out())).toEqual([]);
    const n = ctxFor('ndjson');
    await new Printer(n.ctx).list([], spec);
    expect(n.out()).toBe('');
  });

  const ndjsonIds = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Row).testInvitationId);

  it('NDJSON streams one object per line from an async source', async () => {
    const n = ctxFor('ndjson');
    async function* gen() {
      yield rows[0]!;
      yield rows[1]!;
    }
    await new Printer(n.ctx).list(gen(), spec);
    expect(ndjsonIds(n.out())).toEqual([1, 2]);
  });

  it('a list that stops after some rows leaves parseable output and says it is incomplete', async () => {
    async function* failing() {
      yield rows[0]!;
      yield rows[1]!;
      throw new Error('page 2 failed');
    }
    for (const output of ['json', 'ndjson', 'csv', 'tsv'] as const) {
      const t = ctxFor(output);
      await expect(new Printer(t.ctx).list(failing(), spec)).rejects.toThrow('page 2 failed');
      if (output === 'json') expect(JSON.parse(t.out()).map((r: Row) => r.testInvitationId)).toEqual([1, 2]);
      if (output === 'ndjson') expect(ndjsonIds(t.out())).toEqual([1, 2]);
      if (output === 'csv')
        expect(t.out()).toBe(
          'testInvitationId,email,name,note\r\n1,a@x.com,"Ann, ""the"" Lee","two\nlines"\r\n2,b@x.com,Bo,\r\n',
        );
      expect(t.out().endsWith('\n')).toBe(true);
      expect(t.err()).toContain('warning: the list is incomplete: 2 rows printed before it stopped');
    }
  });

  it('a list that fails before its first row prints nothing', async () => {
    async function* failing(): AsyncGenerator<Row> {
      throw new Error('page 1 failed');
    }
    for (const output of ['json', 'ndjson', 'csv', 'tsv'] as const) {
      const t = ctxFor(output);
      await expect(new Printer(t.ctx).list(failing(), spec)).rejects.toThrow('page 1 failed');
      expect([output, t.out(), t.err()]).toEqual([output, '', '']);
    }
  });

  it('--json a,b prints a requested field as null when a row lacks it (one shape for every row)', async () => {
    const sparse = [{ testInvitationId: 1, email: 'a@x.com' }, { testInvitationId: 2 }] as unknown as Row[];
    const j = ctxFor('json', ['testInvitationId', 'email', 'note']);
    await new Printer(j.ctx).list(sparse, spec);
    expect(JSON.parse(j.out())).toEqual([
      { testInvitationId: 1, email: 'a@x.com', note: null },
      { testInvitationId: 2, email: null, note: null },
    ]);
    const n = ctxFor('ndjson', ['email']);
    await new Printer(n.ctx).list(sparse, spec);
    expect(n.out()).toBe('{"email":"a@x.com"}\n{"email":null}\n');
    const o = ctxFor('json', ['testInvitationId', 'note']);
    await new Printer(o.ctx).object({ testInvitationId: 3 }, { fields: [] }, ['testInvitationId', 'note']);
    expect(JSON.parse(o.out())).toEqual({ testInvitationId: 3, note: null });
  });

  it('a table has headers and every id in full', async () => {
    const t = ctxFor('table');
    await new Printer(t.ctx).list(
      [{ testInvitationId: 9007199254740991, email: 'a@x.com', name: 'A', note: '' }],
      spec,
    );
    expect(t.out()).toContain('Invitation');
    expect(t.out()).toContain('9007199254740991');
  });

  it('an object prints as an object under --json', async () => {
    const t = ctxFor('json');
    await new Printer(t.ctx).object({ a: 1, b: { c: 2 } }, { fields: [{ key: 'a', header: 'A' }] });
    expect(JSON.parse(t.out())).toEqual({ a: 1, b: { c: 2 } });
  });
});

describe('typed columns', () => {
  it('a column key that is not a field of the row type does not compile', () => {
    // @ts-expect-error -- 'emial' is a typo of a Row field (tsc --noEmit fails if this compiles)
    const typo: Column<Row> = { key: 'emial', header: 'E-mail' };
    // a computed column names its key freely
    const computed: Column<Row> = { key: 'domain', header: 'Domain', value: (r) => r.email.split('@')[1] };
    // nested fields are named with dots
    const nested: Column<{ result: { score: number } }> = { key: 'result.score', header: 'Score' };
    expect([typo.key, computed.key, nested.key]).toEqual(['emial', 'domain', 'result.score']);
  });
});

describe('redaction', () => {
  it('replaces every occurrence of the key', () => {
    expect(new Secrets().add('sk_abc123').scrub('k=sk_abc123 and sk_abc123')).toBe('k=**** and ****');
  });
  it('masks a key to its last four characters', () => {
    expect(maskKey('sk_live_1234567890abcd')).toBe('****abcd');
    expect(maskKey('short')).toBe('****');
    expect(maskKey(undefined)).toBe('(none)');
  });
});
