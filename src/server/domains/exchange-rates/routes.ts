import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { BASE_CURRENCY } from '@shared/currencies';
import { latestRates, scheduleRefresh } from '../../adapters/exchange-rates';
import type { Database } from '../../db/types';

export interface ExchangeRateOptions {
  /** Where newer rates come from; without it the stored rates are used. */
  url?: string;
  refreshHours?: number;
}

/** GET /portal/exchange-rates: the newest stored rate of each currency against the US dollar, with its day. */
export function registerExchangeRateRoutes(app: FastifyInstance, db: Kysely<Database>, opts: ExchangeRateOptions = {}) {
  app.get(
    '/portal/exchange-rates',
    {
      config: { signedIn: true },
      schema: {
        tags: ['system'],
        summary: 'The latest exchange rates per US dollar and their day',
        response: {
          200: {
            type: 'object',
            required: ['base', 'rates'],
            properties: {
              base: { type: 'string' },
              rates: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['currency', 'rate', 'asOf'],
                  properties: { currency: { type: 'string' }, rate: { type: 'number' }, asOf: { type: 'string', format: 'date' } },
                },
              },
            },
          },
        },
      },
    },
    async () => ({
      base: BASE_CURRENCY,
      rates: await latestRates(db),
    }),
  );
  const { url } = opts;
  if (url) {
    let stop = () => {};
    app.addHook('onReady', async () => {
      stop = scheduleRefresh(db, url, opts.refreshHours ?? 12, app.log);
    });
    app.addHook('onClose', async () => stop());
  }
}
