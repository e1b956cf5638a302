// Reading an answer's body (src/api/answer-cap.ts): decoded per Content-Encoding within a cap on
// the decoded size; a body that ends early is cut off (exit 6), one that cannot be decoded is
// not the service's (exit 1). And what a 2xx that is not JSON is called (answer-kind.ts).
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedBody, readAnswerText } from '../../src/api/answer-cap.js';
import { AnswerTooLargeError, NetworkError, UnexpectedAnswerError } from '../../src/api/errors.js';
import { describeNotJson, endsEarly, htmlTitle, isJsonType } from '../../src/api/read/answer-kind.js';

const request = { method: 'GET', url: 'https://api.example.com/v3/tests', operation: 'v3.listTests' };
const answer = (body: Buffer | Buffer[], headers: Record<string, string> = {}) => ({
  body: Readable.from(Array.isArray(body) ? body : [body]),
  headers,
  request,
});
const JSON_TEXT = JSON.stringify({ tests: [{ testId: 1001, testName: 'Java' }] });
const plain = Buffer.from(JSON_TEXT);
const MiB = 1024 * 1024;
const read = (a: ReturnType<typeof answer>, limit = MiB) => readAnswerText(a, limit).catch((e: unknown) => e);

describe('bodies decoded per Content-Encoding', () => {
  const zstd = (zlib as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;
  const cases: Array<[string, Buffer]> = [
    ['gzip', zlib.gzipSync(plain)],
    ['x-gzip', zlib.gzipSync(plain)],
    ['deflate', zlib.deflateSync(plain)],
    ['br', zlib.brotliCompressSync(plain)],
    ['identity', plain],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(plain))],
    ...(zstd ? ([['zstd', zstd(plain)]] as Array<[string, Buffer]>) : []),
  ];
  for (const [coding, body] of cases)
    it(`${coding}: the JSON as sent`, async () => {
      expect(await read(answer(body, { 'content-encoding': coding }))).toBe(JSON_TEXT);
    });

  it('an empty body that names a coding is empty (a 204 with Content-Encoding: gzip)', async () => {
    expect(await read(answer(Buffer.alloc(0), { 'content-encoding': 'gzip' }))).toBe('');
  });

  it('a compression bomb stops at the cap on the decoded size', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * MiB, 0x20));
    expect(bomb.length).toBeLessThan(MiB / 10);
    const err = await read(answer(bomb, { 'content-encoding': 'gzip' }), MiB);
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect((err as Error).message).toMatch(/larger than the 1 MiB cap \(stopped reading there\)/);
  });

  it('a plain body announcing more than the cap is refused before it is read', async () => {
    const err = await read(answer(plain, { 'content-length': String(2 * MiB) }), MiB);
    expect((err as Error).message).toMatch(/\(2 MiB announced; nothing read\)/);
  });

  it('compressed data that ends early was cut off: a NetworkError (exit 6)', async () => {
    const gz = zlib.gzipSync(plain);
    const err = await read(answer(gz.subarray(0, gz.length - 10), { 'content-encoding': 'gzip' }));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('ASSESS_CUT_OFF');
    expect((err as Error).message).toMatch(/the answer was cut off \(its gzip data ends early\)/);
  });

  it('data that is not what its coding says, or a coding nobody knows, is not the service’s answer', async () => {
    const bad = await read(answer(plain, { 'content-encoding': 'gzip' }));
    expect(bad).toBeInstanceOf(UnexpectedAnswerError);
    expect((bad as Error).message).toMatch(/says it is gzip-encoded but cannot be decoded/);
    expect(() => decodedBody(answer(plain, { 'content-encoding': 'compress' }), MiB)).toThrow(
      /encoded as 'compress', which this CLI cannot decode/,
    );
  });

  it('a download stream carries the decoded bytes and ends with the cap’s error past it', async () => {
    const chunks: Buffer[] = [];
    const stream = decodedBody(
      answer(zlib.brotliCompressSync(Buffer.alloc(3 * MiB, 0x41)), { 'content-encoding': 'br' }),
      2 * MiB,
      {
        raise: '--max-size SIZE',
      },
    );
    const err = await (async () => {
      for await (const c of stream) chunks.push(c as Buffer);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect((err as Error).message).toMatch(/raise it with --max-size SIZE/);
    expect(Buffer.concat(chunks).length).toBeLessThanOrEqual(2 * MiB);
  });
});

describe('what a 2xx that is not JSON is called', () => {
  it('JSON media types, and others', () => {
    for (const t of [
      'application/json',
      'application/json; charset=utf-8',
      'text/json',
      'application/problem+json',
      'application/x-json',
    ])
      expect(isJsonType(t), t).toBe(true);
    for (const t of ['text/html', 'text/plain', 'application/pdf', 'application/jsonp', 'application/json-seq-x'])
      expect(isJsonType(t), t).toBe(false);
  });

  it('an HTML page by its title (entities read, one line, cut at 80), other types by their media type', () => {
    expect(describeNotJson('text/html; charset=utf-8', '<html><title>Hotel &amp; Spa\n  Wi-Fi</title>')).toBe(
      'an HTML page ("Hotel & Spa Wi-Fi")',
    );
    expect(describeNotJson('', '<!doctype html><p>hi')).toBe('an HTML page');
    expect(htmlTitle(`<title>${'x'.repeat(100)}</title>`)).toHaveLength(80);
    expect(describeNotJson('text/plain', 'OK')).toBe('a text/plain body');
    expect(describeNotJson('', 'OK')).toBe('a body that is not JSON (no content type)');
  });

  it('JSON that ends early is told from JSON that is wrong', () => {
    const verdict = (text: string) => {
      try {
        JSON.parse(text);
        return 'json';
      } catch (e) {
        return endsEarly(text, e) ? 'cut' : 'wrong';
      }
    };
    expect(verdict('{"tests": [')).toBe('cut');
    expect(verdict('{"tests": [{"testName": "Ja')).toBe('cut');
    expect(verdict('{"tests": []}')).toBe('json');
    expect(verdict('{"tests": ]}')).toBe('wrong');
    expect(verdict('OK')).toBe('wrong');
  });
});
