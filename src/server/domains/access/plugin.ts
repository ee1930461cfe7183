import { domainPlugin } from '../plugin';
import { registerAccess } from '.';

/** Password reset, join requests, mail, robot check and attempt limits: before the routes whose attempts it limits. */
export default domainPlugin('access', async (app, { database, app: options }) => registerAccess(app, database.db, options.access));
