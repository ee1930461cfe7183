import { addressHooks } from '../domains/addresses/hooks';
import { allowedListHooks } from '../domains/allowed-lists';
import { customFieldHooks } from '../domains/custom-fields/hooks';
import { billingProductHooks, ledgerAccountHooks } from '../domains/finance/hooks';
import { domainPlugin } from '../domains/plugin';
import { templateHooks } from '../domains/prepaid/hooks';
import { pricingPlanHooks } from '../domains/pricing/routes';
import { resellerHooks } from '../domains/resellers/hooks';
import { roamingProfileHooks } from '../domains/roaming-profiles/hooks';
import { roleHooks } from '../domains/roles/hooks';
import { serviceClassHooks, withServiceClass } from '../domains/service-classes/hooks';
import { groupListHook, subscriberGroupHooks } from '../domains/subscribers/groups';
import { subscriberHooks } from '../domains/subscribers/hooks';
import { userHooks } from '../domains/users/hooks';
import { zoneHooks } from '../domains/zones/hooks';
import { registerEntityRoutes } from './routes';

/**
 * The calls every schema's `x-api` names, with each domain's hooks (users, roles and zones have no other routes); a
 * change of a reseller's, account's or subscriber's service class re-applies its subscribers' speeds.
 */
export default domainPlugin('entities', async (app, { database, schemas }) =>
  registerEntityRoutes(
    app,
    database.db,
    database.engine,
    schemas,
    {
      user: userHooks,
      role: roleHooks,
      locationZone: zoneHooks,
      destinationZone: zoneHooks,
      pricingPlan: pricingPlanHooks,
      roamingProfile: roamingProfileHooks,
      subscriber: { ...withServiceClass(subscriberHooks, app, (id) => ({ subscriberIds: [id] })), beforeList: groupListHook(database.db, schemas) },
      subscriberGroup: subscriberGroupHooks(schemas),
      allowedList: allowedListHooks,
      prepaidTemplate: templateHooks,
      customField: customFieldHooks,
      reseller: withServiceClass(resellerHooks, app, (id) => ({ resellerId: id })),
      account: withServiceClass({}, app, (id) => ({ accountId: id })),
      serviceClass: serviceClassHooks(app),
      address: addressHooks,
      ledgerAccount: ledgerAccountHooks,
      billingProduct: billingProductHooks,
    },
    database.read,
  ),
);
