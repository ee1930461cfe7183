/** The exchange rates shown next to the default currency (GET /portal/exchange-rates). */
import { enhancedApi } from './exchangeRateApi.gen';

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

const exchangeRateApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    // Rates change once a day at most.
    getExchangeRates: { providesTags: [], keepUnusedDataFor: 3600 },
  },
});

export const { useGetExchangeRatesQuery } = exchangeRateApi;
