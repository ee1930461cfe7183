/**
 * Every screen behind the sign-in, with the privilege it needs. Screens that pull in heavy libraries (AG Grid,
 * RJSF and ajv, ECharts) are lazy, so the sign-in page downloads none of them.
 */
import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { matchPath } from 'react-router-dom';
import { entityName } from '@web/core/schemas';
import { ROUTE_SPECS, type RouteSpec } from './routePaths';

type Loader = () => Promise<{ default: ComponentType }>;

const loadDashboard: Loader = () => import('@web/app/dashboard/DashboardPage');
const loadEntityList = () => import('@web/engine/EntityListPage');
const loadEntityDetail = () => import('@web/engine/EntityDetailPage');
const DashboardPage = lazy(loadDashboard);
const EntityListPage = lazy(loadEntityList);
const EntityDetailPage = lazy(loadEntityDetail);

/** Bespoke screens' code by the name SCREEN_SPECS gives them; each is its own chunk. */
const SCREEN_LOADERS: Record<string, Loader> = {
  Outbox: () => import('@web/features/admin/OutboxPage'),
  JoinRequests: () => import('@web/features/admin/JoinRequestsPage'),
  Jobs: () => import('@web/features/jobs/JobsPage'),
  Documentation: () => import('@web/features/documentation/DocumentationPage'),
  TwoFactorResellers: () => import('@web/features/admin/TwoFactorResellersPage'),
  PricingPlanDetail: () => import('@web/features/pricing/PricingPlanDetailPage'),
  PricingPlanRules: () => import('@web/features/pricing/PricingPlanRulesPage'),
  InternationalPlanDetail: () => import('@web/features/pricing/InternationalPlanDetailPage'),
  Profiles: () => import('@web/features/profiles/ProfilesPage'),
  AllowedList: () => import('@web/features/profiles/AllowedListPage'),
  RoamingProfile: () => import('@web/features/profiles/RoamingProfilePage'),
  PackageSales: () => import('@web/features/packages/PackageSalesPage'),
  Subscribers: () => import('@web/features/subscribers/SubscribersPage'),
  SubscriberDetail: () => import('@web/features/subscribers/SubscriberDetailPage'),
  SubscriberGroupDetail: () => import('@web/features/subscriber-groups/GroupDetailPage'),
  SimDetail: () => import('@web/features/subscribers/sims/SimDetailPage'),
  MyPricing: () => import('@web/features/reseller-pricing/MyPricingPage'),
  AssignSubscribers: () => import('@web/features/assign-subscribers/AssignSubscribersPage'),
  Inventory: () => import('@web/features/inventory/InventoryPage'),
  Labs: () => import('@web/features/labs/LabsPage'),
  ResellerDetail: () => import('@web/features/resellers/ResellerDetailPage'),
  PaymentMethods: () => import('@web/features/payments/PaymentMethodsPage'),
  BankWires: () => import('@web/features/payments/BankWiresPage'),
  ChartOfAccount: () => import('@web/features/finance/ChartOfAccountPage'),
  FinanceOverview: () => import('@web/features/finance/FinanceOverviewPage'),
  AccountDetail: () => import('@web/features/accounts/AccountDetailPage'),
  Services: () => import('@web/features/services/ServicesPage'),
  Network: () => import('@web/features/network/NetworkPage'),
  Usage: () => import('@web/features/usage/UsagePage'),
  Orders: () => import('@web/features/orders/OrdersPage'),
  OrderProfiles: () => import('@web/features/orders/OrderProfilesPage'),
  OrderRanges: () => import('@web/features/orders/OrderRangesPage'),
  OrderDetail: () => import('@web/features/orders/OrderDetailPage'),
};

const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  Object.entries(SCREEN_LOADERS).map(([name, load]) => [name, lazy(load)]),
);

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

/** The code a route's page runs on first: its own chunk, and for the dashboard its charts (ECharts, the world map). */
function loadersOf(spec: RouteSpec): (() => Promise<unknown>)[] {
  switch (spec.page) {
    case 'dashboard':
      return [loadDashboard, () => import('@web/ui/charts/SeriesChart'), () => import('@web/ui/CountryMap')];
    case 'entityList':
      return [loadEntityList];
    case 'entityDetail':
      return [loadEntityDetail];
    case 'screen':
      return SCREEN_LOADERS[spec.screen] ? [SCREEN_LOADERS[spec.screen]] : [];
  }
}

/**
 * Starts downloading the code of the page at `pathname` (and the frame's, by the caller) at once, side by side,
 * rather than one after the other as the frame, the privileges and the page would ask for them. A failed download
 * is left to the page's own import, which reports it.
 */
export function preloadRoute(pathname: string): void {
  const spec = ROUTE_SPECS.find((s) => matchPath(s.path, pathname) !== null);
  for (const load of spec ? loadersOf(spec) : []) load().catch(() => undefined);
}

export const APP_ROUTES: readonly AppRoute[] = ROUTE_SPECS.map((spec) => ({
  path: spec.path,
  privilege: spec.privilege,
  element: elementFor(spec),
}));
