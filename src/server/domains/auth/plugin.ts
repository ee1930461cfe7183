import { domainPlugin } from '../plugin';
import { registerAuthRoutes } from './routes';
import { createTwoFactor } from './twoFactor';

export default domainPlugin('auth', async (app, { database, tokens, app: options }) => {
  const twoFactor = await createTwoFactor(database.db, options.twoFactorKey);
  registerAuthRoutes(app, database.db, tokens, twoFactor);
  twoFactor.registerRoutes(app);
});
