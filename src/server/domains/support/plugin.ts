import { domainPlugin } from '../plugin';
import { registerSupportRoutes } from '.';

export default domainPlugin('support', async (app, { database }) => registerSupportRoutes(app, database.db));
