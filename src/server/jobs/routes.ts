import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { pageCount } from '@shared/wire';
import { queryBatches, sendCsv } from '../engine/csv';
import type { Engine } from '../db';
import { notFound } from '../http/errors';
import { principalOf } from '../http/guard';
import type { Principal } from '../http/principal';

const paging = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 0, default: 0 }, size: { type: 'integer', minimum: 1, maximum: 200, default: 20 } },
};
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } };

const JOB_FIELDS = ['id', 'kind', 'status', 'total', 'done', 'failed', 'params', 'createdAt', 'startedAt', 'finishedAt'] as const;

/** A user sees the jobs they started; the administrator sees every job. */
function visibleJobs(db: Kysely<any>, principal: Principal) {
  const q = db.selectFrom('job').select([...JOB_FIELDS]);
  return principal.isAdmin ? q : q.where('userId', '=', principal.userId);
}

const wire = (row: Record<string, unknown>) => ({ ...row, params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params });

/** Following, cancelling and reading the failures of background jobs. */
export function registerJobRoutes(app: FastifyInstance, db: Kysely<any>, engine: Engine) {
  const find = async (request: FastifyRequest) => {
    const { id } = request.params as { id: number };
    const job = await visibleJobs(db, principalOf(request)).where('id', '=', id).executeTakeFirst();
    if (!job) throw notFound();
    return job;
  };

  app.get('/portal/jobs', { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'Your background jobs, newest first', querystring: paging } }, async (request) => {
    const { page, size } = request.query as { page: number; size: number };
    const principal = principalOf(request);
    const [items, count] = await Promise.all([
      visibleJobs(db, principal).orderBy('id', 'desc').limit(size).offset(page * size).execute(),
      (principal.isAdmin ? db.selectFrom('job') : db.selectFrom('job').where('userId', '=', principal.userId))
        .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const total = Number(count.n);
    return { items: items.map(wire), totalPageCount: pageCount(total, size), totalItemsCount: total, currentPage: page };
  });

  app.get('/portal/jobs/:id', { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'One job: status and progress', params: idParam } }, async (request) => wire(await find(request)));

  app.post('/portal/jobs/:id/cancel', { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'Stops a job before its next chunk; items already applied stay applied', params: idParam } }, async (request) => {
    const job = await find(request);
    await db.updateTable('job').set({ status: 'cancelled', finishedAt: sql`now()`, leaseOwner: null, leaseUntil: null })
      .where('id', '=', job.id).where('status', 'in', ['queued', 'running']).execute();
    return wire(await find(request));
  });

  app.get('/portal/jobs/:id/failures', { config: { signedIn: true }, schema: { tags: ['jobs'], summary: 'The items that failed and why, as CSV (streamed)', params: idParam } }, async (request, reply) => {
    const job = await find(request);
    const query = db.selectFrom('jobItem').select(['key', 'error']).where('jobId', '=', job.id).where('status', '=', 'failed').orderBy('seq');
    return sendCsv(reply, `job-${job.id}-failures.csv`, ['key', 'error'], queryBatches(db, engine, query), (row) => [row.key, row.error]);
  });
}
