/**
 * Prepaid packages as the sales history and a subscriber's package list show them. Packages are not a
 * schema of schemas/ (nobody creates or edits one through a form: they are assigned, purchased and expired),
 * but their rows are described the same way, so the server pages, sorts, searches and downloads them with the
 * entity engine's repository and the web app draws them with the entity grid.
 */
import type { EntitySchema, PropertySchema } from './schema';

export type PackageStatus = 'active' | 'pending' | 'expired';
export type SaleKind = 'assign' | 'purchase';

export const PACKAGE_STATUSES: readonly PackageStatus[] = ['active', 'pending', 'expired'];

/** The body of `POST /portal/pre-paid-packages/assign/` and `/purchase/`. */
export interface PackageSaleRequest {
  subscriberId: number;
  templateId: number;
  /** The period starts with the subscriber's first use instead of now (the package waits as pending). */
  activateUponFirstUse?: boolean;
}

/** The body of `POST /portal/pre-paid-packages/api/expire/`. */
export interface ExpireRequest {
  packageId: number;
}

export interface PrepaidPackage {
  id: number;
  templateId: number;
  templateName?: string;
  subscriberId: number;
  subscriberName?: string;
  resellerId: number;
  resellerName?: string;
  accountId: number;
  accountName?: string;
  locationZoneId: number;
  locationZoneName?: string;
  destinationZoneId?: number;
  destinationZoneName?: string;
  periodDays: number;
  activationDate?: string;
  expirationDate?: string;
  priority: number;
  mocMinutes?: number;
  mtcMinutes?: number;
  smsOut?: number;
  smsOutUsed: number;
  smsIn?: number;
  smsInUsed: number;
  bitrate?: number;
  dataMb?: number;
  unlimitedData: boolean;
  dataUsageMb: number;
  dataSlices?: number;
  status: PackageStatus;
  price: number;
  saleKind: SaleKind;
  purchaseDate: string;
  paymentDate?: string;
  activateUponFirstUse: boolean;
  soldBy: string;
}

/** `GET /portal/pre-paid-packages/list/{subscriberId}` */
export interface SubscriberPackages {
  subscriberPackages: PrepaidPackage[];
}

/** `GET /portal/ledger/balance` */
export interface ResellerBalance {
  resellerId: number;
  balance: number;
  currency: string;
  /** The credit the reseller may run into: a purchase is refused only past -creditLimit. */
  creditLimit?: number;
  /** Credit set aside for purchases charged later (SIM orders not yet delivered). */
  held?: number;
  /** Credit limit plus balance, less what is held: what the reseller can still spend. */
  availableCredit?: number;
}

const field = (name: string) => `entity.prepaidPackage.field.${name}`;
const int = (name: string): PropertySchema => ({ type: 'integer', readOnly: true, title: field(name) });
const text = (name: string): PropertySchema => ({ type: 'string', readOnly: true, title: field(name) });
const when = (name: string): PropertySchema => ({ type: 'string', format: 'date-time', readOnly: true, title: field(name) });
const joined = (name: string, table: string, on: string, column = 'name', key?: string): PropertySchema => ({
  ...text(name),
  'x-join': { table, on, column, ...(key ? { key } : {}) },
});

export const packageSchema: EntitySchema = {
  $id: 'prepaidPackage',
  title: 'entity.prepaidPackage.title',
  type: 'object',
  properties: {
    id: int('id'),
    templateId: int('templateId'),
    templateName: joined('templateName', 'prepaid_template', 'templateId'),
    subscriberId: int('subscriberId'),
    subscriberName: joined('subscriberName', 'subscriber', 'subscriberId', 'name', 'subscriberId'),
    resellerId: int('resellerId'),
    resellerName: joined('resellerName', 'reseller', 'resellerId'),
    accountId: int('accountId'),
    accountName: joined('accountName', 'account', 'accountId', 'name', 'accountId'),
    locationZoneId: int('locationZoneId'),
    locationZoneName: joined('locationZoneName', 'location_zone', 'locationZoneId'),
    destinationZoneId: int('destinationZoneId'),
    destinationZoneName: joined('destinationZoneName', 'destination_zone', 'destinationZoneId'),
    periodDays: int('periodDays'),
    activationDate: when('activationDate'),
    expirationDate: when('expirationDate'),
    priority: int('priority'),
    mocMinutes: int('mocMinutes'),
    mtcMinutes: int('mtcMinutes'),
    smsOut: int('smsOut'),
    smsOutUsed: int('smsOutUsed'),
    smsIn: int('smsIn'),
    smsInUsed: int('smsInUsed'),
    bitrate: int('bitrate'),
    dataMb: int('dataMb'),
    unlimitedData: { type: 'boolean', readOnly: true, title: field('unlimitedData') },
    dataUsageMb: { type: 'number', readOnly: true, title: field('dataUsageMb') },
    dataSlices: int('dataSlices'),
    status: { ...text('status'), enum: [...PACKAGE_STATUSES] },
    price: { type: 'number', readOnly: true, title: field('price'), 'x-format': 'money' },
    saleKind: { ...text('saleKind'), enum: ['assign', 'purchase'] },
    purchaseDate: when('purchaseDate'),
    paymentDate: when('paymentDate'),
    activateUponFirstUse: { type: 'boolean', readOnly: true, title: field('activateUponFirstUse') },
    soldBy: text('soldBy'),
  },
  'x-entity': { name: 'prepaidPackage', domain: 'pre-paid-packages', table: 'prepaid_package', key: 'id', privilege: 'PrePaidPackages', scope: 'reseller' },
  'x-api': { paged: 'POST /portal/pre-paid-packages/sales', download: 'POST /portal/pre-paid-packages/sales/download' },
  'x-list': {
    defaultSort: { sortBy: 'purchaseDate', sortDir: 'desc' },
    pageSize: 50,
    search: [{ by: 'subscriberId' }, { by: 'templateName' }, { by: 'accountName' }, { by: 'status' }, { by: 'id' }, { by: 'resellerName', adminOnly: true }],
  },
  'x-columns': [
    { field: 'id', width: 90 },
    { field: 'purchaseDate', width: 170 },
    { field: 'subscriberId', width: 120 },
    { field: 'accountName', flex: 1 },
    { field: 'templateName', flex: 1 },
    { field: 'saleKind', width: 120 },
    { field: 'price', width: 110 },
    { field: 'status', width: 110 },
    { field: 'expirationDate', width: 170 },
    { field: 'resellerName', flex: 1 },
  ],
};
