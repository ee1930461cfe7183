/**
 * Support requests from the portal (docs/dashboard.md, "Support requests"): a signed-in user writes a subject, a
 * message and a category; the request is kept in `support_ticket` and written to the administrator's outbox in one
 * transaction. A user may send a few an hour.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createOutbox } from '../../adapters/mail';
import type { Database } from '../../db/types';
import { HttpError } from '../../http/errors';
import { principalOf } from '../../http/guard';

export const TICKET_CATEGORIES = ['billing', 'technical', 'sims', 'orders', 'other'] as const;
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 5000;
/** Requests one user may send within an hour. */
export const TICKETS_PER_HOUR = 5;

const tooMany = () => new HttpError(429, 'RATE_LIMITED', 'support.ticket.tooMany');

const text = (max: number, required: string, tooLong: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  // Blank text counts as missing.
  pattern: '\\S',
  errorMessage: { minLength: required, pattern: required, maxLength: tooLong, type: required },
});

export const ticketBody = {
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'message', 'category'],
  properties: {
    subject: text(SUBJECT_MAX, 'support.subject.required', 'support.subject.tooLong'),
    message: text(MESSAGE_MAX, 'support.message.required', 'support.message.tooLong'),
    category: { type: 'string', enum: [...TICKET_CATEGORIES], maxLength: 50, errorMessage: 'support.category.invalid' },
  },
  errorMessage: {
    required: { subject: 'support.subject.required', message: 'support.message.required', category: 'support.category.invalid' },
  },
};

export function registerSupportRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post(
    '/portal/support/tickets',
    {
      config: { signedIn: true },
      schema: {
        tags: ['support'],
        summary: `Sends a support request to the administrator (at most ${TICKETS_PER_HOUR} an hour per user)`,
        body: ticketBody,
        response: { 201: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body as { subject: string; message: string; category: string };
      const subject = body.subject.trim();
      const message = body.message.trim();
      const id = await db.transaction().execute(async (trx) => {
        // One user's requests are counted one after the other, so two sent at once cannot both pass the limit.
        await trx.selectFrom('appUser').select('id').where('id', '=', principal.userId).forUpdate().executeTakeFirst();
        const { n } = await trx
          .selectFrom('supportTicket')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('userId', '=', principal.userId)
          .where('createdAt', '>', new Date(Date.now() - 3_600_000))
          .executeTakeFirstOrThrow();
        if (Number(n) >= TICKETS_PER_HOUR) throw tooMany();
        const user = await trx
          .selectFrom('appUser as u')
          .innerJoin('reseller as r', 'r.id', 'u.resellerId')
          .select(['u.username', 'u.email', 'r.name as resellerName'])
          .where('u.id', '=', principal.userId)
          .executeTakeFirstOrThrow();
        const row = await trx
          .insertInto('supportTicket')
          .values({ userId: principal.userId, resellerId: principal.resellerId, accountId: principal.accountId, category: body.category, subject, message })
          .returning('id')
          .executeTakeFirstOrThrow();
        const lines = [
          `Support request #${row.id} (${body.category})`,
          '',
          `From: ${user.username}${user.email ? ` <${user.email}>` : ''}`,
          `Reseller: ${user.resellerName} (#${principal.resellerId})`,
          ...(principal.accountId !== null ? [`Account: #${principal.accountId}`] : []),
          '',
          message,
        ];
        await createOutbox(trx, request.log).send({ to: 'admin', subject: `[Support #${row.id}] ${subject}`, text: lines.join('\n') });
        return row.id;
      });
      return reply.status(201).send({ id });
    },
  );
}
