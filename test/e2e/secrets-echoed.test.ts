// One scrubber for everything shown: a careless service echoes the key — whole, minus its last
// four characters, a middle part, URL-encoded — in its error bodies, its headers and in the names
// of a listing, and the webhook secret and the listener's token with them. A broad run of the
// built binary (many commands, --debug on each, bulk runs, an export, an MCP session) shows none
// of them: not on stdout, not on stderr, not in a file it writes (results, journals, summaries,
// the MCP audit log). An unparsable base URL is not echoed with its userinfo either.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startHostileService, type HostileService } from '../helpers/hostile-service.js';

const KEY = 'sk_live_9f3Kq2Lm8Np4Rs6Tv1Wx5Yz7Ab0Cd';
const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
const TOKEN = 'listen-token-4b7e1d9a2c5f8e3b';
const URL_PASSWORD = 'pa55-w0rd-in-the-url';

let h: HostileService;
let work: ReturnType<typeof tempDir>;
beforeAll(async () => {
  h = await startHostileService({ echo: [WEBHOOK_SECRET, TOKEN, URL_PASSWORD] });
  h.mode = 'echo-key';
  work = tempDir('assess-echoed-');
  mkdirSync(join(work.dir, 'out'));
});
afterAll(async () => {
  await h?.close();
  work?.cleanup();
});

/** Every text that must never be shown: the key and its long prefixes, the secret, the token, the password. */
function secretsIn(text: string): string[] {
  const found: string[] = [];
  for (let n = KEY.length; n >= 12; n--) if (text.includes(KEY.slice(0, n))) found.push(`the key's first ${n}`);
  if (text.includes(KEY.slice(2, -2))) found.push('the middle of the key');
  for (const [name, s] of [
    ['the webhook secret', WEBHOOK_SECRET],
    ['the token', TOKEN],
    ['the URL password', URL_PASSWORD],
  ] as const)
    if (text.includes(s) || text.includes(encodeURIComponent(s))) found.push(name);
  return found;
}

const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

const out = () => join(work.dir, 'out');
const configDir = () => join(work.dir, 'config');
const env = () => ({
  ASSESS_BASE_URL: `http://user:${URL_PASSWORD}@${new URL(h.url).host}`,
  ASSESS_API_KEY: KEY,
  ASSESS_WEBHOOK_SECRET: WEBHOOK_SECRET,
  ASSESS_LISTEN_TOKEN: TOKEN,
});
const MCP = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'tests_list', arguments: {} } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'report', arguments: { invitationId: '900001' } } },
]
  .map((m) => JSON.stringify(m))
  .join('\n');

/** The broad run, in groups; each command runs with and without --debug. */
const GROUPS: Array<[string, Array<{ args: string[]; stdin?: string }>]> = [
  [
    'reads in every output format',
    [
      { args: ['tests', 'list'] },
      { args: ['tests', 'list', '--json'] },
      { args: ['tests', 'list', '--csv'] },
      { args: ['tests', 'list', '--ndjson', '--all'] },
      { args: ['tests', 'get', '1001'] },
      { args: ['report', '900001', '--json'] },
      { args: ['links', 'list', '1001'] },
      { args: ['settings', 'get', '1002', '--json'] },
      { args: ['attempts', 'list', '--from', '7d'] },
      { args: ['timezones'] },
      { args: ['auth', 'status'] },
    ],
  ],
  [
    'writes, bulk runs and downloads',
    [
      { args: ['invite', '1001', '--email', 'echo@example.com', '--name', 'Echo'] },
      { args: ['invite', '1001', '--from-csv', 'c.csv'] },
      { args: ['report', '900001', '--pdf', '-o', 'r.pdf'] },
      { args: ['report', 'export', '--from', '7d', '--out', 'export'] },
      { args: ['links', 'create', '1001', '--name', 'Echo', '--valid-days', '7', '--tz', '1'] },
      { args: ['attempts', 'cancel', '900004', '--yes'] },
      { args: ['callbacks', 'process', '900001', '900002'] },
      { args: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '1'] },
    ],
  ],
  [
    'assess api and assess mcp',
    [
      { args: ['api', 'GET', '/v3/tests'] },
      { args: ['api', 'GET', '/v3/tests/1001'] },
      { args: ['api', 'POST', '/v3/callbacks/process', '--data', '{"testinvitationIds":[1]}'] },
      { args: ['api', 'GET', '/v3/tests', '--query', 'tests[].testName'] },
      { args: ['mcp'], stdin: `${MCP}\n` },
    ],
  ],
];

describe('secrets a service echoes are masked in every output', () => {
  const shown: string[] = [];
  for (const [group, runs] of GROUPS)
    it(`${group}: neither stdout nor stderr shows one`, async () => {
      writeFileSync(join(out(), 'c.csv'), 'email,name\necho.one@example.com,Echo One\necho.two@example.com,Echo Two\n');
      for (const run of runs)
        for (const debug of [[], ['--debug']]) {
          const r = await runAssess([...debug, ...run.args], {
            env: env(),
            cwd: out(),
            configDir: configDir(),
            stdin: run.stdin,
          });
          const what = `assess ${[...debug, ...run.args].join(' ')} (exit ${r.code})`;
          for (const [stream, text] of [
            ['stdout', r.stdout],
            ['stderr', r.stderr],
          ] as const) {
            const leaked = secretsIn(text);
            expect(leaked, `${leaked.join(', ')} in the ${stream} of ${what}:\n${text.slice(0, 2000)}`).toEqual([]);
          }
          shown.push(r.stdout, r.stderr);
        }
    }, 300_000);

  it('the echoes did reach the CLI (masked), and no file it wrote holds one', () => {
    expect(shown.join('\n')).toMatch(/Invalid subscription key \*\*\*\*/);
    expect(shown.join('\n')).toMatch(/Test \*\*\*\*/);
    // results, the store (ledger, journals), the export's files, the MCP audit log
    const written = [...files(out()), ...files(configDir())];
    expect(written.some((f) => f.endsWith('.results.ndjson'))).toBe(true);
    expect(written.some((f) => f.endsWith('.db'))).toBe(true); // the store: ledger and journals
    expect(written.some((f) => /audit/.test(f))).toBe(true);
    for (const f of written) {
      const leaked = secretsIn(readFileSync(f, 'latin1'));
      expect(leaked, `${leaked.join(', ')} in ${f}`).toEqual([]);
    }
  });

  it('an unparsable base URL is refused without its userinfo', async () => {
    for (const bad of [`https//user:${URL_PASSWORD}@api.example.com`, `htps://user:${URL_PASSWORD}@api.example.com`]) {
      const r = await runAssess(['tests', 'list'], { env: { ASSESS_BASE_URL: bad, ASSESS_API_KEY: KEY } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/ASSESS_BASE_URL: '.*\*\*\*\*@api\.example\.com' is not an http\(s\) URL/);
      expect(secretsIn(r.stderr)).toEqual([]);
    }
  });
});
