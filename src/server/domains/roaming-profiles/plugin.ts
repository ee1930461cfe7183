import { domainPlugin } from '../plugin';
import { registerRoamingProfileRoutes } from './routes';

export default domainPlugin('roaming-profiles', async (app, { database, schemas }) => {
  const schema = schemas.find((s) => s.$id === 'roamingProfile');
  if (schema) registerRoamingProfileRoutes(app, database.db, database.engine, schema);
});
