import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { csvLine } from '@shared/csv';
import { conflict, englishText, fieldError } from '@server/http/errors';
import { JobRunner, type JobKind } from '@server/jobs/runner';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A kind for the tests: adds 1 to an account's usage credit; account 0 does not exist and fails with a reason. */
const credit: JobKind = {
  async apply(trx: Kysely<any>, key) {
    const res = await trx.updateTable('account').set({ usageCredit: sql`coalesce(usage_credit, 0) + 1` }).where('accountId', '=', Number(key)).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw conflict([fieldError('', 'exists', 'error.notFound')]);
  },
};

const silent = { error() {}, warn() {}, info() {}, debug() {}, trace() {}, fatal() {}, child() { return this; }, level: 'silent', silent() {} } as never;

describe.each(engines)('background jobs on %s', (engine) => {
  let ctx: Ctx;
  let accountIds: number[];
  const credits = async () => new Map((await ctx.db.selectFrom('account').select(['accountId', 'usageCredit']).execute()).map((a) => [a.accountId, Number(a.usageCredit ?? 0)]));
  const waitFor = async (id: number, client: ReturnType<Ctx['client']>) => {
    for (let i = 0; i < 200; i++) {
      const job = (await client.get(`/portal/jobs/${id}`)).json();
      if (job.status === 'done' || job.status === 'cancelled') return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} did not finish`);
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    ctx.app.jobs.register('test.credit', credit);
    accountIds = (await ctx.db.selectFrom('account').select('accountId').orderBy('accountId').execute()).map((a) => a.accountId);
  });
  afterAll(async () => ctx?.close());

  it('applies every item once, keeps the reason of each failure, and reports progress', async () => {
    const admin = await ctx.as('admin');
    const before = await credits();
    const northwindUser = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'northwind').executeTakeFirstOrThrow();
    const id = await ctx.app.jobs.enqueue({ kind: 'test.credit', userId: northwindUser.id, resellerId: northwindUser.resellerId, keys: [...accountIds.map(String), '0'], params: { amount: 1 } });
    const northwind = await ctx.as('northwind');
    const job = await waitFor(id, northwind);
    expect(job).toMatchObject({ status: 'done', total: accountIds.length + 1, done: accountIds.length, failed: 1, params: { amount: 1 } });
    const after = await credits();
    for (const accountId of accountIds) expect(after.get(accountId)).toBe((before.get(accountId) ?? 0) + 1);

    const failures = await northwind.get(`/portal/jobs/${id}/failures`);
    expect(failures.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(failures.body).toBe(`\uFEFF${csvLine(['key', 'error'])}${csvLine(['0', englishText('error.notFound')])}`);

    // Another user does not see it; the administrator does.
    const other = await ctx.as('northwind-iot');
    expect((await other.get(`/portal/jobs/${id}`)).statusCode).toBe(404);
    expect((await other.get('/portal/jobs')).json().items.map((j: { id: number }) => j.id)).not.toContain(id);
    expect((await admin.get(`/portal/jobs/${id}`)).statusCode).toBe(200);
    expect((await northwind.get('/portal/jobs')).json().items[0]).toMatchObject({ id, kind: 'test.credit' });
  });

  it('resumes a job that a stopped server left half done, without applying an item twice', async () => {
    // The state a crash leaves: the first chunk committed (applied and marked done), the rest pending, and a
    // lease held by a runner that no longer exists.
    const before = await credits();
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const stopped = new JobRunner(ctx.db, silent, { chunk: 5 });
    stopped.register('test.resume', credit);
    const id = await stopped.enqueue({ kind: 'test.resume', userId: owner.id, resellerId: owner.resellerId, keys: accountIds.map(String) });
    await ctx.db.transaction().execute(async (trx) => {
      for (const key of accountIds.slice(0, 5)) await credit.apply(trx, String(key), {} as never);
      await trx.updateTable('jobItem').set({ status: 'done' }).where('jobId', '=', id).where('seq', '<', 5).execute();
      await trx.updateTable('job').set({ status: 'running', done: 5, leaseOwner: 'gone', leaseUntil: sql`now() - interval '1 second'` }).where('id', '=', id).execute();
    });

    const next = new JobRunner(ctx.db, silent, { chunk: 4, pollMs: 20 });
    next.register('test.resume', credit);
    next.start();
    const admin = await ctx.as('admin');
    const job = await waitFor(id, admin);
    await next.stop();
    expect(job).toMatchObject({ status: 'done', done: accountIds.length, failed: 0 });
    const after = await credits();
    for (const accountId of accountIds) expect(after.get(accountId)).toBe((before.get(accountId) ?? 0) + 1);
  });

  it('applies a chunk at once when the kind can; a chunk that throws is rolled back and applied one by one, its after-commit work dropped', async () => {
    const before = await credits();
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const sent: string[] = [];
    const chunked: JobKind = {
      apply: credit.apply,
      async applyChunk(trx, keys, _job, afterCommit) {
        const ids = keys.map(Number).filter((id) => id > 0);
        const applied = ids.length ? await trx.updateTable('account').set({ usageCredit: sql`coalesce(usage_credit, 0) + 1` }).where('accountId', 'in', ids).returning('accountId').execute() : [];
        afterCommit(() => sent.push(...keys));
        // Key -1 stands for an item the set-based path cannot handle.
        if (keys.includes('-1')) throw new Error('chunk failed');
        const found = new Set(applied.map((a) => String(a.accountId)));
        return new Map(keys.filter((key) => !found.has(key)).map((key) => [key, englishText('error.notFound')]));
      },
    };
    const keys = [...accountIds.map(String)];
    keys.splice(4, 0, '-1');
    keys.push('0');
    const runner = new JobRunner(ctx.db, silent, { chunk: 3, pollMs: 20 });
    runner.register('test.chunked', chunked);
    const id = await runner.enqueue({ kind: 'test.chunked', userId: owner.id, resellerId: owner.resellerId, keys });
    runner.start();
    const admin = await ctx.as('admin');
    const job = await waitFor(id, admin);
    await runner.stop();
    expect(job).toMatchObject({ status: 'done', total: keys.length, done: accountIds.length, failed: 2 });
    const after = await credits();
    for (const accountId of accountIds) expect(after.get(accountId), `account ${accountId}`).toBe((before.get(accountId) ?? 0) + 1);
    const failures = await admin.get(`/portal/jobs/${id}/failures`);
    expect(failures.body).toBe(`\uFEFF${csvLine(['key', 'error'])}${csvLine(['-1', englishText('error.notFound')])}${csvLine(['0', englishText('error.notFound')])}`);
    // The chunk holding -1 (keys 3 to 5) went one by one: its network-like work was never released.
    expect(sent).toEqual([...keys.slice(0, 3), ...keys.slice(6)]);
  });

  it('leaves a job alone while another runner holds its lease, and stops a cancelled one', async () => {
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const idle = new JobRunner(ctx.db, silent);
    idle.register('test.leased', credit);
    const id = await idle.enqueue({ kind: 'test.leased', userId: owner.id, resellerId: owner.resellerId, keys: accountIds.map(String) });
    await ctx.db.updateTable('job').set({ status: 'running', leaseOwner: 'alive', leaseUntil: sql`now() + interval '1 hour'` }).where('id', '=', id).execute();
    const other = new JobRunner(ctx.db, silent, { pollMs: 20 });
    other.register('test.leased', credit);
    other.start();
    await new Promise((r) => setTimeout(r, 300));
    const admin = await ctx.as('admin');
    expect((await admin.get(`/portal/jobs/${id}`)).json()).toMatchObject({ status: 'running', done: 0 });

    const cancelled = (await admin.post(`/portal/jobs/${id}/cancel`)).json();
    expect(cancelled.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    await other.stop();
    expect((await admin.get(`/portal/jobs/${id}`)).json()).toMatchObject({ status: 'cancelled', done: 0 });
  });
});
