// `assess auth status`: whether the key is present and accepted (./status.run.ts).
import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Column } from '../../output/printer.js';

const SOURCES = {
  'key-file': 'key file (--api-key-file)',
  stdin: 'standard input (--key-stdin)',
  env: 'environment (ASSESS_API_KEY)',
  profile: 'profile',
  sandbox: 'embedded sandbox',
} as const;

interface Status {
  profile: string;
  baseUrl: string;
  keySource: keyof typeof SOURCES | undefined;
  key: string;
  valid: boolean;
}

export const FIELDS: Column<Status>[] = [
  { key: 'profile', header: 'Profile' },
  { key: 'baseUrl', header: 'Base URL' },
  { key: 'keySource', header: 'Key from', value: (r) => (r.keySource ? SOURCES[r.keySource] : undefined) },
  { key: 'key', header: 'Key' },
  { key: 'valid', header: 'Accepted', value: (r) => (r.valid ? 'yes' : 'no') },
];

export default defineCommand({
  name: 'status',
  description: 'Check that the key is present and accepted (exit 3 when missing or refused)',
  examples: ['assess auth status', 'ASSESS_API_KEY="$(cat key.txt)" assess auth status --json'],
  // auth status sends a request (to check the key) before it prints: check --json fields first.
  jsonFields: fieldsOf(FIELDS),
  handler: () => import('./status.run.js'),
});
