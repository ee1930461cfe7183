import { domainPlugin } from '../plugin';
import { registerGraphRoutes } from '.';

export default domainPlugin('graphs', async (app, { database }) => registerGraphRoutes(app, database.db));
