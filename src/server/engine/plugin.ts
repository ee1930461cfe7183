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
import { subscriberHooks } from '../domains/subscribers/hooks';
import { userHooks } from '../domains/users/hooks';
import { zoneHooks } from '../domains/zones/hooks';
import { registerEntityRoutes } from './routes';

/** The calls every schema's `x-api` names, with each domain's hooks (users, roles and zones have no other routes). */
export default domainPlugin('entities', async (app, { database, schemas }) =>
  registerEntityRoutes(app, database.db, database.engine, schemas, {
    user: userHooks,
    role: roleHooks,
    locationZone: zoneHooks,
    destinationZone: zoneHooks,
    pricingPlan: pricingPlanHooks,
    roamingProfile: roamingProfileHooks,
    subscriber: subscriberHooks,
    allowedList: allowedListHooks,
    prepaidTemplate: templateHooks,
    customField: customFieldHooks,
    reseller: resellerHooks,
    address: addressHooks,
    ledgerAccount: ledgerAccountHooks,
    billingProduct: billingProductHooks,
  }),
);
