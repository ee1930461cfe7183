import { sql, type Kysely } from 'kysely';
import { expireDue, writeSale } from '../domains/prepaid/sale';
import type { Database } from './types';

/** One subscriber in this many bought a package over the demo's year. */
const ONE_IN = 50;
/** The demo's sales leave each reseller at least this share of its opening balance. */
const KEPT_SHARE = 0.2;
const DAY_MS = 86_400_000;
/** The demo's history starts this long before the seed: the resellers' opening balances are dated then. */
const DEMO_HISTORY_DAYS = 366;

/** When the demo's resellers opened their balances, a year and a day before the sales (ISO time). */
export const demoOpenedAt = () => new Date(Date.now() - DEMO_HISTORY_DAYS * DAY_MS).toISOString();

/**
 * The demo's package sales: one subscriber in fifty bought a package offered to it (a template of its reseller or of
 * one above it) on a day of the last year, written as the packages panel writes a purchase (the package, the ledger's
 * debit, the rollups of the sales graphs) in the order they happened, dated then. A reseller sells no more than keeps
 * its balance at a fifth of its opening or more, so every debit is covered and the balance history reads true.
 * Packages whose period has run out read as expired, as a list would show them.
 */
export async function seedSales(db: Kysely<Database>): Promise<void> {
  if (await db.selectFrom('prepaidPackage').select('id').limit(1).executeTakeFirst()) return;
  const templates = await db
    .selectFrom('prepaidTemplate as t')
    .innerJoin('reseller as r', 'r.id', 't.resellerId')
    .selectAll('t')
    .select('r.path as resellerPath')
    .orderBy('t.id')
    .execute();
  const buyers = await db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .select(['s.subscriberId', 's.resellerId', 's.accountId', 'r.path'])
    .where(sql<boolean>`s.subscriber_id % ${sql.lit(ONE_IN)} = 7`)
    .orderBy('s.subscriberId')
    .execute();
  // Each reseller's sales are made by its own manager (its first user not narrowed to an account).
  const sellers = new Map<number, { id: number; username: string }>();
  for (const u of await db.selectFrom('appUser').select(['id', 'username', 'resellerId']).where('accountId', 'is', null).orderBy('id', 'desc').execute()) {
    sellers.set(u.resellerId, u);
  }
  const openings = await db.selectFrom('ledgerEntry').select(['resellerId', 'amount']).where('kind', '=', 'opening').execute();
  const floor = new Map(openings.map((o) => [o.resellerId, Number(o.amount) * KEPT_SHARE]));
  const balance = new Map(openings.map((o) => [o.resellerId, Number(o.amount)]));
  const now = Date.now();
  // Which sales a reseller's balance allows is decided in the buyers' order (their days spread over the year), so the
  // sales thin out evenly across the year rather than stop once the budget is spent; they are written by date.
  const sales: { buyer: (typeof buyers)[number]; template: (typeof templates)[number]; seller: { id: number; username: string }; at: number }[] = [];
  for (const buyer of buyers) {
    const offered = templates.filter((t) => buyer.path.startsWith(String(t.resellerPath)));
    const template = offered[Math.floor(buyer.subscriberId / ONE_IN) % Math.max(offered.length, 1)];
    const seller = sellers.get(buyer.resellerId);
    if (!template || !seller) continue;
    const after = (balance.get(buyer.resellerId) ?? 0) - Number(template.price);
    if (after < (floor.get(buyer.resellerId) ?? Infinity)) continue;
    balance.set(buyer.resellerId, after);
    // A day of the last year and an hour of it, never in the last hour.
    const at = now - ((buyer.subscriberId * 7919) % 365) * DAY_MS - (1 + ((buyer.subscriberId * 31) % 23)) * 3_600_000;
    sales.push({ buyer, template, seller, at });
  }
  sales.sort((a, b) => a.at - b.at);
  await db.transaction().execute(async (trx) => {
    for (const { buyer, template, seller, at } of sales) {
      await writeSale(trx, { subscriber: buyer, template, kind: 'purchase', soldBy: seller.username, userId: seller.id, at: new Date(at).toISOString() });
    }
    await expireDue(trx);
  });
}
