/**
 * Credit holds: an amount of a reseller's available credit set aside for a purchase that is charged later (a SIM
 * order from submission to delivery). Available credit is the credit limit plus the balance less every open hold;
 * a hold the credit cannot cover is refused, and every purchase the ledger posts with `mustCover` counts open holds
 * too. A hold ends released (nothing charged) or charged (one ledger movement of its amount).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { conflict, fieldError } from '../../http/errors';
import { post } from '.';

/** The reseller's available credit less its open holds, as exact decimal text; locks the reseller row for the transaction. */
export async function availableForHold(trx: Kysely<Database>, resellerId: number): Promise<string> {
  await sql`select id from reseller where id = ${resellerId} for no key update`.execute(trx);
  const { rows } = await sql<{ available: string }>`
    select (coalesce((select credit_limit from reseller_standing where reseller_id = ${resellerId}), 0)
      + coalesce((select balance_after from ledger_entry where reseller_id = ${resellerId} order by id desc limit 1), 0)
      - (select coalesce(sum(amount), 0) from credit_hold where reseller_id = ${resellerId} and state = 'held'))::numeric(14, 2)::text as available`.execute(
    trx,
  );
  return rows[0].available;
}

/**
 * Sets `amount` (exact decimal text, US dollars) aside for `reference`, inside the caller's transaction; refused with
 * 409 naming `field` (rule `insufficientCredit`) when the reseller's available credit is short.
 */
export async function holdCredit(trx: Kysely<Database>, resellerId: number, amount: string, reference: string, field: string): Promise<number> {
  const available = await availableForHold(trx, resellerId);
  if (Number(amount) > Number(available)) throw conflict([fieldError(field, 'insufficientCredit', 'ledger.insufficientCredit')]);
  const row = await trx.insertInto('creditHold').values({ resellerId, amount, reference }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Changes an open hold's amount (a discount lowered the total); a raise must still be covered. */
export async function resizeHold(trx: Kysely<Database>, holdId: number, amount: string, field: string) {
  const hold = await trx.selectFrom('creditHold').select(['resellerId', 'amount', 'state']).where('id', '=', holdId).executeTakeFirstOrThrow();
  if (hold.state !== 'held') return;
  const raise = Number(amount) - Number(hold.amount);
  if (raise > 0 && raise > Number(await availableForHold(trx, hold.resellerId)))
    throw conflict([fieldError(field, 'insufficientCredit', 'ledger.insufficientCredit')]);
  await trx.updateTable('creditHold').set({ amount }).where('id', '=', holdId).execute();
}

/** Ends an open hold without a charge (the order was denied or cancelled); nothing when it is no longer open. */
export async function releaseHold(trx: Kysely<Database>, holdId: number) {
  await trx.updateTable('creditHold').set({ state: 'released', closedAt: new Date() }).where('id', '=', holdId).where('state', '=', 'held').execute();
}

/** Charges an open hold: one `purchase` movement of its amount on the ledger, and the hold ends charged. */
export async function chargeHold(trx: Kysely<Database>, holdId: number, userId: number | null) {
  const hold = await trx
    .updateTable('creditHold')
    .set({ state: 'charged', closedAt: new Date() })
    .where('id', '=', holdId)
    .where('state', '=', 'held')
    .returning(['resellerId', 'amount', 'reference'])
    .executeTakeFirst();
  if (!hold) return undefined;
  return post(trx, { resellerId: hold.resellerId, amount: (-Number(hold.amount)).toFixed(2), kind: 'purchase', reference: hold.reference, userId });
}
