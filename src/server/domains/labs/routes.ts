import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { effectiveLab, isLabKey, LAB_KEYS, LABS, type LabKey, type TenantLabs } from '@shared/labs';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import type { Database } from '../../db/types';
import { englishText, fieldError, forbidden, HttpError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, objectBody } from '../../http/input';
import { resellerPathIds, type Principal } from '../../http/principal';
import type { LabStates } from './switches';
import { visibleResellers } from '../resellers/subtree';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A lab the route belongs to: while it is off for the caller's tenant, the route answers 403 LAB_OFF. */
    lab?: LabKey;
  }
}

const tags = ['labs'];

/** A provider's or reseller's id: the provider is -1. */
const resellerIdSchema = idSchema({ min: -1 });

const labSwitchSchema = {
  type: 'object',
  required: ['key', 'enabled', 'default', 'locked', 'own', 'updatedBy', 'updatedAt'],
  properties: {
    key: { type: 'string', enum: [...LAB_KEYS] },
    enabled: { type: 'boolean', description: "The tenant's effective state" },
    default: { type: 'boolean', description: 'The state where nobody switched the lab' },
    locked: { type: 'boolean', description: 'A reseller above the tenant switched it off: it cannot be switched on here' },
    own: { type: 'boolean', nullable: true, description: "The tenant's own switch; null when it has none" },
    updatedBy: { type: 'string', nullable: true, description: "Who set the tenant's own switch" },
    updatedAt: { type: 'string', format: 'date-time', nullable: true, description: "When the tenant's own switch was set" },
  },
};

const tenantLabsSchema = {
  type: 'object',
  required: ['resellerId', 'labs'],
  properties: { resellerId: { type: 'integer' }, labs: { type: 'array', items: labSwitchSchema } },
};

/** 403 LAB_OFF: the route's lab is switched off for the caller's tenant. */
export const labOff = (lab: LabKey) => new HttpError(403, 'LAB_OFF', `${englishText('error.labOff')} (${lab})`);

/**
 * The tenant a call is about: the caller's own reseller, or for the administrator any reseller it names. A reseller
 * naming another tenant, even one below it, is refused: each tenant switches its own labs.
 */
async function tenantOf(db: Kysely<Database>, principal: Principal, resellerId: number | undefined) {
  if (resellerId === undefined || resellerId === principal.resellerId) return { id: principal.resellerId, path: principal.resellerPath };
  if (!principal.isAdmin) throw forbidden();
  const row = await visibleResellers(db, principal).select(['id', 'path']).where('id', '=', resellerId).executeTakeFirst();
  if (!row) throw invalid([fieldError('resellerId', 'reference', 'validation.reference.unknown')]);
  return row;
}

/** Every lab of a tenant as the labs screen shows it, read afresh (not from the kept states). */
async function tenantLabs(db: Kysely<Database>, tenant: { id: number; path: string }): Promise<TenantLabs> {
  const ids = resellerPathIds(tenant.path);
  const rows = await db
    .selectFrom('labSwitch as s')
    .leftJoin('appUser as u', 'u.id', 's.updatedBy')
    .select(['s.resellerId', 's.lab', 's.enabled', 's.updatedAt', 'u.username'])
    .where('s.resellerId', 'in', ids)
    .execute();
  return {
    resellerId: tenant.id,
    labs: LABS.map((lab) => {
      const mine = rows.filter((r) => r.lab === lab.key);
      const own = mine.find((r) => r.resellerId === tenant.id);
      const state = effectiveLab(lab, ids, new Map(mine.map((r) => [r.resellerId, r.enabled])));
      return {
        key: lab.key,
        ...state,
        default: lab.defaultEnabled,
        own: own?.enabled ?? null,
        updatedBy: own ? (own.username ?? null) : null,
        updatedAt: own ? new Date(own.updatedAt).toISOString() : null,
      };
    }),
  };
}

export function registerLabRoutes(app: FastifyInstance, db: Kysely<Database>, states: LabStates) {
  // A route naming a lab the catalogue lacks is a mistake: the server refuses to start.
  app.addHook('onRoute', (route) => {
    const lab = route.config?.lab;
    if (lab !== undefined && !isLabKey(lab)) throw new Error(`${String(route.method)} ${route.url} names an unknown lab ${String(lab)}`);
  });
  // After the guard (onRequest) has named the caller, before the body is validated: a switched-off feature says so first.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const lab = request.routeOptions.config?.lab;
    if (!lab || !request.principal) return;
    if (!(await states.of(request.principal.resellerPath))[lab].enabled) throw labOff(lab);
  });

  app.get(
    '/portal/labs',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: "The labs of the caller's tenant (the administrator: of any reseller) with their effective state",
        description:
          'A lab is off when the tenant or a reseller above it switched it off, else on when one of them switched it on, else its default. ' +
          '`resellerId` (administrator only) names another tenant.',
        querystring: { type: 'object', properties: { resellerId: resellerIdSchema }, additionalProperties: false },
        response: { 200: tenantLabsSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return tenantLabs(db, await tenantOf(db, principal, (request.query as { resellerId?: number }).resellerId));
    },
  );

  app.put(
    '/portal/labs/:lab',
    {
      config: { privilege: 'Labs' },
      schema: {
        tags,
        summary: "Switches a lab on or off for the caller's tenant (the administrator: for any reseller, or the provider's -1 for everyone)",
        description:
          'Body `{ enabled, resellerId? }`. Switching a lab on where a reseller above switched it off answers 409 naming the lab. ' +
          'The answer is the tenant’s labs, as `GET /portal/labs` gives them.',
        params: {
          type: 'object',
          required: ['lab'],
          properties: { lab: { type: 'string', enum: [...LAB_KEYS], errorMessage: 'validation.lab.unknown' } },
        },
        body: objectBody({ enabled: { type: 'boolean' }, resellerId: resellerIdSchema }, ['enabled']),
        response: { 200: tenantLabsSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { lab } = request.params as { lab: LabKey };
      const { enabled, resellerId } = request.body as { enabled: boolean; resellerId?: number };
      // An account's user works inside its reseller's tenant; the tenant's switches are its reseller's to set.
      if (principal.accountId !== null && !principal.isAdmin) throw forbidden();
      const tenant = await tenantOf(db, principal, resellerId);
      // The provider's switches reach every tenant: like the other provider-wide settings, they are the administrator's.
      if (tenant.id === ADMIN_RESELLER_ID && !principal.isAdmin) throw forbidden();
      if (enabled && (await tenantLabs(db, tenant)).labs.find((l) => l.key === lab)!.locked)
        throw new HttpError(409, 'LAB_LOCKED', `${englishText('error.labLocked')} (${lab})`, [fieldError('lab', 'locked', 'error.labLocked')]);
      const values = { enabled, updatedBy: principal.userId, updatedAt: sql<Date>`now()` };
      await db
        .insertInto('labSwitch')
        .values({ resellerId: tenant.id, lab, ...values })
        .onConflict((oc) => oc.columns(['resellerId', 'lab']).doUpdateSet(values))
        .execute();
      return tenantLabs(db, tenant);
    },
  );
}
