// Profiles on disk through `conf`: one JSON file, mode 0600, in a 0700 directory
// (ASSESS_CONFIG_DIR or the platform's config dir). A corrupt file is reported, never replaced.
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { LocalError } from '../errors.js';
import { ConfigFile, type Profile } from './keys.js';

export function configDir(env: Record<string, string | undefined>): string {
  if (env.ASSESS_CONFIG_DIR) return env.ASSESS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'assess');
}

export class ConfigStore {
  private readonly conf: Conf<Record<string, unknown>>;
  readonly path: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(dir, 0o700);
    } catch {
      // not our directory to change (e.g. a shared tmp); the file itself is still 0600
    }
    this.path = join(dir, 'config.json');
    try {
      this.conf = new Conf({
        cwd: dir,
        configName: 'config',
        projectName: 'assess',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
      });
    } catch (err) {
      throw corrupt(this.path, (err as Error).message);
    }
  }

  private read(): { profiles: Record<string, Profile> } {
    let raw: unknown;
    try {
      raw = this.conf.store;
    } catch (err) {
      throw corrupt(this.path, (err as Error).message);
    }
    const parsed = ConfigFile.safeParse(raw);
    if (!parsed.success) throw corrupt(this.path, parsed.error.issues[0]?.message ?? 'unexpected content');
    return parsed.data as { profiles: Record<string, Profile> };
  }

  profile(name: string): Profile {
    return this.read().profiles[name] ?? {};
  }

  profiles(): Record<string, Profile> {
    return this.read().profiles;
  }

  update(name: string, change: (p: Profile) => Profile | undefined): void {
    const data = this.read();
    const next = change({ ...(data.profiles[name] ?? {}) });
    if (next === undefined) delete data.profiles[name];
    else data.profiles[name] = next;
    this.conf.set('profiles', data.profiles);
  }
}

function corrupt(path: string, why: string): LocalError {
  return new LocalError(
    `config file ${path} cannot be read: ${why}`,
    `fix it by hand, or move it aside (mv ${path} ${path}.bak) and run 'assess auth login' again`,
  );
}
