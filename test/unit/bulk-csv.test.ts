// Units of the CSV side of `invite --csv`: header names, line numbers, row validation, keys.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkRow, inviteKey, readCsvRows, type RowEvent } from '../../src/commands/invite/shared/csv-rows.js';
import { UsageError } from '../../src/errors.js';

async function events(text: string): Promise<RowEvent[]> {
  const out: RowEvent[] = [];
  for await (const e of readCsvRows(Readable.from([text]), 'test.csv')) out.push(e);
  return out;
}

describe('readCsvRows', () => {
  it('maps header names case-insensitively and numbers rows by their first line', async () => {
    const ev = await events(
      '\uFEFFNotes,EMAIL,NAME,CallbackURL\nx,a@x.com,Ann,\n\nx,b@x.com,"Bo\nLee",https://e.com/h\n',
    );
    const rows = ev.flatMap((e) => (e.kind === 'row' ? [e.row] : []));
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
    expect(rows[1]!.fields).toMatchObject({ email: 'b@x.com', name: 'Bo\nLee', callbackUrl: 'https://e.com/h' });
    // a column no invitation reads is kept under its own heading (the results file shows the row)
    expect(rows[0]!.fields.Notes).toBe('x');
  });

  it('reports unreadable rows with their line and a missing column as a usage error', async () => {
    const ev = await events('email,name\na@x.com,A\nb@x.com,B,extra\nc@x.com,"C"x\n');
    expect(ev.filter((e) => e.kind === 'bad').map((e) => (e as { bad: { line: number } }).bad.line)).toEqual([3, 4]);
    await expect(events('courriel,name\na@x.com,A\n')).rejects.toBeInstanceOf(UsageError);
    await expect(events('')).rejects.toThrow(/is empty/);
  });
});
describe('checkRow', () => {
  it('accepts a full row and builds the key from test, link and lower-cased e-mail', () => {
    const r = checkRow(
      {
        email: 'Ann@X.com',
        name: 'Ann',
        startDateTime: '2030-01-01',
        endDateTime: '2030-01-08',
        timeZoneId: '35',
        stakeholderEmails: 'disable',
      },
      '1001',
      {},
    );
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.key).toBe('1001|default|ann@x.com');
      expect(r.input).toMatchObject({
        start: '2030-01-01T00:00:00Z',
        end: '2030-01-08T00:00:00Z',
        tz: 35,
        stakeholders: false,
      });
    }
    expect(inviteKey('1001', '5002', ' B@X.com ')).toBe('1001|5002|b@x.com');
  });

  it('names the column of every problem, in the words of the CSV', () => {
    const r = checkRow({ email: 'nope', name: '', link: '5002', startDateTime: '2030-01-01' }, '1001', {});
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toContain('name: is empty');
      expect(r.errors.some((e) => e.startsWith('email: must be an e-mail address'))).toBe(true);
      expect(r.errors.some((e) => e.startsWith('startDateTime: cannot be used with link'))).toBe(true);
    }
  });

  it("shows none of zod's own messages for a value of the wrong type (a default the row schema cannot read)", () => {
    const r = checkRow(
      { email: 'a@x.com', name: 'A', startDateTime: '2030-01-01', endDateTime: '2030-01-08' },
      '1001',
      { tz: 5 },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.join('; ')).not.toMatch(/Invalid input|expected string/);
      expect(r.errors.some((e) => e.startsWith('timeZoneId: is not a value this column accepts'))).toBe(true);
    }
  });

  it('command-line flags are defaults that a row overrides', () => {
    const r = checkRow({ email: 'a@x.com', name: 'A', callbackUrl: 'https://row.example/h' }, '1001', {
      callbackUrl: 'https://flag.example/h',
      sendEmail: true,
    });
    expect(r.ok && r.input).toMatchObject({ callbackUrl: 'https://row.example/h', sendEmail: true });
  });
});
