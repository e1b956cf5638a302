// Where the store of a profile lives: one SQLite file per profile under the config directory
// (ASSESS_CONFIG_DIR moves it), beside config.json.
import { join } from 'node:path';

export function storePath(configDir: string, profile: string): string {
  return join(configDir, 'store', `${profile}.db`);
}
