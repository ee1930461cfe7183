import type { ColumnType, Generated } from 'kysely';

/** Tables with behaviour of their own. Entity tables driven by schemas/ are reached through the engine. */
export interface ResellerTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  /** Materialised path of ids, e.g. "/-1/3/7/": a subtree is one prefix match. */
  path: string;
  accentColorHex: string | null;
  createdAt: ColumnType<Date, never, never>;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  resellerId: number;
  privileges: ColumnType<unknown, string, string>;
  createdAt: ColumnType<Date, never, never>;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  passwordHash: string;
  firstName: string | null;
  lastName: string | null;
  resellerId: number;
  accountId: number | null;
  roleId: number | null;
  preferences: string | null;
  createdAt: ColumnType<Date, never, never>;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** Mirrors schemas/account.json; the engine reaches it generically, the seed through this type. */
export interface AccountTable {
  accountId: Generated<number>;
  name: string;
  address: string | null;
  city: string | null;
  email: string | null;
  country: string | null;
  pricingPlanId: number | null;
  internationalPricingPlanId: number | null;
  usageCredit: string | null;
  resellerId: number;
  inventoryAccount: boolean;
  createdAt: ColumnType<Date, never, never>;
}

export interface Database {
  reseller: ResellerTable;
  role: RoleTable;
  appUser: UserTable;
  setting: SettingTable;
  account: AccountTable;
}
