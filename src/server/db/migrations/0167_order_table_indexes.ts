import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the order table's pages (`POST /portal/sim-orders`, `/admin`): each serves a list's filter and order
 * as (…, column, id), so a page is a walk of its index (and a keyset page, `page.after`, a seek into it) instead of
 * a sort of every matching order. The key's own order and a reseller's (reseller_id, id) are served already.
 * The grid's never-empty columns are ordered without `nulls last` (see the list), so one index serves both
 * directions of a sort.
 */
export async function up(db: Kysely<any>) {
  // A state (and a SIM type), newest first or by total: the administrator's usual filters.
  await sql`create index sim_order_status_idx on sim_order (status, sim_type, id)`.execute(db);
  await sql`create index sim_order_status_total_idx on sim_order (status, sim_type, total, id)`.execute(db);
  // Sorted by total or by date over every order.
  await sql`create index sim_order_total_idx on sim_order (total, id)`.execute(db);
  await sql`create index sim_order_date_idx on sim_order (order_date, id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const name of ['sim_order_status_idx', 'sim_order_status_total_idx', 'sim_order_total_idx', 'sim_order_date_idx'])
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
