import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { SMS_LIMITS, smsLength, smsTextProblem } from '@shared/sms';
import type { FieldError } from '@shared/wire';
import type { SmsPayload } from '../../adapters/core-network';
import { fieldError, invalid } from '../../http/errors';
import { auditSubscriber } from './audit';
import { bodyOf, pathId, requirePanel, visibleSubscriber, type Body } from './context';
import { startNetworkOperation } from './network';
import type { Database } from '../../db/types';

/** The detail panel an SMS belongs to: its delivery shows in the subscriber's network events. */
const PANEL = 'NetworkEvents';

/** The SMS of a request body, or a 400 naming the field and the rule it breaks. */
function smsOf(body: Body): SmsPayload {
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) if (key !== 'text') errors.push(fieldError(key, 'additionalProperties', 'validation.unknownField'));
  const text = body.text;
  if (text === undefined || text === null) errors.push(fieldError('text', 'required', 'validation.sms.required'));
  else if (typeof text !== 'string') errors.push(fieldError('text', 'type', 'validation.sms.required'));
  else {
    const problem = smsTextProblem(text);
    if (problem) errors.push(fieldError('text', problem === 'validation.sms.required' ? 'required' : 'maxLength', problem));
  }
  if (errors.length) throw invalid(errors);
  return { text: text as string, encoding: smsLength(text as string).encoding };
}

/**
 * An SMS to the subscriber's SIM, through the core network like the other network operations: answered at once
 * with the pending operation, which the web app follows until the network has answered. The network event it
 * writes shows in the subscriber's events panel; once delivered, the audit log records who sent what.
 */
export function registerSubscriberSmsRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post('/portal/subscriber-info/:id/sms', {
    config: { privilege: 'Subscribers' },
    schema: {
      tags: ['subscribers'],
      summary: 'Send an SMS to the subscriber\'s SIM (202, pending operation)',
      description: `Body \`{ text }\`: one message, at most ${SMS_LIMITS['GSM-7']} characters of the GSM 03.38 alphabet (\`^{}\\[~]|€\` count twice) or ${SMS_LIMITS['UCS-2']} UTF-16 code units otherwise. Needs the SubscriberDetails panel ${PANEL}.`,
      body: { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } } },
    },
    // The body is checked by smsOf, which names the field and the rule in the portal's error shape.
    validatorCompiler: () => () => true,
  }, async (request, reply) => {
    const principal = requirePanel(request, PANEL);
    const id = pathId(request);
    const sms = smsOf(bodyOf(request));
    const subscriber = await visibleSubscriber(db, principal, id);
    return reply.code(202).send(await startNetworkOperation(app, db, principal, subscriber, {
      name: 'send-sms', network: 'sendSms', request: sms,
      apply: (trx, subscriberId, actor) => auditSubscriber(trx, actor, subscriberId, 'send-sms', { sms: null }, { sms: sms.text }),
    }));
  });
}
