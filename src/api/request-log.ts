// A transport's --debug log: each request with its headers (the key's header masked) and body,
// each answer's status, headers and body, retries and failures. Every line is scrubbed of the
// run's secrets (the key, parts of it, URL passwords) before it is written; bodies are cut at
// 2,000 characters after scrubbing, so a cut never leaves part of a key. With --debug off
// nothing is formatted.
import { MASK, type Secrets } from './redact.js';

export class RequestLog {
  constructor(
    private readonly sink: ((line: string) => void) | undefined,
    private readonly secrets: Secrets,
    private readonly authHeader: string,
  ) {}

  /** Replaces every secret wherever it could appear (a key pasted into a URL, an echoing server). */
  scrub(text: string): string {
    return this.secrets.scrub(text);
  }

  line(text: string): void {
    this.sink?.(this.scrub(text));
  }

  request(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    attempt: number,
  ): void {
    if (!this.sink) return;
    this.line(`--> ${method} ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    for (const [k, v] of Object.entries(headers))
      this.line(`    ${k}: ${k.toLowerCase() === this.authHeader.toLowerCase() ? MASK : v}`);
    if (body !== undefined) this.line(`--> body ${truncate(this.scrub(body))}`);
  }

  response(status: number, ms: number, headers: Record<string, string | string[] | undefined>): void {
    if (!this.sink) return;
    this.line(`<-- ${status} (${ms} ms)`);
    for (const [k, v] of Object.entries(headers)) this.line(`    ${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
  }

  /** An answer's body; scrubbing every answer would cost a bulk run, so only under --debug. */
  answer(text: string): void {
    if (this.sink) this.line(`<-- body ${truncate(this.scrub(text))}`);
  }
}

function truncate(s: string, max = 2000): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length} bytes)` : s;
}
