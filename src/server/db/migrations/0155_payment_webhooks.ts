import { sql, type Kysely } from 'kysely';
import { fanOut } from './0131_webhooks';

const OLD_TYPES = `('MOBILE_EVENT', 'ESIM_STATUS', 'LOCATION_UPDATE', 'VOIP', 'SUBSCRIPTION_STATUS_UPDATE')`;
const TYPES = `('MOBILE_EVENT', 'ESIM_STATUS', 'LOCATION_UPDATE', 'VOIP', 'SUBSCRIPTION_STATUS_UPDATE', 'PAYMENT')`;

/**
 * PAYMENT webhooks: a payment that comes to an end (confirmed and credited, declined, failed, or reset) is an event
 * for the paying reseller and every reseller above it with a URL for the type, queued in the transaction that
 * changed the payment. A payment still pending (a crypto invoice, a wire awaiting review) is no event yet.
 */
export async function up(db: Kysely<any>) {
  await sql
    .raw(
      `alter table webhook_endpoint drop constraint webhook_endpoint_event_type_check,
    add constraint webhook_endpoint_event_type_check check (event_type in ${TYPES})`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table webhook_delivery drop constraint webhook_delivery_event_type_check,
    add constraint webhook_delivery_event_type_check check (event_type in ${TYPES} or event_type = 'TEST')`,
    )
    .execute(db);
  await fanOut('webhook_payment', 'PAYMENT', {
    data: `'paymentId', new.id, 'resellerId', new.reseller_id, 'accountId', new.account_id, 'method', new.method,
      'status', new.status, 'previousStatus', old.status, 'paidAmount', new.amount, 'fee', new.fee,
      'creditedAmount', new.credited_amount, 'currency', new.currency, 'reference', new.reference,
      'confirmationCode', new.confirmation_code, 'failure', new.failure`,
    from: '(select 1) x',
    reseller: 'new.reseller_id',
    where: 'true',
    order: 'e.reseller_id',
  }).execute(db);
  await sql`create trigger payment_webhook after update of status on payment
    for each row when (old.status is distinct from new.status and new.status <> 'pending') execute function webhook_payment()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger payment_webhook on payment`.execute(db);
  await sql`drop function webhook_payment()`.execute(db);
  await sql`delete from webhook_delivery where event_type = 'PAYMENT'`.execute(db);
  await sql`delete from webhook_endpoint where event_type = 'PAYMENT'`.execute(db);
  await sql
    .raw(
      `alter table webhook_endpoint drop constraint webhook_endpoint_event_type_check,
    add constraint webhook_endpoint_event_type_check check (event_type in ${OLD_TYPES})`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table webhook_delivery drop constraint webhook_delivery_event_type_check,
    add constraint webhook_delivery_event_type_check check (event_type in ${OLD_TYPES} or event_type = 'TEST')`,
    )
    .execute(db);
}
