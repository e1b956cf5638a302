export type OutputFormat = 'table' | 'tsv' | 'json' | 'ndjson' | 'csv';
