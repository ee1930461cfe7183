import type { FastifyInstance } from 'fastify';
import { joinRequestSchema, normaliseJoinRequest, type JoinRequestBody } from '@shared/join';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import { fieldError, invalid } from '../../http/errors';
import type { AccessContext } from './context';

/**
 * An ALTCHA challenge (altcha-lib): the widget checks the signature over the parameters, so parameters this
 * schema does not name (a library version's additions) are passed on untouched.
 */
const challengeSchema = {
  type: 'object',
  required: ['parameters'],
  additionalProperties: true,
  properties: {
    parameters: {
      type: 'object',
      required: ['algorithm', 'nonce', 'salt', 'cost', 'keyLength', 'keyPrefix'],
      additionalProperties: true,
      properties: {
        algorithm: { type: 'string' },
        nonce: { type: 'string' },
        salt: { type: 'string' },
        cost: { type: 'number' },
        keyLength: { type: 'number' },
        keyPrefix: { type: 'string' },
        keySignature: { type: 'string' },
        memoryCost: { type: 'number' },
        parallelism: { type: 'number' },
        expiresAt: { type: 'number' },
        data: { type: 'object', additionalProperties: true },
      },
    },
    signature: { type: 'string' },
  },
};

export function registerJoinRoutes(app: FastifyInstance, ctx: AccessContext) {
  const { db, robotCheck } = ctx;
  const attempts = { group: 'join', nameField: 'email' };

  app.get(
    '/portal/join/challenge',
    {
      config: { public: true, attempts },
      schema: { tags: ['join'], summary: 'A proof-of-work challenge for the ALTCHA widget', response: { 200: challengeSchema } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return robotCheck.challenge();
    },
  );

  app.post(
    '/portal/join/recaptcha',
    {
      config: { public: true, attempts },
      // Any token: one that is no string, or no valid payload, answers false.
      schema: {
        tags: ['join'],
        summary: 'Checks an ALTCHA payload once: true or false',
        body: { type: 'object', properties: { token: { description: 'The ALTCHA payload (text)' } } },
        response: { 200: { type: 'boolean' } },
      },
    },
    async (request) => {
      const token = (request.body as { token?: unknown } | undefined)?.token;
      return typeof token === 'string' && token.length <= 4000 ? robotCheck.verify(token, 'check') : false;
    },
  );

  /** Where join requests are announced: ADMIN_EMAIL, else the administrator's own address, else the outbox. */
  async function adminAddress() {
    if (ctx.adminEmail) return ctx.adminEmail;
    const admin = await db
      .selectFrom('appUser')
      .select('email')
      .where('resellerId', '=', ADMIN_RESELLER_ID)
      .where('email', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return admin?.email ?? undefined;
  }

  app.post(
    '/portal/join/request',
    {
      config: { public: true, attempts },
      schema: {
        tags: ['join'],
        summary: 'Asks for access to the portal',
        body: joinRequestSchema,
        response: { 201: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      },
      // Text is trimmed before the join request's schema checks it.
      preValidation: async (request) => {
        request.body = normaliseJoinRequest(request.body);
      },
    },
    async (request, reply) => {
      const join = request.body as JoinRequestBody;
      // The solution is spent only by a request that is otherwise valid, so fixing a field does not need a new one.
      if (!(await robotCheck.verify(join.altcha, 'consume'))) throw invalid([fieldError('altcha', 'valid', 'validation.altcha.invalid')]);
      const row = {
        firstName: join.firstName || null,
        lastName: join.lastName,
        email: join.email,
        company: join.company,
        phoneNumber: join.phoneNumber,
        comment: join.comment || null,
        type: join.type,
      };
      const { id } = await db.insertInto('joinRequest').values(row).returning('id').executeTakeFirstOrThrow();
      ctx.later(async () => {
        const to = await adminAddress();
        const lines = [
          `A new request to join the portal (#${id}):`,
          '',
          `Name: ${[row.firstName, row.lastName].filter(Boolean).join(' ')}`,
          `Company: ${row.company}`,
          `Type: ${row.type}`,
          `E-mail: ${row.email}`,
          `Phone: ${row.phoneNumber}`,
          ...(row.comment ? ['', row.comment] : []),
        ];
        await (to ? ctx.mailer : ctx.outbox).send({ to: to ?? 'admin', subject: `Join request from ${row.company}`, text: lines.join('\n') });
      });
      return reply.status(201).send({ id });
    },
  );
}
