import type { FastifyInstance } from 'fastify';
import { pageAnswer } from '@shared/wire';
import { listOutbox } from '../../adapters/mail';
import { pageQuery } from '../../http/input';
import type { AccessContext } from './context';

const paging = pageQuery(200, 50);

/** Administrator's views of what the public calls produced: mail kept locally and join requests. */
export function registerAccessAdminRoutes(app: FastifyInstance, ctx: AccessContext) {
  app.get(
    '/portal/admin/outbox',
    { config: { adminOnly: true }, schema: { tags: ['admin'], summary: 'Mail kept in the outbox, newest first', querystring: paging } },
    async (request) => {
      const { page, size } = request.query as { page: number; size: number };
      const { items, total } = await listOutbox(ctx.db, page, size);
      return pageAnswer(items, total, page, size);
    },
  );

  app.get(
    '/portal/admin/join-requests',
    { config: { adminOnly: true }, schema: { tags: ['admin'], summary: 'Join requests, newest first', querystring: paging } },
    async (request) => {
      const { page, size } = request.query as { page: number; size: number };
      const [items, count] = await Promise.all([
        ctx.db
          .selectFrom('joinRequest')
          .selectAll()
          .orderBy('id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute(),
        ctx.db
          .selectFrom('joinRequest')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return pageAnswer(items, Number(count.n), page, size);
    },
  );
}
