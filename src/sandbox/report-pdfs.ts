// Report PDFs as the real service makes them: generated once, when the attempt finishes, and
// served from then on. A PDF is cached per invitation, keyed on exactly the data that goes into
// it (the report and its `generatedAt`, the attempt's finish time), so a changed report —
// after a reset, a reattempt that is completed again, a new score — is never served stale,
// and a cached PDF is byte-identical to a fresh render (renderReportPdf is deterministic).
//
// When an invitation reaches a terminal state with a result (simulate complete / leave /
// terminate), `schedule` queues a background render: one at a time, each started from
// setImmediate, never on the request path that caused it. A PDF requested before its turn is
// rendered by that request (and a render already running for the same data is shared).
// The cache is an LRU bounded by entries and bytes.
import type { SandboxInvitation } from './model.js';
import { renderReportPdf } from './pdf.js';
import { buildReport } from './scoring.js';
import { hasResult } from './state-machine.js';
import type { Store } from './store.js';

export interface ReportPdfOptions {
  /** Most PDFs kept (default 2,000). */
  maxEntries?: number;
  /** Most bytes kept, PDFs plus their keys (default 20 MB). */
  maxBytes?: number;
}

interface Entry {
  key: string;
  pdf: Buffer;
  bytes: number;
}

/** The time a report is generated: when the attempt finished (or last changed, if it never did). */
export const generatedAtOf = (inv: SandboxInvitation): string => inv.finishedAt ?? inv.updatedAt;

export class ReportPdfs {
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly cache = new Map<number, Entry>(); // insertion order = least recently used first
  private bytes = 0;
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private readonly queue = new Set<number>();
  private draining: Promise<void> | null = null;
  private closed = false;
  /** Renders done (background and on request), for tests and diagnostics. */
  renders = 0;

  constructor(
    private readonly store: Store,
    opts: ReportPdfOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 2000;
    this.maxBytes = opts.maxBytes ?? 20 * 1024 * 1024;
  }

  /** What goes into the invitation's PDF: the report (without its URL) and when it was generated. */
  private input(inv: SandboxInvitation) {
    const report = buildReport(this.store.test(inv.testId)!, inv, 3, '');
    const generatedAt = generatedAtOf(inv);
    return { report, generatedAt, key: `${generatedAt}\n${JSON.stringify(report)}` };
  }

  /** The invitation's PDF (it must have a result): from the cache, or rendered now. */
  async pdfFor(inv: SandboxInvitation): Promise<Buffer> {
    const id = inv.testInvitationId;
    const { report, generatedAt, key } = this.input(inv);
    const hit = this.cache.get(id);
    if (hit && hit.key === key) {
      this.cache.delete(id); // most recently used
      this.cache.set(id, hit);
      return hit.pdf;
    }
    const running = this.rendering.get(key);
    if (running) return running;
    const render = renderReportPdf(report, generatedAt)
      .then((pdf) => {
        this.renders++;
        this.put(id, key, pdf);
        return pdf;
      })
      .finally(() => this.rendering.delete(key));
    this.rendering.set(key, render);
    return render;
  }

  /** True when the invitation's current PDF is in the cache. */
  has(inv: SandboxInvitation): boolean {
    return this.cache.get(inv.testInvitationId)?.key === this.input(inv).key;
  }

  /** Queue a background render of the invitation's PDF (after the current call returns). */
  schedule(inv: SandboxInvitation): void {
    if (this.closed) return;
    this.queue.add(inv.testInvitationId);
    this.draining ??= new Promise<void>((resolve) => setImmediate(() => void this.drain().finally(resolve)));
  }

  /** Resolves once every queued render is done. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  get queued(): number {
    return this.queue.size;
  }
  /** True while a render is running (background or on request). */
  get busy(): boolean {
    return this.rendering.size > 0;
  }

  close(): void {
    this.closed = true;
    this.queue.clear();
  }

  private async drain(): Promise<void> {
    try {
      for (const id of this.queue) {
        this.queue.delete(id);
        if (this.closed) break;
        const inv = this.store.invitation(id);
        // the attempt may have moved on (or the store been reset) since it was queued
        if (!inv || !hasResult(inv.status) || !inv.result) continue;
        try {
          await this.pdfFor(inv);
        } catch {
          // a failed background render is retried by the request that needs the PDF
        }
        await new Promise<void>((resolve) => setImmediate(resolve)); // let requests in between renders
      }
    } finally {
      this.draining = null;
    }
  }

  private put(id: number, key: string, pdf: Buffer): void {
    const old = this.cache.get(id);
    if (old) {
      this.cache.delete(id);
      this.bytes -= old.bytes;
    }
    const entry = { key, pdf, bytes: pdf.length + key.length * 2 };
    if (entry.bytes > this.maxBytes) return;
    this.cache.set(id, entry);
    this.bytes += entry.bytes;
    for (const [oldest, e] of this.cache) {
      if (this.cache.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.cache.delete(oldest);
      this.bytes -= e.bytes;
    }
  }

  /** Entries and bytes held (for tests). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.bytes };
  }
}
