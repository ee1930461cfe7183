/**
 * Every screen behind the sign-in, with the privilege it needs. Screens that pull in heavy libraries (AG Grid,
 * RJSF and ajv, ECharts) are lazy, so the sign-in page downloads none of them.
 */
import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { entityName } from '@web/core/schemas';
import { ROUTE_SPECS, type RouteSpec } from './routePaths';

const DashboardPage = lazy(() => import('@web/app/dashboard/DashboardPage'));
const EntityListPage = lazy(() => import('@web/engine/EntityListPage'));
const EntityDetailPage = lazy(() => import('@web/engine/EntityDetailPage'));

/** Bespoke screens by the name SCREEN_SPECS gives them; each is its own chunk. */
const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  Outbox: lazy(() => import('@web/features/admin/OutboxPage')),
  JoinRequests: lazy(() => import('@web/features/admin/JoinRequestsPage')),
  Jobs: lazy(() => import('@web/features/jobs/JobsPage')),
  Documentation: lazy(() => import('@web/features/documentation/DocumentationPage')),
  TwoFactorResellers: lazy(() => import('@web/features/admin/TwoFactorResellersPage')),
  PricingPlanDetail: lazy(() => import('@web/features/pricing/PricingPlanDetailPage')),
  PricingPlanRules: lazy(() => import('@web/features/pricing/PricingPlanRulesPage')),
  InternationalPlanDetail: lazy(() => import('@web/features/pricing/InternationalPlanDetailPage')),
  Profiles: lazy(() => import('@web/features/profiles/ProfilesPage')),
  AllowedList: lazy(() => import('@web/features/profiles/AllowedListPage')),
  RoamingProfile: lazy(() => import('@web/features/profiles/RoamingProfilePage')),
  PackageSales: lazy(() => import('@web/features/packages/PackageSalesPage')),
  Subscribers: lazy(() => import('@web/features/subscribers/SubscribersPage')),
  SubscriberDetail: lazy(() => import('@web/features/subscribers/SubscriberDetailPage')),
  SubscriberGroupDetail: lazy(() => import('@web/features/subscriber-groups/GroupDetailPage')),
  SimDetail: lazy(() => import('@web/features/subscribers/sims/SimDetailPage')),
  MyPricing: lazy(() => import('@web/features/reseller-pricing/MyPricingPage')),
  AssignSubscribers: lazy(() => import('@web/features/assign-subscribers/AssignSubscribersPage')),
  Inventory: lazy(() => import('@web/features/inventory/InventoryPage')),
  Labs: lazy(() => import('@web/features/labs/LabsPage')),
  ResellerDetail: lazy(() => import('@web/features/resellers/ResellerDetailPage')),
  PaymentMethods: lazy(() => import('@web/features/payments/PaymentMethodsPage')),
  BankWires: lazy(() => import('@web/features/payments/BankWiresPage')),
  ChartOfAccount: lazy(() => import('@web/features/finance/ChartOfAccountPage')),
  FinanceOverview: lazy(() => import('@web/features/finance/FinanceOverviewPage')),
  AccountDetail: lazy(() => import('@web/features/accounts/AccountDetailPage')),
  Services: lazy(() => import('@web/features/services/ServicesPage')),
  Network: lazy(() => import('@web/features/network/NetworkPage')),
  Usage: lazy(() => import('@web/features/usage/UsagePage')),
  Orders: lazy(() => import('@web/features/orders/OrdersPage')),
  OrderProfiles: lazy(() => import('@web/features/orders/OrderProfilesPage')),
  OrderRanges: lazy(() => import('@web/features/orders/OrderRangesPage')),
  OrderDetail: lazy(() => import('@web/features/orders/OrderDetailPage')),
};

export interface AppRoute {
  /** A react-router path. */
  path: string;
  privilege: string;
  element: ReactElement;
}

function elementFor(spec: RouteSpec): ReactElement {
  switch (spec.page) {
    case 'dashboard':
      return <DashboardPage />;
    case 'entityList':
      // Keyed by entity so moving between two lists starts each with fresh state.
      return <EntityListPage key={entityName(spec.schema)} schema={spec.schema} />;
    case 'entityDetail':
      return <EntityDetailPage key={entityName(spec.schema)} schema={spec.schema} />;
    case 'screen': {
      const Screen = SCREENS[spec.screen];
      if (!Screen) throw new Error(`No screen named ${spec.screen}`);
      return <Screen key={spec.screen} />;
    }
  }
}

export const APP_ROUTES: readonly AppRoute[] = ROUTE_SPECS.map((spec) => ({
  path: spec.path,
  privilege: spec.privilege,
  element: elementFor(spec),
}));
