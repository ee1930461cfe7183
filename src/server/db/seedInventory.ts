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

/** The demo inventory: the seeded cards' batches and a few batches of unassigned cards per reseller. */
export async function seedInventory(db: Kysely<Database>) {
  await batchLooseCards(db);
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
