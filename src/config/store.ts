// Profiles on disk: one JSON file, mode 0600, in a 0700 directory (ASSESS_CONFIG_DIR or the
// platform's config dir). A corrupt file is reported, never replaced.
//
// Writes go through `conf` (atomic write, file mode). Reads — which every command makes — parse
// the file directly: `conf` pulls in ajv and friends (~20 MB, ~40 ms), which only a write needs.
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '../errors.js';

import { configFileSchema, type Profile } from './keys.js';
import { readSmallFileSync, warnIfReadableByOthers } from '../util/small-file.js';

const CONFIG_MAX_BYTES = 1024 * 1024;

export function configDir(env: Record<string, string | undefined>): string {
  if (env.ASSESS_CONFIG_DIR) return env.ASSESS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'assess');
}

export class ConfigStore {
  readonly path: string;

  /** `warn`: told (once per file) when the file holds a key and other users can read it. */
  constructor(
    readonly dir: string,
    private readonly warn: (line: string) => void = () => undefined,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(dir, 0o700);
    } catch {
      // not our directory to change (e.g. a shared tmp); the file itself is still 0600
    }
    this.path = join(dir, 'config.json');
  }

  private read(): { profiles: Record<string, Profile> } {
    // a regular file of at most 1 MiB: a config.json linked to /dev/zero (or a FIFO) is refused,
    // naming the file, instead of being read until memory runs out
    const file = readSmallFileSync(this.path, {
      label: 'config file',
      maxBytes: CONFIG_MAX_BYTES,
      instead: `move it aside (mv ${this.path} ${this.path}.bak) and run 'assess auth login' again`,
    });
    if (!file) return { profiles: {} }; // no file yet: what the schema makes of {}
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch (err) {
      throw corrupt(this.path, (err as Error).message);
    }
    const parsed = configFileSchema.safeParse(raw);
    if (!parsed.success) throw corrupt(this.path, parsed.error.issues[0]?.message ?? 'unexpected content');
    const data = parsed.data as { profiles: Record<string, Profile> };
    if (Object.values(data.profiles).some((p) => p.apiKey)) warnIfReadableByOthers(this.path, file.mode, 'an API key', this.warn);
    return data;
  }

  profile(name: string): Profile {
    return this.read().profiles[name] ?? {};
  }

  profiles(): Record<string, Profile> {
    return this.read().profiles;
  }

  async update(name: string, change: (p: Profile) => Profile | undefined): Promise<void> {
    const data = this.read(); // refuses a corrupt file before anything is written
    const next = change({ ...(data.profiles[name] ?? {}) });
    if (next === undefined) delete data.profiles[name];
    else data.profiles[name] = next;
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      cwd: this.dir,
      configName: 'config',
      projectName: 'assess',
      projectSuffix: '',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
    });
    conf.set('profiles', data.profiles);
  }
}

function corrupt(path: string, why: string): LocalError {
  return new LocalError(
    `config file ${path} cannot be read: ${why}`,
    `fix it by hand, or move it aside (mv ${path} ${path}.bak) and run 'assess auth login' again`,
  );
}
