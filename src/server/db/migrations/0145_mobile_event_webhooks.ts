import { sql, type Kysely } from 'kysely';
import { fanOut } from './0131_webhooks';

/**
 * MOBILE_EVENT webhooks: what the network does to or hears from a device other than registering it (those are
 * LOCATION_UPDATE): a detach, a cancelled location, a mobile-terminated SMS, an OTA SIM refresh, each with its result,
 * failures included (an SMS that could not be delivered is news to the reseller too).
 */
export async function up(db: Kysely<any>) {
  await fanOut('webhook_mobile_event', 'MOBILE_EVENT', {
    data: `'subscriberId', s.subscriber_id, 'imsi', s.imsi, 'iccid', s.iccid, 'msisdn', s.msisdn, 'resellerId', s.reseller_id,
      'operation', n.operation, 'result', n.result, 'detail', n.detail, 'plmn', n.plmn, 'requestId', n.request_id, 'reportedAt', n.created_at`,
    from: 'new_rows n join subscriber s on s.subscriber_id = n.subscriber_id',
    reseller: 's.reseller_id',
    where: `n.operation in ('detach', 'cancelLocation', 'sendSms', 'refreshSim')`,
    order: 'n.id',
  }).execute(db);
  await sql`create trigger network_event_mobile_webhook after insert on network_event referencing new table as new_rows
    for each statement execute function webhook_mobile_event()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger network_event_mobile_webhook on network_event`.execute(db);
  await sql`drop function webhook_mobile_event()`.execute(db);
}
