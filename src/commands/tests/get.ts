import { z } from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { getTestV2 } from '../v2/tests.js';

export default defineCommand({
  name: 'get',
  args: ['<testId>'],
  description: 'Show a test: name, status, duration, questions and its sections (and skills) as tables',
  examples: ['assess tests get 1001', 'assess tests get 1001 --json', 'assess tests get 1001 --json testId,sections'],
  schema: z.object({ testId: zx.id('1001') }),
  async run(ctx, { testId }) {
    if (ctx.globals.api === 'v2') return getTestV2(ctx, testId);
    const test = (await (await ctx.api()).getTest(testId)) as Record<string, unknown> & {
      sections?: Array<Record<string, unknown> & { sectionName: string; skills?: Array<Record<string, unknown>> }>;
    };
    const sections = test.sections ?? [];
    const skills = sections.flatMap((s) => (s.skills ?? []).map((k) => ({ sectionName: s.sectionName, ...k })));
    new Printer(ctx).object(test, {
      fields: [
        { key: 'testId', header: 'Test ID', kind: 'id' },
        { key: 'testName', header: 'Name' },
        { key: 'testStatus', header: 'Status', kind: 'status' },
        { key: 'duration', header: 'Minutes' },
        { key: 'questions', header: 'Questions' },
        { key: 'totalPoints', header: 'Points' },
        { key: 'accessKey', header: 'Access key' },
        { key: 'defaultTestLinkId', header: 'Default link', kind: 'id' },
      ],
      sections: [
        {
          title: 'Sections',
          rows: sections,
          columns: [
            { key: 'sectionId', header: 'Section ID', kind: 'id' },
            { key: 'sectionName', header: 'Section' },
            { key: 'sectionType', header: 'Type' },
            { key: 'questions', header: 'Questions' },
            { key: 'duration', header: 'Minutes' },
            { key: 'points', header: 'Points' },
          ],
        },
        {
          title: 'Skills',
          rows: skills,
          columns: [
            { key: 'sectionName', header: 'Section' },
            { key: 'qbId', header: 'Skill ID', kind: 'id' },
            { key: 'qbName', header: 'Skill' },
            { key: 'questions', header: 'Questions' },
            { key: 'points', header: 'Points' },
          ],
        },
      ],
    });
  },
});
