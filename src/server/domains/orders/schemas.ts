/** Wire schemas of the SIM order calls (bodies and answers); see docs/orders.md. */
import { MAX_ORDER_AMOUNT, MAX_SLOTS, ORDER_CURRENCIES, ORDER_STATUSES, SIM_SIZES, SIM_TYPES } from '@shared/orders';
import { idSchema, listRequestSchema, objectBody } from '../../http/input';

export const tags = ['sim-orders'];

export const money = { type: 'number' };
const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const nullableInt = { type: ['integer', 'null'] };

export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const uuidParams = (more: Record<string, object> = {}) => ({
  type: 'object',
  required: ['uuid', ...Object.keys(more)],
  properties: { uuid: { type: 'string', maxLength: 36, pattern: UUID_PATTERN, errorMessage: 'order.uuid.invalid' }, ...more },
});
export const approvedParams = uuidParams({ approved: { type: 'boolean', errorMessage: 'validation.invalid' } });

export const simTypeSchema = { type: 'string', maxLength: 20, enum: [...SIM_TYPES], errorMessage: 'order.simType.required' };
export const simSizeSchema = { type: 'string', maxLength: 20, enum: [...SIM_SIZES], errorMessage: 'order.simSize.invalid' };
export const currencySchema = { type: 'string', maxLength: 10, enum: [...ORDER_CURRENCIES], errorMessage: 'validation.currency.invalid' };
export const amountSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_ORDER_AMOUNT,
  'x-rule': 'range',
  errorMessage: 'order.amount.invalid',
  description: `SIMs in the order, 1 to ${MAX_ORDER_AMOUNT}`,
};
const reasonSchema = { type: 'string', maxLength: 500, errorMessage: 'order.text.tooLong' };
export const reasonBody = objectBody({ reason: reasonSchema });

export const priceBody = objectBody(
  {
    simType: simTypeSchema,
    simSize: simSizeSchema,
    amount: amountSchema,
    slots: { type: 'integer', minimum: 1, maximum: MAX_SLOTS, 'x-rule': 'range', errorMessage: 'order.slots.invalid' },
    artwork: { type: 'boolean', errorMessage: 'validation.invalid' },
    currency: currencySchema,
  },
  ['simType', 'simSize', 'amount'],
  { simType: 'order.simType.required', amount: 'order.amount.invalid' },
);

export const priceSchema = {
  type: 'object',
  required: ['currency', 'unitPrice', 'totalUnitPrice', 'additionalSlotCharge', 'artworkCharge', 'feeBelowMoq', 'moq', 'subtotal', 'discount', 'total'],
  properties: {
    currency: text,
    unitPrice: money,
    totalUnitPrice: money,
    additionalSlotCharge: money,
    artworkCharge: money,
    feeBelowMoq: money,
    moq: { type: 'integer' },
    subtotal: money,
    discount: {
      type: 'object',
      required: ['description', 'rate', 'value'],
      properties: { description: nullableText, rate: { type: 'number', description: 'Percent' }, value: money },
    },
    total: money,
  },
};

export const submitBody = objectBody(
  {
    resellerId: idSchema({ min: -2_147_483_648 }),
    batchName: { type: 'string', minLength: 1, maxLength: 50, errorMessage: 'order.batchName.invalid' },
    simType: simTypeSchema,
    simSize: simSizeSchema,
    amount: amountSchema,
    sponsorIds: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SLOTS,
      uniqueItems: true,
      items: idSchema(),
      errorMessage: 'order.sponsors.invalid',
      description: 'The sponsor of each slot, slot 1 first',
    },
    roamingProfileId: idSchema(),
    customImsiFrom: { type: 'string', maxLength: 15, pattern: '^\\d{15}$', errorMessage: 'validation.imsi.invalid' },
    customImsiTo: { type: 'string', maxLength: 15, pattern: '^\\d{15}$', errorMessage: 'validation.imsi.invalid' },
    providerId: idSchema(),
    providerProfileId: idSchema(),
    serviceProviderName: { type: 'string', minLength: 1, maxLength: 50, errorMessage: 'order.serviceProviderName.invalid' },
    efConfig: { type: 'string', maxLength: 50, errorMessage: 'validation.invalid' },
    provisionedOnTheFly: { type: 'boolean', errorMessage: 'validation.invalid' },
    deliveryEmail: { type: 'string', maxLength: 100, format: 'email', errorMessage: 'validation.email.invalid' },
    deliveryAddressId: idSchema(),
    artworkId: idSchema(),
    currency: currencySchema,
    comment: reasonSchema,
  },
  ['simType', 'simSize', 'amount', 'sponsorIds', 'providerId'],
  { simType: 'order.simType.required', sponsorIds: 'order.sponsors.invalid', amount: 'order.amount.invalid' },
);

export const listBody = {
  ...listRequestSchema(['batchName', 'uuid']),
  properties: {
    ...listRequestSchema().properties,
    status: { type: ['string', 'null'], maxLength: 30, enum: [...ORDER_STATUSES, null], errorMessage: 'order.status.invalid' },
    simType: { ...simTypeSchema, type: ['string', 'null'], enum: [...SIM_TYPES, null] },
    resellerId: { ...idSchema({ min: -2_147_483_648 }), type: ['integer', 'null'] },
    from: { type: ['string', 'null'], maxLength: 10, format: 'date', errorMessage: 'validation.date.invalid' },
    to: { type: ['string', 'null'], maxLength: 10, format: 'date', errorMessage: 'validation.date.invalid' },
  },
  additionalProperties: false,
  errorMessage: { additionalProperties: 'validation.unknownField' },
};

export const ORDER_ROW_PROPERTIES = {
  id: { type: 'integer' },
  uuid: text,
  resellerId: { type: 'integer' },
  resellerName: text,
  batchName: text,
  totalCost: money,
  currency: text,
  amount: { type: 'integer' },
  simProvider: text,
  orderDate: { type: 'string', format: 'date-time' },
  orderStatus: { type: 'string', enum: [...ORDER_STATUSES] },
  simType: text,
  simSize: text,
  financialReview: nullableText,
  technicalReview: nullableText,
  resourceAllocation: { type: 'boolean' },
  artwork: { type: 'boolean' },
  profile: nullableText,
  msisdnRange: nullableText,
  imsiRange: nullableText,
  iccidRange: nullableText,
};
export const orderRowSchema = { type: 'object', required: Object.keys(ORDER_ROW_PROPERTIES), properties: ORDER_ROW_PROPERTIES };

/** The page envelope, as every paged list answers it. */
export { pageSchema as pageOf } from '../../http/input';

const eventSchema = {
  type: 'object',
  required: ['id', 'action', 'fromStatus', 'toStatus', 'username', 'reason', 'at'],
  properties: {
    id: { type: 'integer' },
    action: text,
    fromStatus: nullableText,
    toStatus: nullableText,
    username: nullableText,
    reason: nullableText,
    at: text,
  },
};
export const slotSchema = {
  type: 'object',
  required: ['slot', 'sponsorId', 'sponsorName', 'imsiFrom', 'imsiTo'],
  properties: { slot: { type: 'integer' }, sponsorId: { type: 'integer' }, sponsorName: text, imsiFrom: nullableText, imsiTo: nullableText },
};

export const orderDetailSchema = {
  type: 'object',
  required: [...Object.keys(ORDER_ROW_PROPERTIES), 'price', 'slots', 'timeline', 'reservation', 'keysAvailable', 'actions'],
  properties: {
    ...ORDER_ROW_PROPERTIES,
    sponsors: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: text } } },
    providerId: { type: 'integer' },
    providerProfileId: nullableInt,
    serviceProviderName: nullableText,
    roamingProfileId: nullableInt,
    roamingProfile: nullableText,
    customImsiFrom: nullableText,
    customImsiTo: nullableText,
    efConfig: nullableText,
    provisionedOnTheFly: { type: 'boolean' },
    deliveryEmail: nullableText,
    deliveryAddress: nullableText,
    comment: nullableText,
    vendor: nullableText,
    vendorReference: nullableText,
    createdBy: nullableText,
    deliveredAt: { type: ['string', 'null'] },
    price: priceSchema,
    slots: { type: 'array', items: slotSchema },
    timeline: { type: 'array', items: eventSchema },
    reservation: {
      type: 'object',
      required: ['amount', 'currency', 'state'],
      properties: { amount: money, currency: text, state: { type: ['string', 'null'], enum: ['held', 'released', 'charged', null] } },
    },
    fourEyes: { type: 'boolean' },
    keysAvailable: { type: 'boolean' },
    keyDownloads: {
      type: 'array',
      description: 'Administrator only',
      items: { type: 'object', properties: { username: text, at: text } },
    },
    actions: { type: 'array', items: text, description: 'What the caller may do with the order now' },
  },
};

export const profileSchema = {
  type: 'object',
  required: ['id', 'providerId', 'providerName', 'name', 'sponsorId', 'sponsorName', 'slotCount', 'simType', 'imsiPrefix', 'resellerId', 'status'],
  properties: {
    id: { type: 'integer' },
    providerId: { type: 'integer' },
    providerName: text,
    name: text,
    sponsorId: { type: 'integer' },
    sponsorName: text,
    slotCount: { type: 'integer' },
    simType: text,
    imsiPrefix: text,
    resellerId: nullableInt,
    resellerName: nullableText,
    status: { type: 'string', enum: ['pending', 'approved', 'denied'] },
    comment: nullableText,
    reviewReason: nullableText,
    reviewedAt: nullableText,
    createdAt: text,
  },
};

export const profileRequestBody = objectBody(
  {
    providerId: idSchema(),
    name: { type: 'string', minLength: 2, maxLength: 50, errorMessage: 'validation.name.invalid' },
    sponsorId: idSchema(),
    slotCount: { type: 'integer', minimum: 1, maximum: MAX_SLOTS, 'x-rule': 'range', errorMessage: 'order.slots.invalid' },
    simType: simTypeSchema,
    imsiPrefix: { type: 'string', maxLength: 10, pattern: '^\\d{5,10}$', errorMessage: 'validation.imsiPrefix.invalid' },
    resellerId: idSchema({ min: -2_147_483_648 }),
    comment: reasonSchema,
  },
  ['providerId', 'name', 'sponsorId', 'simType', 'imsiPrefix'],
  { name: 'validation.name.required', simType: 'order.simType.required', imsiPrefix: 'validation.imsiPrefix.invalid' },
);

export const reviewBody = objectBody({ approved: { type: 'boolean', errorMessage: 'validation.invalid' }, reason: reasonSchema }, ['approved']);

export const resourcesBody = objectBody(
  {
    slots: {
      type: 'array',
      maxItems: MAX_SLOTS,
      items: {
        type: 'object',
        required: ['slot', 'sponsorId'],
        additionalProperties: false,
        properties: {
          slot: { type: 'integer', minimum: 1, maximum: MAX_SLOTS, 'x-rule': 'range', errorMessage: 'order.slots.invalid' },
          sponsorId: idSchema(),
        },
      },
      errorMessage: { maxItems: 'order.slots.invalid' },
    },
  },
  ['slots'],
  { slots: 'order.resources.slot1Required' },
);

export const discountBody = objectBody(
  {
    description: { type: 'string', maxLength: 100, errorMessage: 'validation.max100' },
    rate: { type: 'number', minimum: 0, maximum: 100, 'x-rule': 'range', errorMessage: 'order.discount.rate' },
    value: { type: 'number', minimum: 0, maximum: 99_999_999, 'x-rule': 'range', errorMessage: 'order.discount.value' },
  },
  [],
);
