import type { Kysely } from 'kysely';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import type { Database } from './types';

/** The provider's wholesale rates per demo network (data per MB); Swisscom costs more than Northwind resells it for. */
const WHOLESALE: [string, string, string, string, string][] = [
  ['DE', '262', '01', 'Telekom Deutschland', '0.0020'],
  ['DE', '262', '02', 'Vodafone Germany', '0.0025'],
  ['FR', '208', '01', 'Orange France', '0.0024'],
  ['ES', '214', '07', 'Movistar', '0.0030'],
  ['NL', '204', '08', 'KPN', '0.0022'],
  ['NO', '242', '01', 'Telenor Norway', '0.0040'],
  ['US', '310', '410', 'AT&T Mobility', '0.0050'],
  ['CH', '228', '01', 'Swisscom', '0.0180'],
];

/**
 * The provider's wholesale plan, assigned to the demo resellers under it, and the sub-reseller Northwind IoT
 * priced by its parent's "Europe IoT Standard" (run after the demo pricing plans exist).
 */
export async function seedResellerPricing(trx: Kysely<Database>, resellerIds: Map<string, number>) {
  const { id } = await trx
    .insertInto('pricingPlan')
    .values({
      name: 'Provider Wholesale',
      resellerId: ADMIN_RESELLER_ID,
      currency: 'EUR',
      usdConvertRate: '1.085',
      defaultData: '0.0080',
      defaultOutgoingVoice: '0.10',
      defaultIncomingVoice: '0.01',
      defaultMoSms: '0.03',
      defaultMtSms: '0',
      useDefaultPrices: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('roamingRule')
    .values(
      WHOLESALE.map(([country, mcc, mnc, network, dataRate]) => ({
        planId: id,
        country,
        mcc,
        mnc,
        plmn: `${mcc}${mnc}`,
        network,
        currency: 'EUR',
        dataRate,
        moCallRate: '0.06',
        mtCallRate: '0.005',
        moSmsRate: '0.02',
        mtSmsRate: '0',
        dailyCap: false,
        startDate: '2026-01-01T00:00:00Z',
        endDate: null,
        hidden: false,
      })),
    )
    .execute();
  await trx
    .updateTable('reseller')
    .set({ pricingPlanId: id })
    .where('id', 'in', [resellerIds.get('Northwind Mobile')!, resellerIds.get('Blue Sky Telecom')!])
    .execute();
  const europe = await trx.selectFrom('pricingPlan').select('id').where('name', '=', 'Europe IoT Standard').executeTakeFirstOrThrow();
  await trx.updateTable('reseller').set({ pricingPlanId: europe.id }).where('id', '=', resellerIds.get('Northwind IoT')!).execute();
}
