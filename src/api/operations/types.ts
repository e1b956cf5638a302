// What one row of the operation table says about a service operation. Plain data: schemas are
// named (src/api/schemas/catalog.ts, src/api/read/catalog.ts), not held, so a module that only
// needs a path, a repeat class or an error style loads no zod schema.
import type { RequestSchemaName, ResponseSchemaName } from '../schemas/catalog.js';
import type { ReaderName } from '../read/catalog.js';

/**
 * Whether a repeat is safe after a try that may have reached the service:
 * - `read`: changes nothing (every GET; also a query sent as a POST), so any failure may be repeated;
 * - `idempotent`: a repeat does what the first try did (the spec says so: one invitation per
 *   candidate), so a gateway's 502/503/504 or a lost answer is repeated, a 500 is not;
 * - `same-on-repeat`: idempotent, and the repeat returns what the first try made (a 500 too);
 * - `once`: a repeat would do it again (create a second link): only what the service surely did
 *   not act on (a 429, a connection that never carried the request) is repeated.
 * A caller that has the service e-mail the candidate says so (`emails`): a repeat could send a
 * second e-mail, so the call is then `once`, whatever its operation's class.
 */
export type Repeat = 'read' | 'idempotent' | 'same-on-repeat' | 'once';

/** The shape of the error bodies an operation answers with (v3: three shapes; v2: its envelope). */
export type ErrorStyle = 'errors' | 'statusMessage' | 'resultErrors' | 'v2';

/** What identifies the operation's answer (src/api/read/identify.ts turns it into a check). */
export type Identifies =
  | { readonly all: readonly string[] }
  | { readonly any: readonly string[] }
  /** a listing under this key (or a bare array); `orAnyList`: or any list inside the body */
  | { readonly list: string; readonly orAnyList?: true }
  /** a list whose key is not public; `nullIsEmpty`: null reads as an empty one */
  | { readonly anyList: true; readonly nullIsEmpty?: true }
  | 'object';

export interface AnswerRow {
  readonly status: 200 | 201;
  /** The strict schema the sandbox answers with and the OpenAPI document shows; `pdf`: a PDF file. */
  readonly wire: ResponseSchemaName | 'pdf';
  /** The client's tolerant reading of it (v2: of its `result`); none for a PDF. */
  readonly read?: ReaderName;
  /** A listing: the key of its rows (none: the answer is the list) and the reading of one row. */
  readonly rows?: { readonly key?: string; readonly read: ReaderName };
  readonly identify?: Identifies;
  /**
   * An empty body: `true`, a success; else what it may mean and how to check (a failure). `{name}`
   * in `check` is the path parameter of that name. Default: a failure.
   */
  readonly empty?: true | { readonly means: string; readonly check: string };
  /** Writes: what the client knows without the answer (path ids, the body it sent, fixed fields). */
  readonly known?: {
    readonly path?: readonly string[];
    readonly body?: true;
    readonly fields?: Readonly<Record<string, string>>;
  };
  /** Writes: fields the user expects to see; their absence is a warning. */
  readonly expect?: readonly string[];
}

export interface OperationRow {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** With its parameters in braces, as the spec writes them (v3 invite: /v3/tests/{testId}/invite). */
  readonly path: string;
  readonly summary: string;
  /** The query object's strict schema (its properties are the query parameters). */
  readonly query?: RequestSchemaName;
  readonly body?: RequestSchemaName;
  /** The body may be left out (cancel reads none; an update with no fields changes nothing). */
  readonly bodyOptional?: true;
  readonly answer: AnswerRow;
  readonly repeat: Repeat;
  /** The body can have the service e-mail the candidate: each call says whether it does. */
  readonly mayEmail?: true;
  /** Error statuses the operation answers (besides injected faults, 413 and 500). */
  readonly errors: readonly number[];
  readonly style: ErrorStyle;
  /** The status of a missing or invalid key (v3: 400 on the operations the spec's 400 row lists). */
  readonly authStatus?: 400 | 401;
  /** Rules the JSON Schema cannot carry (zod refinements), for the OpenAPI description. */
  readonly notes?: string;
}
