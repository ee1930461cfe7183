/** Response schemas of the subscriber routes: what each answers, so the document describes it and Fastify serialises it. */
import { pageSchema } from '../../http/input';

const int = { type: 'integer' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const num = { type: 'number' };
const time = { type: 'string', format: 'date-time' };
const orNull = (schema: Record<string, unknown>) => ({ ...schema, nullable: true });
const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', required, properties });
const arrayOf = (items: object) => ({ type: 'array', items });
/** Any JSON object, kept as it is. */
const freeObject = { type: 'object', additionalProperties: true };

export const messageSchema = object({ message: str });

/** An operation on a subscriber and its outcome; a failed one carries its error. */
export const operationSchema = object(
  {
    id: int,
    subscriberId: int,
    operation: str,
    status: { type: 'string', enum: ['pending', 'success', 'failed'] },
    request: { ...freeObject, description: 'What the operation was asked to do' },
    username: str,
    createdAt: time,
    finishedAt: orNull(time),
    error: object({ code: { type: 'string', enum: ['NETWORK_FAILED'] }, messageId: orNull(str), message: str, detail: orNull(str) }),
  },
  ['id', 'subscriberId', 'operation', 'status', 'request', 'username', 'createdAt', 'finishedAt'],
);

/** A billing operation, finished, with the subscriber as it now is. */
export const billingOperationSchema = {
  ...operationSchema,
  required: [...operationSchema.required, 'subscriber'],
  properties: {
    ...operationSchema.properties,
    subscriber: object({ subscriberId: int, balance: num, pricingPlanId: orNull(int), status: str }),
  },
};

export const qosSpeedLimitsSchema = arrayOf(object({ id: { ...str, description: 'The speed id' }, name: str, kbps: { ...int, description: 'The downlink' } }));

export const dailyLimitSchema = object({
  subscriberId: int,
  dailyLimitBytes: orNull(int),
  qosThrottling: { ...orNull(str), description: '`BLOCK` or a speed id; null without a limit' },
  usageTodayBytes: int,
  reached: bool,
  effect: { type: 'string', nullable: true, enum: ['blocked', 'throttled', null], description: 'Null while the limit is not reached' },
});

export const usablePlansSchema = arrayOf(object({ pricingPlanId: int, pricingPlanName: str }));

export const roamingProfileViewSchema = object({
  subscriberId: int,
  roamingProfileId: orNull(int),
  roamingProfile: orNull(object({ id: int, name: str, reference: str, slots: int, reviewState: str })),
  multiImsi: bool,
  lastHssUpdate: orNull(operationSchema),
});

const simStatus = { type: 'string', enum: ['inventory', 'active', 'suspended', 'retired'] };
const simType = { type: 'string', enum: ['physical', 'esim'] };
const simFields = {
  iccid: str,
  simType,
  status: simStatus,
  statusDate: time,
  profileType: orNull(str),
  batch: orNull(str),
  cost: orNull(num),
  serviceProviderName: orNull(str),
};

/** The SIM of a subscriber (`activationCode` for an eSIM). */
export const subscriberSimSchema = object({ ...simFields, activationCode: orNull(str) });

const simCardFields = { ...simFields, resellerId: int, resellerName: str, subscriberId: orNull(int), subscriberName: orNull(str) };
export const simCardSchema = object(simCardFields);
export const simCardDetailSchema = object({ ...simCardFields, activationCode: orNull(str) });

export const msisdnsSchema = arrayOf(object({ msisdn: str, isDefault: bool }));

export const sponsorImsisSchema = arrayOf(object({ imsi: str, sponsorId: orNull(int), sponsorName: orNull(str), pending: bool }));

export const auditLogSchema = arrayOf(
  object({ id: int, at: time, username: str, action: str, before: { ...freeObject, nullable: true }, after: { ...freeObject, nullable: true } }),
);

export const usageLogSchema = arrayOf(
  object({ id: int, at: time, imsi: str, requestType: str, plmn: orNull(str), apn: orNull(str), bytesUp: int, bytesDown: int, resultCode: int }),
);

export const networkEventsSchema = pageSchema(
  object({
    id: int,
    createdAt: time,
    protocol: str,
    operation: str,
    imsi: orNull(str),
    plmn: orNull(str),
    result: str,
    detail: orNull(str),
    subject: orNull(str),
    requestId: str,
  }),
);

export const chargesSchema = pageSchema(
  object({
    id: int,
    kind: { type: 'string', enum: ['credit', 'wallet', 'account'] },
    amount: num,
    description: orNull(str),
    accountId: int,
    username: str,
    createdAt: time,
  }),
);

export const migrationSchema = object({
  subscriberId: int,
  migrationStatus: { type: 'string', nullable: true, enum: ['pending', 'success', 'error', null], description: 'Null when never migrated' },
});

export const equipmentSchema = object({ imei: str, tac: str, make: str, model: str, deviceType: orNull(str) });
