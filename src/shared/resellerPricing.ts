/**
 * Reseller pricing: the prices a reseller pays, per network, country and zone, derived from the local pricing
 * plan its parent (or the administrator) assigned to it. The per-network price list is described like an entity
 * so the server pages, sorts and searches it with the shared list rules and the mocks answer the same way.
 */
import type { EntitySchema, PropertySchema } from './schema';

/** The five rates of a network, in the order the screens and the CSV show them. */
export const RATE_FIELDS = ['dataRate', 'moCallRate', 'mtCallRate', 'moSmsRate', 'mtSmsRate'] as const;
export type RateField = (typeof RATE_FIELDS)[number];
export type Rates = Record<RateField, number | null>;

/** Where a network's price comes from: a roaming rule of the plan, or the plan's default prices. */
export type PriceSource = 'rule' | 'default';

export interface NetworkPrice extends Rates {
  country: string;
  mcc: string;
  mnc: string;
  plmn: string;
  network: string | null;
  source: PriceSource;
  currency: string;
}

/** A country's or a zone's prices: the highest of each rate among its priced networks (per currency). */
export interface AreaPrice extends Rates {
  currency: string;
  networkCount: number;
}
export interface CountryPrice extends AreaPrice {
  country: string;
}
/** A zone none of whose countries is priced has one row without prices and without a currency. */
export interface ZonePrice extends Omit<AreaPrice, 'currency'> {
  currency: string | null;
  zoneId: number;
  zoneName: string;
  countries: string[];
}

export interface PricedReseller {
  id: number;
  name: string;
  parentId: number | null;
  pricingPlanId: number | null;
}

/** `GET /portal/reseller-pricing`: the reseller, its plan and the choices the screen offers. */
export interface ResellerPricingSummary {
  reseller: PricedReseller;
  plan: null | {
    id: number;
    name: string;
    currency: string;
    usdConvertRate: number | null;
    useDefaultPrices: boolean;
    defaults: { data: number | null; outgoingVoice: number | null; incomingVoice: number | null; moSms: number | null; mtSms: number | null };
  };
  /** Resellers of the caller's subtree whose pricing the caller may read (the caller's own first). */
  resellers: PricedReseller[];
  /** The caller's direct sub-resellers and the caller's own plans it may assign to them (margin preview). */
  subResellers: PricedReseller[];
  assignablePlans: { id: number; name: string; currency: string }[];
}

/** `POST /portal/reseller-pricing/margin-preview`. */
export interface MarginPreviewRequest {
  resellerId: number;
  pricingPlanId: number;
}

/**
 * One network of a margin preview: what the caller pays, what the sub-reseller would pay under the proposed
 * plan, and the margin (proposed − paid, and as a percentage of what the caller pays). A margin is only
 * computed when both prices exist in the same currency.
 */
export interface MarginRow {
  country: string;
  mcc: string;
  mnc: string;
  plmn: string;
  network: string | null;
  callerCurrency: string | null;
  proposedCurrency: string;
  callerDataRate: number | null;
  proposedDataRate: number | null;
  dataRateMargin: number | null;
  dataRateMarginPercent: number | null;
  callerMoCallRate: number | null;
  proposedMoCallRate: number | null;
  moCallRateMargin: number | null;
  moCallRateMarginPercent: number | null;
  callerMoSmsRate: number | null;
  proposedMoSmsRate: number | null;
  moSmsRateMargin: number | null;
  moSmsRateMarginPercent: number | null;
}

export interface MarginPreview {
  resellerId: number;
  pricingPlanId: number;
  rows: MarginRow[];
  /** Networks where the sub-reseller would pay less than the caller for data. */
  negativeCount: number;
}

/** Rates the margin preview compares (data, outgoing calls, outgoing SMS). */
export const MARGIN_FIELDS = ['dataRate', 'moCallRate', 'moSmsRate'] as const;

const field = (name: string) => `entity.networkPrice.field.${name}`;
const text = (name: string): PropertySchema => ({ type: 'string', readOnly: true, title: field(name) });
const rate = (name: string): PropertySchema => ({ type: 'number', readOnly: true, title: field(name), 'x-format': 'rate' }) as PropertySchema;

export const networkPriceSchema: EntitySchema = {
  $id: 'networkPrice',
  title: 'entity.networkPrice.title',
  type: 'object',
  properties: {
    country: text('country'),
    mcc: text('mcc'),
    mnc: text('mnc'),
    plmn: text('plmn'),
    network: text('network'),
    source: text('source'),
    currency: text('currency'),
    ...Object.fromEntries(RATE_FIELDS.map((f) => [f, rate(f)])),
  },
  'x-entity': { name: 'networkPrice', domain: 'reseller-pricing', table: 'network', key: 'plmn', privilege: 'Pricing', scope: 'none' },
  'x-api': { paged: 'POST /portal/reseller-pricing/paged', download: 'POST /portal/reseller-pricing/download' },
  'x-list': {
    defaultSort: { sortBy: 'country', sortDir: 'asc' },
    pageSize: 50,
    search: [{ by: 'multi', title: 'entity.networkPrice.search.multi', fields: ['country', 'network'] }, { by: 'country' }, { by: 'network' }],
  },
  'x-columns': [
    { field: 'country', width: 100 },
    { field: 'network', flex: 1 },
    { field: 'plmn', width: 100 },
    { field: 'source', width: 110 },
    { field: 'currency', width: 90 },
    ...RATE_FIELDS.map((f) => ({ field: f, width: 120 })),
  ],
};

/** Columns of the CSV download, named as in the API. */
export const PRICE_CSV_FIELDS = ['country', 'mcc', 'mnc', 'plmn', 'network', 'source', 'currency', ...RATE_FIELDS] as const;
