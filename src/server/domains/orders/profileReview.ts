import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';

/** Approves or denies a pending profile request; a denial needs a reason, a reviewed request is not reviewed again (409). */
export async function recordProfileReview(db: Kysely<Database>, principal: Principal, id: number, approved: boolean, reason?: string) {
  if (!approved && !reason?.trim()) throw invalid([fieldError('reason', 'required', 'order.reason.required')]);
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('providerProfile').select('status').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) throw notFound();
    if (row.status !== 'pending') throw conflict([fieldError('status', 'reviewed', 'order.profile.reviewed')]);
    await trx
      .updateTable('providerProfile')
      .set({ status: approved ? 'approved' : 'denied', reviewReason: reason?.trim() || null, reviewedBy: principal.userId, reviewedAt: new Date() })
      .where('id', '=', id)
      .execute();
  });
}
