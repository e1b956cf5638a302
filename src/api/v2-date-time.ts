// The v2 date-time form (`YYYY-MM-ddTHH:mm:ss`, UTC, no zone suffix) and the v3 one (`…Z`),
// apart from the v2 schemas so that commands converting dates do not build them when they load.

/** ISO `…Z` (any precision) → the v2 form `YYYY-MM-ddTHH:mm:ss`. */
export function toV2DateTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19);
}
/** v2 `YYYY-MM-ddTHH:mm:ss` (UTC) → the v3 form `YYYY-MM-ddTHH:mm:ssZ`. */
export function fromV2DateTime(v2: string): string {
  return /Z$/.test(v2) ? v2 : `${v2}Z`;
}
