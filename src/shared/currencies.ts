/** The currencies a user may choose to see money in; US dollars unless chosen otherwise. */
export const CURRENCIES = ['EUR', 'USD', 'RUB', 'ILS', 'BTC', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'USD';

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** Rates are stored as units of a currency per one of these. */
export const BASE_CURRENCY: Currency = 'USD';
