// The requests read from the client and not answered yet. End of input on stdin means "no more
// requests", not "drop the answers": the server closes once every request it read has had its
// response written (a write the service made must reach the client with its id).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

export interface Unanswered {
  /** Resolves when every request read so far has its response written. */
  allAnswered(): Promise<void>;
}

/** Counts on `transport` after `server.connect(transport)`, which sets its `onmessage`. */
export function trackUnanswered(transport: Transport): Unanswered {
  const open = new Set<Id>();
  let wake: (() => void) | undefined;
  const answered = (id: unknown) => {
    open.delete(id as Id);
    if (!open.size) wake?.();
  };
  const read = transport.onmessage;
  transport.onmessage = <T extends JSONRPCMessage>(
    message: T,
    extra?: Parameters<NonNullable<Transport['onmessage']>>[1],
  ) => {
    if ('method' in message && 'id' in message) open.add(message.id);
    // a request the client cancels gets no response (MCP's notifications/cancelled)
    else if ('method' in message && message.method === 'notifications/cancelled') answered(message.params?.requestId);
    read?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if (!('method' in message) && 'id' in message) answered(message.id);
  };
  return {
    allAnswered: () => (open.size ? new Promise<void>((resolve) => (wake = resolve)) : Promise.resolve()),
  };
}
