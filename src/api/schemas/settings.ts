// Test settings: get (13), full replace (14).
import * as z from 'zod';
import { Flag, invalidValue, unwrapResult } from './common.js';

const Count = z.number().int().min(0).max(1000);

/**
 * The whole settings object (full replace). Required: every field without a default in the
 * spec's table; fields with a default (0) may be omitted and then take that default.
 */
export const TestSettings = z.object({
  testSettings: z.object({
    testName: z.string().trim().min(1, 'must not be empty'),
    testAliasName: z.string().trim().min(1, 'must not be empty'),
    typeOfTest: z.literal([1, 2], invalidValue('must be 1 (multiple questions) or 2 (single question)')),
    practiceTest: Flag,
  }),
  questionSettings: z.object({
    randomQuestions: Flag.default(0),
    randomAnswers: Flag.default(0),
    showQuestionScore: Flag,
  }),
  displayMessageSettings: z
    .object({ sectionEndPopup: Flag.default(0), sectionTimeLeftAlert: Flag.default(0), candidateFeedback: Flag.default(0) })
    .default({ sectionEndPopup: 0, sectionTimeLeftAlert: 0, candidateFeedback: 0 }),
  emailSettings: z.object({ sendTestReportEmailToCandidate: Flag.default(0) }).default({ sendTestReportEmailToCandidate: 0 }),
  imageProctoringSettings: z
    .object({ terminateTestOnImageViolation: Flag.default(0), terminateTestAfterViolationCount: Count.default(0) })
    .default({ terminateTestOnImageViolation: 0, terminateTestAfterViolationCount: 0 }),
  windowViolationSettings: z.object({
    copyPaste: Flag,
    displayViolationSettings: z.object({
      displayViolationPopUp: Flag,
      terminateTestOnWindowViolation: Flag,
      terminateTestAfterViolationCount: Count,
    }),
  }),
});
export type TestSettings = z.infer<typeof TestSettings>;

/** Settings as read back from the service (lenient). */
export const TestSettingsResponse = z.preprocess(
  unwrapResult,
  z.looseObject({
    testSettings: z.looseObject({}),
    questionSettings: z.looseObject({}).optional(),
    displayMessageSettings: z.looseObject({}).optional(),
    emailSettings: z.looseObject({}).optional(),
    imageProctoringSettings: z.looseObject({}).optional(),
    windowViolationSettings: z.looseObject({}).optional(),
  }),
);
export type TestSettingsResponse = z.infer<typeof TestSettingsResponse>;

/** "Allowing copy-paste disables the window violation popup": applied to what is stored. */
export function applySettingsConstraints(s: TestSettings): TestSettings {
  if (s.windowViolationSettings.copyPaste !== 1) return s;
  return {
    ...s,
    windowViolationSettings: {
      ...s.windowViolationSettings,
      displayViolationSettings: { ...s.windowViolationSettings.displayViolationSettings, displayViolationPopUp: 0 },
    },
  };
}
