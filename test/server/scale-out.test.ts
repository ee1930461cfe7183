import { randomBytes } from 'node:crypto';
import { sql, type KyselyPlugin, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import { openDatabase, type Db } from '@server/db';
import type { Database } from '@server/db/types';
import type { JobKind } from '@server/jobs/runner';
import { testApp } from './helpers';
import { changeOwnPassword, ENDED, sessionAnswers, STANDS } from './sessionHelpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A job kind for the test: adds 1 to an account's usage credit per item. */
const credit: JobKind = {
  async apply(trx: Kysely<Database>, key) {
    await trx
      .updateTable('account')
      .set({ usageCredit: sql`coalesce(usage_credit, 0) + 1` })
      .where('accountId', '=', Number(key))
      .execute();
  },
};

const until = async (done: () => Promise<boolean>, ms = 10_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await done()) return;
  throw new Error('condition not met in time');
};

/**
 * Two servers on one PostgreSQL and one Redis, as WORKERS=2 or two machines behind a load balancer run them: each
 * app has its own database pool and its own memory, and neither is given the signing key (both take it from the
 * database). Webhook deliveries across two servers are checked in webhooks.test.ts.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two servers on one PostgreSQL', () => {
  let ctx: Ctx;
  let second: Db;
  let other: Awaited<ReturnType<typeof buildApp>>;
  const nameSpace = `portal-scale-${randomBytes(4).toString('hex')}-`;
  const limits = { windowMinutes: 1, perName: 5, perAddress: 1000, ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL, nameSpace } : {}) };
  const jobs = { chunk: 5, pollMs: 50 };

  beforeAll(async () => {
    ctx = await testApp('postgres', { jwtSecret: undefined, access: { limits }, jobs });
    second = await openDatabase({ databaseUrl: (ctx.database as { url?: string }).url! });
    other = await buildApp({ database: second, access: { limits }, jobs });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await second?.close();
    await ctx?.close();
  });

  const signIn = (app: typeof other, userName: string, password: string, remoteAddress = '10.9.0.1') =>
    app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password }, remoteAddress });
  const as = (app: typeof other, jwt: string) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${jwt}` } }),
    put: (url: string, payload: object) => app.inject({ method: 'PUT', url, payload, headers: { authorization: `Bearer ${jwt}` } }),
  });

  it('accepts on one server the token the other issued, renewed or not', async () => {
    const jwt = (await signIn(ctx.app, 'northwind', ctx.demoPassword)).json().jwt as string;
    expect(await sessionAnswers(as(other, jwt) as never)).toEqual(STANDS);
    const renewed = (await as(other, jwt).get('/portal/auth/renew')).json().jwt as string;
    expect(await sessionAnswers(as(ctx.app, renewed) as never)).toEqual(STANDS);
  });

  it('ends on both servers the sessions a password change on one of them ends', async () => {
    const jwt = (await signIn(ctx.app, 'bluesky', ctx.demoPassword)).json().jwt as string;
    // Both servers have verified the token and keep its principal before the change.
    for (const app of [ctx.app, other, ctx.app, other]) expect(await sessionAnswers(as(app, jwt) as never)).toEqual(STANDS);
    const next = await changeOwnPassword(as(other, jwt) as never, ctx.demoPassword, 'Scale@2026pass');
    // The first server hears of the change when it commits (a notification), not after its principals expire.
    await until(async () => (await as(ctx.app, jwt).get('/portal/user')).statusCode === 401, 2000);
    for (const app of [ctx.app, other]) {
      expect(await sessionAnswers(as(app, jwt) as never)).toEqual(ENDED);
      expect(await sessionAnswers(as(app, next) as never)).toEqual(STANDS);
    }
  });

  it('counts failed sign-ins of an account across both servers (in Redis where REDIS_URL is set, else in the database)', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await signIn(i % 2 ? other : ctx.app, 'northwind-iot', `Wrong@pass${i}`, `10.8.0.${i + 1}`)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await signIn(other, 'northwind-iot', ctx.demoPassword, '10.8.1.1')).statusCode).toBe(429);
  });

  it('runs a job started on one server exactly once, whichever server claims each chunk', async () => {
    ctx.app.jobs.register('test.scale-credit', credit);
    other.jobs.register('test.scale-credit', credit);
    const accounts = (await ctx.db.selectFrom('account').select(['accountId', 'usageCredit']).orderBy('accountId').execute()).slice(0, 4);
    const keys = Array.from({ length: 200 }, (_, i) => String(accounts[i % accounts.length].accountId));
    const admin = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const id = await ctx.app.jobs.enqueue({ kind: 'test.scale-credit', userId: admin.id, resellerId: admin.resellerId, keys, params: {} });
    await until(async () => (await ctx.db.selectFrom('job').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'done', 30_000);
    const job = await ctx.db.selectFrom('job').select(['succeeded', 'failed', 'total']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ total: 200, succeeded: 200, failed: 0 });
    const after = new Map(
      (await ctx.db.selectFrom('account').select(['accountId', 'usageCredit']).execute()).map((a) => [a.accountId, Number(a.usageCredit ?? 0)]),
    );
    for (const a of accounts) expect(after.get(a.accountId)).toBe(Number(a.usageCredit ?? 0) + 50);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('lists on a read replica', () => {
  let ctx: Ctx;
  let replicated: Db;
  let reads = 0;
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** Counts the statements run through the read pool. */
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      reads++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    ctx = await testApp('postgres');
    // The "replica" is the same database through a pool of its own, as DATABASE_READ_URL opens it.
    const url = (ctx.database as { url?: string }).url!;
    replicated = await openDatabase({ databaseUrl: url, readUrls: [url] });
    app = await buildApp({ database: { ...replicated, read: replicated.read.withPlugin(counter) }, jwtSecret: 'test-secret' });
  });
  afterAll(async () => {
    await app?.close();
    await replicated?.close();
    await ctx?.close();
  });

  it('reads paged lists and selects from the read pool, and a row, its save and the form after it from the primary', async () => {
    expect(replicated.read).not.toBe(replicated.db);
    const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: 'Admin@2026pass' } })).json().jwt;
    const headers = { authorization: `Bearer ${jwt}` };
    reads = 0;
    const page = await app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: { page: { page: 0, size: 10 } } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().items).toHaveLength(10);
    expect(reads).toBeGreaterThan(0);
    const searched = reads;
    const accounts = await app.inject({ method: 'POST', url: '/portal/accounts/paged', headers, payload: { searchBy: 'name', searchKey: 'North' } });
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(reads).toBeGreaterThan(searched);
    const selects = reads;
    expect((await app.inject({ method: 'GET', url: '/portal/accounts/list', headers })).statusCode).toBe(200);
    expect(reads).toBeGreaterThan(selects);

    reads = 0;
    const id = page.json().items[0].subscriberId;
    const row = await app.inject({ method: 'GET', url: `/portal/subscribers/${id}`, headers });
    expect(row.statusCode).toBe(200);
    const saved = await app.inject({
      method: 'POST',
      url: `/portal/subscriber-info/${id}`,
      headers,
      payload: { ...(row.json() as object), name: 'Read from the primary' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/portal/subscribers/${id}`, headers })).json().name).toBe('Read from the primary');
    expect(reads).toBe(0);
  });
});
