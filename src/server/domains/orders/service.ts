/**
 * Reading SIM orders as the caller may see them, and the shapes they leave the server in. A reseller's users see the
 * orders of their reseller and of every reseller below it; the administrator sees all; another tenant's order is 404.
 */
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { priceOrder, type OrderCurrency, type OrderStatus, type SimSize } from '@shared/orders';
import type { Database } from '../../db/types';
import type { SimOrder } from '../../db/types.gen';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { resellerVisibility } from '../../http/tenancy';
import { addSimBatch, type SimType } from '../inventory/batches';
import { FINAL_STATES, OPEN_STATES, TRANSITIONS } from './machine';

/** The columns of an order row with its provider, profile and reseller names. */
export const ORDER_SELECT = sql`select o.*, r.name as reseller_name, r.path as reseller_path, p.name as provider_name,
  pp.name as profile_name, (o.artwork_id is not null) as has_artwork
  from sim_order o join reseller r on r.id = o.reseller_id join sim_provider p on p.id = o.provider_id
  left join provider_profile pp on pp.id = o.provider_profile_id`;

/**
 * The columns of the order table's rows (`rowView`) and what they are read from: the page's keys come first (see the
 * list in plugin.ts), then these for the page's rows only.
 */
export const ORDER_LIST_COLUMNS = sql`o.id, o.uuid, o.reseller_id, r.name as reseller_name, o.batch_name, o.total, o.currency,
  o.amount, p.name as provider_name, o.order_date, o.status, o.sim_type, o.sim_size, o.financial_review, o.technical_review,
  o.resource_allocation, (o.artwork_id is not null) as has_artwork, pp.name as profile_name, o.service_provider_name,
  o.msisdn_from, o.msisdn_to, o.imsi_from, o.imsi_to, o.iccid_from, o.iccid_to`;
export const ORDER_LIST_FROM = sql`from sim_order o join reseller r on r.id = o.reseller_id join sim_provider p on p.id = o.provider_id
  left join provider_profile pp on pp.id = o.provider_profile_id`;

/** An order row of ORDER_SELECT (keys camel-cased by the database layer). */
export type OrderRow = Omit<Selectable<SimOrder>, 'status' | 'currency' | 'sponsorIds'> & {
  status: OrderStatus;
  currency: OrderCurrency;
  sponsorIds: number[];
  resellerName: string;
  resellerPath: string;
  providerName: string;
  profileName: string | null;
  hasArtwork: boolean;
};

/** The condition of the orders the caller sees (none for the administrator). */
export function orderVisibility(principal: Principal): RawBuilder<SqlBool> | undefined {
  return resellerVisibility(principal, { id: 'r.id', path: 'r.path' });
}

/** An order the caller sees, by uuid or id; 404 otherwise. */
export async function visibleOrder(db: Kysely<Database>, principal: Principal, key: { uuid?: string; id?: number }): Promise<OrderRow> {
  const visible = orderVisibility(principal);
  const where = key.uuid !== undefined ? sql`o.uuid = ${key.uuid}` : sql`o.id = ${key.id}`;
  const { rows } = await sql<OrderRow>`${ORDER_SELECT} where ${where} ${visible ? sql`and ${visible}` : sql``}`.execute(db);
  if (!rows[0]) throw notFound();
  return rows[0];
}

const range = (from: string | null, to: string | null) => (from && to ? `${from}-${to}` : null);

/** A row of ORDER_LIST_COLUMNS. */
export type OrderListRow = Pick<
  OrderRow,
  | 'id'
  | 'uuid'
  | 'resellerId'
  | 'resellerName'
  | 'batchName'
  | 'total'
  | 'currency'
  | 'amount'
  | 'providerName'
  | 'orderDate'
  | 'status'
  | 'simType'
  | 'simSize'
  | 'financialReview'
  | 'technicalReview'
  | 'resourceAllocation'
  | 'hasArtwork'
  | 'profileName'
  | 'serviceProviderName'
  | 'msisdnFrom'
  | 'msisdnTo'
  | 'imsiFrom'
  | 'imsiTo'
  | 'iccidFrom'
  | 'iccidTo'
>;

/** A list row: the columns of the order table. */
export function rowView(o: OrderListRow) {
  return {
    id: o.id,
    uuid: o.uuid,
    resellerId: o.resellerId,
    resellerName: o.resellerName,
    batchName: o.batchName,
    totalCost: Number(o.total),
    currency: o.currency,
    amount: o.amount,
    simProvider: o.providerName,
    orderDate: new Date(o.orderDate).toISOString(),
    orderStatus: o.status,
    simType: o.simType,
    simSize: o.simSize,
    financialReview: o.financialReview,
    technicalReview: o.technicalReview,
    resourceAllocation: o.resourceAllocation,
    artwork: o.hasArtwork,
    profile: o.profileName ?? o.serviceProviderName ?? null,
    msisdnRange: range(o.msisdnFrom, o.msisdnTo),
    imsiRange: range(o.imsiFrom, o.imsiTo),
    iccidRange: range(o.iccidFrom, o.iccidTo),
  };
}

/** The order's price breakdown as stored. */
export function storedPrice(o: OrderRow) {
  const n = (v: unknown) => Number(v);
  const subtotal = n(o.totalUnitPrice) + n(o.additionalSlotCharge) + n(o.artworkCharge) + n(o.feeBelowMoq);
  return {
    currency: o.currency,
    unitPrice: n(o.unitPrice),
    totalUnitPrice: n(o.totalUnitPrice),
    additionalSlotCharge: n(o.additionalSlotCharge),
    artworkCharge: n(o.artworkCharge),
    feeBelowMoq: n(o.feeBelowMoq),
    moq: o.moq,
    subtotal: Math.round(subtotal * 100) / 100,
    discount: { description: o.discountDescription, rate: n(o.discountRate), value: n(o.discountValue) },
    total: n(o.total),
  };
}

/** The order's price again, with `discount` replacing its own (the administrator's discount calls). */
export function repriced(o: OrderRow, discount: { description?: string; rate?: number; value?: number }) {
  return priceOrder({
    simSize: o.simSize as SimSize,
    amount: o.amount,
    slots: o.slots,
    artwork: o.artworkId !== null,
    currency: o.currency,
    discount,
  });
}

/**
 * What the caller may do with the order in its state. Under four eyes (`fourEyes`, the reseller's setting) the
 * financial review is not offered to the user who submitted the order, as the server would refuse it.
 */
export function actionsFor(o: OrderRow, principal: Principal, fourEyes = false): string[] {
  const out: string[] = [];
  const may = (action: keyof typeof TRANSITIONS) => TRANSITIONS[action].from.includes(o.status);
  if (may('approveFinancial') && !(fourEyes && o.createdBy === principal.userId)) out.push('financialApproval');
  if (principal.isAdmin) {
    if (may('approveTechnical')) out.push('technicalApproval');
    if (may('allocate')) out.push('allocate');
    if (OPEN_STATES.includes(o.status)) out.push('discount');
    if (may('place')) out.push('place');
    if (may('deliver')) out.push('deliver');
    if (o.status === 'placed' || o.status === 'delivered') out.push('keys');
  }
  if (may('cancel') && !FINAL_STATES.includes(o.status)) out.push('cancel');
  return out;
}

/** Exchange rate of a currency against the US dollar (units per dollar): the latest stored. */
export async function ratePerUsd(db: Kysely<Database>, currency: string): Promise<number> {
  if (currency === 'USD') return 1;
  const row = await db.selectFrom('exchangeRate').select('rate').where('currency', '=', currency).orderBy('asOf', 'desc').executeTakeFirst();
  if (!row) throw notFound();
  return Number(row.rate);
}

/** An amount of the order's currency in US dollars (the ledger's currency), as exact decimal text. */
export const toUsd = (amount: number, rate: number) => (Math.round((amount / rate) * 100) / 100).toFixed(2);

/**
 * Puts a delivered order's SIMs into the reseller's inventory as one batch through the inventory domain
 * (`addSimBatch`): its allocated ICCID range, in stock, each card costing its share of the charged total and carrying
 * its allocated IMSI (slot 1's, the subscriber's IMSI) and MSISDN, as the keys file lists them. The batch
 * takes the order's batch name, or, when the reseller has a batch of that name already, the name with the order's
 * short id.
 */
export async function addOrderSimsToInventory(trx: Kysely<Database>, o: OrderRow, chargedUsd: string, userId: number) {
  const taken = await trx
    .selectFrom('simBatch')
    .select('id')
    .where('resellerId', '=', o.resellerId)
    .where(sql<boolean>`lower(name) = lower(${o.batchName})`)
    .executeTakeFirst();
  return addSimBatch(trx, {
    resellerId: o.resellerId,
    name: taken ? `${o.batchName.slice(0, 38)} (${o.uuid.slice(0, 8)})` : o.batchName,
    iccidStart: o.iccidFrom,
    quantity: o.amount,
    simType: o.simType as SimType,
    profileType: o.profileName ?? (o.slots > 1 ? `multi-IMSI (${o.slots})` : 'single IMSI'),
    cost: (Number(chargedUsd) / o.amount).toFixed(2),
    serviceProviderName: o.serviceProviderName ?? o.providerName,
    imsiStart: o.imsiFrom,
    msisdnStart: o.msisdnFrom,
    orderUuid: o.uuid,
    userId,
  });
}
