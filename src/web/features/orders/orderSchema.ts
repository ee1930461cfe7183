/** The order table's rows as a schema, so the engine's grid draws them (columns, formats, sorting) like any list. */
import type { EntitySchema, PropertySchema } from '@shared/schema';
import { ORDER_STATUSES } from '@shared/orders';

const field = (name: string) => `entity.simOrder.field.${name}`;
const text = (name: string): PropertySchema => ({ type: 'string', readOnly: true, title: field(name) });
const int = (name: string): PropertySchema => ({ type: 'integer', readOnly: true, title: field(name) });
const flag = (name: string): PropertySchema => ({ type: 'boolean', readOnly: true, title: field(name) });

export const orderSchema: EntitySchema = {
  $id: 'simOrder',
  title: 'entity.simOrder.title',
  type: 'object',
  properties: {
    id: int('id'),
    uuid: text('uuid'),
    batchName: text('batchName'),
    resellerName: text('resellerName'),
    totalCost: { type: 'number', readOnly: true, title: field('totalCost'), 'x-format': 'money' },
    currency: text('currency'),
    amount: int('amount'),
    simProvider: text('simProvider'),
    orderDate: { type: 'string', format: 'date-time', readOnly: true, title: field('orderDate') },
    orderStatus: { ...text('orderStatus'), enum: [...ORDER_STATUSES] },
    simType: text('simType'),
    financialReview: text('financialReview'),
    technicalReview: text('technicalReview'),
    resourceAllocation: flag('resourceAllocation'),
    artwork: flag('artwork'),
    profile: text('profile'),
    msisdnRange: text('msisdnRange'),
    imsiRange: text('imsiRange'),
    iccidRange: text('iccidRange'),
  },
  'x-entity': { name: 'simOrder', domain: 'sim-orders', table: 'sim_order', key: 'uuid', privilege: 'SimOrders', scope: 'reseller' },
  'x-api': { paged: 'POST /portal/sim-orders' },
  'x-list': {
    defaultSort: { sortBy: 'orderDate', sortDir: 'desc' },
    pageSize: 25,
    search: [{ by: 'multi', title: 'search.by.multi', fields: ['batchName', 'uuid'] }, { by: 'batchName' }, { by: 'uuid' }],
  },
  'x-columns': [
    { field: 'batchName', flex: 1 },
    { field: 'resellerName', width: 150 },
    { field: 'totalCost', width: 120 },
    { field: 'amount', width: 100 },
    { field: 'simProvider', width: 140 },
    { field: 'orderDate', width: 170 },
    { field: 'orderStatus', width: 170 },
    { field: 'simType', width: 100 },
    { field: 'financialReview', width: 130 },
    { field: 'technicalReview', width: 130 },
    { field: 'resourceAllocation', width: 120 },
    { field: 'artwork', width: 100 },
    { field: 'profile', width: 150 },
    { field: 'msisdnRange', width: 230 },
    { field: 'imsiRange', width: 260 },
    { field: 'iccidRange', width: 300 },
  ],
};

const column = (name: string) => `orders.profiles.column.${name}`;
const profileText = (name: string, title = name): PropertySchema => ({ type: 'string', readOnly: true, title: column(title) });

/** The rows of the provider profile and profile request lists, drawn by the engine's grid (sorting on the server). */
export const profileSchema: EntitySchema = {
  $id: 'providerProfile',
  title: 'orders.profiles.title',
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true, title: column('name') },
    name: profileText('name'),
    providerName: profileText('providerName', 'provider'),
    sponsorName: profileText('sponsorName', 'sponsor'),
    slotCount: { type: 'integer', readOnly: true, title: column('slots') },
    simType: profileText('simType'),
    imsiPrefix: profileText('imsiPrefix'),
    resellerName: profileText('resellerName', 'reseller'),
    status: profileText('status'),
    reason: profileText('reason'),
  },
  'x-entity': { name: 'providerProfile', domain: 'sim-providers', table: 'provider_profile', key: 'id', privilege: 'SimOrders', scope: 'none' },
  'x-api': {},
  'x-list': { defaultSort: { sortBy: 'name', sortDir: 'asc' }, pageSize: 10, search: [] },
  'x-columns': [
    { field: 'name', width: 210 },
    { field: 'providerName', width: 140 },
    { field: 'sponsorName', width: 150 },
    { field: 'slotCount', width: 90 },
    { field: 'simType', width: 110 },
    { field: 'imsiPrefix', width: 130 },
    { field: 'resellerName', width: 160 },
    { field: 'status', width: 110 },
    { field: 'reason', flex: 1, sortable: false },
  ],
};

const rangeColumn = (name: string) => `orders.ranges.column.${name}`;
const rangeText = (name: string): PropertySchema => ({ type: 'string', readOnly: true, title: rangeColumn(name) });

/** The administrator's resource ranges, drawn by the engine's grid (sorting on the server). */
export const rangeSchema: EntitySchema = {
  $id: 'resourceRange',
  title: 'orders.ranges.title',
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true, title: rangeColumn('id') },
    kind: rangeText('kind'),
    sponsorName: rangeText('sponsorName'),
    providerName: rangeText('providerName'),
    first: rangeText('first'),
    last: rangeText('last'),
    next: rangeText('next'),
    free: { type: 'integer', readOnly: true, title: rangeColumn('free') },
    total: { type: 'integer', readOnly: true, title: rangeColumn('total') },
    state: rangeText('state'),
    createdAt: { type: 'string', format: 'date-time', readOnly: true, title: rangeColumn('createdAt') },
  },
  'x-entity': { name: 'resourceRange', domain: 'sim-orders', table: 'sim_resource_range', key: 'id', privilege: 'SimOrders', scope: 'none' },
  'x-api': {},
  'x-list': { defaultSort: { sortBy: 'id', sortDir: 'asc' }, pageSize: 25, search: [] },
  'x-columns': [
    { field: 'id', width: 80 },
    { field: 'kind', width: 100 },
    { field: 'sponsorName', width: 150 },
    { field: 'providerName', width: 140 },
    { field: 'first', width: 200 },
    { field: 'last', width: 200 },
    { field: 'next', width: 200 },
    { field: 'free', width: 120 },
    { field: 'total', width: 120 },
    { field: 'state', width: 110, sortable: false },
    { field: 'createdAt', width: 170 },
  ],
};
