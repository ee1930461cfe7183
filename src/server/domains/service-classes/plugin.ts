import { domainPlugin } from '../plugin';
import { SERVICE_CLASS_JOB, serviceClassJobKind } from './index';

/** Service classes: the entity's calls come from its schema; this plugin adds the job re-applying many subscribers' speeds. */
export default domainPlugin('service-classes', async (app) => {
  app.jobs.register(SERVICE_CLASS_JOB, serviceClassJobKind(app));
});
