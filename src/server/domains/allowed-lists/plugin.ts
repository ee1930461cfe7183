import { domainPlugin } from '../plugin';
import { registerAllowedListRoutes } from '.';

export default domainPlugin('allowed-lists', async (app, { database }) => registerAllowedListRoutes(app, database.db, database.engine));
