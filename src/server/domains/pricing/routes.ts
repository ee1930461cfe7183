import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ListRequestError, normaliseListRequest, type EntitySchema } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EntityRepository } from '../../engine/repository';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { applyRules, cellText, parseRules, RULE_FILE_MAX_BYTES } from './csv';
import { knownNetworks, RULE_FIELDS, RULE_SCHEMA, RuleStore, validateRule } from './rules';

type Row = Record<string, unknown>;
const PRIVILEGE = 'PricingPlans';
const TAGS = ['pricing-plans'];

export function parseIdParam(raw: string | undefined, field = 'id'): number {
  if (!raw || !/^-?\d{1,10}$/.test(raw)) throw invalid([fieldError(field, 'type', 'validation.invalid')]);
  return Number(raw);
}

/** A rule body without the server's own fields, so a client may send back a rule it read. */
function ruleValues(body: unknown): Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body as Row;
  const { id: _id, planId: _planId, plmn: _plmn, ...rest } = body as Row;
  return rest;
}

/** A plan in use cannot be deleted: accounts still priced by it would lose their prices. */
export const pricingPlanHooks: EntityHooks = {
  async beforeDelete({ existing, trx }) {
    const used = await trx.selectFrom('account').select('accountId').where('pricingPlanId', '=', Number(existing.id)).limit(1).executeTakeFirst();
    if (used) throw conflict([fieldError('', 'inUse', 'entity.pricingPlan.inUse')]);
  },
};

/**
 * Local pricing plans' roaming rules (plans themselves are schema-driven), and the plan lists every screen uses.
 * A rule is reached through its plan, so the plan's tenancy covers its rules.
 */
export async function registerPricingRoutes(app: FastifyInstance, db: Kysely<any>, engine: Engine, schemas: EntitySchema[]) {
  const planSchema = schemas.find((s) => s.$id === 'pricingPlan')!;
  const plans = new EntityRepository(db, planSchema);
  const rules = new RuleStore(db);

  /** The plan of the request, when the caller may see it; 404 otherwise (another tenant's id is not confirmed). */
  async function planOf(request: FastifyRequest, trx: Kysely<any> = db): Promise<{ planId: number; principal: Principal }> {
    const principal = principalOf(request);
    const planId = parseIdParam((request.params as { id?: string }).id);
    if (!(await plans.get(planId, { principal }, trx))) throw notFound();
    return { planId, principal };
  }

  const ruleId = (request: FastifyRequest) => parseIdParam((request.params as { ruleId?: string }).ruleId, 'ruleId');
  const base = '/portal/pricing-plans/local/:id/rules';
  const config = { privilege: PRIVILEGE };

  app.get('/portal/pricing-plans/', { config: { signedIn: true }, schema: { tags: TAGS } }, async (request) => {
    const principal = principalOf(request);
    const subtree = (table: string) => db.selectFrom(`${table} as p`).innerJoin('reseller as r', 'r.id', 'p.resellerId')
      .where('r.path', 'like', sql<string>`${principal.resellerPath} || '%'`).orderBy('p.name');
    const [local, international] = await Promise.all([
      subtree('pricing_plan').select(['p.id as pricingPlanId', 'p.name as pricingPlanName']).execute(),
      subtree('international_plan').select(['p.id as internationalPricingPlanId', 'p.name as internationalPricingPlanName']).execute(),
    ]);
    return { pricingPlans: local, internationalPricingPlans: international };
  });

  app.post(`${base}/paged`, { config, schema: { tags: TAGS } }, async (request) => {
    const { planId, principal } = await planOf(request);
    try {
      return await rules.page(planId, normaliseListRequest(RULE_SCHEMA, (request.body ?? {}) as ListRequest, principal.isAdmin));
    } catch (e) {
      if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
      throw e;
    }
  });

  app.get(`${base}/:ruleId`, { config, schema: { tags: TAGS } }, async (request) => {
    const { planId } = await planOf(request);
    return (await rules.get(planId, ruleId(request))) ?? Promise.reject(notFound());
  });

  app.post(base, { config, schema: { tags: TAGS } }, async (request, reply) => {
    const { planId } = await planOf(request);
    const values = ruleValues(request.body);
    const errors = validateRule(values, await knownNetworks(db));
    if (errors.length) throw invalid(errors);
    const id = await rules.insert(planId, values);
    return reply.status(201).send(await rules.get(planId, id));
  });

  /** Updates the fields it sends and keeps the others, like every update. */
  app.post(`${base}/:ruleId`, { config, schema: { tags: TAGS } }, async (request) => {
    const { planId } = await planOf(request);
    const id = ruleId(request);
    return db.transaction().execute(async (trx) => {
      const existing = await rules.get(planId, id, trx);
      if (!existing) throw notFound();
      const merged = { ...ruleValues(existing), ...ruleValues(request.body) };
      const errors = validateRule(merged, await knownNetworks(trx));
      if (errors.length) throw invalid(errors);
      await rules.update(planId, id, merged, trx);
      return rules.get(planId, id, trx);
    });
  });

  app.delete(`${base}/:ruleId`, { config, schema: { tags: TAGS } }, async (request, reply) => {
    const { planId } = await planOf(request);
    if (!(await rules.remove(planId, ruleId(request)))) throw notFound();
    return reply.status(204).send();
  });

  /**
   * The grid's save: every changed and new row, and the deleted ids, in one request and one transaction. One bad
   * row refuses the whole request and names the row (`save[3].dataRate`), so nothing is half-saved.
   */
  app.post(`${base}/batch`, { config, schema: { tags: TAGS, body: { type: 'object', properties: { save: { type: 'array', maxItems: 5000 }, delete: { type: 'array', maxItems: 5000, items: { type: 'integer' } } } } } }, async (request) => {
    const { planId } = await planOf(request);
    const body = (request.body ?? {}) as { save?: Row[]; delete?: number[] };
    const save = body.save ?? [];
    return db.transaction().execute(async (trx) => {
      const errors = [];
      const networks = await knownNetworks(trx);
      const prepared: { id?: number; values: Row }[] = [];
      for (const [i, row] of save.entries()) {
        const id = row && typeof row === 'object' && Number.isInteger(row.id) ? Number(row.id) : undefined;
        const existing = id === undefined ? {} : await rules.get(planId, id, trx);
        if (!existing) throw notFound();
        const values = { ...ruleValues(existing), ...ruleValues(row) };
        const rowErrors = validateRule(values, networks);
        errors.push(...rowErrors.map((e) => ({ ...e, field: `save[${i}].${e.field}` })));
        prepared.push({ id, values });
      }
      if (errors.length) throw invalid(errors);
      for (const id of body.delete ?? []) if (!(await rules.remove(planId, id, trx))) throw notFound();
      const ids: number[] = [];
      for (const { id, values } of prepared) {
        if (id === undefined) ids.push(await rules.insert(planId, values, trx));
        else { await rules.update(planId, id, values, trx); ids.push(id); }
      }
      return { saved: ids, deleted: body.delete ?? [] };
    });
  });

  /** Every rule of the plan, streamed, in the columns the upload reads. */
  app.post('/portal/pricing-plans/local/:id/download', { config, schema: { tags: TAGS, summary: 'The plan\'s rules as CSV (streamed), in the upload\'s columns', produces: ['text/csv'] } }, async (request, reply) => {
    const { planId } = await planOf(request);
    const query = db.selectFrom('roaming_rule').select(RULE_FIELDS).where('planId', '=', planId).orderBy('id');
    return sendCsv(reply, `pricing-plan-${planId}-rules.csv`, RULE_FIELDS, queryBatches(db, engine, query), (row) => RULE_FIELDS.map((f) => cellText(f, row[f])));
  });

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: RULE_FILE_MAX_BYTES - 1, files: 1, fields: 0 } });
    const refuse = (rule: string, messageId: string) => invalid([fieldError('pricingPlanFile', rule, messageId)]);

    /**
     * Rule upload, multipart field pricingPlanFile. Without `confirm=true` it only checks: the answer lists every
     * rejected row with its reasons and nothing is written. With it, the valid rows replace the plan's rules in
     * one transaction (the rejected rows, which the user has seen, are left out).
     */
    scope.post('/portal/pricing-plans/local/:id/by-csv', {
      config,
      schema: { tags: TAGS, consumes: ['multipart/form-data'], querystring: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
    }, async (request) => {
      const { planId } = await planOf(request);
      if (!request.isMultipart()) throw refuse('required', 'validation.file.required');
      const file = await request.file();
      if (!file || file.fieldname !== 'pricingPlanFile') throw refuse('required', 'validation.file.required');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('size', 'validation.file.tooLarge');
        throw e;
      }
      if (!bytes.length) throw refuse('required', 'validation.file.required');
      const parsed = parseRules(bytes.toString('utf8'), await knownNetworks(db));
      if (parsed.error) throw invalid([parsed.error]);
      const summary = { total: parsed.total, valid: parsed.rows.length, rejected: parsed.rejected };
      if ((request.query as { confirm?: boolean }).confirm !== true) return { ...summary, applied: 0 };
      // A file without one good row would only empty the plan.
      if (!parsed.rows.length) throw refuse('rows', 'validation.rulesFile.noValidRows');
      return { ...summary, applied: await applyRules(db, planId, parsed.rows) };
    });
  });

  return { rules, plans, fields: RULE_FIELDS };
}
