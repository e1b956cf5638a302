// Values of the wire contract that commands read when they load (a description, completion
// words, a batch size). They live apart from the zod schemas so that loading a command does not
// build the schemas: those are built when a command sends a request or parses an answer.

/** POST /v3/tests/attempts/callbacks takes at most this many invitation ids per call. */
export const MAX_CALLBACK_IDS = 100;

/** The states `attempts list` and `callbacks process --state` take. */
export const ATTEMPT_STATES = ['completed', 'cancelled', 'expired'] as const;

/** The v3 callback field names in the order the service documents them (for tables and docs). */
export const CALLBACK_V3_FIELDS = [
  'CandidateEmailId',
  'AttemptedOn',
  'AttemptedOnUtc',
  'TotalScore',
  'CandidateScore',
  'ReportPDFUrl',
  'TestInvitationId',
  'Status',
  'PerformanceCategory',
] as const;
