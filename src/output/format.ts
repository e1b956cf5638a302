/** Every output format, in the order help lists them. */
export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
