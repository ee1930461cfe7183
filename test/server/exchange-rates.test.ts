import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestRates, parseSourceRates, refreshRates } from '@server/adapters/exchange-rates';
import { engines, testApp } from './helpers';

/** A source that answers like Frankfurter, without the network. */
const source = (body: unknown, status = 200) =>
  (async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as typeof fetch;

describe('exchange rate source answers', () => {
  it('converts rates on another base to rates per US dollar, keeping only the portal currencies', () => {
    const parsed = parseSourceRates({ base: 'EUR', date: '2024-07-12', rates: { USD: 1.25, ILS: 5, GBP: 0.8 } });
    expect(parsed.asOf).toBe('2024-07-12');
    expect(parsed.rates).toEqual({ EUR: 0.8, ILS: 4 });
  });

  it('refuses an answer without a date, a base or a dollar rate', () => {
    expect(() => parseSourceRates({ base: 'USD', rates: { EUR: 1 } })).toThrow(/date/);
    expect(() => parseSourceRates({ base: 'EUR', date: '2024-07-12', rates: { ILS: 4 } })).toThrow(/USD/);
    expect(() => parseSourceRates('nonsense')).toThrow();
  });
});

describe.each(engines)('exchange rates on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    ctx = await testApp(engine);
  });
  afterAll(async () => ctx?.close());

  it('serves the stored reference rates with their day to a signed-in user only', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/portal/exchange-rates' })).statusCode).toBe(401);
    const body = (await (await ctx.as('northwind-iot')).get('/portal/exchange-rates')).json();
    expect(body.base).toBe('USD');
    expect(body.rates.map((r: { currency: string }) => r.currency)).toEqual(['BTC', 'EUR', 'ILS', 'JPY', 'RUB']);
    expect(body.rates.find((r: { currency: string }) => r.currency === 'EUR')).toEqual({ currency: 'EUR', rate: 0.9334, asOf: '2024-07-01' });
  });

  it('stores a refresh from the source and serves the newest day; a failing source changes nothing', async () => {
    expect(await refreshRates(ctx.db, 'https://rates.example/latest', source({ base: 'USD', date: '2024-07-15', rates: { EUR: 0.91, JPY: 158 } }))).toBe(2);
    // The same day again replaces, not duplicates.
    await refreshRates(ctx.db, 'https://rates.example/latest', source({ base: 'USD', date: '2024-07-15', rates: { EUR: 0.92 } }));
    await expect(refreshRates(ctx.db, 'https://rates.example/latest', source({ error: 'down' }, 503))).rejects.toThrow(/503/);
    const rates = await latestRates(ctx.db);
    expect(rates.find((r) => r.currency === 'EUR')).toEqual({ currency: 'EUR', rate: 0.92, asOf: '2024-07-15' });
    expect(rates.find((r) => r.currency === 'JPY')).toEqual({ currency: 'JPY', rate: 158, asOf: '2024-07-15' });
    expect(rates.find((r) => r.currency === 'RUB')?.asOf).toBe('2024-07-01');
  });
});
