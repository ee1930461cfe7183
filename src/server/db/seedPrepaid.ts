import type { Kysely } from 'kysely';
import { post } from '../domains/ledger';
import type { Database } from './types';

/** Opening balances of the demo resellers, in the ledger's currency (USD). */
const OPENING_BALANCES: [string, string][] = [
  ['Northwind Mobile', '5000.00'],
  ['Northwind IoT', '750.00'],
  ['Blue Sky Telecom', '2500.00'],
];

/** name, reseller, location zone, destination zone, days, price, MB (null: unlimited), minutes, SMS, priority */
const DEMO_TEMPLATES: [string, string, string, string | null, number, string, number | null, number, number, number][] = [
  ['Europe 30 days 5 GB', 'Northwind Mobile', 'Europe', 'EU calls', 30, '19.99', 5120, 100, 50, 10],
  ['Europe week pass 1 GB', 'Northwind Mobile', 'Europe', null, 7, '6.50', 1024, 0, 0, 5],
  ['Nordics sensor year', 'Northwind IoT', 'Nordics', null, 365, '12.00', 500, 0, 20, 0],
  ['Americas 30 days unlimited', 'Blue Sky Telecom', 'North America', 'Worldwide calls', 30, '45.00', null, 300, 100, 10],
];

/**
 * Demo prepaid templates and the resellers' opening balances (zones come first, from the demo seed), dated `openedAt`
 * (ISO time; now when not given).
 */
export async function seedPrepaid(trx: Kysely<Database>, resellerIds: Map<string, number>, openedAt?: string) {
  for (const [reseller, amount] of OPENING_BALANCES) {
    await post(trx, { resellerId: resellerIds.get(reseller)!, amount, kind: 'opening', reference: 'opening balance', at: openedAt });
  }
  const zoneId = async (table: 'locationZone' | 'destinationZone', name: string) =>
    (await trx.selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  for (const [name, reseller, location, destination, periodDays, price, dataMb, minutes, sms, priority] of DEMO_TEMPLATES) {
    await trx
      .insertInto('prepaidTemplate')
      .values({
        name,
        resellerId: resellerIds.get(reseller)!,
        priority,
        periodDays,
        price,
        locationZoneId: await zoneId('locationZone', location),
        destinationZoneId: destination ? await zoneId('destinationZone', destination) : null,
        moCallMinutes: minutes,
        mtCallMinutes: minutes,
        moSms: sms,
        mtSms: sms,
        dataMb: dataMb ?? 0,
        unlimitedData: dataMb === null,
        bitrate: dataMb === null ? 2048 : 0,
        slices: 1,
      })
      .execute();
  }
}
