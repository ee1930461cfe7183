import { domainPlugin } from '../domains/plugin';
import { registerJobRoutes } from './routes';

export default domainPlugin('jobs', async (app, { database }) => registerJobRoutes(app, database.db, database.engine));
