/**
 * Reseller pricing: what a reseller pays, per network, country and zone, derived from the local pricing plan
 * assigned to it (reseller.pricing_plan_id), and the margin a parent would make on a plan it proposes for one
 * of its sub-resellers. Every figure is computed in SQL on numeric columns, so nothing is rounded on the way.
 *
 * A network's price is the plan's roaming rule for that network (in force now, not hidden; the latest start
 * wins), else the plan's default prices when the plan uses them; a network without either is not priced. A
 * country's or a zone's price is the highest of each rate among its priced networks, per currency: the most a
 * subscriber may be charged there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ListRequestError, normaliseListRequest, filterFields, type NormalisedListRequest } from '@shared/schema';
import { MARGIN_FIELDS, networkPriceSchema, PRICE_CSV_FIELDS, RATE_FIELDS, type PricedReseller } from '@shared/resellerPricing';
import type { FieldError, ListRequest } from '@shared/wire';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, listRequestSchema, pageSchema, queryId } from '../../http/input';
import type { Principal } from '../../http/principal';
import { exactText } from '../pricing/rules';
import type { Database } from '../../db/types';
import { resellerUser, subtreePattern } from '../../http/tenancy';
import { pageAnswer } from '@shared/wire';
import { columnName as snake } from '../../db/columnName';

type Row = Record<string, unknown>;

const BASE = '/portal/reseller-pricing';
const tags = ['reseller-pricing'];
const config = { privilege: 'Pricing' };
/** Plans are assigned by whoever manages resellers. */
const assignConfig = { privilege: 'Resellers' };

/** A numeric read from the database as the JSON number it is exactly (at most twelve significant digits). */
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(exactText(v)));
const numbers = (row: Row, fields: readonly string[]): Row => ({ ...row, ...Object.fromEntries(fields.map((f) => [f, num(row[f])])) });

/** Plan default column of each rate. */
const DEFAULT_OF: Record<(typeof RATE_FIELDS)[number], string> = {
  dataRate: 'default_data',
  moCallRate: 'default_outgoing_voice',
  mtCallRate: 'default_incoming_voice',
  moSmsRate: 'default_mo_sms',
  mtSmsRate: 'default_mt_sms',
};

/** The priced networks of a plan, one row per network (see the module's comment); none without a plan. */
function effectivePrices(planId: number | null): RawBuilder<Row> {
  const rates = RATE_FIELDS.map((f) => sql.raw(`coalesce(r.${snake(f)}, case when p.use_default_prices then p.${DEFAULT_OF[f]} end) as ${snake(f)}`));
  return sql<Row>`select n.country, n.mcc, n.mnc, n.plmn, coalesce(r.network, n.operator, n.brand) as network,
      case when r.id is null then 'default' else 'rule' end as source, coalesce(r.currency, p.currency)::text as currency,
      ${sql.join(rates)}
    from network n
    join pricing_plan p on p.id = ${planId ?? 0}
    left join lateral (
      select * from roaming_rule x where x.plan_id = p.id and x.plmn = n.plmn and not x.hidden
        and x.start_date <= now() and (x.end_date is null or x.end_date > now())
      order by x.start_date desc, x.id desc limit 1
    ) r on true
    where (r.id is not null or (p.use_default_prices and n.withdrawn_at is null))`;
}

/** Response schemas: every figure is a number or null (a rate the plan leaves unpriced). */
const rate = { type: 'number', nullable: true };
const str = { type: 'string' };
const int = { type: 'integer' };
const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', required, properties });
const itemsOf = (item: object) => object({ items: { type: 'array', items: item } });
const rates = Object.fromEntries(RATE_FIELDS.map((f) => [f, rate]));
const networkPriceRow = object({
  country: str,
  mcc: str,
  mnc: str,
  plmn: str,
  network: { type: 'string', nullable: true },
  source: { type: 'string', enum: ['rule', 'default'], description: "A roaming rule of the plan, or the plan's default prices" },
  currency: str,
  ...rates,
});
const countryPriceRow = object({ country: str, currency: str, networkCount: int, ...rates });
const zonePriceRow = object({
  zoneId: int,
  zoneName: str,
  countries: { type: 'array', items: str },
  currency: { type: 'string', nullable: true, description: 'Null for a zone none of whose countries is priced' },
  networkCount: int,
  ...rates,
});
const resellerRef = object({ id: int, name: str, parentId: { type: 'integer', nullable: true }, pricingPlanId: { type: 'integer', nullable: true } });
const overviewSchema = object({
  reseller: resellerRef,
  plan: {
    ...object({
      id: int,
      name: str,
      currency: str,
      usdConvertRate: rate,
      useDefaultPrices: { type: 'boolean' },
      defaults: object({ data: rate, outgoingVoice: rate, incomingVoice: rate, moSms: rate, mtSms: rate }),
    }),
    nullable: true,
  },
  resellers: { type: 'array', items: resellerRef },
  subResellers: { type: 'array', items: resellerRef },
  assignablePlans: { type: 'array', items: object({ id: int, name: str, currency: str }) },
});
const marginRow = object({
  country: str,
  mcc: str,
  mnc: str,
  plmn: str,
  network: { type: 'string', nullable: true },
  callerCurrency: { type: 'string', nullable: true, description: 'Null where the parent pays nothing for the network' },
  proposedCurrency: str,
  ...Object.fromEntries(
    MARGIN_FIELDS.flatMap((f) => {
      const Cap = f[0].toUpperCase() + f.slice(1);
      return [`caller${Cap}`, `proposed${Cap}`, `${f}Margin`, `${f}MarginPercent`].map((name) => [name, rate]);
    }),
  ),
});
const marginSchema = object({ resellerId: int, pricingPlanId: int, rows: { type: 'array', items: marginRow }, negativeCount: int });
const assignmentSchema = object({ resellerId: int, pricingPlanId: { type: 'integer', nullable: true } });

async function resellerRow(db: Kysely<Database>, id: number) {
  return db.selectFrom('reseller').select(['id', 'name', 'parentId', 'path', 'pricingPlanId']).where('id', '=', id).executeTakeFirst() as Promise<
    (PricedReseller & { path: string }) | undefined
  >;
}

/**
 * The reseller whose pricing is asked for: the caller's own, or `reseller_id` of one in the caller's subtree.
 * Any other answers 404, so a parent's or a sibling's existence is not confirmed.
 */
/** The optional `reseller_id` query of every pricing read: the caller's own reseller, or one of its subtree. */
const resellerQuery = { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }) } };
/** The list request of the network prices (page, sort, search), checked further by `normaliseListRequest`. */
const priceListBody = listRequestSchema(networkPriceSchema['x-list'].search.map((f) => f.by));

async function pricedReseller(db: Kysely<Database>, principal: Principal, request: FastifyRequest) {
  const id = queryId(request, 'reseller_id', { min: INT_MIN }) ?? principal.resellerId;
  const row = await resellerRow(db, id);
  if (!row || !row.path.startsWith(principal.resellerPath)) throw notFound();
  return row;
}

function listRequest(request: FastifyRequest): NormalisedListRequest {
  try {
    return normaliseListRequest(networkPriceSchema, (request.body ?? {}) as ListRequest, principalOf(request).isAdmin);
  } catch (e) {
    if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
    throw e;
  }
}

/** The price list of a plan, searched (part of the country code or network name) and sorted as asked. */
function priceList(db: Kysely<Database>, planId: number | null, req: NormalisedListRequest) {
  let q = db.selectFrom(sql<Row>`(${effectivePrices(planId)})`.as('e')).selectAll();
  if (req.searchBy && req.searchKey) {
    const key = `%${req.searchKey.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const fields = filterFields(req.searchBy);
    q = q.where((eb) => eb.or(fields.map((f) => eb(sql`lower(coalesce(${sql.ref(`e.${f}`)}, ''))`, 'like', key))));
  }
  const nulls = req.sortDir === 'asc' ? sql.raw('asc nulls last') : sql.raw('desc nulls last');
  return q.orderBy(sql`${sql.ref(`e.${req.sortBy}`)} ${nulls}`).orderBy('e.plmn');
}

const PRICE_NUMBERS = [...RATE_FIELDS];

/** Highest rates among the priced networks, grouped by the given expressions. */
function maxRates() {
  return sql.join(RATE_FIELDS.map((f) => sql.raw(`max(e.${snake(f)}) as ${snake(f)}`)));
}

/** Body of the margin preview: two positive integer ids, nothing else. */
function marginBody(raw: unknown): { resellerId: number; pricingPlanId: number } {
  const body = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Row;
  const errors: FieldError[] = [];
  for (const name of ['resellerId', 'pricingPlanId']) {
    const v = body[name];
    if (v === undefined || v === null) errors.push(fieldError(name, 'required', 'validation.select.required'));
    else if (!Number.isInteger(v) || (v as number) < -1 || (v as number) > 2147483647) errors.push(fieldError(name, 'type', 'validation.select.required'));
  }
  for (const name of Object.keys(body))
    if (!['resellerId', 'pricingPlanId'].includes(name)) errors.push(fieldError(name, 'additionalProperties', 'validation.unknownField'));
  if (errors.length) throw invalid(errors);
  return body as { resellerId: number; pricingPlanId: number };
}

/**
 * A plan `parent` may give the reseller `childId`: the child must be a direct sub-reseller of `parent` (404 when
 * outside the caller's subtree, 400 when deeper down), and the plan one of `parent`'s own.
 */
async function checkAssignment(db: Kysely<Database>, principal: Principal, childId: number, planId: number | null) {
  // An account user's tenant is its account: its reseller's children are other tenants to it, and their prices its
  // reseller's commercial terms.
  resellerUser(principal);
  const child = await resellerRow(db, childId);
  if (!child || !child.path.startsWith(principal.resellerPath) || child.id === principal.resellerId) throw notFound();
  // The administrator prices any reseller, with a plan of that reseller's parent; others only their children.
  if (!principal.isAdmin && child.parentId !== principal.resellerId)
    throw invalid([fieldError('resellerId', 'subReseller', 'resellerPricing.validation.subReseller')]);
  if (planId !== null) {
    const plan = await db.selectFrom('pricingPlan').select(['id', 'resellerId']).where('id', '=', planId).executeTakeFirst();
    if (!plan || plan.resellerId !== child.parentId) throw invalid([fieldError('pricingPlanId', 'parentPlan', 'resellerPricing.validation.parentPlan')]);
  }
  return child;
}

export function registerResellerPricingRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine) {
  const planOf = async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const reseller = await pricedReseller(db, principal, request);
    return { principal, reseller, planId: reseller.pricingPlanId };
  };

  app.get(
    BASE,
    {
      config,
      schema: {
        tags,
        querystring: resellerQuery,
        summary: "The reseller's pricing plan, currency and default prices (the caller's, or reseller_id of its subtree)",
        response: { 200: overviewSchema },
      },
    },
    async (request) => {
      const { principal, reseller, planId } = await planOf(request);
      const plan = planId === null ? undefined : await db.selectFrom('pricingPlan').selectAll().where('id', '=', planId).executeTakeFirst();
      const subtree = await db
        .selectFrom('reseller')
        .select(['id', 'name', 'parentId', 'pricingPlanId'])
        .where('path', 'like', subtreePattern(principal))
        .orderBy('path')
        .limit(500)
        .execute();
      const assignablePlans = await db
        .selectFrom('pricingPlan')
        .select(['id', 'name', sql<string>`currency::text`.as('currency')])
        .where('resellerId', '=', principal.resellerId)
        .orderBy('name')
        .execute();
      return {
        reseller: { id: reseller.id, name: reseller.name, parentId: reseller.parentId, pricingPlanId: reseller.pricingPlanId },
        plan: plan
          ? {
              id: plan.id,
              name: plan.name,
              currency: String(plan.currency).trim(),
              usdConvertRate: num(plan.usdConvertRate),
              useDefaultPrices: plan.useDefaultPrices,
              defaults: {
                data: num(plan.defaultData),
                outgoingVoice: num(plan.defaultOutgoingVoice),
                incomingVoice: num(plan.defaultIncomingVoice),
                moSms: num(plan.defaultMoSms),
                mtSms: num(plan.defaultMtSms),
              },
            }
          : null,
        resellers: subtree,
        subResellers: subtree.filter((r) => r.parentId === principal.resellerId),
        assignablePlans,
      };
    },
  );

  app.get(
    `${BASE}/networks`,
    { config, schema: { tags, querystring: resellerQuery, summary: 'Price per network (reseller_id optional)', response: { 200: itemsOf(networkPriceRow) } } },
    async (request) => {
      const { planId } = await planOf(request);
      const rows = await db
        .selectFrom(sql<Row>`(${effectivePrices(planId)})`.as('e'))
        .selectAll()
        .orderBy('e.country')
        .orderBy('e.plmn')
        .execute();
      return { items: rows.map((r) => numbers(r, PRICE_NUMBERS)) };
    },
  );

  app.get(
    `${BASE}/countries`,
    {
      config,
      schema: {
        tags,
        querystring: resellerQuery,
        summary: 'Price per country: the highest rate among its priced networks (reseller_id optional)',
        response: { 200: itemsOf(countryPriceRow) },
      },
    },
    async (request) => {
      const { planId } = await planOf(request);
      const { rows } = await sql<Row>`select e.country, e.currency, count(*)::int as network_count, ${maxRates()}
      from (${effectivePrices(planId)}) e group by e.country, e.currency order by e.country, e.currency`.execute(db);
      return { items: rows.map((r) => numbers(r, PRICE_NUMBERS)) };
    },
  );

  for (const [path, table] of [
    ['location-zones', 'location_zone'],
    ['destination-zones', 'destination_zone'],
  ] as const) {
    app.get(
      `${BASE}/${path}`,
      {
        config,
        schema: {
          tags,
          querystring: resellerQuery,
          summary: "Price per zone: the highest rate among the zone's countries (reseller_id optional)",
          response: { 200: itemsOf(zonePriceRow) },
        },
      },
      async (request) => {
        const { principal, reseller, planId } = await planOf(request);
        // Zones of the priced reseller and of those above it, as far as the caller's own subtree reaches.
        const { rows } = await sql<Row>`select z.id as zone_id, z.name as zone_name, z.countries, e.currency, count(e.plmn)::int as network_count, ${maxRates()}
        from ${sql.table(table)} z
        join reseller zr on zr.id = z.reseller_id
        cross join lateral jsonb_array_elements_text(z.countries::jsonb) as c(code)
        left join (${effectivePrices(planId)}) e on e.country = c.code
        where ${reseller.path} like zr.path || '%' and zr.path like ${principal.resellerPath} || '%'
        group by z.id, z.name, z.countries, e.currency order by z.name, z.id, e.currency`.execute(db);
        // A zone none of whose countries is priced keeps one row without prices; otherwise one row per currency.
        const priced = new Set(rows.filter((r) => r.currency !== null).map((r) => r.zoneId));
        return {
          items: rows
            .filter((r) => r.currency !== null || !priced.has(r.zoneId))
            .map((r) => ({ ...numbers(r, PRICE_NUMBERS), countries: JSON.parse(String(r.countries)), currency: r.currency ?? null })),
        };
      },
    );
  }

  app.post(
    `${BASE}/paged`,
    {
      config,
      schema: {
        tags,
        querystring: resellerQuery,
        body: priceListBody,
        summary: 'Price per network, paged, sorted and searched by country or network (reseller_id optional)',
        response: {
          200: pageSchema(networkPriceRow),
        },
      },
    },
    async (request) => {
      const { planId } = await planOf(request);
      const req = listRequest(request);
      const list = priceList(db, planId, req);
      const [items, count] = await Promise.all([
        list
          .limit(req.size)
          .offset(req.page * req.size)
          .execute(),
        db
          .selectFrom(list.clearOrderBy().as('c'))
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return pageAnswer(
        items.map((r) => numbers(r, PRICE_NUMBERS)),
        total,
        req.page,
        req.size,
      );
    },
  );

  app.post(
    `${BASE}/download`,
    {
      config,
      schema: {
        tags,
        querystring: resellerQuery,
        body: priceListBody,
        summary: 'Price per network as CSV (streamed), for the current search and sort',
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { reseller, planId } = await planOf(request);
      const query = priceList(db, planId, listRequest(request));
      return sendCsv(reply, `reseller-${reseller.id}-prices.csv`, PRICE_CSV_FIELDS, queryBatches(db, engine, query), (row) =>
        PRICE_CSV_FIELDS.map((f) => ((RATE_FIELDS as readonly string[]).includes(f) ? num(row[f]) : row[f])),
      );
    },
  );

  /**
   * What the caller would earn per network if its sub-reseller paid by the proposed plan: nothing is written.
   * One row per network the proposed plan prices, the worst data margin first. Margins compare prices of one
   * currency only; a network priced in two currencies, or one the parent pays nothing for, has no margin.
   */
  app.post(
    `${BASE}/margin-preview`,
    {
      config,
      schema: {
        tags,
        summary: 'Per-network margin of a proposed plan for a sub-reseller (nothing is saved)',
        body: { type: 'object', properties: { resellerId: { type: 'integer' }, pricingPlanId: { type: 'integer' } } },
        response: { 200: marginSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = marginBody(request.body);
      const child = await checkAssignment(db, principal, body.resellerId, body.pricingPlanId);
      // What the parent pays: the caller itself, or for the administrator the sub-reseller's parent.
      const parent = child.parentId === null ? undefined : await resellerRow(db, child.parentId);
      const columns = MARGIN_FIELDS.map((f) => {
        const c = snake(f);
        return sql.raw(`c.${c} as caller_${c}, s.${c} as proposed_${c},
        case when c.currency = s.currency then s.${c} - c.${c} end as ${c}_margin,
        case when c.currency = s.currency and c.${c} > 0 then round((s.${c} - c.${c}) * 100 / c.${c}, 2) end as ${c}_margin_percent`);
      });
      const { rows } = await sql<Row>`select s.country, s.mcc, s.mnc, s.plmn, s.network, c.currency as caller_currency, s.currency as proposed_currency,
        ${sql.join(columns)}
      from (${effectivePrices(body.pricingPlanId)}) s
      left join (${effectivePrices(parent?.pricingPlanId ?? null)}) c on c.plmn = s.plmn
      order by data_rate_margin_percent asc nulls last, country, plmn`.execute(db);
      const numeric = MARGIN_FIELDS.flatMap((f) => {
        const Cap = f[0].toUpperCase() + f.slice(1);
        return [`caller${Cap}`, `proposed${Cap}`, `${f}Margin`, `${f}MarginPercent`];
      });
      const items = rows.map((r) => numbers(r, numeric));
      return {
        resellerId: body.resellerId,
        pricingPlanId: body.pricingPlanId,
        rows: items,
        negativeCount: items.filter((r) => (r.dataRateMargin as number | null) !== null && (r.dataRateMargin as number) < 0).length,
      };
    },
  );

  /** Assigns (or with null clears) a sub-reseller's plan: a plan of its parent; the administrator may set any reseller's. */
  app.put(
    `${BASE}/plan`,
    {
      config: assignConfig,
      schema: {
        tags,
        summary: 'Assign a plan of its parent to a reseller',
        body: { type: 'object', properties: { resellerId: { type: 'integer' }, pricingPlanId: { type: ['integer', 'null'] } } },
        response: { 200: assignmentSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const raw = (request.body ?? {}) as Row;
      const body = marginBody({ ...raw, pricingPlanId: raw.pricingPlanId === null ? -1 : raw.pricingPlanId });
      const planId = body.pricingPlanId === -1 ? null : body.pricingPlanId;
      const child = await checkAssignment(db, principal, body.resellerId, planId);
      await db.updateTable('reseller').set({ pricingPlanId: planId }).where('id', '=', child.id).execute();
      return { resellerId: child.id, pricingPlanId: planId };
    },
  );
}
