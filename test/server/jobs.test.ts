import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import { csvLine } from '@shared/csv';
import { conflict, englishText, fieldError } from '@server/http/errors';
import { JobRunner, type JobKind } from '@server/jobs/runner';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A kind for the tests: adds 1 to an account's usage credit; account 0 does not exist and fails with a reason. */
const credit: JobKind = {
  async apply(trx: Kysely<Database>, key) {
    const res = await trx
      .updateTable('account')
      .set({ usageCredit: sql`coalesce(usage_credit, 0) + 1` })
      .where('accountId', '=', Number(key))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw conflict([fieldError('', 'exists', 'error.notFound')]);
  },
};

const silent = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return this;
  },
  level: 'silent',
  silent() {},
} as never;

describe.each(engines)('background jobs on %s', (engine) => {
  let ctx: Ctx;
  let accountIds: number[];
  const credits = async () =>
    new Map((await ctx.db.selectFrom('account').select(['accountId', 'usageCredit']).execute()).map((a) => [a.accountId, Number(a.usageCredit ?? 0)]));
  const waitFor = async (id: number, client: ReturnType<Ctx['client']>) => {
    for (let i = 0; i < 200; i++) {
      const job = (await client.get(`/portal/jobs/${id}`)).json();
      if (['done', 'failed', 'cancelled'].includes(job.status)) return job;
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
    const id = await ctx.app.jobs.enqueue({
      kind: 'test.credit',
      userId: northwindUser.id,
      resellerId: northwindUser.resellerId,
      keys: [...accountIds.map(String), '0'],
      params: { amount: 1 },
    });
    const northwind = await ctx.as('northwind');
    const job = await waitFor(id, northwind);
    expect(job).toMatchObject({
      status: 'done',
      total: accountIds.length + 1,
      succeeded: accountIds.length,
      failed: 1,
      skipped: 0,
      waiting: 0,
      params: { amount: 1 },
    });
    const after = await credits();
    for (const accountId of accountIds) expect(after.get(accountId)).toBe((before.get(accountId) ?? 0) + 1);

    const failures = await northwind.get(`/portal/jobs/${id}/failures`);
    expect(failures.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(failures.body).toBe(`\uFEFF${csvLine(['key', 'error', 'detail'])}${csvLine(['0', englishText('error.notFound'), ''])}`);

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
      for (const key of accountIds.slice(0, 5)) await credit.apply(trx, String(key), {} as never, () => {});
      await trx.updateTable('jobItem').set({ status: 'done' }).where('jobId', '=', id).where('seq', '<', 5).execute();
      await trx
        .updateTable('job')
        .set({ status: 'running', succeeded: 5, leaseOwner: 'gone', leaseUntil: sql`now() - interval '1 second'` })
        .where('id', '=', id)
        .execute();
    });

    const next = new JobRunner(ctx.db, silent, { chunk: 4, pollMs: 20 });
    next.register('test.resume', credit);
    next.start();
    const admin = await ctx.as('admin');
    const job = await waitFor(id, admin);
    await next.stop();
    expect(job).toMatchObject({ status: 'done', succeeded: accountIds.length, failed: 0 });
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
        const applied = ids.length
          ? await trx
              .updateTable('account')
              .set({ usageCredit: sql`coalesce(usage_credit, 0) + 1` })
              .where('accountId', 'in', ids)
              .returning('accountId')
              .execute()
          : [];
        afterCommit(() => sent.push(...keys));
        // Key -1 stands for an item the set-based path cannot handle.
        if (keys.includes('-1')) throw new Error('chunk failed');
        const found = new Set(applied.map((a) => String(a.accountId)));
        return new Map(keys.filter((key) => !found.has(key)).map((key) => [key, { status: 'failed', messageId: 'error.notFound' }]));
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
    expect(job).toMatchObject({ status: 'done', total: keys.length, succeeded: accountIds.length, failed: 2 });
    const after = await credits();
    for (const accountId of accountIds) expect(after.get(accountId), `account ${accountId}`).toBe((before.get(accountId) ?? 0) + 1);
    const failures = await admin.get(`/portal/jobs/${id}/failures`);
    expect(failures.body).toBe(
      `\uFEFF${csvLine(['key', 'error', 'detail'])}${csvLine(['-1', englishText('error.notFound'), ''])}${csvLine(['0', englishText('error.notFound'), ''])}`,
    );
    // The chunk holding -1 (keys 3 to 5) went one by one: its network-like work was never released.
    expect(sent).toEqual([...keys.slice(0, 3), ...keys.slice(6)]);
  });

  it('counts each item by its real answer: waits for the network, then ends done, or failed when every item failed; lists the reasons paged', async () => {
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'northwind').executeTakeFirstOrThrow();
    // Answers held back until the test lets them go, as a slow network would.
    const held: (() => Promise<void>)[] = [];
    const network: JobKind = {
      async apply(_trx, key, job, afterCommit) {
        if (key === 'same') return { status: 'skipped', messageId: 'bulk.reason.unchanged' };
        afterCommit(() =>
          held.push(() =>
            ctx.app.jobs.answer({
              jobId: job.id,
              key,
              ok: !key.startsWith('bad'),
              messageId: 'subscriberOperation.failed.network',
              detail: `Diameter 5012 DIAMETER_UNABLE_TO_COMPLY (${key})`,
            }),
          ),
        );
        return { status: 'waiting' };
      },
      async retry(_db, _principal, _job, failedKeys) {
        return { keys: failedKeys.filter((key) => key !== 'bad-gone'), params: { again: true } };
      },
    };
    ctx.app.jobs.register('test.network', network);
    const northwind = await ctx.as('northwind');
    const release = async () => {
      while (held.length) await held.shift()!();
    };
    const waitForStatus = async (id: number, status: string) => {
      for (let i = 0; i < 200; i++) {
        const job = (await northwind.get(`/portal/jobs/${id}`)).json();
        if (job.status === status) return job;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`job ${id} never became ${status}`);
    };

    const id = await ctx.app.jobs.enqueue({
      kind: 'test.network',
      userId: owner.id,
      resellerId: owner.resellerId,
      keys: ['good', 'bad-a', 'same', 'bad-gone'],
    });
    // Every item applied, none answered: the job is not done, it waits.
    expect(await waitForStatus(id, 'waiting')).toMatchObject({ total: 4, succeeded: 0, failed: 0, skipped: 1, waiting: 3, finishedAt: null });
    const retryEarly = await northwind.post(`/portal/jobs/${id}/retry`);
    expect(retryEarly.statusCode).toBe(409);
    expect(retryEarly.json().fields[0]).toMatchObject({ field: 'id', messageId: 'job.retry.running' });
    await release();
    const job = await waitFor(id, northwind);
    expect(job).toMatchObject({ status: 'done', total: 4, succeeded: 1, failed: 2, skipped: 1, waiting: 0 });
    expect(job.finishedAt).toEqual(expect.any(String));

    const failed = (await northwind.get(`/portal/jobs/${id}/items?size=1`)).json();
    expect(failed).toMatchObject({ totalItemsCount: 2, totalPageCount: 2, currentPage: 0 });
    expect(failed.items).toEqual([
      {
        seq: 1,
        key: 'bad-a',
        status: 'failed',
        messageId: 'subscriberOperation.failed.network',
        message: englishText('subscriberOperation.failed.network'),
        detail: 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY (bad-a)',
      },
    ]);
    expect((await northwind.get(`/portal/jobs/${id}/items?size=1&page=1`)).json().items.map((i: { key: string }) => i.key)).toEqual(['bad-gone']);
    expect((await northwind.get(`/portal/jobs/${id}/items?status=skipped`)).json().items).toEqual([
      { seq: 2, key: 'same', status: 'skipped', messageId: 'bulk.reason.unchanged', message: englishText('bulk.reason.unchanged'), detail: null },
    ]);
    expect((await northwind.get(`/portal/jobs/${id}/items?status=done`)).statusCode).toBe(400);
    const csv = (await northwind.get(`/portal/jobs/${id}/failures`)).body;
    expect(csv).toBe(
      `\uFEFF${csvLine(['key', 'error', 'detail'])}${csvLine(['bad-a', englishText('subscriberOperation.failed.network'), 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY (bad-a)'])}` +
        csvLine(['bad-gone', englishText('subscriberOperation.failed.network'), 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY (bad-gone)']),
    );

    // Retry: a new job over the failed items the kind still allows, by the caller; nobody else's job.
    expect((await (await ctx.as('northwind-iot')).post(`/portal/jobs/${id}/retry`)).statusCode).toBe(404);
    const retried = await northwind.post(`/portal/jobs/${id}/retry`);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ total: 1, leftOut: 1 });
    const again = retried.json().jobId;
    expect(await waitForStatus(again, 'waiting')).toMatchObject({ kind: 'test.network', retryOf: id, total: 1, params: { again: true } });
    expect((await ctx.db.selectFrom('jobItem').select('key').where('jobId', '=', again).execute()).map((i) => i.key)).toEqual(['bad-a']);
    await release();
    // Every item failed: the job failed.
    expect(await waitFor(again, northwind)).toMatchObject({ status: 'failed', total: 1, succeeded: 0, failed: 1, skipped: 0 });

    const clean = await ctx.app.jobs.enqueue({ kind: 'test.network', userId: owner.id, resellerId: owner.resellerId, keys: ['same'] });
    expect(await waitFor(clean, northwind)).toMatchObject({ status: 'done', skipped: 1 });
    expect((await northwind.post(`/portal/jobs/${clean}/retry`)).json().fields[0].messageId).toBe('job.retry.nothing');
    const unsupported = await ctx.app.jobs.enqueue({ kind: 'test.credit', userId: owner.id, resellerId: owner.resellerId, keys: ['0'] });
    await waitFor(unsupported, northwind);
    expect((await northwind.post(`/portal/jobs/${unsupported}/retry`)).json().fields[0].messageId).toBe('job.retry.unsupported');
  });

  it('fails the items whose answer never comes once the deadline has passed, and lets the kind settle them', async () => {
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const expired: string[] = [];
    const silentNetwork: JobKind = {
      apply: async (_trx, key) => (key === 'ok' ? undefined : { status: 'waiting' }),
      expire: async (_trx, _job, keys) => {
        expired.push(...keys);
      },
    };
    const runner = new JobRunner(ctx.db, silent, { pollMs: 20, answerTimeoutSeconds: 0.3 });
    runner.register('test.silent', silentNetwork);
    const id = await runner.enqueue({ kind: 'test.silent', userId: owner.id, resellerId: owner.resellerId, keys: ['ok', 'lost-1', 'lost-2'] });
    runner.start();
    const admin = await ctx.as('admin');
    const job = await waitFor(id, admin);
    await runner.stop();
    expect(job).toMatchObject({ status: 'done', succeeded: 1, failed: 2, waiting: 0 });
    expect(expired.sort()).toEqual(['lost-1', 'lost-2']);
    const items = (await admin.get(`/portal/jobs/${id}/items`)).json().items;
    expect(items.map((i: { key: string; messageId: string }) => [i.key, i.messageId])).toEqual([
      ['lost-1', 'subscriberOperation.failed.noAnswer'],
      ['lost-2', 'subscriberOperation.failed.noAnswer'],
    ]);
  });

  it('leaves a job alone while another runner holds its lease, and stops a cancelled one', async () => {
    const owner = await ctx.db.selectFrom('appUser').select(['id', 'resellerId']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const idle = new JobRunner(ctx.db, silent);
    idle.register('test.leased', credit);
    const id = await idle.enqueue({ kind: 'test.leased', userId: owner.id, resellerId: owner.resellerId, keys: accountIds.map(String) });
    await ctx.db
      .updateTable('job')
      .set({ status: 'running', leaseOwner: 'alive', leaseUntil: sql`now() + interval '1 hour'` })
      .where('id', '=', id)
      .execute();
    const other = new JobRunner(ctx.db, silent, { pollMs: 20 });
    other.register('test.leased', credit);
    other.start();
    await new Promise((r) => setTimeout(r, 300));
    const admin = await ctx.as('admin');
    expect((await admin.get(`/portal/jobs/${id}`)).json()).toMatchObject({ status: 'running', succeeded: 0 });

    const cancelled = (await admin.post(`/portal/jobs/${id}/cancel`)).json();
    expect(cancelled.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    await other.stop();
    expect((await admin.get(`/portal/jobs/${id}`)).json()).toMatchObject({ status: 'cancelled', succeeded: 0 });
  });
});
