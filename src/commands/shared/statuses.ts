// Invitation statuses compared the tolerant way: case and spacing ignored, `Completed` = `Complete`
// (API responses are being normalised elsewhere; these helpers accept either spelling).
export const normStatus = (s: string | null | undefined): string => {
  const n = (s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  return n === 'completed' ? 'complete' : n === 'inprogress' ? 'in progress' : n;
};

/** The statuses whose notification ends an attempt (state `completed` of list attempts). */
export const TERMINAL = new Set(['complete', 'test left', 'terminated']);
/** Final without a result: no notification is sent for these. */
export const CLOSED = new Set(['cancelled', 'canceled', 'expired']);

export const isTerminal = (s: string | null | undefined) => TERMINAL.has(normStatus(s));

/** Service text for a stderr line: control characters (ESC, newlines…) shown escaped, never sent raw. */
export const safeText = (s: unknown): string =>
  String(s).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
