import { domainPlugin } from '../plugin';
import { registerGraphRoutes } from '.';
import { registerCountryRoutes } from './countries';

export default domainPlugin('graphs', async (app, { database }) => {
  registerGraphRoutes(app, database.db);
  registerCountryRoutes(app, database.db);
});
