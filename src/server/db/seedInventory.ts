import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { sql, type Kysely } from 'kysely';
import { addSimBatch } from '../domains/inventory/batches';
import type { Database } from './types';

/** Cards written without a batch id (the demo subscribers' SIMs) gathered into one batch per reseller and batch name. */
export async function batchLooseCards(db: Kysely<Database>) {
  await sql`insert into sim_batch (name, reseller_id, sim_type, iccid_start, iccid_end, quantity, service_provider_name, profile_type, cost, created_at)
    select coalesce(batch, 'Unbatched'), reseller_id, min(sim_type), min(iccid), max(iccid), count(*)::int, min(service_provider_name), min(profile_type), min(cost), min(status_date)
    from sim_card where batch_id is null group by reseller_id, coalesce(batch, 'Unbatched') order by min(iccid)`.execute(db);
  await sql`update sim_card c set batch_id = b.id from sim_batch b
    where c.batch_id is null and b.reseller_id = c.reseller_id and b.name = coalesce(c.batch, 'Unbatched')`.execute(db);
}

/** SIM cards in the demo resellers' inventories, ready to be assigned to accounts. */
const DEMO_BATCHES: { reseller: string; name: string; quantity: number; simType: 'physical' | 'esim'; profileType: string; cost: string }[] = [
  { reseller: 'Northwind Mobile', name: 'NW-2026-01', quantity: 500, simType: 'physical', profileType: 'M2M', cost: '2.50' },
  { reseller: 'Northwind Mobile', name: 'NW-eSIM-2026-01', quantity: 200, simType: 'esim', profileType: 'consumer', cost: '1.20' },
  { reseller: 'Northwind IoT', name: 'NWIOT-2026-01', quantity: 300, simType: 'physical', profileType: 'M2M', cost: '2.10' },
  { reseller: 'Blue Sky Telecom', name: 'BST-2026-01', quantity: 400, simType: 'physical', profileType: 'M2M', cost: '2.40' },
];

/** Number suppliers and the demo resellers' blocks of numbers: the first digits and how many numbers follow them. */
const DEMO_SUPPLIERS: { name: string; country: string }[] = [
  { name: 'Telia Carrier Numbering', country: 'SE' },
  { name: 'KPN Wholesale', country: 'NL' },
  { name: 'Telekom Deutschland Wholesale', country: 'DE' },
  { name: 'Bandwidth Numbers', country: 'US' },
];
const DEMO_BLOCKS: { reseller: string; supplier: string; country: string; prefix: string; first: number; count: number; width: number }[] = [
  // Sweden's range for fiction and examples (070-1740605 to 070-1740699).
  { reseller: 'Northwind Mobile', supplier: 'Telia Carrier Numbering', country: 'SE', prefix: '4670174', first: 605, count: 95, width: 4 },
  { reseller: 'Northwind Mobile', supplier: 'KPN Wholesale', country: 'NL', prefix: '316400', first: 1000, count: 60, width: 5 },
  { reseller: 'Northwind IoT', supplier: 'Telekom Deutschland Wholesale', country: 'DE', prefix: '4915100', first: 100, count: 50, width: 6 },
  // North America's 555-01XX numbers for fiction.
  { reseller: 'Blue Sky Telecom', supplier: 'Bandwidth Numbers', country: 'US', prefix: '12025550', first: 100, count: 100, width: 3 },
  { reseller: 'Blue Sky Telecom', supplier: 'Bandwidth Numbers', country: 'US', prefix: '14155550', first: 100, count: 100, width: 3 },
];

/** The demo MSISDN pool: E.164 numbers (digits without the plus) that libphonenumber-js takes for valid mobile numbers. */
export async function seedMsisdnPool(db: Kysely<Database>) {
  if (await db.selectFrom('msisdnSupplier').select('id').limit(1).executeTakeFirst()) return;
  const resellers = new Map((await db.selectFrom('reseller').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const suppliers = new Map((await db.insertInto('msisdnSupplier').values(DEMO_SUPPLIERS).returning(['id', 'name']).execute()).map((s) => [s.name, s.id]));
  const rows = DEMO_BLOCKS.flatMap((b) => {
    const resellerId = resellers.get(b.reseller);
    if (resellerId === undefined) return [];
    return Array.from({ length: b.count }, (_, i) => `${b.prefix}${String(b.first + i).padStart(b.width, '0')}`)
      .filter((msisdn) => isValidPhoneNumber(`+${msisdn}`))
      .map((msisdn) => ({ msisdn, country: b.country, supplierId: suppliers.get(b.supplier)!, resellerId }));
  });
  if (rows.length) await db.insertInto('msisdnPool').values(rows).execute();
}

/** Earlier devices of every tenth demo subscriber with a device: its SIM moved to the device it is in now. */
export async function seedImeiChanges(db: Kysely<Database>) {
  if (await db.selectFrom('imeiChange').select('id').limit(1).executeTakeFirst()) return;
  await sql`insert into imei_change (subscriber_id, iccid, imei, previous_imei, at)
    select subscriber_id, iccid, imei, p.body || luhn_digit(p.body), now() - make_interval(days => 3 + subscriber_id % 40)
    from subscriber, lateral (select (case when subscriber_id % 20 = 0 then '86762504' else '35226611' end)
      || lpad((subscriber_id * 7919 % 1000000)::text, 6, '0') as body) p
    where imei is not null and subscriber_id % 10 = 0`.execute(db);
}

/** The demo inventory: the seeded cards' batches, a few batches of unassigned cards per reseller, the MSISDN pool and device history. */
export async function seedInventory(db: Kysely<Database>) {
  await batchLooseCards(db);
  await seedMsisdnPool(db);
  await seedImeiChanges(db);
  if (await db.selectFrom('simCard').select('iccid').where('status', '=', 'inventory').limit(1).executeTakeFirst()) return;
  const resellers = new Map((await db.selectFrom('reseller').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  await db.transaction().execute(async (trx) => {
    for (const b of DEMO_BATCHES) {
      const resellerId = resellers.get(b.reseller);
      if (resellerId === undefined) continue;
      await addSimBatch(trx, { ...b, resellerId, serviceProviderName: 'Connectivity Provider', userId: null });
    }
  });
}
