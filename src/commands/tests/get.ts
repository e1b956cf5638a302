import { defineCommand, zx, arg } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import { Printer, type Column } from '../../output/printer.js';
import { getTestV2, V2_TEST_DETAIL_FIELDS } from './shared/v2.js';

const HEADER: Column<R.TestDetail>[] = [
  { key: 'testId', header: 'Test ID', kind: 'id' },
  { key: 'testName', header: 'Name' },
  { key: 'testStatus', header: 'Status', kind: 'status' },
  { key: 'duration', header: 'Minutes' },
  { key: 'questions', header: 'Questions' },
  { key: 'totalPoints', header: 'Points' },
  { key: 'accessKey', header: 'Access key' },
  { key: 'defaultTestLinkId', header: 'Default link', kind: 'id' },
];

/** What `--json a,b` may name: the test object's wire fields (sections included). */
const FIELDS = fieldsOfAnswer('v3.getTest', HEADER);

export default defineCommand({
  name: 'get',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description: 'Show a test: name, status, duration, questions and its sections (and skills) as tables',
  examples: ['assess tests get 1001', 'assess tests get 1001 --json', 'assess tests get 1001 --json testId,sections'],
  jsonFields: FIELDS,
  v2: { run: (ctx, { testId }) => getTestV2(ctx, testId), jsonFields: V2_TEST_DETAIL_FIELDS },
  showsAnswer: true,
  async run(ctx, { testId }) {
    const test = await (await ctx.api()).getTest(testId);
    const sections = test.sections ?? [];
    const skills = sections.flatMap((s) => (s.skills ?? []).map((k) => ({ sectionName: s.sectionName, ...k })));
    await new Printer(ctx).object(test, {
      fields: HEADER,
      sections: [
        {
          title: 'Sections',
          rows: sections,
          columns: [
            { key: 'sectionId', header: 'Section ID', priority: 6, kind: 'id' },
            { key: 'sectionName', header: 'Section', priority: 1 },
            { key: 'sectionType', header: 'Type', priority: 4 },
            { key: 'questions', header: 'Questions', priority: 3 },
            { key: 'duration', header: 'Minutes', priority: 5 },
            { key: 'points', header: 'Points', priority: 2 },
          ],
        },
        {
          title: 'Skills',
          rows: skills,
          columns: [
            { key: 'sectionName', header: 'Section', priority: 1 },
            { key: 'qbId', header: 'Skill ID', priority: 6, kind: 'id' },
            { key: 'qbName', header: 'Skill', priority: 1 },
            { key: 'questions', header: 'Questions', priority: 3 },
            { key: 'points', header: 'Points', priority: 2 },
          ],
        },
      ],
    });
  },
});
