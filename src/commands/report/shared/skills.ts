// A report's skills in one list, wherever the service put them (report command, picture, export).
type Row = Record<string, unknown>;

/** Skills at the top level (type 2) or inside sections (type 3), with their section named. */
export function skillRows(report: Row): Row[] {
  const top = Array.isArray(report.Skills) ? (report.Skills as Row[]) : [];
  const nested = Array.isArray(report.sections)
    ? (report.sections as Row[]).flatMap((s) =>
        Array.isArray(s.Skills)
          ? (s.Skills as Row[]).map((k) => ({ sectionName: s.sectionName, sectionId: s.sectionId, ...k }))
          : [],
      )
    : [];
  return [...top, ...nested];
}
