import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { resellerVisibility } from '../../http/tenancy';

/** The resellers the caller sees (`resellerVisibility`: the tree rule). */
export function visibleResellers(db: Kysely<Database>, principal: Principal) {
  const q = db.selectFrom('reseller');
  const visible = resellerVisibility(principal, { id: 'reseller.id', path: 'reseller.path' });
  return visible ? q.where(visible) : q;
}

/** The reseller `id` if the caller sees it (`visibleResellers`), else 404. */
export async function resellerInSubtree(db: Kysely<Database>, principal: Principal, id: number): Promise<number> {
  const row = await visibleResellers(db, principal).select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row.id;
}
