/**
 * SIM orders: the types, card sizes, states and the price table, shared by the server (which prices and decides) and
 * the web app (which labels). Money is computed in cents, never in floating point. See docs/orders.md.
 */

export const SIM_TYPES = ['physical', 'esim'] as const;
export type SimType = (typeof SIM_TYPES)[number];

/** Card sizes (form factors): a triple-cut plastic card (2FF/3FF/4FF), an embedded MFF2 chip, or an eSIM profile. */
export const SIM_SIZES = ['triple', 'mff2', 'esim'] as const;
export type SimSize = (typeof SIM_SIZES)[number];

/** Which sizes each type offers. */
export const SIZES_OF: Record<SimType, readonly SimSize[]> = { physical: ['triple', 'mff2'], esim: ['esim'] };

export const ORDER_CURRENCIES = ['USD', 'EUR'] as const;
export type OrderCurrency = (typeof ORDER_CURRENCIES)[number];

export const ORDER_STATUSES = [
  'draft',
  'submitted',
  'financially_approved',
  'financially_denied',
  'technically_approved',
  'technically_denied',
  'resources_allocated',
  'placed',
  'delivered',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** At most this many SIMs in one order, and at most this many slots (IMSIs) per SIM. */
export const MAX_ORDER_AMOUNT = 100_000;
export const MAX_SLOTS = 4;

/** Artwork files: under 3.5 MB; the card 85.5 × 54 mm, its artwork 87 × 56 mm (at least 87 × 55.5) at 600 DPI or more. */
export const ARTWORK_MAX_BYTES = 3.5 * 1024 * 1024;
export const CARD_MM = { width: 85.5, height: 54 } as const;
export const ARTWORK_MM = { width: 87, height: 56, minHeight: 55.5 } as const;
export const ARTWORK_MIN_DPI = 600;

interface SizePrice {
  /** Price of one SIM, in cents, per currency. */
  unit: Record<OrderCurrency, number>;
  /** Minimum order quantity: below it the fee below MOQ applies. */
  moq: number;
}

/** The price table (cents). */
export const PRICE_TABLE: Record<SimSize, SizePrice> = {
  triple: { unit: { USD: 180, EUR: 165 }, moq: 500 },
  mff2: { unit: { USD: 260, EUR: 240 }, moq: 500 },
  esim: { unit: { USD: 90, EUR: 85 }, moq: 100 },
};
/** Per SIM and per slot beyond the first. */
export const SLOT_FEE: Record<OrderCurrency, number> = { USD: 40, EUR: 37 };
/** Once per order with custom artwork (physical cards only). */
export const ARTWORK_FEE: Record<OrderCurrency, number> = { USD: 25_000, EUR: 23_000 };
/** Once per order below the size's MOQ. */
export const BELOW_MOQ_FEE: Record<OrderCurrency, number> = { USD: 15_000, EUR: 14_000 };
/** Volume discounts, by amount (largest first): a rate in percent of the subtotal. */
export const VOLUME_DISCOUNTS = [
  { from: 20_000, rate: 10 },
  { from: 5_000, rate: 5 },
] as const;

export interface PriceInput {
  simSize: SimSize;
  amount: number;
  slots: number;
  artwork: boolean;
  currency: OrderCurrency;
  /** A discount that replaces the volume discount: a rate in percent or a value in the order's currency. */
  discount?: { description?: string | null; rate?: number | null; value?: number | null } | null;
}

export interface Price {
  currency: OrderCurrency;
  unitPrice: number;
  totalUnitPrice: number;
  additionalSlotCharge: number;
  artworkCharge: number;
  feeBelowMoq: number;
  moq: number;
  subtotal: number;
  discount: { description: string | null; rate: number; value: number };
  total: number;
}

const money = (cents: number) => Math.round(cents) / 100;

/** Prices an order (see the table above). */
export function priceOrder(input: PriceInput): Price {
  const row = PRICE_TABLE[input.simSize];
  const { currency, amount } = input;
  const unit = row.unit[currency];
  const totalUnit = unit * amount;
  const slotCharge = Math.max(0, input.slots - 1) * SLOT_FEE[currency] * amount;
  const artwork = input.artwork && input.simSize !== 'esim' ? ARTWORK_FEE[currency] : 0;
  const belowMoq = amount < row.moq ? BELOW_MOQ_FEE[currency] : 0;
  const subtotal = totalUnit + slotCharge + artwork + belowMoq;
  let description: string | null = null;
  let rate = 0;
  let value = 0;
  if (input.discount && (input.discount.rate != null || input.discount.value != null)) {
    description = input.discount.description ?? null;
    if (input.discount.rate != null) {
      rate = input.discount.rate;
      value = Math.round((subtotal * rate) / 100);
    } else {
      value = Math.round((input.discount.value ?? 0) * 100);
      rate = subtotal ? Math.round((value / subtotal) * 1_000_000) / 10_000 : 0;
    }
  } else {
    const tier = VOLUME_DISCOUNTS.find((t) => amount >= t.from);
    if (tier) {
      description = `volume ${tier.from}+`;
      rate = tier.rate;
      value = Math.round((subtotal * rate) / 100);
    }
  }
  value = Math.min(value, subtotal);
  return {
    currency,
    unitPrice: money(unit),
    totalUnitPrice: money(totalUnit),
    additionalSlotCharge: money(slotCharge),
    artworkCharge: money(artwork),
    feeBelowMoq: money(belowMoq),
    moq: row.moq,
    subtotal: money(subtotal),
    discount: { description, rate, value: money(value) },
    total: money(subtotal - value),
  };
}

/** The kinds of number range SIM order allocation draws from. */
export const RANGE_KINDS = ['imsi', 'iccid', 'msisdn'] as const;
export type RangeKind = (typeof RANGE_KINDS)[number];

export interface RangeInput {
  kind: RangeKind;
  first: string;
  last: string;
  sponsorId?: number | null;
  /** The IMSI prefix of the chosen sponsor, when known. */
  sponsorPrefix?: string | null;
}

export interface RangeRuleError {
  field: 'first' | 'last' | 'sponsorId';
  rule: string;
  messageId: string;
}

/**
 * The rules of a resource range the server applies and the form shows before sending: IMSIs are 15 digits starting
 * with their sponsor's IMSI prefix, ICCIDs 18 digits (the check digit is added per card), MSISDNs 8 to 15 digits with
 * both ends of one length; the first number is not above the last; IMSI and MSISDN ranges name their sponsor.
 */
export function rangeRuleErrors(r: RangeInput): RangeRuleError[] {
  const errors: RangeRuleError[] = [];
  const digits = { imsi: [15, 15], iccid: [18, 18], msisdn: [8, 15] }[r.kind];
  const message = { imsi: 'validation.imsi.invalid', iccid: 'order.range.iccid', msisdn: 'order.range.msisdn' }[r.kind];
  const fits = (v: string) => /^\d+$/.test(v) && v.length >= digits[0] && v.length <= digits[1];
  if (!fits(r.first)) errors.push({ field: 'first', rule: 'length', messageId: message });
  if (!fits(r.last) || (r.kind === 'msisdn' && fits(r.first) && r.first.length !== r.last.length))
    errors.push({ field: 'last', rule: 'length', messageId: message });
  if (!errors.length && BigInt(r.first) > BigInt(r.last)) errors.push({ field: 'last', rule: 'order', messageId: 'order.range.invalid' });
  if (r.kind !== 'iccid' && (r.sponsorId === undefined || r.sponsorId === null))
    errors.push({ field: 'sponsorId', rule: 'required', messageId: 'order.sponsor.unknown' });
  if (r.kind === 'imsi' && r.sponsorPrefix && fits(r.first) && (!r.first.startsWith(r.sponsorPrefix) || !r.last.startsWith(r.sponsorPrefix)))
    errors.push({ field: 'first', rule: 'prefix', messageId: 'order.range.prefix' });
  return errors;
}
