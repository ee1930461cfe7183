import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { SMS_LIMITS, smsLength, smsTextProblem } from '@shared/sms';
import type { SmsPayload } from '../../adapters/core-network';
import { fieldError, invalid } from '../../http/errors';
import { idParams, objectBody } from '../../http/input';
import { auditSubscriber } from './audit';
import { requirePanel, visibleSubscriber } from './context';
import { startNetworkOperation } from './network';
import type { Database } from '../../db/types';

/** The detail panel an SMS belongs to: its delivery shows in the subscriber's network events. */
const PANEL = 'NetworkEvents';

/** The body: `{ text }`, at most 160 characters whatever the encoding; the encoding's own limit is checked by `smsOf`. */
const SMS_BODY = objectBody(
  {
    text: { type: 'string', maxLength: SMS_LIMITS['GSM-7'], errorMessage: { type: 'validation.sms.required', maxLength: 'validation.sms.tooLong' } },
  },
  ['text'],
  { text: 'validation.sms.required' },
);

/** The SMS of a valid body, or a 400 when it is blank or too long for one message of its encoding. */
function smsOf({ text }: { text: string }): SmsPayload {
  const problem = smsTextProblem(text);
  if (problem) throw invalid([fieldError('text', problem === 'validation.sms.required' ? 'required' : 'maxLength', problem)]);
  return { text, encoding: smsLength(text).encoding };
}

/**
 * An SMS to the subscriber's SIM, through the core network like the other network operations: answered at once
 * with the pending operation, which the web app follows until the network has answered. The network event it
 * writes shows in the subscriber's events panel; once delivered, the audit log records who sent what.
 */
export function registerSubscriberSmsRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post(
    '/portal/subscriber-info/:id/sms',
    {
      config: { privilege: 'Subscribers', lab: 'subscriberSms' },
      schema: {
        tags: ['subscribers'],
        summary: "Send an SMS to the subscriber's SIM (202, pending operation)",
        description: `Body \`{ text }\`: one message, at most ${SMS_LIMITS['GSM-7']} characters of the GSM 03.38 alphabet (\`^{}\\[~]|€\` count twice) or ${SMS_LIMITS['UCS-2']} UTF-16 code units otherwise. Needs the SubscriberDetails panel ${PANEL} and the lab subscriberSms switched on for the caller's tenant.`,
        params: idParams(),
        body: SMS_BODY,
      },
    },
    async (request, reply) => {
      const principal = requirePanel(request, PANEL);
      const { id } = request.params as { id: number };
      const sms = smsOf(request.body as { text: string });
      const subscriber = await visibleSubscriber(db, principal, id);
      return reply.code(202).send(
        await startNetworkOperation(app, db, principal, subscriber, {
          name: 'send-sms',
          network: 'sendSms',
          request: sms,
          apply: (trx, subscriberId, actor) => auditSubscriber(trx, actor, subscriberId, 'send-sms', { sms: null }, { sms: sms.text }),
        }),
      );
    },
  );
}
