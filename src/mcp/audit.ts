// `assess mcp` appends one line per tool call to mcp-audit.ndjson in the config directory: when,
// which tool, its arguments, and what came of it (ok, dry run, not allowed, cancelled, an error's category),
// with the requests that change something: those a dry run held back, those a write sent.
// The key is never in it (no argument carries one). Each line is one append (O_APPEND), every byte
// checked, fsync'd, the file 0600 in a 0700 directory: concurrent servers interleave whole lines.
import { closeSync, fchmodSync, fsyncSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { writeAllSync } from '../util/write-all.js';
import { makePrivateDir } from '../util/private-dir.js';

export const AUDIT_FILE = 'mcp-audit.ndjson';

/** The first line of a session: what the server allows. */
export interface AuditStart {
  at: string;
  event: 'start';
  allowWrites: string[];
  profile: string;
  sandbox: boolean;
}

export interface AuditEntry {
  at: string;
  tool: string;
  args: Record<string, unknown>;
  outcome: 'ok' | 'dry-run' | 'not-allowed' | 'error' | 'no-such-tool' | 'cancelled';
  category?: string;
  /** What was held back, not sent: a dry run's requests that would change something (or one a read-only call tried). */
  requests?: unknown[];
  /** The requests that change something and went out (an allowed write). */
  sent?: unknown[];
  ms: number;
  profile: string;
  sandbox: boolean;
}

export class AuditLog {
  readonly path: string;

  constructor(configDir: string) {
    this.path = join(configDir, AUDIT_FILE);
  }

  /** Appends the entry; throws the file's error (the caller says it on stderr and goes on). */
  append(entry: AuditEntry | AuditStart): void {
    makePrivateDir(join(this.path, '..'));
    const fd = openSync(this.path, 'a', 0o600);
    try {
      fchmodSync(fd, 0o600); // a file made wider by hand is narrowed again
      writeAllSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
