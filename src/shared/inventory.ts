/**
 * Inventory: the SIM cards of resellers' batches as a list (paged, sorted, searched and downloaded on the server
 * like every entity list), and the shapes of the inventory calls the web and the server share.
 */
import type { EntitySchema, PropertySchema } from './schema';

const text = (title: string): PropertySchema => ({ type: 'string', readOnly: true, title, maxLength: 100 });

/** A SIM card as the inventory lists it. */
export const inventorySimSchema: EntitySchema = {
  $id: 'inventorySim',
  title: 'inventory.sims.title',
  type: 'object',
  properties: {
    iccid: { ...text('subscriber.sim.iccid'), maxLength: 22 },
    simType: { ...text('subscriber.sim.simType'), enum: ['physical', 'esim'] },
    status: { ...text('subscriber.sim.status'), enum: ['inventory', 'active', 'suspended', 'retired'] },
    statusDate: { type: 'string', format: 'date-time', readOnly: true, title: 'subscriber.sim.statusDate' },
    profileType: text('subscriber.sim.profileType'),
    batch: text('subscriber.sim.batch'),
    batchId: { type: 'integer', readOnly: true, title: 'inventory.batchId' },
    cost: { type: 'number', readOnly: true, title: 'subscriber.sim.cost', 'x-format': 'money' },
    serviceProviderName: text('subscriber.sim.serviceProviderName'),
    resellerId: { type: 'integer', readOnly: true, title: 'inventory.resellerId' },
    resellerName: { ...text('inventory.resellerName'), 'x-join': { table: 'reseller', on: 'resellerId', column: 'name' } },
  },
  'x-entity': { name: 'inventorySim', domain: 'inventory', table: 'sim_card', key: 'iccid', privilege: 'Inventory', scope: 'reseller' },
  'x-api': { paged: 'POST /portal/inventory/sim-cards', download: 'POST /portal/inventory/sim-cards/download' },
  'x-list': {
    defaultSort: { sortBy: 'iccid', sortDir: 'asc' },
    pageSize: 50,
    search: [{ by: 'iccid' }, { by: 'batch' }, { by: 'status' }, { by: 'simType' }, { by: 'serviceProviderName' }, { by: 'resellerName', adminOnly: true }],
  },
  'x-columns': [
    { field: 'iccid', width: 200 },
    { field: 'simType', width: 110 },
    { field: 'status', width: 120 },
    { field: 'statusDate', width: 170 },
    { field: 'profileType', width: 120 },
    { field: 'batch', flex: 1 },
    { field: 'cost', width: 100 },
    { field: 'serviceProviderName', flex: 1 },
    { field: 'resellerName', flex: 1 },
  ],
};

/** Days of stock left below which a reseller's inventory is low. */
export const LOW_STOCK_DAYS = 30;
/** Days of assignments the rate of use is measured over. */
export const RATE_WINDOW_DAYS = 30;
/** The most SIM cards one assignment takes from inventory. */
export const MAX_ASSIGN_RANGE = 100_000;

/** A batch of SIM cards as a range of the reseller's inventory, with its counts. */
export interface InventoryRange {
  batchId: number;
  name: string;
  resellerId: number;
  resellerName: string;
  simType: string;
  rangeStart: string;
  rangeEnd: string;
  total: number;
  allocated: number;
  available: number;
  /** The lowest ICCID of the range still in inventory. */
  firstAvailable: string | null;
  serviceProviderName: string | null;
  createdAt: string;
}

/** A reseller's stock: what is left, the rate it is used at, and when the next range and the stock run out. */
export interface InventoryStock {
  resellerId: number;
  resellerName: string;
  available: number;
  /** SIM cards assigned per day over the last RATE_WINDOW_DAYS days. */
  perDay: number;
  /** Days until the whole stock is used at that rate; null when nothing is being used. */
  daysLeft: number | null;
  /** The range drawn from next (lowest first ICCID with cards left) and the days until it runs out. */
  nextRange: string | null;
  nextRangeDaysLeft: number | null;
  low: boolean;
}
