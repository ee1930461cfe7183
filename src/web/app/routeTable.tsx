/**
 * Every screen behind the sign-in, with the privilege it needs. Screens that pull in heavy libraries (AG Grid,
 * RJSF and ajv, ECharts) are lazy, so the sign-in page downloads none of them; a screen whose code has arrived
 * (preloaded) is drawn at once, and one on its way shows the spinner (`lazyModule`).
 */
import { Fragment, type ComponentType, type ReactElement } from 'react';
import { matchPath, useParams } from 'react-router-dom';
import type { EntitySchema } from '@shared/schema';
import { lazyModule, type LazyModule } from '@web/core/lazyModule';
import { entityName, findSchema } from '@web/core/schemas';
import { Loading } from '@web/ui/Loading';
import { ROUTE_SPECS, type RouteSpec } from './routePaths';

type Loader = () => Promise<{ default: ComponentType }>;

/** A screen's code on its own, with the spinner while it is on its way. */
const lazyScreen = <P extends object>(importer: () => Promise<{ default: ComponentType<P> }>) => lazyModule<P>(importer, Loading);

const dashboardPage = lazyScreen(() => import('@web/app/dashboard/DashboardPage'));
const entityListPage = lazyScreen<{ schema: EntitySchema }>(() => import('@web/engine/EntityListPage'));
const entityDetailPage = lazyScreen<{ schema: EntitySchema }>(() => import('@web/engine/EntityDetailPage'));
const DashboardPage = dashboardPage.Component;
const EntityListPage = entityListPage.Component;
const EntityDetailPage = entityDetailPage.Component;

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

const SCREENS: Record<string, LazyModule<object>> = Object.fromEntries(Object.entries(SCREEN_LOADERS).map(([name, load]) => [name, lazyScreen(load)]));

export interface AppRoute {
  /** A react-router path. */
  path: string;
  privilege: string;
  element: ReactElement;
}

/**
 * A page whose address names a row (`/subscriber/:id`) starts afresh when the address names another: nothing of the
 * last row (its answers, a form's values, a panel's or dialog's state) is shown, or saved, under the new one's address.
 */
function FreshPerRow({ children }: { children: ReactElement }) {
  const params = useParams();
  return <Fragment key={JSON.stringify(params)}>{children}</Fragment>;
}

function elementFor(spec: RouteSpec): ReactElement {
  const page = pageFor(spec);
  return spec.path.includes('/:') ? <FreshPerRow>{page}</FreshPerRow> : page;
}

function pageFor(spec: RouteSpec): ReactElement {
  switch (spec.page) {
    case 'dashboard':
      return <DashboardPage />;
    case 'entityList':
      // Keyed by entity so moving between two lists starts each with fresh state.
      return <EntityListPage key={entityName(spec.schema)} schema={spec.schema} />;
    case 'entityDetail':
      return <EntityDetailPage key={entityName(spec.schema)} schema={spec.schema} />;
    case 'screen': {
      const Screen = SCREENS[spec.screen]?.Component;
      if (!Screen) throw new Error(`No screen named ${spec.screen}`);
      return <Screen key={spec.screen} />;
    }
  }
}

/** The code a route's page runs on first: its own chunk, and for the dashboard its charts (ECharts, the world map). */
function loadersOf(spec: RouteSpec): (() => Promise<unknown>)[] {
  switch (spec.page) {
    case 'dashboard':
      return [dashboardPage.load, () => import('@web/ui/charts/SeriesChart'), () => import('@web/ui/CountryMap')];
    case 'entityList':
      return [entityListPage.load];
    case 'entityDetail':
      return [entityDetailPage.load];
    case 'screen':
      return SCREENS[spec.screen] ? [SCREENS[spec.screen].load] : [];
  }
}

const specOf = (pathname: string) => ROUTE_SPECS.find((s) => matchPath(s.path, pathname) !== null);

/**
 * Starts downloading the code of the page at `pathname` (and the frame's, by the caller) at once, side by side,
 * rather than one after the other as the frame, the privileges and the page would ask for them. A failed download
 * is left to the page's own import, which reports it.
 */
export function preloadRoute(pathname: string): void {
  const spec = specOf(pathname);
  for (const load of spec ? loadersOf(spec) : []) load().catch(() => undefined);
}

/** Bespoke screens that open on an entity's list as the list screen opens it (`engine/listPage.ts`). */
const SCREEN_LISTS: Readonly<Record<string, string>> = { Subscribers: 'subscriber' };

/** The entity list the page at `pathname` opens on, with the privilege the page needs; none for other pages. */
export function routeList(pathname: string): { schema: EntitySchema; privilege: string } | undefined {
  const spec = specOf(pathname);
  const schema =
    spec?.page === 'entityList' ? spec.schema : spec?.page === 'screen' && SCREEN_LISTS[spec.screen] ? findSchema(SCREEN_LISTS[spec.screen]) : undefined;
  return spec && schema ? { schema, privilege: spec.privilege } : undefined;
}

export const APP_ROUTES: readonly AppRoute[] = ROUTE_SPECS.map((spec) => ({
  path: spec.path,
  privilege: spec.privilege,
  element: elementFor(spec),
}));
