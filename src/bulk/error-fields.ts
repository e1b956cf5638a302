// How a failed item is written to a bulk run's journal and results file (invite --csv, report export).
import { ApiError, NetworkError, type ResponseShapeError } from '../api/errors.js';

export function errorFields(err: ApiError | NetworkError | ResponseShapeError): Record<string, unknown> {
  if (err instanceof ApiError) return { status: err.status, messages: err.messages };
  if (err instanceof NetworkError) return { code: err.code ?? null, message: err.message };
  return { message: err.message };
}
