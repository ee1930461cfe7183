import type { Kysely } from 'kysely';
import type { Database } from './types';

/** Demo networks: country, MCC, MNC, name, data rate per MB. */
const DEMO_NETWORKS: [string, string, string, string, string][] = [
  ['DE', '262', '01', 'Telekom Deutschland', '0.0035'],
  ['DE', '262', '02', 'Vodafone Germany', '0.0040'],
  ['FR', '208', '01', 'Orange France', '0.0038'],
  ['ES', '214', '07', 'Movistar', '0.0042'],
  ['NL', '204', '08', 'KPN', '0.0036'],
  ['NO', '242', '01', 'Telenor Norway', '0.0055'],
  ['US', '310', '410', 'AT&T Mobility', '0.0065'],
  ['IL', '425', '01', 'Partner', '0.0090'],
  ['JP', '440', '10', 'NTT Docomo', '0.0120'],
  ['CH', '228', '01', 'Swisscom', '0.0150'],
];

/** Demo international destinations: country, dialling prefix, name, group, price per minute. */
const DEMO_DESTINATIONS: [string, string, string, string, string][] = [
  ['DE', '49', 'Germany', 'Land', '0.04'],
  ['DE', '4915', 'Germany', 'Mobile', '0.12'],
  ['FR', '33', 'France', 'Land', '0.05'],
  ['FR', '336', 'France', 'Mobile', '0.15'],
  ['US', '1', 'United States', 'Land', '0.02'],
  ['IL', '9725', 'Israel', 'Mobile', '0.18'],
];

/** Demo pricing plans with roaming rules, and international plans, for the demo resellers. */
export async function seedPricing(trx: Kysely<Database>, resellerIds: Map<string, number>) {
  const plans: [string, string, string, string][] = [
    ['Northwind Mobile', 'Europe IoT Standard', 'EUR', '1.085'],
    ['Northwind Mobile', 'Global Fleet Premium', 'USD', '1'],
    ['Northwind IoT', 'Sensors Low Data', 'EUR', '1.085'],
    ['Blue Sky Telecom', 'Blue Sky Worldwide', 'USD', '1'],
  ];
  for (const [reseller, name, currency, usdConvertRate] of plans) {
    const { id } = await trx
      .insertInto('pricingPlan')
      .values({
        name,
        resellerId: resellerIds.get(reseller)!,
        currency,
        usdConvertRate,
        defaultData: '0.0100',
        defaultOutgoingVoice: '0.15',
        defaultIncomingVoice: '0.02',
        defaultMoSms: '0.06',
        defaultMtSms: '0',
        useDefaultPrices: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('roamingRule')
      .values(
        DEMO_NETWORKS.map(([country, mcc, mnc, network, dataRate], i) => ({
          planId: id,
          country,
          mcc,
          mnc,
          plmn: `${mcc}${mnc}`,
          network,
          currency,
          dataRate,
          moCallRate: '0.09',
          mtCallRate: '0.01',
          moSmsRate: '0.04',
          mtSmsRate: '0',
          dailyCap: i % 3 === 0,
          dailyCapLimit: i % 3 === 0 ? '5.00' : null,
          dailyCapTimeZone: i % 3 === 0 ? 'UTC' : null,
          discounted: i === 1,
          startDate: '2026-01-01T00:00:00Z',
          endDate: null,
          hidden: false,
        })),
      )
      .execute();
  }
  for (const [reseller, name, defaultPrice] of [
    ['Northwind Mobile', 'International Calls Basic', '0.25'],
    ['Blue Sky Telecom', 'Blue Sky Voice World', '0.30'],
  ]) {
    const { id } = await trx
      .insertInto('internationalPlan')
      .values({ name, resellerId: resellerIds.get(reseller)!, defaultPrice })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('internationalRule')
      .values(
        DEMO_DESTINATIONS.map(([country, prefix, countryName, countryGroup, price]) => ({
          planId: id,
          country,
          prefix,
          countryName,
          countryGroup,
          price,
          description: `${countryName} ${countryGroup === 'Land' ? 'landlines' : 'mobiles'}`,
          startDate: '2026-01-01T00:00:00Z',
          endDate: null,
          fromDate: '2026-01-01T00:00:00Z',
          hidden: false,
        })),
      )
      .execute();
  }
}
