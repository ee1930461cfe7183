/**
 * The subscriber detail page's calls beyond the schema's own: panels, operations and the daily limit. Network
 * operations answer pending and finish on the next poll of `GET /subscriber-info/operations/{id}`, failing
 * when a test asked for it with `failNextNetworkOperation`; a failure leaves the subscriber as it was.
 */
import { HttpResponse } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import { smsTextProblem } from '@shared/sms';
import type { MockDatabase, MockUser, Row } from './data';
import { errorResponse, fieldError, forbiddenResponse, messageText, notFoundResponse, unauthorizedResponse } from './http';
import { callerOf, isAdmin, resellerAndAncestors, visibleResellerIds } from './session';
import { openApiHttp, type Answer } from './openapiHttp';

type Operation = Answer<'/subscriber-info/operations/{id}', 'get'>;
type SimCard = Answer<'/sim-cards/{iccid}', 'get'>;
type SubscriberSim = Answer<'/subscriber-info/sim-info/{id}', 'get'>;
type Charge = Answer<'/subscriber-info/charges/{id}', 'post'>['items'][number];
type NetworkEvent = Answer<'/subscriber-info/network-events/{imsi}', 'post'>['items'][number];
type AuditEntry = Answer<'/subscriber-info/audit-logs/{id}', 'get'>[number];

const orNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const QOS_SPEED_LIMITS = [
  { id: '64kbps', name: '64 kbit/s', kbps: 64 },
  { id: '256kbps', name: '256 kbit/s', kbps: 256 },
  { id: '1Mbps', name: '1 Mbit/s', kbps: 1024 },
];

/** Two subscribers of Northwind's accounts, one with a plan and an eSIM, one without either. */
export function seedSubscribers(db: MockDatabase) {
  db.tables.subscriber = [
    {
      subscriberId: 7,
      name: 'Forklift 7',
      status: 'active',
      imsi: '901280000000007',
      iccid: '8988228000000000079',
      msisdn: '882280000007',
      deviceType: 'Router',
      device: 'Teltonika RUT240',
      imei: '864239040000008',
      country: 'DE',
      network: 'Telekom',
      lastLocationAt: '2026-11-20T08:00:00.000Z',
      balance: 12.5,
      accountId: 101,
      resellerId: 10,
      groupName: 'Warehouse',
      apn: 'iot.example',
      dailyLimitBytes: null,
      qosThrottling: null,
      usageTodayBytes: 52428800,
      pricingPlanId: 2,
      roamingProfileId: null,
      migrationStatus: null,
      custom: { contractRef: 'A-7', tier: 'Gold' },
    },
    {
      subscriberId: 8,
      name: 'Meter 8',
      status: 'active',
      imsi: '901280000000008',
      iccid: '8988228000000000087',
      msisdn: '882280000008',
      deviceType: null,
      device: null,
      imei: null,
      country: null,
      network: null,
      lastLocationAt: null,
      balance: 0,
      accountId: 102,
      resellerId: 10,
      groupName: null,
      apn: null,
      dailyLimitBytes: null,
      qosThrottling: null,
      usageTodayBytes: 0,
      pricingPlanId: null,
      roamingProfileId: null,
      migrationStatus: null,
    },
  ];
  db.tables.simCard = [
    {
      iccid: '8988228000000000079',
      simType: 'esim',
      status: 'active',
      statusDate: '2026-01-02T00:00:00.000Z',
      profileType: 'consumer',
      batch: 'B-1',
      cost: 2.5,
      serviceProviderName: 'Northwind',
      activationCode: 'LPA:1$smdp.example.com$ACT-0007',
    },
    {
      iccid: '8988228000000000087',
      simType: 'physical',
      status: 'active',
      statusDate: '2026-01-02T00:00:00.000Z',
      profileType: null,
      batch: 'B-1',
      cost: 1,
      serviceProviderName: null,
      activationCode: null,
    },
    {
      iccid: '8988228000000000095',
      simType: 'esim',
      status: 'inventory',
      statusDate: '2026-01-02T00:00:00.000Z',
      profileType: 'consumer',
      batch: 'B-2',
      cost: 1.2,
      serviceProviderName: 'Northwind',
      activationCode: 'LPA:1$smdp.example.com$ACT-0009',
      resellerId: 10,
    },
  ];
  db.tables.subscriberMsisdn = [
    { subscriberId: 7, msisdn: '882280000007' },
    { subscriberId: 7, msisdn: '882280000070' },
    { subscriberId: 8, msisdn: '882280000008' },
  ];
}

interface NetworkState {
  failures: string[];
}
const networks = new WeakMap<MockDatabase, NetworkState>();
const networkOf = (db: MockDatabase) => {
  let state = networks.get(db);
  if (!state) networks.set(db, (state = { failures: [] }));
  return state;
};

/** A network operation already under way when the page opens (started in another tab, say). */
export function pendingOperation(db: MockDatabase, subscriberId: number, operation: string, change: Row) {
  const rows = table(db, 'subscriberOperation');
  rows.push({ id: rows.length + 1, subscriberId, operation, status: 'pending', request: {}, username: 'nora', createdAt: now(), finishedAt: null, change });
}

/** The next network operation fails with `detail` (e.g. 'OTA delivery failed: …'). */
export function failNextNetworkOperation(db: MockDatabase, detail: string) {
  networkOf(db).failures.push(detail);
}

const table = (db: MockDatabase, name: string) => (db.tables[name] ??= []);
const now = () => new Date().toISOString();

function failureMessageId(operation: string, detail: string): string {
  if (operation === 'cancel-location') return 'subscriberOperation.failed.cancelLocation';
  if (/not online/i.test(detail)) return 'subscriberOperation.failed.notOnline';
  if (/\bOTA\b/.test(detail)) return 'subscriberOperation.failed.ota';
  return 'subscriberOperation.failed.network';
}

export function subscriberHandlers(db: MockDatabase, base: string) {
  const http = openApiHttp(base);
  /** The caller and the subscriber, when the caller may see it and holds the panel (403, 404 otherwise). */
  function access(request: Request, id: unknown, panel?: string): { user: MockUser; sub: Row } | Response {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!hasPrivilege(user.privileges, 'Subscribers')) return forbiddenResponse();
    if (panel && !isAdmin(user) && !hasPrivilege(user.privileges, 'SubscriberDetails', panel)) return forbiddenResponse();
    const sub = table(db, 'subscriber').find((r) => String(r.subscriberId) === String(id));
    if (!sub || !visibleResellerIds(db, user).has(Number(sub.resellerId))) return notFoundResponse();
    return { user, sub };
  }

  /** Plans of the subscriber's reseller or one above it, that the caller sees: what the server accepts. */
  function usablePlans(sub: Row, user: MockUser): Row[] {
    const owners = resellerAndAncestors(db, Number(sub.resellerId));
    const visible = visibleResellerIds(db, user);
    return (db.tables.pricingPlan ?? [])
      .filter((p) => owners.has(Number(p.resellerId)) && visible.has(Number(p.resellerId)))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  }

  function audit(sub: Row, user: MockUser, action: string, after: Row) {
    const before = Object.fromEntries(Object.keys(after).map((k) => [k, sub[k] ?? null]));
    Object.assign(sub, after);
    const rows = table(db, 'subscriberAudit');
    rows.unshift({ id: rows.length + 1, subscriberId: sub.subscriberId, at: now(), username: user.username, action, before, after });
  }

  function record(sub: Row, user: MockUser, operation: string, status: string, change?: Row, request: Row = {}) {
    const rows = table(db, 'subscriberOperation');
    const op: Row = {
      id: rows.length + 1,
      subscriberId: sub.subscriberId,
      operation,
      status,
      request,
      username: user.username,
      createdAt: now(),
      finishedAt: status === 'pending' ? null : now(),
      change,
      user: user.username,
    };
    rows.push(op);
    return op;
  }

  /** An operation as the server answers it; a failed one with its error. */
  const wire = (op: Row): Operation => ({
    id: Number(op.id),
    subscriberId: Number(op.subscriberId),
    operation: String(op.operation),
    status: op.status as Operation['status'],
    request: (op.request ?? {}) as Row,
    username: String(op.username),
    createdAt: String(op.createdAt),
    finishedAt: orNull(op.finishedAt),
    ...(op.status === 'failed'
      ? { error: { code: 'NETWORK_FAILED' as const, messageId: orNull(op.failure), message: messageText(String(op.failure)), detail: null } }
      : {}),
  });
  /** A billing operation, finished, with the subscriber as it now is. */
  const billed = (op: Row, sub: Row): Answer<'/subscriber-info/api/', 'post'> => ({
    ...wire(op),
    subscriber: {
      subscriberId: Number(sub.subscriberId),
      balance: Number(sub.balance ?? 0),
      pricingPlanId: numberOrNull(sub.pricingPlanId),
      status: String(sub.status ?? 'active'),
    },
  });
  const simFields = (card: Row): SubscriberSim => ({
    iccid: String(card.iccid),
    simType: card.simType as SubscriberSim['simType'],
    status: card.status as SubscriberSim['status'],
    statusDate: String(card.statusDate),
    profileType: orNull(card.profileType),
    batch: orNull(card.batch),
    cost: numberOrNull(card.cost),
    serviceProviderName: orNull(card.serviceProviderName),
    activationCode: orNull(card.activationCode),
  });

  /** The SIM cards the caller sees, in ICCID order, with the reseller and the subscriber each is in service with. */
  function simCards(user: MockUser): SimCard[] {
    return table(db, 'simCard')
      .map((card): SimCard => {
        const sub = table(db, 'subscriber').find((r) => r.iccid === card.iccid);
        const resellerId = Number(card.resellerId ?? sub?.resellerId);
        return {
          ...simFields(card),
          resellerId,
          resellerName: db.resellers.find((r) => r.id === resellerId)?.name ?? '',
          subscriberId: numberOrNull(sub?.subscriberId),
          subscriberName: orNull(sub?.name),
        };
      })
      .filter((c) => visibleResellerIds(db, user).has(Number(c.resellerId)))
      .sort((a, b) => String(a.iccid).localeCompare(String(b.iccid)));
  }

  /** A network operation: pending now, applied (or failed) at the next poll. */
  function network(sub: Row, user: MockUser, operation: string, change: Row = {}) {
    if (table(db, 'subscriberOperation').some((o) => o.subscriberId === sub.subscriberId && o.status === 'pending')) {
      return errorResponse(409, 'CONFLICT', 'pending', [fieldError('subscriberId', 'pending', 'error.operation.pending')]);
    }
    const op = record(sub, user, operation, 'pending', change);
    op.failure = networkOf(db).failures.shift();
    return HttpResponse.json(wire({ ...op, failure: undefined }), { status: 202 });
  }

  return [
    http.get('/reseller-info/api/qos-speed-limits', ({ request }) => (callerOf(db, request) ? HttpResponse.json(QOS_SPEED_LIMITS) : unauthorizedResponse())),

    http.get('/subscriber-info/daily-limit/{id}', ({ request, params }) => {
      const found = access(request, params.id);
      if (found instanceof Response) return found;
      const { sub } = found;
      const limit = (sub.dailyLimitBytes as number | null) ?? null;
      const usage = Number(sub.usageTodayBytes ?? 0);
      const reached = limit !== null && usage >= limit;
      const qos = limit === null ? null : ((sub.qosThrottling as string | null) ?? 'BLOCK');
      return HttpResponse.json({
        subscriberId: Number(sub.subscriberId),
        dailyLimitBytes: limit,
        qosThrottling: qos,
        usageTodayBytes: usage,
        reached,
        effect: !reached ? null : qos === 'BLOCK' ? 'blocked' : 'throttled',
      });
    }),

    http.post('/subscriber-info/daily-limit', async ({ request }) => {
      const body = (await request.json()) as Row;
      const limit = body.dailyLimitBytes;
      if (limit === undefined || limit === null)
        return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('dailyLimitBytes', 'required', 'validation.dailyLimit.required')]);
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0)
        return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('dailyLimitBytes', 'exclusiveMinimum', 'validation.dailyLimit.positive')]);
      const found = access(request, body.subscriberId);
      if (found instanceof Response) return found;
      const qos = (body.qosThrottling as string | undefined) ?? 'BLOCK';
      audit(found.sub, found.user, 'daily-limit', { dailyLimitBytes: limit, qosThrottling: qos });
      const usage = Number(found.sub.usageTodayBytes ?? 0);
      return HttpResponse.json({
        subscriberId: Number(found.sub.subscriberId),
        dailyLimitBytes: limit,
        qosThrottling: qos,
        usageTodayBytes: usage,
        reached: usage >= limit,
        effect: usage < limit ? null : qos === 'BLOCK' ? 'blocked' : 'throttled',
      });
    }),

    http.get('/subscriber-info/{id}/pricing-plans', ({ request, params }) => {
      const found = access(request, params.id, 'Services');
      if (found instanceof Response) return found;
      return HttpResponse.json(usablePlans(found.sub, found.user).map((p) => ({ pricingPlanId: Number(p.id), pricingPlanName: String(p.name) })));
    }),

    http.post('/subscriber-info/api/', async ({ request }) => {
      const body = (await request.json()) as Row;
      const panels: Record<string, string> = {
        suspend: 'Status',
        reactivate: 'Status',
        'refresh-sim': 'IccidSim',
        'modify-msisdn': 'Msisdn',
        'pricing-plan': 'Services',
        credit: 'Services',
      };
      const operation = String(body.operation);
      if (!panels[operation]) return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('operation', 'enum', 'validation.operation.invalid')]);
      const found = access(request, body.subscriberId, panels[operation]);
      if (found instanceof Response) return found;
      const { sub, user } = found;
      if (operation === 'suspend' || operation === 'reactivate') {
        const target = operation === 'suspend' ? 'suspended' : 'active';
        if (sub.status === target)
          return errorResponse(409, 'CONFLICT', 'state', [
            fieldError('operation', 'state', operation === 'suspend' ? 'validation.status.alreadySuspended' : 'validation.status.alreadyActive'),
          ]);
        return network(sub, user, operation, { status: target });
      }
      if (operation === 'refresh-sim') return network(sub, user, operation);
      if (operation === 'modify-msisdn') return network(sub, user, operation, { msisdn: body.msisdn });
      if (operation === 'pricing-plan') {
        if (!usablePlans(sub, user).some((p) => p.id === body.pricingPlanId))
          return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('pricingPlanId', 'reference', 'validation.pricingPlan.unknown')]);
        audit(sub, user, operation, { pricingPlanId: body.pricingPlanId });
        return HttpResponse.json(billed(record(sub, user, operation, 'success', undefined, body), sub));
      }
      if (sub.pricingPlanId === null || sub.pricingPlanId === undefined)
        return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('pricingPlanId', 'planBeforeCredit', 'validation.credit.planRequired')]);
      audit(sub, user, operation, { balance: Number(sub.balance ?? 0) + Number(body.amount) });
      table(db, 'subscriberCharge').unshift({
        id: table(db, 'subscriberCharge').length + 1,
        subscriberId: sub.subscriberId,
        kind: 'credit',
        amount: Number(body.amount),
        description: body.description ?? null,
        accountId: sub.accountId,
        username: user.username,
        createdAt: now(),
      });
      return HttpResponse.json(billed(record(sub, user, operation, 'success', undefined, body), sub));
    }),

    http.get('/subscriber-info/operations/{id}', ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const op = table(db, 'subscriberOperation').find((o) => String(o.id) === String(params.id));
      if (!op) return notFoundResponse();
      if (op.status === 'pending') {
        // The first poll still finds it pending; the network answers before the second.
        if (!op.polled) op.polled = true;
        else {
          const sub = table(db, 'subscriber').find((r) => r.subscriberId === op.subscriberId)!;
          if (op.failure) {
            Object.assign(op, { status: 'failed', failure: failureMessageId(String(op.operation), String(op.failure)), finishedAt: now() });
          } else {
            if (op.change && Object.keys(op.change as Row).length) audit(sub, user, String(op.operation), op.change as Row);
            Object.assign(op, { status: 'success', finishedAt: now() });
          }
        }
      }
      const { polled: _p, ...rest } = op;
      return HttpResponse.json(wire(rest));
    }),

    http.get('/subscriber-info/{id}/operations', ({ request, params }) => {
      const found = access(request, params.id);
      if (found instanceof Response) return found;
      const rows = table(db, 'subscriberOperation')
        .filter((o) => o.subscriberId === found.sub.subscriberId)
        .reverse();
      return HttpResponse.json(rows.map(({ polled: _p, ...op }) => wire(op)));
    }),

    http.post('/subscriber-info/{id}/cancel-location', ({ request, params }) => {
      const found = access(request, params.id, 'Location');
      return found instanceof Response ? found : network(found.sub, found.user, 'cancel-location', { network: null, country: null });
    }),

    http.post('/subscriber-info/{id}/sms', async ({ request, params }) => {
      const found = access(request, params.id, 'NetworkEvents');
      if (found instanceof Response) return found;
      const { text } = (await request.json()) as { text?: unknown };
      const problem = typeof text === 'string' ? smsTextProblem(text) : 'validation.sms.required';
      if (problem)
        return errorResponse(400, 'VALIDATION_FAILED', 'Validation failed', [
          fieldError('text', problem === 'validation.sms.tooLong' ? 'maxLength' : 'required', problem),
        ]);
      return network(found.sub, found.user, 'send-sms');
    }),

    http.post('/subscribers/{id}/allowed-networks', ({ request, params }) => {
      const found = access(request, params.id, 'AllowedNetworks');
      return found instanceof Response ? found : network(found.sub, found.user, 'reset-allowed-networks');
    }),

    http.get('/subscribers/{id}/roaming-profile', ({ request, params }) => {
      const found = access(request, params.id, 'RoamingProfile');
      if (found instanceof Response) return found;
      return HttpResponse.json({
        subscriberId: Number(found.sub.subscriberId),
        roamingProfileId: null,
        roamingProfile: null,
        multiImsi: false,
        lastHssUpdate: null,
      });
    }),

    http.get('/subscriber-info/sim-info/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'IccidSim');
      if (found instanceof Response) return found;
      const sim = table(db, 'simCard').find((c) => c.iccid === found.sub.iccid);
      return sim ? HttpResponse.json(simFields(sim)) : notFoundResponse();
    }),

    http.get('/sim-cards', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const query = new URL(request.url).searchParams;
      const page = Number(query.get('page') ?? 0);
      const size = Number(query.get('size') ?? 50);
      const rows = simCards(user).filter(
        (c) =>
          c.iccid.includes(query.get('searchKey') ?? '') &&
          (!query.get('simType') || c.simType === query.get('simType')) &&
          (!query.get('status') || c.status === query.get('status')),
      );
      const items = rows.map(({ activationCode: _a, ...c }) => c).slice(page * size, (page + 1) * size);
      return HttpResponse.json({ items, totalPageCount: Math.ceil(rows.length / size), totalItemsCount: rows.length, currentPage: page });
    }),

    http.get('/sim-cards/{iccid}', ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const card = simCards(user).find((c) => c.iccid === params.iccid);
      return card ? HttpResponse.json(card) : errorResponse(404, 'NOT_FOUND', messageText('error.simCard.notFound'));
    }),

    http.post('/sim-cards/{iccid}', async ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const { email } = (await request.json()) as Row;
      if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('email', 'format', 'validation.email.invalid')]);
      const sim = table(db, 'simCard').find((c) => c.iccid === params.iccid);
      if (!sim) return errorResponse(404, 'NOT_FOUND', messageText('error.simCard.notFound'));
      table(db, 'outbox').push({ to: email, iccid: sim.iccid });
      return HttpResponse.json({ message: messageText('simCard.qrSent') });
    }),

    http.get('/msisdn/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'Msisdn');
      if (found instanceof Response) return found;
      const rows = table(db, 'subscriberMsisdn').filter((m) => m.subscriberId === found.sub.subscriberId);
      return HttpResponse.json(rows.map((m) => ({ msisdn: String(m.msisdn), isDefault: m.msisdn === found.sub.msisdn })));
    }),

    http.post('/msisdn/{id}/modify-default', async ({ request, params }) => {
      const { msisdn } = (await request.json()) as Row;
      const found = access(request, params.id, 'Msisdn');
      if (found instanceof Response) return found;
      const own = table(db, 'subscriberMsisdn').filter((m) => m.subscriberId === found.sub.subscriberId);
      if (!own.some((m) => m.msisdn === msisdn)) return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('msisdn', 'own', 'validation.msisdn.notOwn')]);
      if (found.sub.msisdn === msisdn) return errorResponse(409, 'CONFLICT', 'state', [fieldError('msisdn', 'state', 'validation.msisdn.alreadyDefault')]);
      return network(found.sub, found.user, 'msisdn-default', { msisdn });
    }),

    http.get('/subscriber-info/sponsor-imsis/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'SponsorImsis');
      return found instanceof Response ? found : HttpResponse.json([]);
    }),

    http.get('/subscriber-info/audit-logs/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'AuditLogs');
      if (found instanceof Response) return found;
      return HttpResponse.json(
        table(db, 'subscriberAudit')
          .filter((a) => a.subscriberId === found.sub.subscriberId)
          .map((a): AuditEntry => ({
            id: Number(a.id),
            at: String(a.at),
            username: String(a.username),
            action: String(a.action),
            before: (a.before ?? null) as AuditEntry['before'],
            after: (a.after ?? null) as AuditEntry['after'],
          })),
      );
    }),

    http.get('/subscriber-info/usage-logs/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'UsageLogs');
      if (found instanceof Response) return found;
      return HttpResponse.json([
        {
          id: 2,
          at: '2026-11-20T08:05:00.000Z',
          imsi: String(found.sub.imsi),
          requestType: 'UPDATE',
          plmn: '26201',
          apn: 'iot.example',
          bytesUp: 2048,
          bytesDown: 1048576,
          resultCode: 2001,
        },
        {
          id: 1,
          at: '2026-11-20T08:00:00.000Z',
          imsi: String(found.sub.imsi),
          requestType: 'INITIAL',
          plmn: '26201',
          apn: 'iot.example',
          bytesUp: 0,
          bytesDown: 0,
          resultCode: 2001,
        },
      ]);
    }),

    http.post('/subscriber-info/network-events/{imsi}', async ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const sub = table(db, 'subscriber').find((r) => r.imsi === params.imsi);
      if (!sub) return notFoundResponse();
      const found = access(request, sub.subscriberId, 'NetworkEvents');
      if (found instanceof Response) return found;
      const { page } = (await request.json()) as { page: { page: number; size: number } };
      const events = table(db, 'subscriberOperation')
        .filter((o) => o.subscriberId === sub.subscriberId && o.status !== 'pending')
        .map((o): NetworkEvent => ({
          id: Number(o.id),
          createdAt: String(o.finishedAt),
          protocol: 'Diameter',
          operation: String(o.operation),
          imsi: orNull(sub.imsi),
          plmn: null,
          result: o.status === 'success' ? 'success' : 'failure',
          detail: null,
          subject: null,
          requestId: `mock-${String(o.id)}`,
        }))
        .reverse();
      const items = events.slice(page.page * page.size, (page.page + 1) * page.size);
      return HttpResponse.json({
        items,
        totalItemsCount: events.length,
        totalPageCount: Math.max(1, Math.ceil(events.length / page.size)),
        currentPage: page.page,
      });
    }),

    // Untyped body: the answer is a CSV file streamed from the database, which the document describes no JSON schema for.
    http.post('/subscriber-info/network-events/{imsi}/download', ({ response }) =>
      response.untyped(
        new HttpResponse('\uFEFFcreatedAt,protocol,operation\r\n', {
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="network-events.csv"' },
        }),
      ),
    ),

    http.post('/subscriber-info/charges/{id}', async ({ request, params }) => {
      const found = access(request, params.id, 'Services');
      if (found instanceof Response) return found;
      const { page } = (await request.json()) as { page: { page: number; size: number } };
      const rows = table(db, 'subscriberCharge')
        .filter((c) => c.subscriberId === found.sub.subscriberId)
        .map((c): Charge => ({
          id: Number(c.id),
          kind: c.kind as Charge['kind'],
          amount: Number(c.amount),
          description: orNull(c.description),
          accountId: Number(c.accountId ?? found.sub.accountId),
          username: String(c.username),
          createdAt: String(c.createdAt),
        }));
      return HttpResponse.json({
        items: rows.slice(page.page * page.size, (page.page + 1) * page.size),
        totalItemsCount: rows.length,
        totalPageCount: Math.max(1, Math.ceil(rows.length / page.size)),
        currentPage: page.page,
      });
    }),

    http.get('/summa/subscriber-migration/{id}', ({ request, params }) => {
      const found = access(request, params.id, 'MigrationStatus');
      return found instanceof Response
        ? found
        : HttpResponse.json({
            subscriberId: Number(found.sub.subscriberId),
            migrationStatus: (found.sub.migrationStatus ?? null) as Answer<'/summa/subscriber-migration/{id}', 'get'>['migrationStatus'],
          });
    }),

    http.post('/misc/equipment', async ({ request }) => {
      if (!callerOf(db, request)) return unauthorizedResponse();
      const { imei } = (await request.json()) as { imei?: string };
      if (!imei || !/^\d{14,16}$/.test(imei)) return errorResponse(400, 'VALIDATION', 'invalid', [fieldError('imei', 'pattern', 'validation.imei.invalid')]);
      if (imei.startsWith('86423904')) return HttpResponse.json({ imei, tac: '86423904', make: 'Teltonika', model: 'RUT240', deviceType: 'Router' });
      return errorResponse(404, 'NOT_FOUND', messageText('error.equipment.unknown'));
    }),
  ];
}
