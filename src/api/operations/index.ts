// The operation table: every service operation (v3 and the deprecated v2) declared once, with
// what the client, the sandbox's routes, the OpenAPI document and the `--json` field lists derive
// from it. Plain data (types.ts): importing it builds no schema. The service's paths are written
// here and in the two row files only.
import type * as z from 'zod/mini';
import type { Readers } from '../read/catalog.js';
import type { REQUEST_SCHEMAS } from '../schemas/catalog.js';
import type { OperationRow } from './types.js';
import { V2_OPERATIONS } from './v2.js';
import { V3_OPERATIONS } from './v3.js';

export type { AnswerRow, ErrorStyle, Identifies, OperationRow, Repeat } from './types.js';

export const OPERATIONS = { ...V3_OPERATIONS, ...V2_OPERATIONS };
export type OperationId = keyof typeof OPERATIONS;
type Row<I extends OperationId> = (typeof OPERATIONS)[I];

/** Where each API's paths start (the v2 operations live under its organisation prefix). */
export const API_PREFIX = { v3: '/v3', v2: '/v2/org' } as const;
export type Api = keyof typeof API_PREFIX;

export const apiOf = (id: OperationId): Api => (id.startsWith('v2.') ? 'v2' : 'v3');

/** A request path of the emulated service (the sandbox's control API and pages are not). */
export const isServicePath = (url: string): boolean => url.startsWith('/v3/') || url.startsWith('/v2/');

export const operationIds = (): OperationId[] => Object.keys(OPERATIONS) as OperationId[];

export function operation(id: OperationId): OperationRow {
  return OPERATIONS[id];
}

type ParamNames<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? K | ParamNames<Rest> : never;
export type IdLike = string | number;
/** The path parameters of an operation, by name: `{ testId, testLinkId }`. */
export type PathParams<I extends OperationId> = Record<ParamNames<Row<I>['path']>, IdLike>;

/** The request body an operation takes, typed from its strict schema (what the client sends). */
export type BodyOf<I extends OperationId> =
  Row<I> extends { body: infer N extends keyof typeof REQUEST_SCHEMAS }
    ? z.input<(typeof REQUEST_SCHEMAS)[N]>
    : undefined;

/**
 * A body by the operation's field names whose values are not typed: links create and update and
 * settings set send what they checked against the strict schema themselves, or what the service
 * answered (the stored values go back as they came, even where a user could not type them).
 */
export type CheckedBodyOf<I extends OperationId> = { [K in keyof NonNullable<BodyOf<I>>]?: unknown };

/** The client's reading of an operation's answer. */
export type AnswerOf<I extends OperationId> = Row<I>['answer'] extends { read: infer N extends keyof Readers }
  ? z.output<Readers[N]>
  : never;

/** The parameter names of a path, in order: `/v3/tests/{testId}` → `['testId']`. */
export function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** An operation's path with its parameters filled in (each one a path segment, encoded). */
export function pathOf(id: OperationId, params: Readonly<Record<string, IdLike>> = {}): string {
  return OPERATIONS[id].path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${id}: no value for the path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
