// The floor of a one-request command: node's own http client, one GET, print the JSON.
// Used by bench/latency.mjs; reads ASSESS_BASE_URL and ASSESS_API_KEY like the CLI.
import http from 'node:http';

const url = new URL('/v3/tests/1001', process.env.ASSESS_BASE_URL);
http.get(url, { headers: { 'X-API-KEY': process.env.ASSESS_API_KEY } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (body += d));
  res.on('end', () => process.stdout.write(`${JSON.stringify(JSON.parse(body), null, 2)}\n`));
});
