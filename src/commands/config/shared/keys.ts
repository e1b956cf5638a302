import * as z from 'zod/mini';
import { CONFIG_KEYS, type ConfigKey } from '../../../config/keys.js';
import type { Profile } from '../../../config/profile.js';
import { maskKey, maskUrlCredentials } from '../../../api/redact.js';

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
