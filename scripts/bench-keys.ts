/**
 * An order's SIM key file, downloaded: on an in-memory PGlite database with the demo data, the administrator carries
 * an order of BENCH_KEYS_SIMS (default 100,000, the largest) SIMs through review, allocation and placing (the
 * simulator makes the keys, sealed in chunks), then downloads the key file over HTTP, reading it as a slow client
 * would, while the process's live memory (heap and buffers, sampled after a collection every 25 ms; the reading
 * client is in the same process) is watched. Prints the file's size, the download time and the live memory the
 * download took above what was in use before it; checks the file's lines. Needs the garbage collector exposed:
 *
 *   node --expose-gc --import tsx scripts/bench-keys.ts   (npm run bench:keys)
 */
import { loadavg } from 'node:os';
import { buildApp } from '@server/app';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { freshDatabase } from '../test/server/helpers';

const SIMS = Number(process.env.BENCH_KEYS_SIMS ?? 100_000);
const PASSWORD = 'Bench@2026pass';
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const database = await freshDatabase('pglite');
await ensureAdmin(database.db, PASSWORD);
await seedDemo(database.db, { subscribers: 0, networkEvents: false });
const app = await buildApp({ database, jwtSecret: 'bench-keys' });
const auth = {
  authorization: `Bearer ${(await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt as string}`,
};
const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await app.inject({ method, url, headers: auth, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const ids = Object.fromEntries((await call('GET', '/portal/reseller-info/list')).map((r: { id: number; name: string }) => [r.name, r.id]));
const sponsors = await database.db.selectFrom('sponsor').select(['id', 'name']).execute();
const provider = await database.db.selectFrom('simProvider').select('id').where('name', '=', 'Orbit Cards').executeTakeFirstOrThrow();
await call('POST', `/portal/reseller-info/credit-limits/${ids['Northwind Mobile']}`, { creditLimit: 50_000_000 });
const order = await call('POST', '/portal/sim-orders/submit', {
  resellerId: ids['Northwind Mobile'],
  simType: 'physical',
  simSize: 'triple',
  amount: SIMS,
  sponsorIds: [sponsors.find((s) => s.name === 'Orbit Home NL')!.id],
  providerId: provider.id,
  serviceProviderName: 'Bench',
  deliveryEmail: 'bench@example.com',
});
const O = `/portal/sim-orders/${order.uuid as string}`;
await call('POST', `${O}/financial-approval/true`, {});
await call('POST', `${O}/admin/technical-approval/true`, {});
await call('POST', `${O}/admin/resources`, { slots: [{ slot: 1, sponsorId: order.sponsors[0].id }] });
const placing = Date.now();
await call('GET', `${O}/admin/order`);
console.log(`placed ${SIMS.toLocaleString('en')} SIMs, keys sealed, in ${((Date.now() - placing) / 1000).toFixed(1)} s`);

const address = await app.listen({ port: 0, host: '127.0.0.1' });
// Live memory (heap and buffers) after a collection, so garbage not yet collected does not count.
const live = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const before = live();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, live())), 25);
const started = Date.now();
const res = await fetch(`${address}${O}/admin/keys`, { headers: auth });
let bytes = 0;
let lines = 0;
// A slow reader: a pause after each piece, so the server must wait for the client rather than buffer ahead.
for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
  bytes += piece.length;
  for (const b of piece) if (b === 10) lines++;
  await new Promise((resolve) => setTimeout(resolve, 1));
}
clearInterval(sampler);
const seconds = (Date.now() - started) / 1000;
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
console.log(`download: ${res.status}, ${mb(bytes)} MB, ${lines.toLocaleString('en')} lines in ${seconds.toFixed(1)} s`);
console.log(`live memory (heap and buffers, after collection) above idle during the download: peak ${mb(peak - before)} MB (file ${mb(bytes)} MB)`);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const ok = res.status === 200 && lines === SIMS + 1;
console.log(`${ok ? 'ok  ' : 'FAIL'} the file has a header and one line per SIM`);
await app.close();
await database.close?.();
process.exit(ok ? 0 : 1);
