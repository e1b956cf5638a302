// The fixed parts of the HTML digest (digest-html.ts): its style sheet and its one small script.
// Both are constants, allowed by hash in the page's Content-Security-Policy, so nothing the
// service sends can add a script or reach the network even if it slipped past the escaping.

export const DIGEST_CSS = `
:root { --bg: #fff; --fg: #1d2330; --muted: #5b6474; --line: #d9dde5; --card: #f5f7fa;
  --bar: #3b6fd8; --bar-bg: #e3e8f0; --ok: #1e7b34; --warn: #9a6400; --bad: #b3261e; color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14171c; --fg: #e6e9ef; --muted: #9aa3b2; --line: #2e343e; --card: #1c2027;
    --bar: #7aa2f7; --bar-bg: #2a303a; --ok: #6fcf87; --warn: #e0b050; --bad: #f28b82; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 10px; }
.meta { color: var(--muted); margin: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 10px;
  margin: 18px 0 0; padding: 0; }
.cards div { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.cards dt { color: var(--muted); font-size: 12px; }
.cards dd { margin: 2px 0 0; font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); gap: 24px; }
svg text { fill: var(--muted); font-size: 11px; }
svg .bar { fill: var(--bar); }
svg .track { fill: var(--bar-bg); }
svg .count { fill: var(--fg); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; white-space: nowrap; }
thead th { position: sticky; top: 0; background: var(--bg); }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid var(--bar); outline-offset: 2px; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.status-complete { color: var(--ok); }
.status-left, .status-pending { color: var(--warn); }
.status-terminated, .status-cancelled, .status-expired { color: var(--bad); }
a { color: var(--bar); }
.empty { color: var(--muted); }
/* a phone: the page keeps its width and the table scrolls sideways in its own box */
@media (max-width: 720px) {
  body { padding: 12px; }
  .table-wrap { overflow-x: auto; }
  thead th { position: static; }
}
footer { margin-top: 28px; color: var(--muted); font-size: 12px; }
@media print {
  :root { --bg: #fff; --fg: #000; --muted: #444; --line: #bbb; --card: #fff; --bar: #333; --bar-bg: #ddd; }
  body { padding: 0; max-width: none; font-size: 11px; }
  thead th { position: static; }
  th[aria-sort] button::after { content: ""; }
  tr, .cards div, svg { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;

/** Sorts the candidates' table by the clicked header (numbers by data-v, text by locale). */
export const DIGEST_SCRIPT = `
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.querySelectorAll('thead th');
  heads.forEach(function (th, col) {
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function () {
      var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir);
      var numeric = th.classList.contains('num');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[col];
        var v = cell ? cell.getAttribute('data-v') : null;
        return v === null ? (cell ? cell.textContent : '') : v;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), r;
        if (numeric) {
          var nx = x === '' ? NaN : Number(x), ny = y === '' ? NaN : Number(y);
          if (isNaN(nx) || isNaN(ny)) return isNaN(nx) === isNaN(ny) ? 0 : isNaN(nx) ? 1 : -1; // blanks last
          r = nx - ny;
        } else r = x.localeCompare(y, undefined, { sensitivity: 'base', numeric: true });
        return dir === 'ascending' ? r : -r;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
`;
