/**
 * A package sale as it is written: the package from its template for a subscriber, and for a purchase the ledger's
 * debit of the subscriber's reseller (refused when the balance and credit cannot cover it). The caller has checked
 * that it may sell this template to this subscriber; the packages panel's calls and the demo's history write
 * through here.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { SaleKind } from '@shared/prepaid';
import type { Database, PrepaidTemplate } from '../../db/types';
import { post } from '../ledger';

export interface Sale {
  subscriber: { subscriberId: number; resellerId: number; accountId: number };
  template: Selectable<PrepaidTemplate>;
  kind: SaleKind;
  /** Waits for the subscriber's first use to start its period. */
  activateUponFirstUse?: boolean;
  soldBy: string;
  userId: number | null;
  /** When the sale happened (ISO time); now when not given. */
  at?: string;
}

/** Packages whose period has run out read as expired: brought up to date before a list is read. */
export async function expireDue(db: Kysely<Database>) {
  await db
    .updateTable('prepaidPackage')
    .set({ status: 'expired' })
    .where('status', '=', 'active')
    .where('expirationDate', '<=', sql<Date>`now()`)
    .execute();
}

/** Writes the sale inside the caller's transaction and answers the package's id. */
export async function writeSale(trx: Kysely<Database>, sale: Sale): Promise<number> {
  const { subscriber, template, kind } = sale;
  const at = sale.at === undefined ? sql<Date>`now()` : sql<Date>`${sale.at}::timestamptz`;
  const waits = sale.activateUponFirstUse === true;
  const row = await trx
    .insertInto('prepaidPackage')
    .values({
      templateId: template.id,
      subscriberId: subscriber.subscriberId,
      resellerId: subscriber.resellerId,
      accountId: subscriber.accountId,
      locationZoneId: template.locationZoneId,
      destinationZoneId: template.destinationZoneId,
      periodDays: template.periodDays,
      purchaseDate: at,
      activationDate: waits ? null : at,
      expirationDate: waits ? null : sql`${at} + make_interval(days => ${template.periodDays}::int)`,
      priority: template.priority,
      mocMinutes: template.moCallMinutes,
      mtcMinutes: template.mtCallMinutes,
      smsOut: template.moSms,
      smsIn: template.mtSms,
      bitrate: template.bitrate,
      dataMb: template.dataMb,
      unlimitedData: template.unlimitedData,
      dataSlices: template.slices,
      status: waits ? 'pending' : 'active',
      price: kind === 'purchase' ? template.price : '0',
      saleKind: kind,
      paymentDate: kind === 'purchase' ? at : null,
      activateUponFirstUse: waits,
      soldBy: sale.soldBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (kind === 'purchase') {
    const entry = await post(trx, {
      resellerId: subscriber.resellerId,
      amount: `-${template.price}`,
      kind: 'purchase',
      userId: sale.userId,
      mustCover: true,
      reference: `prepaid package ${row.id} (template ${template.id}, subscriber ${subscriber.subscriberId})`,
      at: sale.at,
    });
    await trx.updateTable('prepaidPackage').set({ ledgerEntryId: entry.id }).where('id', '=', row.id).execute();
  }
  return row.id as number;
}
