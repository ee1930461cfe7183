import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { buildApp, type AppOptions } from '@server/app';
import { openDatabase, type Db } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { hashPassword } from '@server/domains/auth/password';

export const ADMIN_PASSWORD = 'Admin@2026pass';
/** Subscribers every test app starts with (the demo seed's numbering, spread over the demo accounts). */
export const DEMO_TEST_SUBSCRIBERS = 240;
/**
 * The suites' requests may wait for the database far longer than a server's (QUEUE_DEFAULTS): on a shared, loaded
 * machine a second is not long behind a job's chunk. test/server/overload.test.ts sets its own.
 */
export const TEST_QUEUE = { limit: 10_000, waitMs: 120_000 };

/** The engines every server suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

/** The states a suite's database can start from: migrated and empty, or with the demo data of `testApp` too. */
type Stage = 'migrated' | 'demo';

/**
 * The migrated and the demo-seeded database, built once per run (see globalSetup.ts) for every suite to start
 * from a copy: PGlite data folders as tar files, PostgreSQL template databases.
 */
export interface Snapshots {
  /** Names the run's PostgreSQL databases, so the run's end drops whichever a suite left behind. */
  run: string;
  pglite: Record<Stage, string> & { demoPassword: string };
  postgres?: Record<Stage, string> & { demoPassword: string };
}

const SNAPSHOTS = 'PORTAL_TEST_SNAPSHOTS';
const snapshots = (): Snapshots | undefined => (process.env[SNAPSHOTS] ? (JSON.parse(process.env[SNAPSHOTS]) as Snapshots) : undefined);

export function publishSnapshots(s: Snapshots | undefined) {
  if (s) process.env[SNAPSHOTS] = JSON.stringify(s);
  else delete process.env[SNAPSHOTS];
}

async function adminQuery(statements: string[]) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await admin.connect();
  try {
    for (const s of statements) await admin.query(s);
  } finally {
    await admin.end();
  }
}

/** The test database's URL with another database name. */
function databaseUrl(name: string) {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops a database once its connections have gone: those the pool has just closed may take a moment to leave,
 * and PostgreSQL waits for them a few seconds. One still in use after that stays until the end of the run
 * drops it (globalSetup.ts).
 */
async function dropDatabase(name: string) {
  await adminQuery([`drop database if exists ${name}`]).catch((e: { code?: string }) => {
    if (e.code !== '55006') throw e;
  });
}

/**
 * A PostgreSQL database of its own, copied from the template `template`, or empty when none is given (dropped
 * again by `close`; `url` reaches it).
 */
async function postgresDatabase(name: string, template?: string): Promise<Db & { url: string }> {
  await adminQuery([`create database ${name}${template ? ` template ${template}` : ''}`]);
  const url = databaseUrl(name);
  let db: Db;
  try {
    db = await openDatabase({ databaseUrl: url, queue: TEST_QUEUE });
  } catch (e) {
    await dropDatabase(name);
    throw e;
  }
  return {
    ...db,
    url,
    async close() {
      await db.close();
      await dropDatabase(name);
    },
  };
}

/** A fresh copy of the run's snapshot at `stage`, or undefined when there is none (outside the test run). */
async function fromSnapshot(engine: string, stage: Stage): Promise<{ database: Db & { url?: string }; demoPassword: string } | undefined> {
  const s = snapshots();
  if (engine === 'pglite' && s?.pglite) {
    const database = await openDatabase({ dataDir: 'memory', loadDataDir: new Blob([await readFile(s.pglite[stage])]), queue: TEST_QUEUE });
    return { database, demoPassword: s.pglite.demoPassword };
  }
  if (engine === 'postgres' && s?.postgres) {
    const database = await postgresDatabase(`t_${s.run}_${randomBytes(6).toString('hex')}`, s.postgres[stage]);
    return { database, demoPassword: s.postgres.demoPassword };
  }
  return undefined;
}

/**
 * A fresh migrated database: PGlite in memory, or a database of its own in the PostgreSQL server of
 * TEST_DATABASE_URL (dropped again by `close`; `url` reaches it), so suites never see each other's rows.
 * In a test run it is a copy of the run's migrated snapshot; elsewhere it is migrated anew.
 */
export async function freshDatabase(engine: string): Promise<Db & { url?: string }> {
  return (await fromSnapshot(engine, 'migrated'))?.database ?? migratedDatabase(engine);
}

/** A database migrated anew, without snapshots. */
export async function migratedDatabase(engine: string): Promise<Db & { url?: string }> {
  if (engine === 'pglite') return openDatabase({ dataDir: 'memory', queue: TEST_QUEUE });
  return postgresDatabase(`t_${randomBytes(8).toString('hex')}`);
}

/** Seeds the admin user and the demo data the way every test app has them; answers the demo users' password. */
export async function seedTestDemo(db: Db['db'], seed: { networkEvents?: boolean; sales?: boolean } = {}) {
  await ensureAdmin(db, ADMIN_PASSWORD);
  const demo = await seedDemo(db, { subscribers: DEMO_TEST_SUBSCRIBERS, networkEvents: seed.networkEvents ?? false, sales: seed.sales ?? false });
  return demo[0].password;
}

/**
 * An app on a fresh database with the demo data. The demo's month of network events and year of package sales are
 * left out unless `seed` asks for them, so suites count the events and balances their own calls write.
 */
export async function testApp(engine: string, options: Partial<Omit<AppOptions, 'database'>> = {}, seed: { networkEvents?: boolean; sales?: boolean } = {}) {
  // The demo data without network events and sales is the run's snapshot; other seeds are written anew.
  const copy = seed.networkEvents || seed.sales ? undefined : await fromSnapshot(engine, 'demo');
  let database: Db & { url?: string };
  let demoPassword: string;
  if (copy) ({ database, demoPassword } = copy);
  else {
    database = await freshDatabase(engine);
    demoPassword = await seedTestDemo(database.db, seed);
  }
  // The simulated network fails only when a test asks it to (the default 3% random failures make tests flaky).
  const app = await buildApp({ database, jwtSecret: 'test-secret', coreNetwork: { simulator: { failureRate: 0 } }, ...options });

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
    async as(userName: string) {
      return client(await login(userName));
    },
    /**
     * Signs in a new user of the provider (reseller -1) whose role holds `privileges` (without sub-privileges) but
     * not Administrator: support staff, as the provider's other users are. Answers its token.
     */
    async providerUser(userName: string, privileges: string[]): Promise<string> {
      const { db } = database;
      const role = await db
        .insertInto('role')
        .values({ name: `${userName} role`, resellerId: -1, privileges: JSON.stringify(privileges.map((privilege) => ({ privilege, subPrivileges: [] }))) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const password = 'Assistant@2026x';
      await db
        .insertInto('appUser')
        .values({ username: userName, email: `${userName}@provider.example`, passwordHash: await hashPassword(password), resellerId: -1, roleId: role.id })
        .execute();
      return login(userName, password);
    },
    /**
     * Adds privileges (a name alone: without sub-privileges) to the role of `userName` for the time of `run`, which
     * gets a caller signed in with them; the role is as it was afterwards.
     */
    async withPrivileges<T>(
      userName: string,
      added: (string | { privilege: string; subPrivileges: string[] })[],
      run: (caller: ReturnType<typeof client>) => Promise<T>,
    ): Promise<T> {
      const { db } = database;
      const { roleId } = await db.selectFrom('appUser').select('roleId').where('username', '=', userName).executeTakeFirstOrThrow();
      const held = await db.selectFrom('role').select('privileges').where('id', '=', roleId!).executeTakeFirstOrThrow();
      const privileges = typeof held.privileges === 'string' ? JSON.parse(held.privileges) : held.privileges;
      const set = (list: unknown) =>
        db
          .updateTable('role')
          .set({ privileges: JSON.stringify(list) })
          .where('id', '=', roleId!)
          .execute();
      await set([...privileges, ...added.map((item) => (typeof item === 'string' ? { privilege: item, subPrivileges: [] } : item))]);
      try {
        return await run(client(await login(userName)));
      } finally {
        await set(privileges);
      }
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
