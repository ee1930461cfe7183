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
