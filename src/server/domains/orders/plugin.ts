/**
 * SIM orders: the catalogue calls (types, card sizes, EF configurations, providers and profiles), pricing, submission
 * with its credit hold, the order tables, the order's detail and timeline, the financial and technical reviews,
 * resource allocation, discounts, placing the order with the SIM vendor, the SIMs' keys, delivery into inventory and
 * cancellation. The order's states live in machine.ts; see docs/orders.md.
 */
import type { FastifyReply } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  ARTWORK_MAX_BYTES,
  ARTWORK_MIN_DPI,
  ARTWORK_MM,
  CARD_MM,
  PRICE_TABLE,
  SIM_TYPES,
  SIZES_OF,
  priceOrder,
  type OrderCurrency,
  type SimSize,
  type SimType,
} from '@shared/orders';
import { pageAnswer } from '@shared/wire';
import { createSimVendor, batchFileLines, iccidAt, luhnDigit, type SimVendorSettings } from '../../adapters/sim-vendor';
import type { Database } from '../../db/types';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EXACT_COUNT_LIMIT, EstimatedTotals } from '../../engine/estimates';
import { conflict, fieldError, HttpError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, INT_MIN, objectBody } from '../../http/input';
import type { Principal } from '../../http/principal';
import { resellerUser, subtreePattern } from '../../http/tenancy';
import { resellerInSubtree } from '../resellers/subtree';
import { holdCredit, resizeHold } from '../ledger/holds';
import { domainPlugin } from '../plugin';
import { registerArtworkRoute } from './artwork';
import { KeyFileDamaged, keyFileHead, keyFileStream, loadKeysKey, storeKeyFile, verifyKeyFile, type KeyOptions } from './keys';
import { assertAllowed, OPEN_STATES, recordEvent, transition, TRANSITIONS } from './machine';
import { registerProviderRoutes, visibleProfile } from './providers';
import { RANGE_SELECT, rangeSchema, rangeView, registerRangeRoutes, type RangeRow } from './ranges';
import {
  approvedParams,
  discountBody,
  listBody,
  orderDetailSchema,
  orderRowSchema,
  pageOf,
  priceBody,
  priceSchema,
  reasonBody,
  resourcesBody,
  slotSchema,
  submitBody,
  tags,
  uuidParams,
} from './schemas';
import {
  actionsFor,
  addOrderSimsToInventory,
  ORDER_LIST_COLUMNS,
  ORDER_LIST_FROM,
  ORDER_SELECT,
  orderVisibility,
  ratePerUsd,
  repriced,
  rowView,
  storedPrice,
  toUsd,
  visibleOrder,
  type OrderListRow,
  type OrderRow,
} from './service';

export interface OrderOptions extends KeyOptions {
  vendor?: SimVendorSettings;
}

const ORDERS = { privilege: 'SimOrders' };
/** The columns of the CSV export, in the table's order. */
const CSV_COLUMNS = [
  'uuid',
  'resellerName',
  'batchName',
  'totalCost',
  'currency',
  'amount',
  'simProvider',
  'orderDate',
  'orderStatus',
  'simType',
  'simSize',
  'financialReview',
  'technicalReview',
  'resourceAllocation',
  'artwork',
  'profile',
  'msisdnRange',
  'imsiRange',
  'iccidRange',
] as const;
const ADMIN = { adminOnly: true };

/** EF configurations an order may name: the elementary files the vendor personalises the cards with. */
export const EF_CONFIGS = [
  { id: 'standard', description: 'Operator defaults: EF_PLMNwAcT, EF_OPLMNwACT and EF_FPLMN from the roaming profile' },
  { id: 'iot-low-power', description: 'As standard, with longer periodic search (EF_HPPLMN 6 hours) for battery devices' },
  { id: 'steering', description: 'Steering of roaming: preferred networks first, forbidden list from blocked networks' },
  { id: 'multi-imsi-applet', description: 'Multi-IMSI applet with a slot switch on registration failure' },
];

/** Sortable list columns and their SQL. */
const SORT_COLUMNS: Record<string, string> = {
  id: 'o.id',
  batchName: 'o.batch_name',
  totalCost: 'o.total',
  amount: 'o.amount',
  simProvider: 'p.name',
  orderDate: 'o.order_date',
  orderStatus: 'o.status',
  simType: 'o.sim_type',
  financialReview: 'o.financial_review',
  technicalReview: 'o.technical_review',
  resourceAllocation: 'o.resource_allocation',
  artwork: 'o.artwork_id',
  profile: 'pp.name',
  msisdnRange: 'o.msisdn_from',
  imsiRange: 'o.imsi_from',
  iccidRange: 'o.iccid_from',
  resellerName: 'r.name',
};
/** Sort columns that may be empty (ordered `nulls last`); the others are never null. */
const NULLABLE_SORTS = new Set(['financialReview', 'technicalReview', 'artwork', 'profile', 'msisdnRange', 'imsiRange', 'iccidRange']);

interface ListBody {
  sortBy?: string | null;
  sortDir?: 'asc' | 'desc' | null;
  searchBy?: string | null;
  searchKey?: string | null;
  page?: { page?: number; size?: number; after?: number | string } | null;
  status?: string | null;
  simType?: string | null;
  resellerId?: number | null;
  from?: string | null;
  to?: string | null;
}

interface SubmitBody {
  resellerId?: number;
  batchName?: string;
  simType: SimType;
  simSize: SimSize;
  amount: number;
  sponsorIds: number[];
  roamingProfileId?: number;
  customImsiFrom?: string;
  customImsiTo?: string;
  providerId: number;
  providerProfileId?: number;
  serviceProviderName?: string;
  efConfig?: string;
  provisionedOnTheFly?: boolean;
  deliveryEmail?: string;
  deliveryAddressId?: number;
  artworkId?: number;
  currency?: OrderCurrency;
  comment?: string;
}

const bad = (field: string, rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);
/** A refusal of the order rules (no resources, no ICCID range): 409 naming the field. */
const refused = (field: string, rule: string, messageId: string) => conflict([fieldError(field, rule, messageId)]);

export default domainPlugin('orders', async (app, { database, app: appOptions }) => {
  const { db } = database;
  const options = (appOptions as { orders?: OrderOptions }).orders ?? {};
  const vendor = createSimVendor(options.vendor);
  let keysKey: Buffer | undefined;
  const keyOf = async () => (keysKey ??= await loadKeysKey(db, options));

  registerProviderRoutes(app, db);
  registerRangeRoutes(app, db);
  await registerArtworkRoute(app, db);

  // The catalogue.
  app.get(
    '/portal/sim-orders/types',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'SIM types and the card sizes each offers',
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              required: ['simType', 'sizes'],
              properties: { simType: { type: 'string' }, sizes: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    },
    async () => SIM_TYPES.map((simType) => ({ simType, sizes: [...SIZES_OF[simType]] })),
  );

  app.get(
    '/portal/sim-orders/info/:simSize',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'A card size: its prices, MOQ and artwork requirements',
        params: {
          type: 'object',
          required: ['simSize'],
          properties: { simSize: { type: 'string', maxLength: 20, enum: Object.keys(PRICE_TABLE), errorMessage: 'order.simSize.invalid' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['simSize', 'unitPrices', 'moq', 'artwork'],
            properties: {
              simSize: { type: 'string' },
              unitPrices: { type: 'object', additionalProperties: { type: 'number' } },
              moq: { type: 'integer' },
              cardMm: { type: ['object', 'null'], properties: { width: { type: 'number' }, height: { type: 'number' } } },
              artwork: {
                type: 'object',
                properties: {
                  allowed: { type: 'boolean' },
                  maxBytes: { type: 'integer' },
                  widthMm: { type: 'number' },
                  heightMm: { type: 'number' },
                  minHeightMm: { type: 'number' },
                  minDpi: { type: 'integer' },
                  colours: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const simSize = (request.params as { simSize: SimSize }).simSize;
      const row = PRICE_TABLE[simSize];
      return {
        simSize,
        unitPrices: Object.fromEntries(Object.entries(row.unit).map(([c, cents]) => [c, cents / 100])),
        moq: row.moq,
        cardMm: simSize === 'triple' ? CARD_MM : null,
        artwork: {
          allowed: simSize !== 'esim',
          maxBytes: ARTWORK_MAX_BYTES,
          widthMm: ARTWORK_MM.width,
          heightMm: ARTWORK_MM.height,
          minHeightMm: ARTWORK_MM.minHeight,
          minDpi: ARTWORK_MIN_DPI,
          colours: 'CMYK or PANTONE',
        },
      };
    },
  );

  app.get(
    '/portal/sim-orders/ef-config',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'The EF configurations an order may name',
        response: {
          200: {
            type: 'array',
            items: { type: 'object', required: ['id', 'description'], properties: { id: { type: 'string' }, description: { type: 'string' } } },
          },
        },
      },
    },
    async () => EF_CONFIGS,
  );

  app.post(
    '/portal/sim-orders/price',
    { config: ORDERS, schema: { tags, summary: 'The price of an order (see docs/orders.md for the table)', body: priceBody, response: { 200: priceSchema } } },
    async (request) => {
      const body = request.body as { simType: SimType; simSize: SimSize; amount: number; slots?: number; artwork?: boolean; currency?: OrderCurrency };
      if (!SIZES_OF[body.simType].includes(body.simSize)) throw bad('simSize', 'simType', 'order.simSize.invalid');
      return priceOrder({ ...body, slots: body.slots ?? 1, artwork: body.artwork ?? false, currency: body.currency ?? 'USD' });
    },
  );

  // Submission.
  async function checkSubmission(principal: Principal, body: SubmitBody, resellerId: number) {
    if (!SIZES_OF[body.simType].includes(body.simSize)) throw bad('simSize', 'simType', 'order.simSize.invalid');
    const provider = await db.selectFrom('simProvider').select(['id', 'simTypes']).where('id', '=', body.providerId).executeTakeFirst();
    if (!provider) throw bad('providerId', 'reference', 'order.provider.unknown');
    if (!provider.simTypes.includes(body.simType)) throw bad('providerId', 'simType', 'order.provider.simType');
    const sponsors = await db.selectFrom('sponsor').select('id').where('id', 'in', body.sponsorIds).execute();
    body.sponsorIds.forEach((id, i) => {
      if (!sponsors.some((s) => s.id === id)) throw bad(`sponsorIds[${i}]`, 'reference', 'order.sponsor.unknown');
    });
    if (body.providerProfileId === undefined && !body.serviceProviderName?.trim()) throw bad('providerProfileId', 'required', 'order.profileOrName.required');
    if (body.providerProfileId !== undefined) {
      const profile = await visibleProfile(db, principal, body.providerProfileId).catch(() => {
        throw bad('providerProfileId', 'reference', 'order.profile.unknown');
      });
      if (profile.status !== 'approved') throw bad('providerProfileId', 'approved', 'order.profile.notApproved');
      if (profile.resellerId !== null && profile.resellerId !== resellerId) throw bad('providerProfileId', 'reference', 'order.profile.unknown');
      if (profile.providerId !== body.providerId) throw bad('providerProfileId', 'provider', 'order.profile.provider');
      if (profile.simType !== body.simType) throw bad('providerProfileId', 'simType', 'order.profile.simType');
      if (profile.slotCount !== body.sponsorIds.length) throw bad('providerProfileId', 'slots', 'order.profile.slots');
    }
    if (body.roamingProfileId !== undefined) {
      const visible = orderVisibility(principal);
      const { rows } = await sql<{ reviewState: string; resellerId: number }>`select rp.review_state, rp.reseller_id from roaming_profile rp
        join reseller r on r.id = rp.reseller_id where rp.id = ${body.roamingProfileId} ${visible ? sql`and ${visible}` : sql``}`.execute(db);
      if (!rows[0]) throw bad('roamingProfileId', 'reference', 'order.roamingProfile.unknown');
      if (rows[0].reviewState !== 'approved') throw bad('roamingProfileId', 'approved', 'order.roamingProfile.notApproved');
    }
    if ((body.customImsiFrom === undefined) !== (body.customImsiTo === undefined))
      throw bad(body.customImsiFrom === undefined ? 'customImsiFrom' : 'customImsiTo', 'required', 'order.imsiRange.both');
    if (body.customImsiFrom !== undefined && body.customImsiTo !== undefined) {
      const count = BigInt(body.customImsiTo) - BigInt(body.customImsiFrom) + 1n;
      if (count < 1n) throw bad('customImsiTo', 'order', 'order.imsiRange.order');
      if (count < BigInt(body.amount)) throw bad('customImsiTo', 'size', 'order.imsiRange.tooSmall');
    }
    if (body.efConfig !== undefined && !EF_CONFIGS.some((e) => e.id === body.efConfig)) throw bad('efConfig', 'enum', 'order.efConfig.invalid');
    if (!body.deliveryEmail && body.deliveryAddressId === undefined) throw bad('deliveryEmail', 'required', 'order.delivery.required');
    if (body.deliveryAddressId !== undefined) {
      const address = await db.selectFrom('resellerAddress').select('resellerId').where('id', '=', body.deliveryAddressId).executeTakeFirst();
      if (!address || address.resellerId !== resellerId) throw bad('deliveryAddressId', 'reference', 'order.address.unknown');
    }
    if (body.artworkId !== undefined) {
      if (body.simType === 'esim') throw bad('artworkId', 'simType', 'order.artwork.esim');
      const artwork = await db.selectFrom('simOrderArtwork').select('resellerId').where('id', '=', body.artworkId).executeTakeFirst();
      if (!artwork || artwork.resellerId !== resellerId) throw bad('artworkId', 'reference', 'order.artwork.unknown');
    }
  }

  app.post(
    '/portal/sim-orders/submit',
    {
      config: ORDERS,
      schema: {
        tags,
        summary:
          "Submits an order for the caller's reseller or one below it (resellerId): priced by the table, its total held against the reseller's available credit",
        body: submitBody,
        response: { 201: orderDetailSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      resellerUser(principal);
      const body = request.body as SubmitBody;
      const resellerId = await resellerInSubtree(db, principal, body.resellerId ?? principal.resellerId).catch(() => {
        throw bad('resellerId', 'reference', 'order.reseller.unknown');
      });
      await checkSubmission(principal, body, resellerId);
      const currency = body.currency ?? 'USD';
      const price = priceOrder({ simSize: body.simSize, amount: body.amount, slots: body.sponsorIds.length, artwork: body.artworkId !== undefined, currency });
      const usd = toUsd(price.total, await ratePerUsd(db, currency));
      const reseller = await db.selectFrom('reseller').select('name').where('id', '=', resellerId).executeTakeFirstOrThrow();
      const batchName = body.batchName?.trim() || `${reseller.name.slice(0, 30)} ${new Date().toISOString().slice(0, 10)}`;
      const id = await db.transaction().execute(async (trx) => {
        const order = await trx
          .insertInto('simOrder')
          .values({
            resellerId,
            createdBy: principal.userId,
            batchName,
            simType: body.simType,
            simSize: body.simSize,
            amount: body.amount,
            slots: body.sponsorIds.length,
            sponsorIds: sql<string>`${JSON.stringify(body.sponsorIds)}::jsonb`,
            providerId: body.providerId,
            providerProfileId: body.providerProfileId ?? null,
            serviceProviderName: body.serviceProviderName?.trim() || null,
            roamingProfileId: body.roamingProfileId ?? null,
            customImsiFrom: body.customImsiFrom ?? null,
            customImsiTo: body.customImsiTo ?? null,
            efConfig: body.efConfig ?? null,
            provisionedOnTheFly: body.provisionedOnTheFly ?? false,
            deliveryEmail: body.deliveryEmail ?? null,
            deliveryAddressId: body.deliveryAddressId ?? null,
            artworkId: body.artworkId ?? null,
            comment: body.comment ?? null,
            currency,
            unitPrice: String(price.unitPrice),
            totalUnitPrice: price.totalUnitPrice.toFixed(2),
            additionalSlotCharge: price.additionalSlotCharge.toFixed(2),
            artworkCharge: price.artworkCharge.toFixed(2),
            feeBelowMoq: price.feeBelowMoq.toFixed(2),
            moq: price.moq,
            discountDescription: price.discount.description,
            discountRate: String(price.discount.rate),
            discountValue: price.discount.value.toFixed(2),
            total: price.total.toFixed(2),
          })
          .returning(['id', 'uuid'])
          .executeTakeFirstOrThrow();
        await recordEvent(trx, order.id, principal, 'create', { to: 'draft' });
        const holdId = await holdCredit(trx, resellerId, usd, `sim-order:${order.uuid}`, 'total');
        await transition(trx, order.id, 'submit', principal, { set: { holdId } });
        return order.id;
      });
      return reply.status(201).send(await detail(principal, { id }));
    },
  );

  // Lists.
  async function listQuery(principal: Principal, body: ListBody) {
    // Conditions on the order's own columns where they can be: the page's keys are then read from sim_order and its
    // indexes alone, and the names are joined for the page's rows only. A reseller's subtree is the list of its
    // resellers' ids, taken once per statement (an InitPlan), so a walk of the order's index filters on a column.
    const filters = [sql`true`];
    if (!principal.isAdmin)
      filters.push(
        principal.accountId !== null
          ? sql`o.reseller_id = ${principal.resellerId}`
          : sql`o.reseller_id = any(array(select id from reseller where path like ${subtreePattern(principal)}))`,
      );
    if (body.resellerId != null) {
      await resellerInSubtree(db, principal, body.resellerId);
      filters.push(sql`o.reseller_id = any(array(select id from reseller where path like (select path from reseller where id = ${body.resellerId}) || '%'))`);
    }
    if (body.status) filters.push(sql`o.status = ${body.status}`);
    if (body.simType) filters.push(sql`o.sim_type = ${body.simType}`);
    if (body.from) filters.push(sql`o.order_date >= ${body.from}::date at time zone 'UTC'`);
    if (body.to) filters.push(sql`o.order_date < (${body.to}::date + 1) at time zone 'UTC'`);
    if (body.from && body.to && body.from > body.to) throw bad('to', 'order', 'validation.endDate.afterStart');
    const search = body.searchKey?.trim();
    let searchesProvider = false;
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      if (body.searchBy === 'uuid') filters.push(sql`o.uuid = ${search.toLowerCase()}`);
      else if (body.searchBy === 'batchName') filters.push(sql`o.batch_name ilike ${like}`);
      else if (body.searchBy && body.searchBy !== 'multi') throw bad('searchBy', 'enum', 'validation.searchBy.invalid');
      else {
        searchesProvider = true;
        filters.push(sql`(o.batch_name ilike ${like} or o.uuid = ${search.toLowerCase()} or p.name ilike ${like} or o.iccid_from = ${search})`);
      }
    }
    if (body.sortBy && !SORT_COLUMNS[body.sortBy]) throw bad('sortBy', 'enum', 'validation.sortBy.invalid');
    const sortBy = body.sortBy ?? 'id';
    const column = SORT_COLUMNS[sortBy];
    const desc = body.sortDir !== 'asc';
    const dir = desc ? sql`desc` : sql`asc`;
    // Columns that are never empty are ordered without `nulls last`, so an index on (column, id) serves both
    // directions (migration 0167); the empty values of the others come last either way.
    const nullable = NULLABLE_SORTS.has(sortBy);
    const order = column === 'o.id' ? sql`order by o.id ${dir}` : sql`order by ${sql.raw(column)} ${dir} ${nullable ? sql`nulls last` : sql``}, o.id ${dir}`;
    // The joins the keys need: the provider for the multi-field search or its sort, the others for their sorts.
    const joins = [
      searchesProvider || column.startsWith('p.') ? sql`join sim_provider p on p.id = o.provider_id` : sql``,
      column.startsWith('pp.') ? sql`left join provider_profile pp on pp.id = o.provider_profile_id` : sql``,
      column.startsWith('r.') ? sql`join reseller r on r.id = o.reseller_id` : sql``,
    ];
    // Everything that decides which orders match, never the order or the page: what an estimate is kept by.
    const tenancy = principal.isAdmin ? null : [principal.resellerPath, principal.accountId];
    const key = JSON.stringify([
      tenancy,
      body.resellerId ?? null,
      body.status ?? null,
      body.simType ?? null,
      body.from ?? null,
      body.to ?? null,
      body.searchBy ?? null,
      search ?? null,
    ]);
    return { filters, order, joins: sql.join(joins, sql` `), key, column, nullable, desc };
  }

  /**
   * Keyset paging (`page.after`, the id or the uuid of the last row shown): the orders after that order of the caller
   * in the list's order, as a condition the index of the order can serve ((column, id) compared as a row; empty
   * values last).
   */
  async function afterOrder(principal: Principal, q: Awaited<ReturnType<typeof listQuery>>, after: number | string) {
    const visible = orderVisibility(principal);
    // An id out of the key's range, or text that is no uuid, names no order.
    const isId = typeof after === 'number';
    if (
      isId ? !Number.isSafeInteger(after) || after < 1 || after > 2_147_483_647 : !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(after)
    )
      throw bad('page.after', 'exists', 'validation.page.after');
    const which = isId ? sql`o.id = ${after}` : sql`o.uuid = ${after.toLowerCase()}`;
    const { rows } = await sql<{ v: unknown; k: number }>`select ${sql.raw(q.column)} as v, o.id as k from sim_order o
      join reseller r on r.id = o.reseller_id join sim_provider p on p.id = o.provider_id
      left join provider_profile pp on pp.id = o.provider_profile_id
      where ${which} ${visible ? sql`and ${visible}` : sql``}`.execute(db);
    if (!rows[0]) throw bad('page.after', 'exists', 'validation.page.after');
    const op = sql.raw(q.desc ? '<' : '>');
    const col = sql.raw(q.column);
    const { v: value, k: key } = rows[0];
    if (q.column === 'o.id') return sql`o.id ${op} ${key}`;
    if (value === null) return sql`(${col} is null and o.id ${op} ${key})`;
    const later = sql`(${col}, o.id) ${op} (${value}, ${key})`;
    return q.nullable ? sql`(${later} or ${col} is null)` : later;
  }

  /** Orders kept estimated totals of (see engine/estimates.ts), by `listQuery`'s key. */
  const totals = new EstimatedTotals();

  async function list(principal: Principal, body: ListBody) {
    const q = await listQuery(principal, body);
    const size = body.page?.size ?? 50;
    const number = body.page?.page ?? 0;
    const after = body.page?.after;
    const where = sql`where ${sql.join(q.filters, sql` and `)}`;
    const matching = sql`select 1 from sim_order o ${q.joins} ${where}`;
    const capped = sql`select count(*)::int as n from (${matching} limit ${EXACT_COUNT_LIMIT + 1}) c`;
    const paged = after === undefined ? where : sql`${where} and ${await afterOrder(principal, q, after)}`;
    const keys = sql`select o.id from sim_order o ${q.joins} ${paged} ${q.order} limit ${size} offset ${after === undefined ? number * size : 0}`;
    // One statement a page: the page's keys from sim_order (and the joins its search or sort needs), its rows with
    // their names, and, unless an estimate of the list is kept, the count up to the limit (an InitPlan, run once).
    const known = totals.get(q.key);
    const { rows } = await sql<OrderListRow & { counted?: number }>`select ${ORDER_LIST_COLUMNS}
      ${known === undefined ? sql`, (${capped}) as counted` : sql``}
      ${ORDER_LIST_FROM} where o.id in (${keys}) ${q.order}`.execute(db);
    const page = rows.map(rowView);
    if (known !== undefined) return pageAnswer(page, known, number, size, true);
    const counted = rows[0]?.counted ?? (await sql<{ n: number }>`${capped}`.execute(db)).rows[0].n;
    if (counted <= EXACT_COUNT_LIMIT) return pageAnswer(page, counted, number, size);
    const total = await totals.estimate(q.key, counted, { explain: async () => (await sql`explain (format json) ${matching}`.execute(db)).rows });
    return pageAnswer(page, total, number, size, true);
  }

  const listRoute = (url: string, config: object, summary: string) =>
    app.post(url, { config, schema: { tags, summary, body: listBody, response: { 200: pageOf(orderRowSchema) } } }, async (request) =>
      list(principalOf(request), (request.body ?? {}) as ListBody),
    );
  listRoute(
    '/portal/sim-orders',
    ORDERS,
    "Orders of the caller's reseller and those below it (resellerId narrows to one reseller's subtree), filtered by status, simType, dates (from, to) and searchKey (batch name, uuid, provider, first ICCID), sorted and paged",
  );
  listRoute('/portal/sim-orders/admin', ADMIN, "Every reseller's orders (the administrator's table), filtered, sorted and paged as the reseller's");

  app.post(
    '/portal/sim-orders/export',
    { config: ORDERS, schema: { tags, summary: 'The order table as CSV, with the filters and sort of the list (every page)', body: listBody } },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = (request.body ?? {}) as ListBody;
      const { filters, order } = await listQuery(principal, body);
      // Ordered by the list's sort, then paged by the engine's batches (see engine/csv.ts).
      const query = db.selectFrom(sql<OrderRow>`(${ORDER_SELECT} where ${sql.join(filters, sql` and `)} ${order})`.as('x')).selectAll() as never;
      const header = CSV_COLUMNS;
      return sendCsv(reply, 'sim-orders.csv', header, queryBatches(db, database.engine, query), (row) => {
        const view = rowView(row as OrderRow) as Record<string, unknown>;
        return header.map((k) => view[k]);
      });
    },
  );

  // The detail.
  async function detail(principal: Principal, key: { uuid?: string; id?: number }) {
    const o = await visibleOrder(db, principal, key);
    const [events, slots, sponsors, hold, setting, roaming, address, keys, creator] = await Promise.all([
      db
        .selectFrom('simOrderEvent')
        .select(['id', 'action', 'fromStatus', 'toStatus', 'username', 'reason', 'at'])
        .where('orderId', '=', o.id)
        .orderBy('id')
        .execute(),
      orderSlots(o),
      db
        .selectFrom('sponsor')
        .select(['id', 'name'])
        .where('id', 'in', [0, ...o.sponsorIds])
        .execute(),
      o.holdId === null ? undefined : db.selectFrom('creditHold').select(['amount', 'state']).where('id', '=', o.holdId).executeTakeFirst(),
      fourEyesOf(o.resellerId),
      o.roamingProfileId === null ? undefined : db.selectFrom('roamingProfile').select('name').where('id', '=', o.roamingProfileId).executeTakeFirst(),
      o.deliveryAddressId === null ? undefined : db.selectFrom('resellerAddress').selectAll().where('id', '=', o.deliveryAddressId).executeTakeFirst(),
      db.selectFrom('simOrderKeys').select('orderId').where('orderId', '=', o.id).executeTakeFirst(),
      o.createdBy === null ? undefined : db.selectFrom('appUser').select('username').where('id', '=', o.createdBy).executeTakeFirst(),
    ]);
    const downloads = principal.isAdmin
      ? await db.selectFrom('simOrderKeyDownload').select(['username', 'at']).where('orderId', '=', o.id).orderBy('id').execute()
      : undefined;
    const byId = new Map(sponsors.map((s) => [s.id, s.name]));
    return {
      ...rowView(o),
      sponsors: o.sponsorIds.map((id) => ({ id, name: byId.get(id) ?? '' })),
      providerId: o.providerId,
      providerProfileId: o.providerProfileId,
      serviceProviderName: o.serviceProviderName,
      roamingProfileId: o.roamingProfileId,
      roamingProfile: roaming?.name ?? null,
      customImsiFrom: o.customImsiFrom,
      customImsiTo: o.customImsiTo,
      efConfig: o.efConfig,
      provisionedOnTheFly: o.provisionedOnTheFly,
      deliveryEmail: o.deliveryEmail,
      deliveryAddress: address
        ? [address.companyName, `${address.street} ${address.streetNumber ?? ''}`.trim(), `${address.postalCode ?? ''} ${address.city}`.trim(), address.country]
            .filter(Boolean)
            .join(', ')
        : null,
      comment: o.comment,
      vendor: o.vendor,
      vendorReference: o.vendorReference,
      createdBy: creator?.username ?? null,
      deliveredAt: o.deliveredAt ? new Date(o.deliveredAt).toISOString() : null,
      price: storedPrice(o),
      slots,
      timeline: events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
      reservation: { amount: Number(hold?.amount ?? 0), currency: 'USD', state: (hold?.state ?? null) as string | null },
      fourEyes: setting,
      keysAvailable: !!keys && principal.isAdmin,
      ...(downloads ? { keyDownloads: downloads.map((d) => ({ username: d.username, at: new Date(d.at).toISOString() })) } : {}),
      actions: actionsFor(o, principal, setting),
    };
  }

  async function orderSlots(o: OrderRow) {
    const allocated = await db
      .selectFrom('simOrderSlot as s')
      .innerJoin('sponsor as sp', 'sp.id', 's.sponsorId')
      .select(['s.slot', 's.sponsorId', 'sp.name as sponsorName', 's.imsiFrom', 's.imsiTo'])
      .where('s.orderId', '=', o.id)
      .orderBy('s.slot')
      .execute();
    if (allocated.length) return allocated;
    // Not allocated yet: the slots as ordered, without ranges.
    const sponsors = await db
      .selectFrom('sponsor')
      .select(['id', 'name'])
      .where('id', 'in', [0, ...o.sponsorIds])
      .execute();
    return o.sponsorIds.map((id, i) => ({
      slot: i + 1,
      sponsorId: id,
      sponsorName: sponsors.find((s) => s.id === id)?.name ?? '',
      imsiFrom: null,
      imsiTo: null,
    }));
  }

  async function fourEyesOf(resellerId: number) {
    const row = await db.selectFrom('simOrderSetting').select('fourEyes').where('resellerId', '=', resellerId).executeTakeFirst();
    return row?.fourEyes ?? false;
  }

  const uuidOf = (request: { params: unknown }) => (request.params as { uuid: string }).uuid;
  app.get(
    '/portal/sim-orders/:uuid',
    {
      config: ORDERS,
      schema: { tags, summary: 'One order with its price, slots, reservation and timeline', params: uuidParams(), response: { 200: orderDetailSchema } },
    },
    async (request) => detail(principalOf(request), { uuid: uuidOf(request) }),
  );
  app.get(
    '/portal/sim-orders/:uuid/admin',
    {
      config: ADMIN,
      schema: { tags, summary: 'One order as the administrator sees it (with key downloads)', params: uuidParams(), response: { 200: orderDetailSchema } },
    },
    async (request) => detail(principalOf(request), { uuid: uuidOf(request) }),
  );
  app.get(
    '/portal/admin/order/:id',
    { config: ADMIN, schema: { tags, summary: 'One order by its number', params: idParams(), response: { 200: orderDetailSchema } } },
    async (request) => detail(principalOf(request), { id: (request.params as { id: number }).id }),
  );
  app.get(
    '/portal/sim-orders/:uuid/slots',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: "The order's slots: sponsor and allocated IMSI range of each",
        params: uuidParams(),
        response: { 200: { type: 'array', items: slotSchema } },
      },
    },
    async (request) => orderSlots(await visibleOrder(db, principalOf(request), { uuid: uuidOf(request) })),
  );

  // Reviews.
  const reasonOf = (body: unknown) => (body as { reason?: string } | undefined)?.reason?.trim() || null;
  app.post(
    '/portal/sim-orders/:uuid/financial-approval/:approved',
    {
      config: ORDERS,
      schema: {
        tags,
        summary:
          "The financial review of a submitted order (true approves, false denies with a reason and releases the hold); with four eyes, not by the order's submitter",
        params: approvedParams,
        body: reasonBody,
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      resellerUser(principal);
      const { approved } = request.params as { approved: boolean };
      const reason = reasonOf(request.body);
      if (!approved && !reason) throw bad('reason', 'required', 'order.reason.required');
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      assertAllowed(approved ? 'approveFinancial' : 'denyFinancial', o.status, TRANSITIONS.approveFinancial.from);
      if ((await fourEyesOf(o.resellerId)) && o.createdBy === principal.userId)
        throw new HttpError(403, 'FOUR_EYES', 'order.fourEyes', [fieldError('approvedBy', 'fourEyes', 'order.fourEyes')]);
      await db.transaction().execute((trx) =>
        transition(trx, o.id, approved ? 'approveFinancial' : 'denyFinancial', principal, {
          reason,
          set: { financialReview: approved ? 'approved' : 'denied' },
        }),
      );
      return detail(principal, { id: o.id });
    },
  );

  app.post(
    '/portal/sim-orders/:uuid/admin/technical-approval/:approved',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'The technical review of a financially approved order (false denies with a reason and releases the hold)',
        params: approvedParams,
        body: reasonBody,
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { approved } = request.params as { approved: boolean };
      const reason = reasonOf(request.body);
      if (!approved && !reason) throw bad('reason', 'required', 'order.reason.required');
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      await db.transaction().execute((trx) =>
        transition(trx, o.id, approved ? 'approveTechnical' : 'denyTechnical', principal, {
          reason,
          set: { technicalReview: approved ? 'approved' : 'denied' },
        }),
      );
      return detail(principal, { id: o.id });
    },
  );

  app.post(
    '/portal/sim-orders/:uuid/cancel',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'Cancels an order not yet placed with the vendor (releases its hold); a reason is required',
        params: uuidParams(),
        body: reasonBody,
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      resellerUser(principal);
      const reason = reasonOf(request.body);
      if (!reason) throw bad('reason', 'required', 'order.reason.required');
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      await db.transaction().execute((trx) => transition(trx, o.id, 'cancel', principal, { reason }));
      return detail(principal, { id: o.id });
    },
  );

  // Resources (the ranges themselves: ranges.ts).
  app.get(
    '/portal/sim-orders/:uuid/admin/available-resources',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: "Ranges that could serve the order: IMSI ranges of its sponsors, ICCID ranges of its provider, MSISDN ranges of slot 1's sponsor",
        params: uuidParams(),
        response: {
          200: {
            type: 'object',
            required: ['amount', 'imsi', 'iccid', 'msisdn'],
            properties: {
              amount: { type: 'integer' },
              imsi: { type: 'array', items: rangeSchema },
              iccid: { type: 'array', items: rangeSchema },
              msisdn: { type: 'array', items: rangeSchema },
            },
          },
        },
      },
    },
    async (request) => {
      const o = await visibleOrder(db, principalOf(request), { uuid: uuidOf(request) });
      const sponsors = o.sponsorIds;
      const { rows } = await sql<RangeRow>`${RANGE_SELECT}
        where rr.retired_at is null and ((rr.kind in ('imsi', 'msisdn') and rr.sponsor_id = any(${sql.val(sponsors)}::int[]))
          or (rr.kind = 'iccid' and (rr.provider_id = ${o.providerId} or rr.provider_id is null)))
        order by rr.kind, rr.id`.execute(db);
      const of = (kind: string) => rows.filter((r) => r.kind === kind).map(rangeView);
      return { amount: o.amount, imsi: of('imsi'), iccid: of('iccid'), msisdn: of('msisdn') };
    },
  );

  /** Takes `amount` numbers from the first range matching `where` with that many free; undefined when none has. */
  async function take(trx: Kysely<Database>, where: ReturnType<typeof sql>, amount: number) {
    const { rows } = await sql<{ id: number; nextValue: string }>`select id, next_value::text as next_value from sim_resource_range rr
      where ${where} and rr.retired_at is null and rr.last_value - rr.next_value + 1 >= ${amount} order by rr.id limit 1 for update`.execute(trx);
    if (!rows[0]) return undefined;
    await sql`update sim_resource_range set next_value = next_value + ${amount} where id = ${rows[0].id}`.execute(trx);
    return rows[0].nextValue;
  }

  app.post(
    '/portal/sim-orders/:uuid/admin/resources',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          'Allocates a technically approved order: an IMSI range per slot from its sponsor (slot 1 required; the custom range when the order has one), an ICCID range, and MSISDNs when a range of slot 1’s sponsor has them',
        params: uuidParams(),
        body: resourcesBody,
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as { slots: { slot: number; sponsorId: number }[] };
      if (!body.slots.some((s) => s.slot === 1)) throw bad('slots', 'slot1', 'order.resources.slot1Required');
      const numbers = body.slots.map((s) => s.slot);
      if (new Set(numbers).size !== numbers.length) throw bad('slots', 'uniqueItems', 'order.slots.invalid');
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      assertAllowed('allocate', o.status, TRANSITIONS.allocate.from);
      body.slots.forEach((s, i) => {
        if (s.slot > o.slots) throw bad(`slots[${i}].slot`, 'range', 'order.slots.invalid');
      });
      const known = await db
        .selectFrom('sponsor')
        .select('id')
        .where(
          'id',
          'in',
          body.slots.map((s) => s.sponsorId),
        )
        .execute();
      body.slots.forEach((s, i) => {
        if (!known.some((k) => k.id === s.sponsorId)) throw bad(`slots[${i}].sponsorId`, 'reference', 'order.sponsor.unknown');
      });
      await db.transaction().execute(async (trx) => {
        const sorted = [...body.slots].sort((a, b) => a.slot - b.slot);
        const allocated: { slot: number; sponsorId: number; imsiFrom: string; imsiTo: string }[] = [];
        for (const s of sorted) {
          const index = body.slots.indexOf(s);
          let first: string | undefined;
          if (s.slot === 1 && o.customImsiFrom) first = o.customImsiFrom;
          else first = await take(trx, sql`rr.kind = 'imsi' and rr.sponsor_id = ${s.sponsorId}`, o.amount);
          if (first === undefined) throw refused(`slots[${index}].sponsorId`, 'noResource', 'order.resources.none');
          const imsiFrom = first.padStart(15, '0');
          allocated.push({ slot: s.slot, sponsorId: s.sponsorId, imsiFrom, imsiTo: (BigInt(imsiFrom) + BigInt(o.amount - 1)).toString().padStart(15, '0') });
        }
        const iccid = await take(trx, sql`rr.kind = 'iccid' and (rr.provider_id = ${o.providerId} or rr.provider_id is null)`, o.amount);
        if (iccid === undefined) throw refused('iccid', 'noRange', 'order.resources.noIccid');
        const body18 = iccid.padStart(18, '0');
        const lastBody = (BigInt(body18) + BigInt(o.amount - 1)).toString().padStart(18, '0');
        const slot1 = allocated[0];
        const msisdn = await take(trx, sql`rr.kind = 'msisdn' and rr.sponsor_id = ${slot1.sponsorId}`, o.amount);
        await trx
          .insertInto('simOrderSlot')
          .values(allocated.map((a) => ({ orderId: o.id, ...a })))
          .execute();
        await transition(trx, o.id, 'allocate', principal, {
          set: {
            resourceAllocation: true,
            imsiFrom: slot1.imsiFrom,
            imsiTo: slot1.imsiTo,
            iccidFrom: iccidAt(body18, 0),
            iccidTo: lastBody + luhnDigit(lastBody),
            msisdnFrom: msisdn ?? null,
            msisdnTo: msisdn ? (BigInt(msisdn) + BigInt(o.amount - 1)).toString() : null,
          },
        });
      });
      return detail(principal, { id: o.id });
    },
  );

  // Discounts.
  type Discount = { description?: string; rate?: number; value?: number };
  const checkDiscount = (d: Discount) => {
    if ((d.rate === undefined) === (d.value === undefined)) throw bad('rate', 'oneOf', 'order.discount.oneOf');
  };
  app.post(
    '/portal/sim-orders/:uuid/admin/discounts/calculate',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: "The order's price with a discount (rate in percent, or value), nothing saved",
        params: uuidParams(),
        body: discountBody,
        response: { 200: priceSchema },
      },
    },
    async (request) => {
      const d = request.body as Discount;
      checkDiscount(d);
      return repriced(await visibleOrder(db, principalOf(request), { uuid: uuidOf(request) }), d);
    },
  );
  app.post(
    '/portal/sim-orders/:uuid/admin/discounts',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Gives an order not yet placed a discount (replacing the volume discount); the hold follows the new total',
        params: uuidParams(),
        body: discountBody,
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const d = request.body as Discount;
      checkDiscount(d);
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      await db.transaction().execute(async (trx) => {
        const locked = await trx.selectFrom('simOrder').select(['status', 'holdId']).where('id', '=', o.id).forUpdate().executeTakeFirstOrThrow();
        assertAllowed('discount', locked.status, OPEN_STATES);
        const price = repriced(o, d);
        await trx
          .updateTable('simOrder')
          .set({
            discountDescription: price.discount.description,
            discountRate: String(price.discount.rate),
            discountValue: price.discount.value.toFixed(2),
            total: price.total.toFixed(2),
          })
          .where('id', '=', o.id)
          .execute();
        if (locked.holdId !== null) await resizeHold(trx, locked.holdId, toUsd(price.total, await ratePerUsd(trx, o.currency)), 'total');
        const what = d.rate !== undefined ? `${d.rate}%` : `${d.value} ${o.currency}`;
        await recordEvent(trx, o.id, principal, 'discount', { reason: [d.description, what].filter(Boolean).join(': ') });
      });
      return detail(principal, { id: o.id });
    },
  );

  // Placing with the vendor, keys, delivery.
  app.get(
    '/portal/sim-orders/:uuid/admin/order',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Places an allocated order with the SIM vendor; the batch file it answers (with the SIMs’ keys) is kept encrypted',
        params: uuidParams(),
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      assertAllowed('place', o.status, TRANSITIONS.place.from);
      const slots = await orderSlots(o);
      let answer;
      try {
        answer = await vendor.place({
          uuid: o.uuid,
          batchName: o.batchName,
          simType: o.simType,
          simSize: o.simSize,
          amount: o.amount,
          iccidFrom: o.iccidFrom ?? '',
          msisdnFrom: o.msisdnFrom,
          slots: slots.map((s) => ({ slot: s.slot, imsiFrom: s.imsiFrom! })),
          efConfig: o.efConfig,
          profileName: o.profileName ?? null,
        });
      } catch (e) {
        request.log.warn({ err: e, order: o.uuid }, 'the SIM vendor refused the order');
        throw refused('vendor', 'vendorFailed', 'order.vendor.failed');
      }
      const key = await keyOf();
      await db.transaction().execute(async (trx) => {
        await transition(trx, o.id, 'place', principal, { set: { vendor: vendor.name, vendorReference: answer.reference } });
        await storeKeyFile(trx, key, o.id, o.uuid, batchFileLines(answer.sims, o.slots));
      });
      return detail(principal, { id: o.id });
    },
  );

  app.get(
    '/portal/sim-orders/:uuid/admin/keys',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          "The SIMs' secret keys (the vendor's batch file, CSV), decrypted and streamed chunk by chunk once every chunk has been authenticated; every download is recorded, and a damaged file is refused (409 KEYS_DAMAGED) without sending any of it",
        params: uuidParams(),
      },
    },
    async (request, reply: FastifyReply) => {
      const principal = principalOf(request);
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      const head = await keyFileHead(db, o.id);
      if (!head) throw refused('status', 'keys', 'order.keys.none');
      const key = await keyOf();
      try {
        await verifyKeyFile(db, key, o.id, o.uuid, head);
      } catch (e) {
        if (!(e instanceof KeyFileDamaged)) throw e;
        request.log.error({ order: o.uuid, user: principal.username, reason: e.message }, 'SIM key file failed its integrity check; nothing sent');
        await recordEvent(db, o.id, principal, 'keysRefused');
        throw new HttpError(409, 'KEYS_DAMAGED', 'order.keys.damaged', [fieldError('keys', 'integrity', 'order.keys.damaged')]);
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('simOrderKeyDownload').values({ orderId: o.id, userId: principal.userId, username: principal.username }).execute();
        await recordEvent(trx, o.id, principal, 'keysDownloaded');
      });
      request.log.info({ order: o.uuid, user: principal.username }, 'SIM keys downloaded');
      const body = keyFileStream(db, key, o.id, o.uuid, head);
      // Changed between the check and the sending (it never is, short of tampering): the reply is cut off, unfinished.
      body.on('error', (e) => request.log.error({ order: o.uuid, err: e }, 'SIM key file stream failed; the download was cut off'));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="keys-${o.batchName.replace(/[^\w.-]/g, '_')}.csv"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  app.post(
    '/portal/sim-orders/:uuid/deliver',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: "Marks a placed order delivered: its hold is charged on the ledger and its SIMs enter the reseller's inventory as one batch",
        params: uuidParams(),
        response: { 200: orderDetailSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const o = await visibleOrder(db, principal, { uuid: uuidOf(request) });
      await db.transaction().execute(async (trx) => {
        const hold = o.holdId === null ? undefined : await trx.selectFrom('creditHold').select('amount').where('id', '=', o.holdId).executeTakeFirst();
        await transition(trx, o.id, 'deliver', principal, { set: { deliveredAt: new Date() } });
        await addOrderSimsToInventory(trx, o, String(hold?.amount ?? '0'), principal.userId);
      });
      return detail(principal, { id: o.id });
    },
  );

  // Four eyes.
  const settingSchema = {
    type: 'object',
    required: ['resellerId', 'fourEyes'],
    properties: {
      resellerId: { type: 'integer' },
      fourEyes: { type: 'boolean', description: "Financial approval by a user other than the order's submitter" },
    },
  };
  app.get(
    '/portal/sim-order-settings/:resellerId',
    {
      config: ORDERS,
      schema: { tags, summary: "A reseller's order settings", params: idParams('resellerId', { min: INT_MIN }), response: { 200: settingSchema } },
    },
    async (request) => {
      const resellerId = await resellerInSubtree(db, principalOf(request), (request.params as { resellerId: number }).resellerId);
      return { resellerId, fourEyes: await fourEyesOf(resellerId) };
    },
  );
  app.put(
    '/portal/sim-order-settings/:resellerId',
    {
      config: { privilege: 'Resellers' },
      schema: {
        tags,
        summary: "Sets a reseller's order settings (the administrator, or a user with Resellers of the reseller or one above it)",
        params: idParams('resellerId', { min: INT_MIN }),
        body: objectBody({ fourEyes: { type: 'boolean', errorMessage: 'validation.invalid' } }, ['fourEyes']),
        response: { 200: settingSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      resellerUser(principal);
      const resellerId = await resellerInSubtree(db, principal, (request.params as { resellerId: number }).resellerId);
      const { fourEyes } = request.body as { fourEyes: boolean };
      await db
        .insertInto('simOrderSetting')
        .values({ resellerId, fourEyes })
        .onConflict((oc) => oc.column('resellerId').doUpdateSet({ fourEyes }))
        .execute();
      return { resellerId, fourEyes };
    },
  );
});
