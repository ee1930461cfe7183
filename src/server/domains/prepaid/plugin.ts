import { domainPlugin } from '../plugin';
import { registerPrepaidRoutes } from './routes';

export default domainPlugin('prepaid', async (app, { database }) => registerPrepaidRoutes(app, database.db, database.engine));
