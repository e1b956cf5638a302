import * as z from 'zod/mini';
import { CONFIG_KEYS, type ConfigKey } from '../../../config/keys.js';
import type { Profile } from '../../../config/profile.js';
import { maskKey, maskUrlCredentials } from '../../../api/redact.js';
import { fieldsOf } from '../../../cli/json-fields.js';

export const KEY_NAMES = [...Object.keys(CONFIG_KEYS), 'api-key'] as const;

export const configKey = z.enum(KEY_NAMES as unknown as [string, ...string[]], {
  message: `must be one of ${KEY_NAMES.join(', ')}`,
});

/** The value as shown to users: the API key is always masked. */
export function shownValue(p: Profile, key: string): string | undefined {
  if (key === 'api-key') return p.apiKey ? maskKey(p.apiKey) : undefined;
  const v = p[CONFIG_KEYS[key as ConfigKey].prop as keyof Profile];
  // A base URL may carry user:password@; show it masked like the key.
  return v === undefined ? undefined : maskUrlCredentials(String(v));
}

/** One setting as `config list` shows it (and `config get` under --json, --ndjson, --csv, --query). */
export interface SettingRow {
  profile: string;
  key: string;
  value: string | null;
  description: string;
}

export const SETTING_COLUMNS = [
  { key: 'key', header: 'Key', priority: 1 },
  { key: 'value', header: 'Value', priority: 2 },
  { key: 'description', header: 'Description', priority: 3 },
] as const;
export const SETTING_FIELDS = fieldsOf(['profile'], SETTING_COLUMNS);

export function settingRow(profileName: string, p: Profile, key: string): SettingRow {
  return {
    profile: profileName,
    key,
    value: shownValue(p, key) ?? null,
    description: key === 'api-key' ? 'API key (set with auth login)' : CONFIG_KEYS[key as ConfigKey].describe,
  };
}
