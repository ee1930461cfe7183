/**
 * API benchmark: seeds 100,000 accounts and measures POST /portal/accounts/paged (default sort, and a name
 * search) under 32 concurrent clients with autocannon, on PGlite and on PostgreSQL, next to the same
 * repository SQL run directly, so the API's overhead shows as a ratio.
 *
 *   npm run bench:api                         PGlite, plus PostgreSQL at TEST_DATABASE_URL or DATABASE_URL
 *   BENCH_ROWS=20000 BENCH_SECONDS=5 npm run bench:api
 */
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '@server/app';
import { EntityRepository } from '@server/engine/repository';
import { loadSchemas } from '@server/engine/schemas';
import { loadPrincipal } from '@server/http/principal';
import { ensureAdmin } from '@server/db/seed';
import { normaliseListRequest } from '@shared/schema';
import { freshDatabase } from '../test/server/helpers';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

const scenarios = [
  { name: 'default sort', body: { page: { page: 0, size: 50 } } },
  { name: 'name search', body: { searchBy: 'name', searchKey: 'fleet 4242', page: { page: 0, size: 50 } } },
];

async function benchEngine(engine: 'pglite' | 'postgres') {
  if (engine === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const database = await freshDatabase(engine);
  const { db } = database;
  await ensureAdmin(db, PASSWORD);
  const started = Date.now();
  await sql`insert into account (name, city, country, usage_credit, reseller_id)
    select (array['Harbor','Alpine','Meridian','Cedar','Lumen','Pacific','Orion','Tundra','Kestrel','Sakura'])[1 + i % 10] || ' '
           || (array['Logistics','Sensors','Fleet','Health','Metering','Rail','Security','Freight','Drones','Vending'])[1 + (i / 10) % 10]
           || ' ' || i, (array['Oslo','Lyon','Osaka','Denver','Riga'])[1 + i % 5], (array['NO','FR','JP','US','LV'])[1 + i % 5],
           (i % 1000) * 1.25, -1
    from generate_series(1, ${ROWS}) as i`.execute(db);
  await sql`vacuum analyze account`.execute(db);
  console.log(`\n[${engine}] seeded ${ROWS.toLocaleString('en')} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const app = await buildApp({ database, jwtSecret: 'bench' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt;

  const [schema] = loadSchemas().filter((s) => s.$id === 'account');
  const repo = new EntityRepository(db, schema);
  const principal = (await loadPrincipal(db, 1))!;

  const results = [];
  for (const scenario of scenarios) {
    const run = await autocannon({
      url: `${address}/portal/accounts/paged?include_inventory=true`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify(scenario.body),
    });
    // The same SQL through the repository, with the same concurrency, without HTTP, auth or JSON.
    const req = normaliseListRequest(schema, scenario.body, true);
    const latencies: number[] = [];
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          const t = performance.now();
          await repo.page(req, { principal, query: { include_inventory: 'true' } });
          latencies.push(performance.now() - t);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const directRps = latencies.length / SECONDS;
    const directP50 = latencies[Math.floor(latencies.length / 2)];
    results.push({
      engine,
      scenario: scenario.name,
      'api req/s': Math.round(run.requests.average),
      'api p50 ms': run.latency.p50,
      'api p99 ms': run.latency.p99,
      errors: run.non2xx + run.errors,
      'sql req/s': Math.round(directRps),
      'sql p50 ms': Number(directP50.toFixed(1)),
      'api/sql throughput': Number((run.requests.average / directRps).toFixed(2)),
    });
  }
  await app.close();
  await database.close();
  return results;
}

const rows = [...(await benchEngine('pglite'))];
if (pgUrl) rows.push(...(await benchEngine('postgres')));
else console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to include it.');
console.log(`\nPOST /portal/accounts/paged, ${ROWS.toLocaleString('en')} accounts, ${CONNECTIONS} connections, ${SECONDS} s per scenario`);
console.table(rows);
