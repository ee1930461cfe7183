/** The exchange rates shown next to the default currency (GET /portal/exchange-rates). */
import { api } from './api';

export interface ExchangeRate {
  currency: string;
  /** Units of `currency` for one unit of the base currency. */
  rate: number;
  /** The day the rate applies to (ISO date). */
  asOf: string;
}

export interface ExchangeRates {
  base: string;
  rates: ExchangeRate[];
}

const exchangeRateApi = api.injectEndpoints({
  endpoints: (build) => ({
    exchangeRates: build.query<ExchangeRates, void>({
      query: () => '/exchange-rates',
      // Rates change once a day at most.
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useExchangeRatesQuery } = exchangeRateApi;
