// One undici `request` (its public entry), print the JSON: what undici alone costs a command.
import { request } from 'undici';

const { body } = await request(new URL('/v3/tests/1001', process.env.ASSESS_BASE_URL), {
  headers: { 'X-API-KEY': process.env.ASSESS_API_KEY },
});
process.stdout.write(`${JSON.stringify(await body.json(), null, 2)}\n`);
