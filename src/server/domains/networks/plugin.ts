import { applyCatalogueChanges } from '../allowed-lists';
import { domainPlugin } from '../plugin';
import { registerNetworkRoutes } from './routes';
import { registerNetworkUsageRoutes } from './usage';

export default domainPlugin('networks', async (app, { database }) => {
  registerNetworkRoutes(app, database.db, (report) => applyCatalogueChanges(database.db, report));
  registerNetworkUsageRoutes(app, database.db);
});
