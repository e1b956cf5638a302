// The per-attempt deadline of a request without the user's Ctrl-C signal (src/api/transport.ts):
// undici takes an EventEmitter as well as an AbortSignal, and this one costs less per request.
import { EventEmitter } from 'node:events';

/** A signal undici takes besides an AbortSignal: an EventEmitter with `aborted` and `reason`. */
export class DeadlineSignal extends EventEmitter {
  aborted = false;
  reason: unknown;
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}
