import { domainPlugin } from '../plugin';
import { registerDeviceRoutes } from './devices';
import { registerMsisdnRoutes } from './msisdn';
import { registerInventoryRoutes } from './routes';

export default domainPlugin('inventory', async (app, { database }) => {
  registerInventoryRoutes(app, database.db, database.engine);
  registerMsisdnRoutes(app, database.db);
  registerDeviceRoutes(app, database.db);
});
