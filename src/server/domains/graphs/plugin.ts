import { createUsageSimulator } from '../../adapters/core-network/usageSimulator';
import { domainPlugin } from '../plugin';
import { registerGraphRoutes } from '.';
import { registerCountryRoutes } from './countries';
import { registerUsageByRoutes } from './usageBy';

export default domainPlugin('graphs', async (app, { database, schemas, app: options }) => {
  registerGraphRoutes(app, database.db);
  registerCountryRoutes(app, database.db);
  registerUsageByRoutes(app, database.db, database.engine, schemas, options.usageTotals);
  if (options.usageSimulator?.enabled) {
    // The demo's network keeps reporting usage while the server runs; it stops before the database closes.
    const simulator = createUsageSimulator(database.db, app.log, options.usageSimulator);
    app.addHook('onReady', async () => simulator.start());
    app.addHook('onClose', async () => simulator.stop());
  }
});
