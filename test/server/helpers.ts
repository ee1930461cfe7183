import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type AppOptions } from '@server/app';
import { openDatabase, type Db } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';

export const ADMIN_PASSWORD = 'Admin@2026pass';
/** Subscribers every test app starts with (the demo seed's numbering, spread over the demo accounts). */
export const DEMO_TEST_SUBSCRIBERS = 240;

/** The engines every server suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

/**
 * A fresh database: PGlite in memory, or a schema of its own in the PostgreSQL test database
 * (dropped again by `close`; `url` reaches it), so suites never see each other's rows.
 */
export async function freshDatabase(engine: string): Promise<Db & { url?: string }> {
  if (engine === 'pglite') return openDatabase({ dataDir: 'memory' });
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  // Extensions belong to the database: keep pg_trgm in public, which every test schema sees.
  await admin.query('select pg_advisory_lock(7311)'); // suites start in parallel
  await admin.query('create extension if not exists pg_trgm with schema public');
  await admin.query(`do $$ begin
    if (select extnamespace::regnamespace::text from pg_extension where extname = 'pg_trgm') <> 'public' then
      alter extension pg_trgm set schema public;
    end if; end $$`);
  await admin.query('select pg_advisory_unlock(7311)');
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const db = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...db,
    url: url.toString(),
    async close() {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * An app on a fresh database with the demo data. The demo's month of network events is left out unless
 * `seed.networkEvents` asks for it, so suites count the events their own calls write.
 */
export async function testApp(engine: string, options: Partial<Omit<AppOptions, 'database'>> = {}, seed: { networkEvents?: boolean } = {}) {
  const database = await freshDatabase(engine);
  await ensureAdmin(database.db, ADMIN_PASSWORD);
  const demo = await seedDemo(database.db, { subscribers: DEMO_TEST_SUBSCRIBERS, networkEvents: seed.networkEvents ?? false });
  const app = await buildApp({ database, jwtSecret: 'test-secret', ...options });
  const demoPassword = demo[0].password;

  async function login(userName: string, password = userName === 'admin' ? ADMIN_PASSWORD : demoPassword) {
    const res = await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password } });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${userName} failed: ${res.body}`);
    return res.json().jwt as string;
  }

  /** A caller bound to a token: `as.admin.post(url, body)`. */
  function client(token: string) {
    const headers = { authorization: `Bearer ${token}` };
    return {
      send: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => app.inject({ method, url, headers, payload: payload as object }),
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
      post: (url: string, payload?: unknown) => app.inject({ method: 'POST', url, headers, payload: payload as object }),
      put: (url: string, payload?: unknown) => app.inject({ method: 'PUT', url, headers, payload: payload as object }),
      delete: (url: string) => app.inject({ method: 'DELETE', url, headers }),
    };
  }

  return {
    app,
    database,
    db: database.db,
    demoPassword,
    login,
    client,
    async as(userName: string) { return client(await login(userName)); },
    async close() { await app.close(); await database.close(); },
  };
}
