import { domainPlugin } from '../plugin';
import { registerLabRoutes } from './routes';
import { LabStates } from './switches';

/** Labs: per-tenant switches of features still being tried, and the hook that refuses a route whose lab is off. */
export default domainPlugin('labs', async (app, { database }) => registerLabRoutes(app, database.db, new LabStates(database.db)));
