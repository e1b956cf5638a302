// v3 settings (operations 13, 14): field names from the spec's table; values read as numbers where they are.
import * as z from 'zod/mini';
import { obj, optNum, optObj, optText } from '../policy.js';

const flags = (...names: string[]) => Object.fromEntries(names.map((n) => [n, optNum]));
export const Settings = obj({
  testSettings: optObj({ testName: optText, testAliasName: optText, ...flags('typeOfTest', 'practiceTest') }),
  questionSettings: optObj(flags('randomQuestions', 'randomAnswers', 'showQuestionScore')),
  displayMessageSettings: optObj(flags('sectionEndPopup', 'sectionTimeLeftAlert', 'candidateFeedback')),
  emailSettings: optObj(flags('sendTestReportEmailToCandidate')),
  imageProctoringSettings: optObj(flags('terminateTestOnImageViolation', 'terminateTestAfterViolationCount')),
  windowViolationSettings: optObj({
    ...flags('copyPaste'),
    displayViolationSettings: optObj(
      flags('displayViolationPopUp', 'terminateTestOnWindowViolation', 'terminateTestAfterViolationCount'),
    ),
  }),
});
export type Settings = z.infer<typeof Settings>;
