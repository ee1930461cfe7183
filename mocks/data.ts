/**
 * The mock backend's dataset: resellers, users with their privileges, and one in-memory table per entity.
 * `createMockDatabase()` returns a fresh copy, so each test starts from the same rows.
 */
import { PRIVILEGE_CATALOGUE, type PrivilegeItem } from '@shared/privileges';

export type Row = Record<string, unknown>;

export interface MockReseller {
  id: number;
  name: string;
  parentId: number | null;
  accentColorHex: string | null;
}

export interface MockUser {
  id: number;
  username: string;
  password: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  accountId: number | null;
  resellerId: number;
  privileges: PrivilegeItem[];
  preferences: string;
  /** Raised by a password change: tokens of an earlier version are refused. */
  sessionVersion?: number;
  /** A disabled user cannot sign in. */
  disabled?: boolean;
}

export interface MockDatabase {
  resellers: MockReseller[];
  users: MockUser[];
  /** Rows by entity name (the schema's `x-entity.name`). */
  tables: Record<string, Row[]>;
}

const grant = (...names: string[]): PrivilegeItem[] =>
  PRIVILEGE_CATALOGUE.filter((p) => names.includes(p.privilege)).map((p) => ({ ...p, subPrivileges: [...p.subPrivileges] }));

export const MOCK_PASSWORD = 'Portal#2024';

function resellers(): MockReseller[] {
  return [
    { id: -1, name: 'Portal Admin', parentId: null, accentColorHex: null },
    { id: 10, name: 'Northwind Mobile', parentId: -1, accentColorHex: '#2d72d2' },
    { id: 11, name: 'Harbor IoT', parentId: 10, accentColorHex: null },
    { id: 20, name: 'Blue Sky Telecom', parentId: -1, accentColorHex: null },
  ];
}

function users(): MockUser[] {
  return [
    {
      id: 1,
      username: 'admin',
      password: MOCK_PASSWORD,
      email: 'admin@portal.test',
      firstName: 'Ada',
      lastName: 'Admin',
      accountId: null,
      resellerId: -1,
      privileges: PRIVILEGE_CATALOGUE.map((p) => ({ ...p, subPrivileges: [...p.subPrivileges] })),
      preferences: '[]',
    },
    {
      id: 2,
      username: 'nora',
      password: MOCK_PASSWORD,
      email: 'nora@northwind.test',
      firstName: 'Nora',
      lastName: 'North',
      accountId: null,
      resellerId: 10,
      // Out of catalogue order on purpose: the side menu must sort them.
      privileges: grant('Users', 'Accounts', 'Dashboard', 'Search'),
      preferences: JSON.stringify([{ type: 'darkMode', value: 'false' }]),
    },
    {
      id: 3,
      username: 'viewer',
      password: MOCK_PASSWORD,
      email: null,
      firstName: null,
      lastName: null,
      accountId: null,
      resellerId: 20,
      privileges: grant('Dashboard'),
      preferences: '',
    },
  ];
}

function accounts(): Row[] {
  const row = (accountId: number, name: string, city: string, country: string, resellerId: number, usageCredit: number, inventoryAccount = false): Row => ({
    accountId,
    name,
    address: `${accountId} Harbour Road`,
    city,
    email: `billing@${name.toLowerCase().replace(/[^a-z]+/g, '')}.test`,
    country,
    pricingPlanId: null,
    internationalPricingPlanId: null,
    usageCredit,
    resellerId,
    inventoryAccount,
  });
  return [
    row(101, 'Alpha Logistics', 'Hamburg', 'DE', 10, 1250.5),
    row(102, 'Beacon Fleet', 'Madrid', 'ES', 10, 0),
    row(103, 'Cobalt Sensors', 'Haifa', 'IL', 11, 87.25),
    row(104, 'Delta Rail', 'Lyon', 'FR', 20, 5400),
    row(105, 'Echo Metering', 'Hamburg', 'DE', 11, 12.99),
    row(106, 'Northwind Stock', 'Hamburg', 'DE', 10, 0, true),
  ];
}

function pricingPlans(): Row[] {
  return [
    { id: 1, name: 'Provider Standard', resellerId: -1, currency: 'USD' },
    { id: 2, name: 'Northwind Europe', resellerId: 10, currency: 'EUR' },
  ];
}

function internationalPlans(): Row[] {
  return [{ id: 1, name: 'Northwind Calls', resellerId: 10, defaultPrice: 0.12 }];
}

export function createMockDatabase(): MockDatabase {
  const accountRows = accounts();
  // One plan of the reseller's own, one the provider set above it, and one account on "no plan".
  Object.assign(accountRows[0], { pricingPlanId: 2, internationalPricingPlanId: 1 });
  Object.assign(accountRows[1], { pricingPlanId: 1, internationalPricingPlanId: -1 });
  return { resellers: resellers(), users: users(), tables: { account: accountRows, pricingPlan: pricingPlans(), internationalPlan: internationalPlans() } };
}
