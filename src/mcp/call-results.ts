// What a tool call answers: the JSON the command printed as the result, or an error result naming
// its category (by the one error → exit code map, src/cli/exit-codes.ts) and what to do about it;
// and what the audit log is told of the call.
import { describeError, EXIT, exitCodeFor } from '../cli/exit-codes.js';
import { maskUrlCredentials } from '../api/redact.js';
import { escapeMessage } from '../output/escape.js';
import { toolWording } from './arguments.js';
import type { WouldSend } from './call-guard.js';
import type { DerivedTool } from './tool-from-command.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallOutcome {
  result: ToolResult;
  /** For the audit log. */
  outcome: 'ok' | 'dry-run' | 'not-allowed' | 'error' | 'no-such-tool' | 'cancelled';
  category?: string;
  /** On a dry run: the requests held back. */
  requests?: WouldSend[];
  /** The requests that change something and were sent (an allowed write). */
  sent?: WouldSend[];
}

const CATEGORY: Record<number, string> = {
  [EXIT.usage]: 'usage',
  [EXIT.auth]: 'auth',
  [EXIT.notFound]: 'not found',
  [EXIT.failed]: 'refused',
  [EXIT.partial]: 'partial',
  [EXIT.network]: 'network',
  [EXIT.interrupted]: 'interrupted',
};

/** A result: the JSON as structured content and as text (clients that read only text), notices apart. */
export function jsonResult(structured: Record<string, unknown>, notes: string[], isError = false): ToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [
      { type: 'text', text: JSON.stringify(structured) },
      ...(notes.length ? [{ type: 'text' as const, text: JSON.stringify({ notices: notes }) }] : []),
    ],
    structuredContent: structured,
  };
}

/** Cancelled by the client: the SDK sends no answer; this is for the audit log. */
export function cancelled(tool: DerivedTool): CallOutcome {
  const message = `${tool.name}: cancelled by the client; requests under way were aborted`;
  return {
    outcome: 'cancelled',
    result: errorResult('cancelled', undefined, message, 'call it again if still wanted'),
  };
}

export function dryRunResult(requests: WouldSend[], notes: string[]): CallOutcome {
  return { outcome: 'dry-run', requests, result: jsonResult({ dryRun: true, requests }, notes) };
}

/**
 * A call that may change nothing tried to (a write tool the server does not allow is refused
 * before it runs, so this is a tool that only reads): refused, nothing sent.
 */
export function refusedWrite(tool: DerivedTool, r: WouldSend): CallOutcome {
  const message =
    `${tool.name} tried to send ${r.method} ${r.path}, which changes data, and this call may change ` +
    `nothing; it was not sent`;
  const fix =
    'this tool only reads and should send no such request: report ' +
    'it as a bug of assess (the audit log names the request)';
  return {
    outcome: 'not-allowed',
    category: 'not allowed',
    requests: [r],
    result: errorResult('not allowed', undefined, message, fix),
  };
}

export function notAllowed(tool: DerivedTool): CallOutcome {
  const message = `${tool.name} changes data on the service, and this server allows no such tool`;
  const fix =
    `ask the user to restart it with: assess mcp --allow-writes ${tool.name} (or --allow-writes for all); ` +
    `dryRun: true shows the request meanwhile`;
  return {
    outcome: 'not-allowed',
    category: 'not allowed',
    result: errorResult('not allowed', undefined, message, fix),
  };
}

/** The fix of an error that names none of its own: by category, what an assistant can do. */
const FIXES: Record<string, string> = {
  usage: "correct the arguments as the message says (the tool's input schema lists them)",
  auth: 'ask the user to check the key of the profile: assess auth status (assess auth login stores one)',
  'not found': 'check the id: tests_list, links_list and attempts_list list what this account has',
  refused: "read the service's message: change the arguments, or tell the user what the service refused",
  partial: 'some items failed: the message names them; call the tool again for those only',
  network:
    'the service did not answer (network, time-out or rate limit): ' +
    'try again later, or ask the user to check the base URL',
  interrupted: 'the server was stopped; call the tool again once it runs',
  failed: 'tell the user; on the CLI, the same command with --debug shows more',
};

export function failed(tool: DerivedTool, err: unknown, notes: string[]): CallOutcome {
  const code = exitCodeFor(err);
  const category = CATEGORY[code] ?? 'failed';
  const { message, hint } = describeError(err, {});
  // a usage error names the command's flags: the model knows the tool's arguments
  const safe = (s: string) => escapeMessage(maskUrlCredentials(code === EXIT.usage ? toolWording(tool, s) : s));
  const fix = hint === undefined ? FIXES[category]! : safe(hint);
  return {
    outcome: 'error',
    category,
    result: errorResult(category, code, `${tool.name}: ${safe(message)}`, fix, notes),
  };
}

function errorResult(
  category: string,
  exitCode: number | undefined,
  message: string,
  fix: string,
  notes: string[] = [],
): ToolResult {
  const error = { category, ...(exitCode !== undefined ? { exitCode } : {}), message, fix };
  return jsonResult({ error }, notes, true);
}

/** What --json printed: one JSON document (or NDJSON lines, as a list). */
export function parseOutput(out: string): unknown {
  const text = out.trim();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return text.split('\n').map((line) => JSON.parse(line) as unknown);
    } catch {
      return text;
    }
  }
}
