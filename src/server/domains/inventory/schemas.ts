/** Response schemas of the inventory routes. */
const int = { type: 'integer' };
const str = { type: 'string' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time' };
const orNull = (schema: Record<string, unknown>) => ({ ...schema, nullable: true });
const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', required, properties });
const arrayOf = (items: object) => ({ type: 'array', items });
const pageOf = (item: object) => object({ items: arrayOf(item), totalItemsCount: int, totalPageCount: int, currentPage: int });

export const simBatchSchema = object({ batchId: int, name: str, iccidStart: str, iccidEnd: str, quantity: int });

export const rangeSchema = object({
  batchId: int,
  name: str,
  resellerId: int,
  resellerName: str,
  simType: str,
  rangeStart: str,
  rangeEnd: str,
  total: int,
  allocated: int,
  available: int,
  firstAvailable: orNull(str),
  serviceProviderName: orNull(str),
  createdAt: time,
});

export const stockSchema = object({
  resellerId: int,
  resellerName: str,
  available: int,
  perDay: num,
  daysLeft: orNull(num),
  nextRange: orNull(str),
  nextRangeDaysLeft: orNull(num),
  low: bool,
});

export const rangesSchema = object({ ranges: arrayOf(rangeSchema), stock: arrayOf(stockSchema) });

export const assignResultSchema = object({ accountId: int, assigned: int, firstSubscriberId: orNull(int), lastSubscriberId: orNull(int) });

export const msisdnSuppliersSchema = arrayOf(object({ id: int, name: str, country: orNull(str), total: int, free: int }));
export const msisdnCountriesSchema = arrayOf(object({ country: str, total: int, free: int }));
export const msisdnPageSchema = pageOf(
  object({
    msisdn: str,
    country: str,
    supplierId: int,
    supplierName: str,
    resellerId: int,
    resellerName: str,
    subscriberId: orNull(int),
    assigned: bool,
  }),
);

export const devicePageSchema = pageOf(
  object({
    imei: str,
    tac: str,
    make: orNull(str),
    model: orNull(str),
    deviceType: orNull(str),
    subscriberId: int,
    subscriberName: orNull(str),
    iccid: str,
    imsi: str,
    simType: orNull(str),
    activationCode: orNull(str),
    accountName: str,
    resellerName: str,
    lastSeenAt: orNull(time),
    changes: int,
  }),
);

export const imeiChangesSchema = arrayOf(
  object({ id: int, at: time, iccid: str, imei: orNull(str), previousImei: orNull(str), make: orNull(str), model: orNull(str) }),
);
