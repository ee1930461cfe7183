import { domainPlugin } from '../plugin';
import { registerExchangeRateRoutes } from './routes';

export default domainPlugin('exchange-rates', async (app, { database, app: options }) => registerExchangeRateRoutes(app, database.db, options.exchangeRates));
