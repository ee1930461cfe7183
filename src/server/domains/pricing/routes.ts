import { createReadStream } from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ListRequestError, normaliseListRequest, type EntitySchema } from '@shared/schema';
import type { FieldError, ListRequest } from '@shared/wire';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EntityRepository, type SchemaDrivenDb } from '../../engine/repository';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import { resellerUser } from '../../http/tenancy';
import { principalOf } from '../../http/guard';
import { INT_MAX, pathId } from '../../http/input';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { cellText, readRules, replaceRules, RULE_FILE_MAX_BYTES, RuleDiff } from './csv';
import { exactText, INTERNATIONAL_RULES, knownNetworks, ROAMING_RULES, RULE_FIELDS, RuleStore, validateRule } from './rules';
import { uploadedFile } from '../../http/upload';
import type { Database } from '../../db/types';
import { tableAs } from '../../db/dynamicTable';

type Row = Record<string, unknown>;
const PRIVILEGE = 'PricingPlans';
const TAGS = ['pricing-plans'];

/** A rule body without the server's own fields, so a client may send back a rule it read. */
function ruleValues(body: unknown): Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body as Row;
  const { id: _id, planId: _planId, plmn: _plmn, ...rest } = body as Row;
  return rest;
}

/**
 * Plans are the prices of a reseller's accounts, written by the reseller's own users (and those above it): an account
 * user reads the plans its account is on and writes none of either kind (their schemas' `resellerWrites`), nor their
 * rules (`planOf`), which would set its own commercial terms. A local plan in use cannot be deleted: accounts still
 * priced by it would lose their prices.
 */
export const pricingPlanHooks: EntityHooks = {
  async beforeDelete({ existing, trx }) {
    const used = await trx.selectFrom('account').select('accountId').where('pricingPlanId', '=', Number(existing.id)).limit(1).executeTakeFirst();
    if (used) throw conflict([fieldError('', 'inUse', 'entity.pricingPlan.inUse')]);
  },
};

/** The rules of one kind of plan: paged, get, create, update, delete and the grid's batch save. */
interface RuleRoutes {
  /** e.g. `/portal/pricing-plans/local/:id/rules` */
  base: string;
  privilege: string;
  plans: EntityRepository;
  /** The account's column naming a plan of this kind. */
  accountColumn: 'pricingPlanId' | 'internationalPricingPlanId';
  store: RuleStore;
  /** Every message of a rule's values, in the request's transaction. */
  validate: (values: Row, trx: Kysely<Database>) => Promise<FieldError[]>;
}

/**
 * Registers a plan's rule calls. A rule is reached through its plan, so the plan's tenancy covers its rules;
 * answers the function that finds the request's plan.
 */
function registerRuleRoutes(app: FastifyInstance, db: Kysely<Database>, { base, privilege, plans, accountColumn, store, validate }: RuleRoutes) {
  /**
   * The plan of the request, when the caller may see it; 404 otherwise (another tenant's id is not confirmed). An
   * account user reads only the plans its account is on, and writes none (403).
   */
  async function planOf(request: FastifyRequest, access: 'read' | 'write'): Promise<{ planId: number; principal: Principal }> {
    const principal = principalOf(request);
    const planId = pathId(request);
    if (!(await plans.get(planId, { principal }, db))) throw notFound();
    if (principal.accountId !== null) {
      const onAccount = await db
        .selectFrom('account')
        .select('accountId')
        .where('accountId', '=', principal.accountId)
        .where(accountColumn, '=', planId)
        .executeTakeFirst();
      if (!onAccount) throw notFound();
      if (access === 'write') resellerUser(principal);
    }
    return { planId, principal };
  }

  const ruleId = (request: FastifyRequest) => pathId(request, 'ruleId');
  const config = { privilege };
  const schema = store.kind.schema;

  app.post(`${base}/paged`, { config, schema: { tags: TAGS, summary: "A page of the plan's rules" } }, async (request) => {
    const { planId, principal } = await planOf(request, 'read');
    try {
      return await store.page(planId, normaliseListRequest(schema, (request.body ?? {}) as ListRequest, principal.isAdmin));
    } catch (e) {
      if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
      throw e;
    }
  });

  app.get(`${base}/:ruleId`, { config, schema: { tags: TAGS, summary: 'One rule of the plan' } }, async (request) => {
    const { planId } = await planOf(request, 'read');
    return (await store.get(planId, ruleId(request))) ?? Promise.reject(notFound());
  });

  app.post(base, { config, schema: { tags: TAGS, summary: 'Adds a rule to the plan' } }, async (request, reply) => {
    const { planId } = await planOf(request, 'write');
    const values = ruleValues(request.body);
    const errors = await validate(values, db);
    if (errors.length) throw invalid(errors);
    const id = await store.insert(planId, values);
    return reply.status(201).send(await store.get(planId, id));
  });

  /** Updates the fields it sends and keeps the others, like every update. */
  app.post(`${base}/:ruleId`, { config, schema: { tags: TAGS, summary: 'Changes the fields of a rule the body sends' } }, async (request) => {
    const { planId } = await planOf(request, 'write');
    const id = ruleId(request);
    return db.transaction().execute(async (trx) => {
      const existing = await store.get(planId, id, trx);
      if (!existing) throw notFound();
      const merged = { ...ruleValues(existing), ...ruleValues(request.body) };
      const errors = await validate(merged, trx);
      if (errors.length) throw invalid(errors);
      await store.update(planId, id, merged, trx);
      return store.get(planId, id, trx);
    });
  });

  app.delete(`${base}/:ruleId`, { config, schema: { tags: TAGS, summary: 'Deletes a rule of the plan' } }, async (request, reply) => {
    const { planId } = await planOf(request, 'write');
    if (!(await store.remove(planId, ruleId(request)))) throw notFound();
    return reply.status(204).send();
  });

  /**
   * The grid's save: every changed and new row, and the deleted ids, in one request and one transaction. One bad
   * row refuses the whole request and names the row (`save[3].dataRate`), so nothing is half-saved.
   */
  app.post(
    `${base}/batch`,
    {
      config,
      schema: {
        tags: TAGS,
        summary: 'Saves changed, new and deleted rules at once, all or none',
        body: {
          type: 'object',
          properties: {
            save: { type: 'array', maxItems: 5000, items: { type: 'object' } },
            delete: { type: 'array', maxItems: 5000, items: { type: 'integer', minimum: 1, maximum: INT_MAX } },
          },
        },
      },
    },
    async (request) => {
      const { planId } = await planOf(request, 'write');
      const body = (request.body ?? {}) as { save?: Row[]; delete?: number[] };
      const save = body.save ?? [];
      return db.transaction().execute(async (trx) => {
        const errors = [];
        const prepared: { id?: number; values: Row }[] = [];
        for (const [i, row] of save.entries()) {
          const id = row && typeof row === 'object' && Number.isInteger(row.id) ? Number(row.id) : undefined;
          const existing = id === undefined ? {} : await store.get(planId, id, trx);
          if (!existing) throw notFound();
          const values = { ...ruleValues(existing), ...ruleValues(row) };
          const rowErrors = await validate(values, trx);
          errors.push(...rowErrors.map((e) => ({ ...e, field: `save[${i}].${e.field}` })));
          prepared.push({ id, values });
        }
        if (errors.length) throw invalid(errors);
        for (const id of body.delete ?? []) if (!(await store.remove(planId, id, trx))) throw notFound();
        const ids: number[] = [];
        for (const { id, values } of prepared) {
          if (id === undefined) ids.push(await store.insert(planId, values, trx));
          else {
            await store.update(planId, id, values, trx);
            ids.push(id);
          }
        }
        return { saved: ids, deleted: body.delete ?? [] };
      });
    },
  );

  return planOf;
}

/**
 * Local pricing plans' roaming rules and international plans' rules (plans themselves are schema-driven), and
 * the plan lists every screen uses.
 */
export async function registerPricingRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine, schemas: EntitySchema[]) {
  const planSchema = schemas.find((s) => s.$id === 'pricingPlan')!;
  const plans = new EntityRepository(db, planSchema);
  const rules = new RuleStore(db, ROAMING_RULES);
  const internationalPlans = new EntityRepository(
    db,
    schemas.find((s) => s.$id === 'internationalPlan')!,
  );
  const config = { privilege: PRIVILEGE };
  /** A plan (`p`) whose reseller (`r`) is of the caller's subtree: one it gives. */
  const ownPlan = (principal: Principal) => sql<boolean>`r.path like ${principal.resellerPath} || '%'`;

  /**
   * The plans a caller's screens name: a reseller's users those of its subtree and the plan its parent assigned it
   * (what it pays by); an account user only the plans its account is on. Another tenant's plans never appear.
   */
  const namedPlans = (principal: Principal, table: 'pricingPlan' | 'internationalPlan') => {
    // defaultPrice is read from international plans only.
    const q = db
      .selectFrom(tableAs<{ id: number; name: string; resellerId: number; defaultPrice: string | null }, 'p'>(table, 'p'))
      .innerJoin('reseller as r', 'r.id', 'p.resellerId')
      .orderBy('p.name');
    const column = table === 'pricingPlan' ? 'pricingPlanId' : 'internationalPricingPlanId';
    if (principal.isAdmin) return q;
    if (principal.accountId !== null) return q.where('p.id', 'in', db.selectFrom('account').select(column).where('accountId', '=', principal.accountId));
    const subtree = ownPlan(principal);
    if (table === 'internationalPlan') return q.where(subtree);
    return q.where((eb) => eb.or([subtree, eb('p.id', '=', eb.selectFrom('reseller').select('pricingPlanId').where('id', '=', principal.resellerId))]));
  };

  app.get(
    '/portal/pricing-plans/',
    {
      config: { signedIn: true },
      schema: {
        tags: TAGS,
        summary: 'Id and name of every visible local pricing plan',
        response: {
          200: {
            type: 'object',
            required: ['pricingPlans', 'internationalPricingPlans'],
            properties: {
              pricingPlans: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['pricingPlanId', 'pricingPlanName', 'assignable'],
                  properties: {
                    pricingPlanId: { type: 'integer' },
                    pricingPlanName: { type: 'string' },
                    assignable: {
                      type: 'boolean',
                      description:
                        'Whether the caller may give the plan (to an account, a sub-reseller or a subscriber): false for the plan its parent assigned its own reseller, which it is named by but does not give',
                    },
                  },
                },
              },
              internationalPricingPlans: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['internationalPricingPlanId', 'internationalPricingPlanName'],
                  properties: { internationalPricingPlanId: { type: 'integer' }, internationalPricingPlanName: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const [local, international] = await Promise.all([
        namedPlans(principal, 'pricingPlan')
          .select(['p.id as pricingPlanId', 'p.name as pricingPlanName'])
          .select(principal.isAdmin || principal.accountId !== null ? sql<boolean>`true`.as('assignable') : ownPlan(principal).as('assignable'))
          .execute(),
        namedPlans(principal, 'internationalPlan').select(['p.id as internationalPricingPlanId', 'p.name as internationalPricingPlanName']).execute(),
      ]);
      return { pricingPlans: local, internationalPricingPlans: international };
    },
  );

  /** The caller's visible international plans, for choosing one on the account and reseller screens. */
  app.get(
    '/portal/pricing-plans/api/list-international',
    { config: { signedIn: true }, schema: { tags: TAGS, summary: 'Id and name of every visible international plan' } },
    async (request) => {
      const principal = principalOf(request);
      const resultObject = await namedPlans(principal, 'internationalPlan').select(['p.id', 'p.name', 'p.resellerId', 'p.defaultPrice']).execute();
      return { resultObject: resultObject.map((p) => ({ ...p, defaultPrice: p.defaultPrice === null ? null : Number(exactText(p.defaultPrice)) })) };
    },
  );

  const planOf = registerRuleRoutes(app, db, {
    base: '/portal/pricing-plans/local/:id/rules',
    privilege: PRIVILEGE,
    plans,
    accountColumn: 'pricingPlanId',
    store: rules,
    validate: async (values, trx) => validateRule(values, await knownNetworks(trx)),
  });

  registerRuleRoutes(app, db, {
    base: '/portal/pricing-plans/international/:id/rules',
    privilege: 'IntPricingPlans',
    plans: internationalPlans,
    accountColumn: 'internationalPricingPlanId',
    store: new RuleStore(db, INTERNATIONAL_RULES),
    validate: async (values) => INTERNATIONAL_RULES.validate(values),
  });

  /** Every rule of the plan, streamed, in the columns the upload reads. */
  app.post(
    '/portal/pricing-plans/local/:id/download',
    { config, schema: { tags: TAGS, summary: "The plan's rules as CSV (streamed), in the upload's columns", produces: ['text/csv'] } },
    async (request, reply) => {
      const { planId } = await planOf(request, 'read');
      const rulesDb: SchemaDrivenDb = db; // RULE_FIELDS are the schema's
      const query = rulesDb.selectFrom('roamingRule').select(RULE_FIELDS).where('planId', '=', planId).orderBy('id');
      return sendCsv(reply, `pricing-plan-${planId}-rules.csv`, RULE_FIELDS, queryBatches(db, engine, query), (row) =>
        RULE_FIELDS.map((f) => cellText(f, row[f])),
      );
    },
  );

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: RULE_FILE_MAX_BYTES - 1, files: 1, fields: 0 } });

    /**
     * Rule upload, multipart field pricingPlanFile. Without `confirm=true` it only checks: the answer lists every
     * rejected row with its reasons, and what applying would change (rules added, changed, removed), and nothing
     * is written. With it, the valid rows replace the plan's rules in
     * one transaction (the rejected rows, which the user has seen, are left out).
     */
    scope.post(
      '/portal/pricing-plans/local/:id/by-csv',
      {
        config,
        schema: {
          tags: TAGS,
          consumes: ['multipart/form-data'],
          summary: "Checks a CSV of rules, or with confirm=true replaces the plan's rules by it",
          querystring: { type: 'object', properties: { confirm: { type: 'boolean' } } },
        },
      },
      async (request) => {
        const { planId } = await planOf(request, 'write');
        // The file goes to disk as it arrives, then is read from there a batch of rows at a time.
        const upload = await uploadedFile(request, 'pricingPlanFile');
        try {
          const networks = await knownNetworks(db);
          if ((request.query as { confirm?: boolean }).confirm === true) return await replaceRules(db, planId, createReadStream(upload.path), networks);
          const diff = await RuleDiff.of(rules, planId);
          const read = await readRules(createReadStream(upload.path), networks, (rows) => diff.add(rows));
          if (read.error) throw invalid([read.error]);
          return { ...read, applied: 0, changes: diff.result() };
        } finally {
          await upload.remove();
        }
      },
    );
  });

  return { rules, plans, fields: RULE_FIELDS };
}
