/**
 * Payment limits and fees: the provider's defaults (the row of reseller -1, which alone holds the provider-wide
 * limits) and a reseller's overrides, set from above it; a column an override leaves null takes the default.
 */
import { sql, type Kysely } from 'kysely';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import type { Database } from '../../db/types';

export interface EffectiveParameters {
  resellerId: number;
  creditCard: { dailyLimit: number; monthlyLimit: number; feeRate: number };
  crypto: { dailyLimit: number; monthlyLimit: number; feeRate: number; totalLimit: number; enabled: boolean };
  provider: { dailyLimit: number; monthlyLimit: number };
}

/** The columns of a parameters row, as the wire names them. */
export const PARAMETER_FIELDS = {
  cardDailyLimit: 'card_daily_limit',
  cardMonthlyLimit: 'card_monthly_limit',
  cardFeeRate: 'card_fee_rate',
  cryptoDailyLimit: 'crypto_daily_limit',
  cryptoMonthlyLimit: 'crypto_monthly_limit',
  cryptoFeeRate: 'crypto_fee_rate',
  cryptoTotalLimit: 'crypto_total_limit',
  cryptoEnabled: 'crypto_enabled',
  providerDailyLimit: 'provider_daily_limit',
  providerMonthlyLimit: 'provider_monthly_limit',
} as const;
export type ParameterField = keyof typeof PARAMETER_FIELDS;
/** What only the provider's defaults hold. */
export const PROVIDER_ONLY: ParameterField[] = ['providerDailyLimit', 'providerMonthlyLimit'];

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** A reseller's effective parameters (its overrides over the defaults). */
export async function effectiveParameters(db: Kysely<Database>, resellerId: number): Promise<EffectiveParameters> {
  // Aliased as the wire names them: the database layer answers camel-case keys.
  const cols = Object.entries(PARAMETER_FIELDS)
    .map(([f, c]) => `coalesce(o.${c}, d.${c}) as "${f}"`)
    .join(', ');
  const { rows } = await sql<Record<string, unknown>>`
    select ${sql.raw(cols)} from payment_parameters d
    left join payment_parameters o on o.reseller_id = ${resellerId} and o.reseller_id <> ${ADMIN_RESELLER_ID}
    where d.reseller_id = ${ADMIN_RESELLER_ID}`.execute(db);
  const r = rows[0] ?? {};
  return {
    resellerId,
    creditCard: { dailyLimit: num(r.cardDailyLimit), monthlyLimit: num(r.cardMonthlyLimit), feeRate: num(r.cardFeeRate) },
    crypto: {
      dailyLimit: num(r.cryptoDailyLimit),
      monthlyLimit: num(r.cryptoMonthlyLimit),
      feeRate: num(r.cryptoFeeRate),
      totalLimit: num(r.cryptoTotalLimit),
      enabled: r.cryptoEnabled === true,
    },
    provider: { dailyLimit: num(r.providerDailyLimit), monthlyLimit: num(r.providerMonthlyLimit) },
  };
}

/** A reseller's own overrides (or the defaults' values for reseller -1), null where none is set. */
export async function storedParameters(db: Kysely<Database>, resellerId: number): Promise<Record<ParameterField, number | boolean | null>> {
  const { rows } = await sql<Record<string, unknown>>`select * from payment_parameters where reseller_id = ${resellerId}`.execute(db);
  const r = rows[0] ?? {};
  return Object.fromEntries(
    // `select *` answers camel-case keys, the wire's names.
    Object.keys(PARAMETER_FIELDS).map((field) => {
      const v = r[field];
      return [field, v === null || v === undefined ? null : typeof v === 'boolean' ? v : Number(v)];
    }),
  ) as Record<ParameterField, number | boolean | null>;
}
