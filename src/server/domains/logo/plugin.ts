import { domainPlugin } from '../plugin';
import { registerLogoRoutes } from './routes';

export default domainPlugin('logo', async (app, { database }) => registerLogoRoutes(app, database.db));
