/**
 * The route list as data: which paths lead to a screen and which privilege each needs. The side menu and the
 * dashboard's shortcuts read it to hide links to screens that do not exist yet; routeTable.tsx turns it into
 * elements.
 */
import type { EntitySchema } from '@shared/schema';
import { matchPath } from 'react-router-dom';
import { ENTITY_SCHEMAS } from '@web/core/schemas';
import { ADMIN_ONLY, SIGNED_IN } from '@shared/privileges';

export type RouteSpec =
  | { path: string; privilege: string; page: 'dashboard' }
  | { path: string; privilege: string; page: 'entityList' | 'entityDetail'; schema: EntitySchema }
  /** A bespoke screen, named in routeTable.tsx's SCREENS (lazy-loaded there). */
  | { path: string; privilege: string; page: 'screen'; screen: string };

/**
 * Bespoke screens: where the specification asks for behaviour a generic entity screen cannot give. Each names
 * its component in routeTable.tsx's SCREENS. A bespoke screen on a path an entity schema also routes wins.
 */
export const SCREEN_SPECS: readonly Extract<RouteSpec, { page: 'screen' }>[] = [
  { path: '/admin/outbox', privilege: ADMIN_ONLY, page: 'screen', screen: 'Outbox' },
  { path: '/admin/join-requests', privilege: ADMIN_ONLY, page: 'screen', screen: 'JoinRequests' },
  { path: '/jobs', privilege: SIGNED_IN, page: 'screen', screen: 'Jobs' },
  { path: '/api/documentation', privilege: 'Documentation', page: 'screen', screen: 'Documentation' },
  { path: '/admin/two-factor', privilege: ADMIN_ONLY, page: 'screen', screen: 'TwoFactorResellers' },
  { path: '/pricing-plan/:id', privilege: 'PricingPlans', page: 'screen', screen: 'PricingPlanDetail' },
  { path: '/pricing-plan-rules/:id', privilege: 'PricingPlans', page: 'screen', screen: 'PricingPlanRules' },
  { path: '/pricing-plan-rules/:id/:ruleId', privilege: 'PricingPlans', page: 'screen', screen: 'PricingPlanRules' },
  { path: '/international-pricing-plan/:id', privilege: 'IntPricingPlans', page: 'screen', screen: 'InternationalPlanDetail' },
  // Either privilege opens it: the screen shows the tabs the user holds (allowed lists, roaming profiles).
  { path: '/profiles', privilege: SIGNED_IN, page: 'screen', screen: 'Profiles' },
  { path: '/allowed-list/:id', privilege: 'AllowedLists', page: 'screen', screen: 'AllowedList' },
  { path: '/roaming-profile/:id', privilege: 'RoamingProfile', page: 'screen', screen: 'RoamingProfile' },
  // The sales history; it also asks for the Sales sub-privilege, as the server does.
  { path: '/packages', privilege: 'PrePaidPackages', page: 'screen', screen: 'PackageSales' },
  // The subscriber list with its bulk actions and CSV update (the generic list inside).
  { path: '/subscribers', privilege: 'Subscribers', page: 'screen', screen: 'Subscribers' },
  { path: '/subscriber/:id', privilege: 'Subscribers', page: 'screen', screen: 'SubscriberDetail' },
  // A group's form with its member count and a link to the subscribers list filtered by it.
  { path: '/group/:id', privilege: 'Subscribers', page: 'screen', screen: 'SubscriberGroupDetail' },
  // The id is the ICCID, the key of GET /portal/sim-cards/{iccid}.
  { path: '/sim/:id', privilege: 'Subscribers', page: 'screen', screen: 'SimDetail' },
  { path: '/my-pricing', privilege: 'Pricing', page: 'screen', screen: 'MyPricing' },
  { path: '/assign-subscribers', privilege: 'MoveSubscribers', page: 'screen', screen: 'AssignSubscribers' },
  // Ranges, batches and their cards, sponsors, the MSISDN pool (?tab=msisdn) and devices (?tab=devices) on tabs.
  { path: '/inventory', privilege: 'Inventory', page: 'screen', screen: 'Inventory' },
  { path: '/labs', privilege: 'Labs', page: 'screen', screen: 'Labs' },
  // The reseller's form with its standing and the terms set from above it.
  { path: '/reseller/:id', privilege: 'Resellers', page: 'screen', screen: 'ResellerDetail' },
  { path: '/payment-methods', privilege: 'PaymentMethods', page: 'screen', screen: 'PaymentMethods' },
  // The administrator's queue of bank wires to confirm.
  { path: '/bank-wires', privilege: ADMIN_ONLY, page: 'screen', screen: 'BankWires' },
  // The trial balance of the chart of accounts, each account's journal and the drift check.
  { path: '/chart-of-account', privilege: ADMIN_ONLY, page: 'screen', screen: 'ChartOfAccount' },
  // The administrator's view of balances, debt, open invoices, debt in review and payments awaiting confirmation.
  { path: '/finance', privilege: ADMIN_ONLY, page: 'screen', screen: 'FinanceOverview' },
  // The account's form with the payments made for it.
  { path: '/account/:id', privilege: 'Accounts', page: 'screen', screen: 'AccountDetail' },
  // A reseller's account and settings: its own users read them (the server says who may save).
  { path: '/services/:id', privilege: SIGNED_IN, page: 'screen', screen: 'Services' },
  // Networks with the caller's traffic on each: every signed-in user; the server counts only the caller's subscribers.
  { path: '/network', privilege: SIGNED_IN, page: 'screen', screen: 'Network' },
  // Usage per subscriber, account, reseller, country, operator or group: the dashboard's figures broken down.
  { path: '/usage', privilege: 'Dashboard', page: 'screen', screen: 'Usage' },
  // The order wizard and table, the provider profiles and their requests, and one order's detail.
  { path: '/orders', privilege: 'SimOrders', page: 'screen', screen: 'Orders' },
  { path: '/orders/profiles', privilege: 'SimOrders', page: 'screen', screen: 'OrderProfiles' },
  // The administrator's resource ranges allocation draws from, under the orders area.
  { path: '/orders/ranges', privilege: ADMIN_ONLY, page: 'screen', screen: 'OrderRanges' },
  { path: '/orders/:uuid', privilege: 'SimOrders', page: 'screen', screen: 'OrderDetail' },
];

/** `/account/{id}` in a schema becomes react-router's `/account/:id`. */
export function toRouterPath(schemaPath: string): string {
  return schemaPath.replace(/\{(\w+)\}/g, ':$1');
}

function entityRouteSpecs(schema: EntitySchema): RouteSpec[] {
  const { routes, privilege } = schema['x-entity'];
  const specs: RouteSpec[] = [];
  if (routes?.list) specs.push({ path: toRouterPath(routes.list), privilege, page: 'entityList', schema });
  if (routes?.detail) specs.push({ path: toRouterPath(routes.detail), privilege, page: 'entityDetail', schema });
  return specs;
}

const SCREEN_PATHS = new Set(SCREEN_SPECS.map((s) => s.path));

export const ROUTE_SPECS: readonly RouteSpec[] = [
  { path: '/', privilege: 'Dashboard', page: 'dashboard' },
  ...SCREEN_SPECS,
  ...ENTITY_SCHEMAS.flatMap(entityRouteSpecs).filter((spec) => !SCREEN_PATHS.has(spec.path)),
];

export const ROUTED_PATHS: ReadonlySet<string> = new Set(ROUTE_SPECS.map((r) => r.path));

/**
 * The specification's route table, with the privilege each screen needs. A specified path without a screen yet
 * says it is coming (behind the same privilege) rather than that the page does not exist; the side menu still
 * offers only screens that exist.
 */
const SPECIFIED_ROUTES: readonly { path: string; privilege: string }[] = [
  { path: '/orders', privilege: 'SimOrders' },
  { path: '/orders/profiles', privilege: 'SimOrders' },
  { path: '/orders/:uuid', privilege: 'SimOrders' },
  { path: '/payment-methods', privilege: 'PaymentMethods' },
  { path: '/network', privilege: SIGNED_IN },
  { path: '/assign-subscribers', privilege: 'MoveSubscribers' },
  { path: '/inventory', privilege: 'Inventory' },
  { path: '/resellers', privilege: 'Resellers' },
  { path: '/reseller/:id', privilege: 'Resellers' },
  { path: '/services/:id', privilege: SIGNED_IN },
  { path: '/pricing-plan-rules/:id', privilege: 'PricingPlans' },
  { path: '/pricing-plan-rules/:id/:ruleId', privilege: 'PricingPlans' },
  { path: '/my-pricing', privilege: 'Pricing' },
  { path: '/sim/:id', privilege: 'Subscribers' },
  { path: '/serviceclass', privilege: SIGNED_IN },
  { path: '/templates', privilege: 'PrePaidTemplates' },
  { path: '/template/:id', privilege: 'PrePaidTemplates' },
  { path: '/packages', privilege: 'PrePaidPackages' },
  { path: '/Account', privilege: ADMIN_ONLY },
];

export const PLANNED_ROUTES = SPECIFIED_ROUTES.filter((r) => !ROUTED_PATHS.has(r.path));

/** Whether a concrete path (e.g. `/account/new`) leads to a screen. */
export function isRoutedPath(path: string): boolean {
  return ROUTE_SPECS.some((spec) => matchPath(spec.path, path) !== null);
}
