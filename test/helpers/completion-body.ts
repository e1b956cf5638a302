// A v3 completion notification as the service POSTs it (the GUIDE's fields), for listener tests.
export const completionBody = (id: number, email = `c${id}@listen.example`, extra: Record<string, unknown> = {}) => ({
  CandidateEmailId: email,
  AttemptedOn: null,
  AttemptedOnUtc: null,
  TotalScore: 10,
  CandidateScore: 5,
  ReportPDFUrl: null,
  TestInvitationId: id,
  Status: 'Complete',
  PerformanceCategory: null,
  ...extra,
});
