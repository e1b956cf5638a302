// The fields of a bulk command's summary object (`--json a,b` is checked against them before
// anything is sent). Kept apart from run.ts so a command file can declare them at no cost.

/** Every bulk run (invite --from-csv, report export). */
export const SUMMARY_FIELDS = [
  'what',
  'done',
  'skipped',
  'failed',
  'interrupted',
  'perSecond',
  'throttled',
  'pace',
  'results',
  'journal',
] as const;
/** invite --from-csv adds whether the service e-mails the candidates. */
export const INVITE_SUMMARY_FIELDS = [...SUMMARY_FIELDS, 'emailed'] as const;
/** report export adds the files it wrote. */
export const EXPORT_SUMMARY_FIELDS = [...SUMMARY_FIELDS, 'summary', 'sections', 'skills', 'html'] as const;
/** invite --from-csv --dry-run: what would be sent. */
export const DRY_RUN_FIELDS = [
  'rows',
  'valid',
  'invalid',
  'blank',
  'duplicates',
  'alreadyDone',
  'wouldSend',
  'journal',
] as const;
