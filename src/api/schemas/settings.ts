// Test settings: get (13), full replace (14).
import * as z from 'zod/mini';
import { Flag, invalidValue, unwrapResult } from './common.js';

const Count = z.number().check(z.int(), z.minimum(0), z.maximum(1000));

/**
 * The whole settings object (full replace). Required: every field without a default in the
 * spec's table; fields with a default (0) may be omitted and then take that default.
 */
export const TestSettings = z.object({
  testSettings: z.object({
    testName: z.string().check(z.trim(), z.minLength(1, 'must not be empty')),
    testAliasName: z.string().check(z.trim(), z.minLength(1, 'must not be empty')),
    typeOfTest: z.literal([1, 2], invalidValue('must be 1 (multiple questions) or 2 (single question)')),
    practiceTest: Flag,
  }),
  questionSettings: z.object({
    randomQuestions: z._default(Flag, 0),
    randomAnswers: z._default(Flag, 0),
    showQuestionScore: Flag,
  }),
  displayMessageSettings: z._default(
    z.object({
      sectionEndPopup: z._default(Flag, 0),
      sectionTimeLeftAlert: z._default(Flag, 0),
      candidateFeedback: z._default(Flag, 0),
    }),
    { sectionEndPopup: 0, sectionTimeLeftAlert: 0, candidateFeedback: 0 },
  ),
  emailSettings: z._default(z.object({ sendTestReportEmailToCandidate: z._default(Flag, 0) }), {
    sendTestReportEmailToCandidate: 0,
  }),
  imageProctoringSettings: z._default(
    z.object({
      terminateTestOnImageViolation: z._default(Flag, 0),
      terminateTestAfterViolationCount: z._default(Count, 0),
    }),
    { terminateTestOnImageViolation: 0, terminateTestAfterViolationCount: 0 },
  ),
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
export const TestSettingsResponse = z.pipe(
  z.transform(unwrapResult),
  z.looseObject({
    testSettings: z.looseObject({}),
    questionSettings: z.optional(z.looseObject({})),
    displayMessageSettings: z.optional(z.looseObject({})),
    emailSettings: z.optional(z.looseObject({})),
    imageProctoringSettings: z.optional(z.looseObject({})),
    windowViolationSettings: z.optional(z.looseObject({})),
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
