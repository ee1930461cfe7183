import type { ColumnType, Generated } from 'kysely';
import type { MobileNetwork } from '@shared/networks';

/** Tables with behaviour of their own. Entity tables driven by schemas/ are reached through the engine. */
export interface ResellerTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  /** Materialised path of ids, e.g. "/-1/3/7/": a subtree is one prefix match. */
  path: string;
  accentColorHex: string | null;
  /** Users of this reseller and of its sub-resellers must sign in with a second factor. */
  requireTwoFactor: ColumnType<boolean, boolean | undefined, boolean>;
  /** The local pricing plan the reseller pays by, assigned by its parent or the administrator. */
  pricingPlanId: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** TOTP secrets, encrypted (see domains/auth/twoFactor.ts); never sent to the web app once confirmed. */
  totpPendingSecret: ColumnType<string | null, string | null | undefined, string | null>;
  totpSecret: ColumnType<string | null, string | null | undefined, string | null>;
  totpLastStep: ColumnType<string | null, number | null | undefined, number | null>;
  /** Carried in every token; raised by a trigger when the password, role or disabled flag changes (migration 0121). */
  sessionVersion: ColumnType<number, never, never>;
  /** A disabled user cannot sign in and its tokens are refused. */
  disabled: ColumnType<boolean, boolean | undefined, boolean>;
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

export interface JobTable {
  id: Generated<number>;
  kind: string;
  userId: number | null;
  resellerId: number;
  params: ColumnType<unknown, string, string>;
  status: ColumnType<string, string | undefined, string>;
  total: number;
  succeeded: ColumnType<number, number | undefined, unknown>;
  failed: ColumnType<number, number | undefined, unknown>;
  skipped: ColumnType<number, number | undefined, unknown>;
  waiting: ColumnType<number, number | undefined, unknown>;
  retryOf: number | null;
  leaseOwner: string | null;
  leaseUntil: ColumnType<Date | null, unknown, unknown>;
  createdAt: ColumnType<Date, never, never>;
  startedAt: ColumnType<Date | null, unknown, unknown>;
  finishedAt: ColumnType<Date | null, unknown, unknown>;
}

export interface JobItemTable {
  jobId: number;
  seq: number;
  key: string;
  status: ColumnType<string, string | undefined, string>;
  error: string | null;
  messageId: string | null;
  detail: string | null;
  answers: ColumnType<number, number | undefined, unknown>;
}

/** Mirrors schemas/sponsor.json, for the seed. */
export interface SponsorTable {
  id: Generated<number>;
  name: string;
  plmn: string;
  imsiPrefix: string;
  country: string | null;
  description: string | null;
  createdAt: ColumnType<Date, never, never>;
}

/** A public mobile network (reference data from the mcc-mnc-list catalogue). */
export interface NetworkTable extends MobileNetwork {
  id: Generated<number>;
  withdrawnAt: ColumnType<Date | null, never, Date | string | null>;
  updatedAt: ColumnType<Date, never, Date | string>;
}

/** One request to the core network and its answer, written by the core-network adapter. */
export interface NetworkEventTable {
  id: Generated<string>;
  requestId: string;
  protocol: string;
  operation: string;
  imsi: string | null;
  plmn: string | null;
  result: 'success' | 'failure';
  detail: string | null;
  resellerId: number | null;
  subscriberId: number | null;
  subject: string | null;
  createdAt: ColumnType<Date, never, never>;
}

/** Mirrors schemas/allowed-list.json plus its sync progress. */
export interface AllowedListTable {
  allowedListId: Generated<number>;
  uuid: Generated<string>;
  name: string;
  reference: string;
  sponsorId: number;
  resellerId: number;
  syncTotal: Generated<number>;
  syncDone: Generated<number>;
  syncFailed: Generated<number>;
  syncStartedAt: Date | null;
  syncFinishedAt: Date | null;
  createdAt: ColumnType<Date, never, never>;
}

/** A network of an allowed list: the state the core network confirmed, and the one a pending change aims at. */
export interface AllowedListNetworkTable {
  allowedListId: number;
  networkId: number;
  applied: 'blocked' | 'preferred' | 'removed';
  target: 'blocked' | 'preferred' | 'removed' | null;
  sentAt: Date | null;
  lastError: string | null;
  changedAt: ColumnType<Date, never, unknown>;
}

export interface Database {
  allowedList: AllowedListTable;
  allowedListNetwork: AllowedListNetworkTable;
  job: JobTable;
  jobItem: JobItemTable;
  network: NetworkTable;
  networkEvent: NetworkEventTable;
  sponsor: SponsorTable;
  reseller: ResellerTable;
  role: RoleTable;
  appUser: UserTable;
  setting: SettingTable;
  account: AccountTable;
}
