import { domainPlugin } from '../plugin';
import { registerLabRoutes } from './routes';
import { LabStates } from './switches';

/** Labs: per-tenant switches of features still being tried, and the hook that refuses a route whose lab is off. */
export default domainPlugin('labs', async (app, { database }) => {
  const states = new LabStates(database.db);
  // Any write of a switch in this process, by whatever code, drops the kept states at once.
  database.watchWrites(['lab_switch'], () => states.forget());
  registerLabRoutes(app, database.db, states);
});
