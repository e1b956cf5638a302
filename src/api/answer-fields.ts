// The top-level fields of what an operation answers (of each row, for a listing), in the order
// its reader declares them: what `--json a,b` may name and `--help` lists. Read from the reader
// schemas, which load with the first call: a command that only parses its line builds none, and
// one that names fields builds those of its own answer only.
import { OPERATIONS, type OperationId } from './operations/index.js';

export async function answerFields(id: OperationId): Promise<string[]> {
  const [{ readerOf }, { READ_FIELDS }] = await Promise.all([import('./read/catalog.js'), import('./read/policy.js')]);
  const answer = OPERATIONS[id].answer;
  const name = 'rows' in answer ? answer.rows.read : 'read' in answer ? answer.read : undefined;
  const fields = name && READ_FIELDS.get(await readerOf(name))?.fields;
  if (!fields) throw new Error(`${id}: its answer has no fields to list`);
  return [...fields];
}
