import { domainPlugin } from '../plugin';
import { registerResellerPricingRoutes } from './routes';

export default domainPlugin('reseller-pricing', async (app, { database }) => registerResellerPricingRoutes(app, database.db, database.engine));
