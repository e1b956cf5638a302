// Profiles on disk: one JSON file, mode 0600, in a 0700 directory (ASSESS_CONFIG_DIR or the
// platform's config dir). A corrupt file is reported, never replaced.
//
// Writes go through `conf` (atomic write, file mode). Reads — which every command makes — parse
// the file directly: `conf` pulls in ajv and friends (~20 MB, ~40 ms), which only a write needs.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '../errors.js';

import { configFileSchema, type Profile } from './keys.js';

export function configDir(env: Record<string, string | undefined>): string {
  if (env.ASSESS_CONFIG_DIR) return env.ASSESS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'assess');
}

export class ConfigStore {
  readonly path: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(dir, 0o700);
    } catch {
      // not our directory to change (e.g. a shared tmp); the file itself is still 0600
    }
    this.path = join(dir, 'config.json');
  }

  private read(): { profiles: Record<string, Profile> } {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw corrupt(this.path, (err as Error).message);
      return { profiles: {} }; // no file yet: what the schema makes of {}
    }
    const parsed = configFileSchema.safeParse(raw);
    if (!parsed.success) throw corrupt(this.path, parsed.error.issues[0]?.message ?? 'unexpected content');
    return parsed.data as { profiles: Record<string, Profile> };
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
