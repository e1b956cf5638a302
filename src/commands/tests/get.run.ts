// tests get: the test's header fields, then its sections and their skills as two tables.
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type get from './get.js';
import { TEST_HEADER } from './get.js';
import { getTestV2 } from './shared/v2.js';

export const run: Run<typeof get> = async (ctx, { testId }) => {
  const test = await (await ctx.api()).getTest(testId);
  const sections = test.sections ?? [];
  const skills = sections.flatMap((s) => (s.skills ?? []).map((k) => ({ sectionName: s.sectionName, ...k })));
  await new Printer(ctx).object(test, {
    fields: TEST_HEADER,
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
};

export const runV2: Run<typeof get> = (ctx, { testId }) => getTestV2(ctx, testId);
