// `assess report <invitationId> [--type summary|skills|both]`: the report as a picture on a
// terminal, as rows or one object elsewhere; with `--pdf` the PDF download (shared/pdf.ts).
import { answerFields } from '../../api/answer-fields.js';
import type { Run } from '../../cli/command.js';
import { wantsAscii } from '../../output/bars.js';
import { Printer, type Column } from '../../output/printer.js';
import type reportCommand from './command.js';
import { HEADER } from './command.js';
import { skillRows } from './shared/skills.js';
import { reportShape, SUMMARY_COLUMNS, summaryRow } from './shared/summary-row.js';

const REPORT_TYPES = { summary: 1, skills: 2, both: 3 } as const;

const SECTION_COLUMNS: Column[] = [
  { key: 'sectionId', header: 'Section id', priority: 6, kind: 'id' },
  { key: 'sectionName', header: 'Section', priority: 1 },
  { key: 'noOfQue', header: 'Questions', priority: 4 },
  { key: 'candidateScore', header: 'Score', priority: 2 },
  { key: 'sectionScore', header: 'Out of', priority: 3 },
  { key: 'sectionTimeTaken', header: 'Seconds used', priority: 5 },
];

const SKILL_COLUMNS: Column[] = [
  { key: 'sectionName', header: 'Section', priority: 1 },
  { key: 'qbId', header: 'Skill id', priority: 6, kind: 'id' },
  { key: 'qbName', header: 'Skill', priority: 1 },
  { key: 'noOfQue', header: 'Questions', priority: 4 },
  { key: 'candidateQbScore', header: 'Score', priority: 2 },
  { key: 'qbScore', header: 'Out of', priority: 3 },
];

type Row = Record<string, unknown>;

/**
 * --csv: one row, the fixed columns of report export's summary.csv in its order (one list:
 * shared/summary-row.ts), `pdf` empty as in an export without --pdf (no PDF is saved here).
 * Sections and skills are the export's sections.csv and skills.csv, or --json.
 */
const SUMMARY_CSV: Column[] = SUMMARY_COLUMNS.map((key) => ({ key, header: key }));

export const run: Run<typeof reportCommand> = async (ctx, input) => {
  if (input.pdf) {
    // the download's file handling loads only for --pdf (~2 ms of every report otherwise)
    const { downloadPdf } = await import('./shared/pdf.js');
    return downloadPdf(ctx, input.invitationId, {
      output: input.output,
      force: Boolean(input.force),
      maxBytes: input.maxSize,
    });
  }
  const { output, query } = ctx.globals;
  // The terminal picture, --csv and --ndjson show sections and skills: without --type they ask
  // for both. TSV and --json keep the service's default (summary) as before.
  const picture = output === 'table' && !query;
  const full = picture || output === 'ndjson';
  const reportType = REPORT_TYPES[input.type ?? (full ? 'both' : 'summary')];
  const report = (await (await ctx.api()).getReport(input.invitationId, reportType)) as Row;
  const printer = new Printer(ctx);
  if (picture) {
    const { renderPicture } = await import('./shared/picture.js');
    ctx.io.stdout.write(
      renderPicture(report, {
        width: ctx.io.columns,
        ascii: wantsAscii(ctx.env, input.ascii),
        c: printer.c,
        zone: printer.zone,
      }),
    );
    return;
  }
  const fields = await answerFields('v3.getReport');
  if (output === 'csv' && !query)
    return printer.object<Row>(summaryRow(report, {}, null, fields), { fields: SUMMARY_CSV });
  const sections = Array.isArray(report.sections) ? (report.sections as Row[]) : [];
  const skills = skillRows(report);
  // --json: the report's one shape (every declared field), also each row of an export's summary.json
  await printer.object<Row>(reportShape(report, fields), {
    fields: HEADER,
    sections: [
      ...(reportType !== 2 ? [{ title: 'Sections', rows: sections, columns: SECTION_COLUMNS }] : []),
      ...(reportType !== 1 ? [{ title: 'Skills', rows: skills, columns: SKILL_COLUMNS }] : []),
    ],
  });
};

export const runV2: Run<typeof reportCommand> = async (ctx, input) =>
  (await import('./shared/v2.js')).reportV2(ctx, input);
