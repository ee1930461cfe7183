import { createMailer } from '../../adapters/mail';
import { createMigrationPlatform } from '../../adapters/migration';
import { domainPlugin } from '../plugin';
import { registerSubscriberBulkRoutes } from './bulkRoutes';
import { groupListHook, registerSubscriberGroupRoutes } from './groups';
import { registerSubscriberImpactRoutes } from './impactRoutes';
import { registerSubscriberInfoRoutes } from './infoRoutes';
import { registerSubscriberOperationRoutes } from './operationRoutes';
import { MIGRATION_JOB, migrationJobKind, registerSubscriberRangeRoutes } from './rangeRoutes';
import { registerSubscriberRoutes } from './routes';
import { registerSubscriberSmsRoutes } from './smsRoutes';

export default domainPlugin('subscribers', async (app, { database, schemas, app: options }) => {
  const { db, engine } = database;
  registerSubscriberRoutes(app, db);
  registerSubscriberOperationRoutes(app, db);
  registerSubscriberSmsRoutes(app, db);
  registerSubscriberInfoRoutes(app, db, engine, options.access?.mailer ?? createMailer(db, app.log, options.access?.mail));
  app.decorate('migration', createMigrationPlatform(options.migration));
  app.jobs.register(MIGRATION_JOB, migrationJobKind(app.migration));
  registerSubscriberRangeRoutes(app, db);
  const schema = schemas.find((s) => s.$id === 'subscriber');
  if (schema) await registerSubscriberBulkRoutes(app, db, schema, groupListHook(db, schemas));
  registerSubscriberImpactRoutes(app, db);
  registerSubscriberGroupRoutes(app, db, schemas);
});
