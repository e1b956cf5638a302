/** v3 has no "anytime" link: a v2 accessTime 0 link becomes one valid for this many days. */
export const DEFAULT_ANYTIME_DAYS = 3650;
