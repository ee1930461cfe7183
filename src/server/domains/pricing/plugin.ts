import { domainPlugin } from '../plugin';
import { registerPricingRoutes } from './routes';

export default domainPlugin('pricing', async (app, { database, schemas }) => {
  await registerPricingRoutes(app, database.db, database.engine, schemas);
});
