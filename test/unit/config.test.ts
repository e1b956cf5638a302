import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
  readFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveKey } from '../../src/config/credentials.js';
import { ConfigStore, configDir } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function dir() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('config store', () => {
  it('writes the file with mode 0600 in a 0700 directory', async () => {
    const d = dir();
    const store = new ConfigStore(d);
    await store.update('default', (p) => ({ ...p, apiKey: 'k_123456789' }));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect((await new ConfigStore(d).profile('default')).apiKey).toBe('k_123456789');
  });

  it("an existing directory's mode is left alone; one it creates is 0700", async () => {
    const d = dir();
    chmodSync(d, 0o750); // the user's choice (a group-shared config dir)
    await new ConfigStore(d).update('default', (p) => ({ ...p, timeout: 5 }));
    expect(statSync(d).mode & 0o777).toBe(0o750);
    const nested = join(d, 'new', 'assess');
    await new ConfigStore(nested).update('default', (p) => ({ ...p, timeout: 5 }));
    expect(statSync(nested).mode & 0o777).toBe(0o700);
  });

  it('keeps profiles apart', async () => {
    const store = new ConfigStore(dir());
    await store.update('a', () => ({ baseUrl: 'http://a' }));
    await store.update('b', () => ({ baseUrl: 'http://b' }));
    expect((await store.profile('a')).baseUrl).toBe('http://a');
    expect((await store.profile('b')).baseUrl).toBe('http://b');
    expect(await store.profile('c')).toEqual({});
  });

  it('a config.json linked into a dotfiles repository stays a link; the file it names is updated', async () => {
    const d = dir();
    const dotfiles = join(d, 'dotfiles');
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'assess.json'), '{"profiles":{"a":{"baseUrl":"http://a"}}}\n', { mode: 0o600 });
    const store = new ConfigStore(join(d, 'assess'));
    store.ensureDir();
    symlinkSync(join(dotfiles, 'assess.json'), store.path);
    await store.update('b', () => ({ baseUrl: 'http://b' }));
    expect(lstatSync(store.path).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'assess.json'), 'utf8'))).toEqual({
      profiles: { a: { baseUrl: 'http://a' }, b: { baseUrl: 'http://b' } },
    });
  });

  it('refuses a corrupt file with its path and how to reset it (a usage error: exit 2), and leaves it alone', async () => {
    const d = dir();
    const store = new ConfigStore(d);
    writeFileSync(store.path, '{ not json');
    const err = await store.profile('default').then(
      () => undefined,
      (e: unknown) => e as UsageError,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toContain(store.path);
    expect(err!.message).toMatch(/not JSON/);
    expect(err!.hint).toMatch(/mv .*\.bak/);
    await expect(store.update('default', (p) => p)).rejects.toThrow(UsageError);
    expect(readFileSync(store.path, 'utf8')).toBe('{ not json');
  });

  it.each([
    [
      'a field of the wrong type',
      '{"profiles":{"default":{"apiKey":12345}}}',
      /cannot be read: profiles\.default\.apiKey: .*expected string/,
    ],
    ['truncated JSON', '{"profiles": ', /cannot be read: not JSON/],
    ['an empty file', '', /cannot be read: it is empty/],
  ])('config list with %s: exit 2 naming the file (and the field), with the fix', async (_what, text, message) => {
    const d = dir();
    writeFileSync(join(d, 'config.json'), text);
    const r = await runInProcess(['config', 'list'], { configDir: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(d, 'config.json'));
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/mv .*\.bak/);
    expect(r.stdout).toBe('');
  });
});

describe('config directory', () => {
  const account = () => '/home/from-passwd';
  it('a relative XDG_CONFIG_HOME is ignored (XDG spec); an empty or relative HOME falls back to the account home', () => {
    expect(configDir({ HOME: '/h', XDG_CONFIG_HOME: '.config' }, account)).toBe(join('/h', '.config', 'assess'));
    expect(configDir({ HOME: '/h', XDG_CONFIG_HOME: '/x' }, account)).toBe(join('/x', 'assess'));
    expect(configDir({ HOME: '', XDG_CONFIG_HOME: '' }, account)).toBe(join('/home/from-passwd', '.config', 'assess'));
    expect(configDir({ HOME: 'rel', XDG_CONFIG_HOME: 'rel2' }, account)).toBe(
      join('/home/from-passwd', '.config', 'assess'),
    );
  });

  it('ASSESS_CONFIG_DIR wins, relative too (explicit intent)', () => {
    expect(configDir({ ASSESS_CONFIG_DIR: 'cfg', HOME: '' }, () => undefined)).toBe('cfg');
  });

  it('with no absolute place at all: a usage error naming ASSESS_CONFIG_DIR', () => {
    const attempt = () => configDir({ HOME: '', XDG_CONFIG_HOME: 'x' }, () => undefined);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/HOME is empty or relative/);
    try {
      attempt();
    } catch (err) {
      expect((err as UsageError).hint).toMatch(/ASSESS_CONFIG_DIR/);
    }
  });

  it('config set with a relative XDG_CONFIG_HOME writes under HOME, nothing in the working directory', async () => {
    const home = dir();
    const cwd = dir();
    const r = await runInProcess(['config', 'set', 'timeout', '5'], {
      env: { ASSESS_CONFIG_DIR: undefined, HOME: home, XDG_CONFIG_HOME: 'rel' },
      cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(JSON.parse(readFileSync(join(home, '.config', 'assess', 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { timeout: 5 } },
    });
  });
});

describe('a file where the config directory should be', () => {
  it.each([
    ['ASSESS_CONFIG_DIR is a file', '', /^error: ASSESS_CONFIG_DIR: .*file is a file, not a directory$/m],
    [
      'ASSESS_CONFIG_DIR is under a file',
      'sub',
      /^error: ASSESS_CONFIG_DIR: .*file\/sub is under a file, not a directory$/m,
    ],
  ])('%s: exit 2 saying so, with the fix (not "it already exists")', async (_what, below, message) => {
    const file = join(dir(), 'file');
    writeFileSync(file, '');
    for (const args of [
      ['config', 'list'],
      ['--sandbox', 'tests', 'list'],
      ['config', 'set', 'timeout', '5'],
    ]) {
      const r = await runInProcess(args, { configDir: join(file, below) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/point ASSESS_CONFIG_DIR at a directory/);
    }
  });

  it('the default place being a file says which file and how to get out of the way', () => {
    const xdg = dir();
    writeFileSync(join(xdg, 'assess'), '');
    const attempt = () => configDir({ XDG_CONFIG_HOME: xdg }, () => undefined);
    expect(attempt).toThrow(`the config directory ${join(xdg, 'assess')} is a file, not a directory`);
  });
});

describe('config set timeout: the range --timeout takes', () => {
  it.each([
    ['3600', 3600],
    ['1200.5', 1200.5],
    [' 1 ', 1],
  ])('%j is stored as %d', async (text, stored) => {
    const d = dir();
    const r = await runInProcess(['config', 'set', 'timeout', text], { configDir: d });
    expect(r.code, r.stderr).toBe(0);
    expect((await new ConfigStore(d).profile('default')).timeout).toBe(stored);
  });
});

describe('config get --json', () => {
  it('prints the row config list --json has for that key; without --json the value alone', async () => {
    const d = dir();
    expect((await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configDir: d })).code).toBe(0);
    const got = await runInProcess(['config', 'get', 'base-url', '--json'], { configDir: d });
    expect(got.code, got.stderr).toBe(0);
    const list = JSON.parse((await runInProcess(['config', 'list', '--json'], { configDir: d })).stdout) as Array<{
      key: string;
    }>;
    expect(JSON.parse(got.stdout)).toEqual(list.find((row) => row.key === 'base-url'));
    expect(JSON.parse(got.stdout)).toMatchObject({
      profile: 'default',
      key: 'base-url',
      value: 'http://127.0.0.1:4010',
    });
    const picked = await runInProcess(['config', 'get', 'base-url', '--json', 'value'], { configDir: d });
    expect(JSON.parse(picked.stdout)).toEqual({ value: 'http://127.0.0.1:4010' });
    expect((await runInProcess(['config', 'get', 'base-url'], { configDir: d })).stdout).toBe(
      'http://127.0.0.1:4010\n',
    );
    const bad = await runInProcess(['config', 'get', 'base-url', '--json', 'nope'], { configDir: d });
    expect(bad.code).toBe(2);
  });
});

describe('credential precedence', () => {
  const profile = { apiKey: 'from_profile' };

  it('key file beats everything', async () => {
    const d = dir();
    writeFileSync(`${d}/key`, 'from_file\n');
    const r = await resolveKey({ apiKeyFile: `${d}/key`, env: { ASSESS_API_KEY: 'from_env' }, profile });
    expect(r).toEqual({ apiKey: 'from_file', keySource: 'key-file' });
  });

  it('stdin beats the environment and the profile', async () => {
    const r = await resolveKey({
      keyStdin: true,
      stdin: Readable.from(['from_stdin\n']),
      env: { ASSESS_API_KEY: 'from_env' },
      profile,
    });
    expect(r).toEqual({ apiKey: 'from_stdin', keySource: 'stdin' });
  });

  it('the environment beats the profile', async () => {
    expect(await resolveKey({ env: { ASSESS_API_KEY: 'from_env' }, profile })).toEqual({
      apiKey: 'from_env',
      keySource: 'env',
    });
  });

  it('the profile is the last resort, and nothing is nothing', async () => {
    expect(await resolveKey({ env: {}, profile })).toEqual({ apiKey: 'from_profile', keySource: 'profile' });
    expect(await resolveKey({ env: {}, profile: {} })).toEqual({});
  });

  it('rejects an empty or unreadable key file as a usage error', async () => {
    const d = dir();
    writeFileSync(`${d}/empty`, '\n');
    await expect(resolveKey({ apiKeyFile: `${d}/empty`, env: {}, profile })).rejects.toBeInstanceOf(UsageError);
    await expect(resolveKey({ apiKeyFile: `${d}/missing`, env: {}, profile })).rejects.toBeInstanceOf(UsageError);
  });
});
