import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { pageAnswer } from '@shared/wire';
import { queryBatches, sendCsv } from '../engine/csv';
import type { Engine } from '../db';
import { notFound } from '../http/errors';
import { principalOf } from '../http/guard';
import { INT_MAX, pageQuery } from '../http/input';
import type { Principal } from '../http/principal';
import type { Database } from '../db/types';

const paging = pageQuery(200, 20);
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: INT_MAX } } };

/** A job on the wire: its counts are the items' real outcomes (`waiting`: handed to the network, not answered yet). */
const JOB_FIELDS = [
  'id',
  'kind',
  'status',
  'total',
  'succeeded',
  'failed',
  'skipped',
  'waiting',
  'retryOf',
  'params',
  'createdAt',
  'startedAt',
  'finishedAt',
] as const;
/** The outcomes whose items the screen lists, each with its reason. */
const LISTED_OUTCOMES = ['failed', 'skipped', 'waiting'] as const;

/** A user sees the jobs they started; the administrator sees every job. */
function visibleJobs(db: Kysely<Database>, principal: Principal) {
  const q = db.selectFrom('job').select([...JOB_FIELDS]);
  return principal.isAdmin ? q : q.where('userId', '=', principal.userId);
}

const wire = (row: Record<string, unknown>) => ({ ...row, params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params });

/** Following, cancelling and reading the failures of background jobs. */
export function registerJobRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine) {
  const find = async (request: FastifyRequest) => {
    const { id } = request.params as { id: number };
    const job = await visibleJobs(db, principalOf(request)).where('id', '=', id).executeTakeFirst();
    if (!job) throw notFound();
    return job;
  };

  app.get(
    '/portal/jobs',
    { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'Your background jobs, newest first', querystring: paging } },
    async (request) => {
      const { page, size } = request.query as { page: number; size: number };
      const principal = principalOf(request);
      const [items, count] = await Promise.all([
        visibleJobs(db, principal)
          .orderBy('id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute(),
        (principal.isAdmin ? db.selectFrom('job') : db.selectFrom('job').where('userId', '=', principal.userId))
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return pageAnswer(items.map(wire), total, page, size);
    },
  );

  app.get(
    '/portal/jobs/:id',
    { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'One job: status and progress', params: idParam } },
    async (request) => wire(await find(request)),
  );

  app.post(
    '/portal/jobs/:id/cancel',
    {
      config: { signedIn: true },
      schema: { tags: ['jobs'], summary: 'Stops a job before its next chunk; items already applied stay applied', params: idParam },
    },
    async (request) => {
      const job = await find(request);
      await app.jobs.cancel(job.id);
      return wire(await find(request));
    },
  );

  app.get(
    '/portal/jobs/:id/failures',
    {
      config: { signedIn: true },
      schema: { tags: ['jobs'], summary: "The items that failed, with the reason and the network's own words, as CSV (streamed)", params: idParam },
    },
    async (request, reply) => {
      const job = await find(request);
      const query = db.selectFrom('jobItem').select(['key', 'error', 'detail']).where('jobId', '=', job.id).where('status', '=', 'failed').orderBy('seq');
      return sendCsv(reply, `job-${job.id}-failures.csv`, ['key', 'error', 'detail'], queryBatches(db, engine, query), (row) => [
        row.key,
        row.error,
        row.detail,
      ]);
    },
  );

  app.get(
    '/portal/jobs/:id/items',
    {
      config: { signedIn: true },
      schema: {
        tags: ['jobs'],
        summary: 'The items of one outcome (failed by default, skipped or waiting), in order, paged, each with its reason',
        params: idParam,
        querystring: { ...paging, properties: { ...paging.properties, status: { type: 'string', enum: [...LISTED_OUTCOMES], default: 'failed' } } },
      },
    },
    async (request) => {
      const job = await find(request);
      const { page, size, status } = request.query as { page: number; size: number; status: string };
      const items = db.selectFrom('jobItem').where('jobId', '=', job.id).where('status', '=', status);
      const [rows, count] = await Promise.all([
        items
          .select(['seq', 'key', 'status', 'messageId', 'error', 'detail'])
          .orderBy('seq')
          .limit(size)
          .offset(page * size)
          .execute(),
        items.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return pageAnswer(
        rows.map(({ error, ...row }) => ({ ...row, message: error })),
        total,
        page,
        size,
      );
    },
  );

  app.post(
    '/portal/jobs/:id/retry',
    {
      config: { signedIn: true },
      schema: {
        tags: ['jobs'],
        summary: 'A new job over the failed items of an ended job (202 with the new job)',
        description:
          'Only the failed items the caller may still see, under the checks of the call that started the job (its privilege and ' +
          'sub-privilege): `{ jobId, total, leftOut }`. 409 while the job runs, when nothing failed, or none of the failed items is left to try.',
        params: idParam,
      },
    },
    async (request, reply) => {
      const job = await find(request);
      const params = typeof job.params === 'string' ? JSON.parse(job.params) : job.params;
      const record = await db.selectFrom('job').select(['userId', 'resellerId']).where('id', '=', job.id).executeTakeFirstOrThrow();
      const started = await app.jobs.retry({ ...job, ...record, params } as never, principalOf(request));
      return reply.code(202).send(started);
    },
  );
}
