// The tolerant readers by name: what the operation table (src/api/operations/) names as the
// client's reading of an answer, and of each row of a listing.
import * as R3 from './v3.js';
import * as R2 from './v2.js';

export const READERS = {
  TestsList: R3.TestsList,
  TestSummary: R3.TestSummary,
  TestDetail: R3.TestDetail,
  TestLinks: R3.TestLinks,
  TestLink: R3.TestLink,
  WrittenLink: R3.WrittenLink,
  Invitation: R3.Invitation,
  Reattempt: R3.Reattempt,
  Cancelled: R3.Cancelled,
  Report: R3.Report,
  TestAttempts: R3.TestAttempts,
  TestAttempt: R3.TestAttempt,
  ProcessedCallbacks: R3.ProcessedCallbacks,
  Settings: R3.Settings,
  TimeZones: R3.TimeZones,
  TimeZone: R3.TimeZone,
  V2Tests: R2.V2Tests,
  V2Test: R2.V2Test,
  V2TestDetail: R2.V2TestDetail,
  V2Registered: R2.V2Registered,
  V2LinkRegistered: R2.V2LinkRegistered,
  V2Report: R2.V2Report,
  V2SectionReport: R2.V2SectionReport,
  V2SectionScore: R2.V2SectionScore,
  V2TestLinks: R2.V2TestLinks,
  V2TestLink: R2.V2TestLink,
  V2WrittenLink: R2.V2WrittenLink,
};

export type ReaderName = keyof typeof READERS;
