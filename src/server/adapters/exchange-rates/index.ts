/**
 * Exchange rates for the currency a user chooses to see. Rates live in the database with the day they apply
 * to; when EXCHANGE_RATE_URL is set they are refreshed from it, otherwise the stored rates (seeded reference
 * rates at least) are used, so the portal never needs the network.
 *
 * The source answers JSON `{ "base": "EUR", "date": "2024-07-12", "rates": { "USD": 1.09, ... } }` — the shape
 * of the ECB-based services such as Frankfurter. Rates on another base are converted to the US dollar.
 */
import { sql, type Kysely } from 'kysely';
import { BASE_CURRENCY, CURRENCIES } from '@shared/currencies';
import type { Database } from '../../db/types';

export interface StoredRate {
  currency: string;
  rate: number;
  /** ISO date. */
  asOf: string;
}

interface ExchangeRateTable {
  currency: string;
  asOf: string;
  rate: number;
  source: string;
}

type RatesDb = Kysely<{ exchangeRate: ExchangeRateTable }>;

/** The newest rate of each currency. */
export async function latestRates(db: Kysely<Database>): Promise<StoredRate[]> {
  const { rows } = await sql<{ currency: string; rate: number; asOf: string | Date }>`
    select distinct on (currency) currency, rate, as_of as "asOf"
    from exchange_rate order by currency, as_of desc`.execute(db);
  return rows.map((r) => ({ currency: r.currency, rate: Number(r.rate), asOf: isoDate(r.asOf) }));
}

function isoDate(value: string | Date): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

/** Reads a source's answer into rates per US dollar for the portal's currencies; throws on anything else. */
export function parseSourceRates(body: unknown): { asOf: string; rates: Record<string, number> } {
  const b = body as { base?: unknown; date?: unknown; rates?: unknown };
  if (!b || typeof b.base !== 'string' || typeof b.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.date) || !b.rates || typeof b.rates !== 'object') {
    throw new Error('the answer has no base, date (YYYY-MM-DD) and rates');
  }
  const quoted = { ...(b.rates as Record<string, unknown>), [b.base]: 1 };
  const perBase = Number(quoted[BASE_CURRENCY]);
  if (!(perBase > 0)) throw new Error(`the answer has no ${BASE_CURRENCY} rate`);
  const rates: Record<string, number> = {};
  for (const currency of CURRENCIES) {
    const value = Number(quoted[currency]);
    if (currency !== BASE_CURRENCY && Number.isFinite(value) && value > 0) rates[currency] = value / perBase;
  }
  return { asOf: b.date, rates };
}

/** Fetches the source once and stores its rates; returns how many were stored. */
export async function refreshRates(db: Kysely<Database>, url: string, fetchImpl: typeof fetch = fetch): Promise<number> {
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the source answered ${response.status}`);
  const { asOf, rates } = parseSourceRates(await response.json());
  const rows = Object.entries(rates).map(([currency, rate]) => ({ currency, asOf, rate, source: new URL(url).host }));
  if (rows.length === 0) return 0;
  await (db as RatesDb)
    .insertInto('exchangeRate')
    .values(rows)
    .onConflict((oc) => oc.columns(['currency', 'asOf']).doUpdateSet((eb) => ({ rate: eb.ref('excluded.rate'), source: eb.ref('excluded.source') })))
    .execute();
  return rows.length;
}

/**
 * Refreshes now and then every `hours`; failures are logged and the stored rates stay. Returns a stop function.
 */
export function scheduleRefresh(
  db: Kysely<Database>,
  url: string,
  hours: number,
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void },
): () => void {
  const run = () =>
    refreshRates(db, url).then(
      (count) => log.info({ count }, 'exchange rates refreshed'),
      (error: unknown) => log.warn({ err: error }, 'exchange rates not refreshed; the stored rates stay'),
    );
  void run();
  const timer = setInterval(run, hours * 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
