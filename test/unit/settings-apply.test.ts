import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  coerceSetting,
  finaliseSettings,
  parseSetFlags,
  parseSettingsFile,
  settingKeyList,
} from '../../src/commands/settings/shared/apply.js';
import { diffObjects, flatten, formatChanges } from '../../src/commands/shared/diff.js';
import { UsageError } from '../../src/errors.js';

const current = {
  testSettings: { testName: 'Java', testAliasName: 'java', typeOfTest: 1, practiceTest: 0 },
  questionSettings: { randomQuestions: 0, randomAnswers: 0, showQuestionScore: 1 },
  displayMessageSettings: { sectionEndPopup: 1, sectionTimeLeftAlert: 1, candidateFeedback: 0 },
  emailSettings: { sendTestReportEmailToCandidate: 0 },
  imageProctoringSettings: { terminateTestOnImageViolation: 0, terminateTestAfterViolationCount: 0 },
  windowViolationSettings: {
    copyPaste: 0,
    displayViolationSettings: {
      displayViolationPopUp: 1,
      terminateTestOnWindowViolation: 0,
      terminateTestAfterViolationCount: 3,
    },
  },
};

const usage = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('expected a UsageError');
};

describe('settings keys and --set', () => {
  it('knows every field of the spec table as a dotted key', () => {
    expect(settingKeyList()).toHaveLength(17);
    expect(settingKeyList()).toContain(
      'windowViolationSettings.displayViolationSettings.terminateTestAfterViolationCount',
    );
  });

  it('coerces values to the field type: text stays text, flags and counts become numbers', () => {
    expect(
      parseSetFlags([
        'testSettings.testAliasName=007',
        'questionSettings.randomAnswers=yes',
        'imageProctoringSettings.terminateTestAfterViolationCount=5',
      ]),
    ).toEqual({
      'testSettings.testAliasName': '007',
      'questionSettings.randomAnswers': 1,
      'imageProctoringSettings.terminateTestAfterViolationCount': 5,
    });
    expect(coerceSetting('windowViolationSettings.copyPaste', 'off')).toBe(0);
  });

  it('an unknown key suggests the near one and says what lists every key, in one line', () => {
    const e = usage(() => parseSetFlags(['questionSettings.randomAnswer=1']));
    expect(e.message).toBe("--set: unknown setting 'questionSettings.randomAnswer'");
    expect(e.hint).toBe('did you mean questionSettings.randomAnswers? see every key: assess settings get <testId>');
    expect(usage(() => parseSetFlags(['unknown.key=1'])).hint).toBe('see every key: assess settings get <testId>');
  });

  it.each([
    ['questionSettings.randomAnswers=2', /--set questionSettings.randomAnswers: must be 0 or 1/],
    [
      'imageProctoringSettings.terminateTestAfterViolationCount=-1',
      /must be a whole number from 0 to 1000 \(got "-1"\)/,
    ],
    ['testSettings.typeOfTest=3', /must be 0, 1 or 2/],
    ['copyPaste', /--set: expected section.field=value/],
  ])('rejects %s', (item, message) => {
    expect(usage(() => parseSetFlags([item])).message).toMatch(message);
  });

  it.each([
    [
      'imageProctoringSettings.terminateTestAfterViolationCount=1.5',
      'must be a whole number from 0 to 1000 (got "1.5")',
      '=3',
    ],
    [
      'windowViolationSettings.displayViolationSettings.terminateTestAfterViolationCount=abc',
      'must be a whole number from 0 to 1000 (got "abc")',
      '=3',
    ],
    ['questionSettings.randomQuestions=1.5', 'must be 0 or 1 (got "1.5")', '=1'],
    [
      'testSettings.typeOfTest=1.5',
      'must be 0, 1 or 2 (spec: 1 multiple, 2 single; production: 0 multiple, 1 single) (got "1.5")',
      '=1',
    ],
    ['testSettings.testName= ', 'must be text, not empty (got " ")', '="Backend developer"'],
  ])(
    'a value of the wrong type (%s) names the setting, what it takes and an example, in our words',
    (item, said, example) => {
      const key = item.split('=')[0]!;
      const e = usage(() => parseSetFlags([item]));
      expect(e.message).toBe(`--set ${key}: ${said}`);
      expect(e.hint).toBe(`e.g. --set ${key}${example}`);
      expect(e.message).not.toMatch(/Invalid input|expected number|Too (small|big)/);
    },
  );
});

describe('settings file', () => {
  it('reads a partial object into dotted changes', () => {
    expect(parseSettingsFile('s.json', '{"questionSettings":{"randomQuestions":1}}')).toEqual({
      'questionSettings.randomQuestions': 1,
    });
  });

  it('bad JSON names the file, the line and the column', () => {
    expect(usage(() => parseSettingsFile('s.json', '{"a":')).message).toBe(
      '--file s.json: line 1, column 6: not valid JSON (the text ends too early)',
    );
    expect(usage(() => parseSettingsFile('s.json', '{\n  "a": 1,\n  b: 2\n}')).message).toBe(
      '--file s.json: line 3, column 3: not valid JSON (a property name in double quotes expected)',
    );
    expect(usage(() => parseSettingsFile('s.json', '{"a": 1} x')).message).toMatch(/column 10: .*after the end/);
  });

  it('never quotes the file: a key file named by mistake stays out of every message', () => {
    const secret = 'sk_live_0123456789abcdefSECRET';
    const files = [
      secret,
      `${secret}\n`,
      `"${secret}"`,
      `{"${secret}": 1}`,
      `{"questionSettings": {"${secret}": 1}}`,
      `{"questionSettings": {"randomQuestions": "${secret}"}}`,
      `{"questionSettings": "${secret}"}`,
      `{"a": "${secret}" `,
      `{"result": {"testSettings": {"testName": ["${secret}"]}}}`,
    ];
    for (const text of files) {
      const e = usage(() => parseSettingsFile('s.json', text));
      expect(`${e.message}\n${e.hint ?? ''}`, text).not.toContain('SECRET');
      expect(e.message, text).toMatch(/^--file s\.json: (line 1[:,]|must hold a JSON object)/);
    }
  });

  it('a wrong type names the file and the field, without guessing', () => {
    expect(usage(() => parseSettingsFile('s.json', '{"windowViolationSettings":{"copyPaste":"1"}}')).message).toBe(
      '--file s.json: line 1: windowViolationSettings.copyPaste: must be 0 or 1 (got a string)',
    );
    const count = usage(() =>
      parseSettingsFile('s.json', '{"imageProctoringSettings":{"terminateTestAfterViolationCount":1.5}}'),
    );
    expect([count.message, count.hint]).toEqual([
      '--file s.json: line 1: imageProctoringSettings.terminateTestAfterViolationCount: must be a whole number from ' +
        '0 to 1000 (got a number)',
      'e.g. {"imageProctoringSettings":{"terminateTestAfterViolationCount":3}}',
    ]);
    expect(usage(() => parseSettingsFile('s.json', '{"testSettings":{"testName":5}}')).message).toBe(
      '--file s.json: line 1: testSettings.testName: must be text, not empty (got a number)',
    );
    expect(usage(() => parseSettingsFile('s.json', '{"questionSettings":1}')).message).toMatch(
      /^--file s\.json: line 1: questionSettings: must be an object of settings \(got a number\)$/,
    );
    expect(usage(() => parseSettingsFile('s.json', '[1]')).message).toMatch(/must hold a JSON object/);
    expect(usage(() => parseSettingsFile('s.json', '{"questionSettings":{"shuffle":1}}')).message).toMatch(
      /^--file s\.json: line 1: an unknown setting in questionSettings$/,
    );
  });
});

describe('applying and validating', () => {
  it('applies changes to a copy and reports nothing constrained when copy-paste stays off', () => {
    const merged = applyChanges(current, { 'questionSettings.randomQuestions': 1 });
    expect(current.questionSettings.randomQuestions).toBe(0);
    const { settings, constrained } = finaliseSettings(merged);
    expect(constrained).toEqual([]);
    expect(diffObjects(current, settings)).toEqual([{ key: 'questionSettings.randomQuestions', old: 0, new: 1 }]);
  });

  it('allowing copy-paste turns the violation popup off, and says so', () => {
    const { settings, constrained } = finaliseSettings(
      applyChanges(current, { 'windowViolationSettings.copyPaste': 1 }),
    );
    expect(constrained).toEqual([
      { key: 'windowViolationSettings.displayViolationSettings.displayViolationPopUp', old: 1, new: 0 },
    ]);
    expect(flatten(settings)['windowViolationSettings.displayViolationSettings.displayViolationPopUp']).toBe(0);
  });

  it('values the service returned go back unchanged, even ones a user could not type', () => {
    const { testSettings, ...rest } = current;
    const vendor = { ...rest, testSettings: { ...testSettings, typeOfTest: 0, testAliasName: '' } };
    const { settings } = finaliseSettings(applyChanges(vendor, { 'questionSettings.randomQuestions': 1 }));
    expect(diffObjects(vendor, settings)).toEqual([{ key: 'questionSettings.randomQuestions', old: 0, new: 1 }]);
  });

  it('what the user changes is still validated (an empty name is refused)', () => {
    expect(usage(() => parseSetFlags(['testSettings.testName='])).message).toMatch(
      /testSettings.testName: must be text, not empty/,
    );
  });

  it('keeps fields the schema does not know (full replace must not drop them)', () => {
    const { settings } = finaliseSettings({ ...current, extra: { keep: true } });
    expect(settings.extra).toEqual({ keep: true });
  });

  it('formats changes as key: old → new', () => {
    expect(formatChanges([{ key: 'a.b', old: 'x', new: null }])).toBe('  a.b: "x" → (none)');
  });
});
