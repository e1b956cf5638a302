// Safe default file names for downloaded reports: a candidate name comes from the service and
// must not be able to write outside the chosen directory or smuggle control characters.

/** Keeps letters, digits and `.-_`; everything else (separators, control chars, spaces) becomes `-`. */
export function sanitizeFileName(raw: string, maxLength = 100): string {
  const cleaned = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents → base letters
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/\.{2,}/g, '.') // no `..`
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, ''); // no hidden files, no leading option-like dash
  return cleaned.slice(0, maxLength).replace(/[.-]+$/, '');
}

/** `report-ann-lee-900001.pdf`; `report-900001.pdf` when the candidate gives nothing usable. */
export function reportPdfName(candidate: string | null | undefined, invitationId: string): string {
  const who = sanitizeFileName((candidate ?? '').replace(/@.*$/, '').toLowerCase(), 60);
  return who ? `report-${who}-${invitationId}.pdf` : `report-${invitationId}.pdf`;
}
