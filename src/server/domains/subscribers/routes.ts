import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { forbidden, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { pathId } from '../../http/input';
import { can, type Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';
import { auditLogSchema, sponsorImsisSchema, subscriberSimSchema } from './schemas';

/** The subscriber if the caller may see it (their reseller subtree, their account), else 404. */
async function visibleSubscriber(db: Kysely<Database>, principal: Principal, id: number) {
  let q = db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .select(['s.subscriberId', 's.iccid', 's.msisdn'])
    .where('s.subscriberId', '=', id);
  if (!principal.isAdmin) {
    q = q.where('r.path', 'like', subtreePattern(principal));
    if (principal.accountId !== null) q = q.where('s.accountId', '=', principal.accountId);
  }
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row as { subscriberId: number; iccid: string; msisdn: string | null };
}

/**
 * The detail page's panels that read more than the subscriber row. Each needs Subscribers and the panel's
 * SubscriberDetails sub-privilege: a role without the panel gets 403 from the server, not only a hidden panel.
 */
export function registerSubscriberRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const panel = (sub: string) => async (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (!principal.isAdmin && !can(principal, 'SubscriberDetails', sub)) throw forbidden();
    return { principal, subscriber: await visibleSubscriber(db, principal, pathId(request)) };
  };
  const config = { privilege: 'Subscribers' };
  const tags = ['subscribers'];

  app.get(
    '/portal/subscriber-info/sponsor-imsis/:id',
    { config, schema: { tags, summary: "The sponsor IMSIs of a subscriber's SIM", response: { 200: sponsorImsisSchema } } },
    async (request) => {
      const { subscriber } = await panel('SponsorImsis')(request);
      return db
        .selectFrom('sponsorImsi')
        .select(['imsi', 'sponsorId', 'sponsorName', 'pending'])
        .where('subscriberId', '=', subscriber.subscriberId)
        .orderBy('imsi')
        .execute();
    },
  );

  app.get('/portal/subscriber-info/msisdns/:id', { config, schema: { tags, summary: 'The MSISDNs of a subscriber' } }, async (request) => {
    const { subscriber } = await panel('Msisdn')(request);
    const rows = await db.selectFrom('subscriberMsisdn').select('msisdn').where('subscriberId', '=', subscriber.subscriberId).orderBy('msisdn').execute();
    return rows.map((r) => ({ msisdn: r.msisdn, isDefault: r.msisdn === subscriber.msisdn }));
  });

  app.get(
    '/portal/subscriber-info/sim-info/:id',
    { config, schema: { tags, summary: 'The SIM of a subscriber', response: { 200: subscriberSimSchema } } },
    async (request) => {
      const { subscriber } = await panel('IccidSim')(request);
      const sim = await db
        .selectFrom('simCard')
        .select(['iccid', 'simType', 'status', 'statusDate', 'profileType', 'batch', 'cost', 'serviceProviderName', 'activationCode'])
        .where('iccid', '=', subscriber.iccid)
        .executeTakeFirstOrThrow();
      return { ...sim, cost: sim.cost === null ? null : Number(sim.cost) };
    },
  );

  app.get(
    '/portal/subscriber-info/audit-logs/:id',
    { config, schema: { tags, summary: 'The audit log of a subscriber', response: { 200: auditLogSchema } } },
    async (request) => {
      const { subscriber } = await panel('AuditLogs')(request);
      const rows = await db
        .selectFrom('subscriberAudit')
        .select(['id', 'at', 'username', 'action', 'before', 'after'])
        .where('subscriberId', '=', subscriber.subscriberId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute();
      const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      return rows.map((r) => ({ ...r, before: json(r.before), after: json(r.after) }));
    },
  );
}
