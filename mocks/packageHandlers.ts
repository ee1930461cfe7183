/**
 * Prepaid packages in memory: a subscriber's packages, the templates offered to them, assign, purchase (debited
 * from a per-reseller balance, refused with 409 when it cannot cover the price), expire, the sales page and the
 * balance. Templates themselves are the schema's rows (`tables.prepaidTemplate`), served by the entity handlers.
 * Subscribers are the rows `seedSubscribers` puts in `tables.subscriber`.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import { packageSchema, type PrepaidPackage } from '@shared/prepaid';
import { normaliseListRequest, pageInMemory } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import type { MockDatabase, MockUser, Row } from './data';
import { errorResponse, fieldError, forbiddenResponse, notFoundResponse, unauthorizedResponse } from './http';
import { callerOf, visibleResellerIds } from './session';
import { openApiHttp, type Answer } from './openapiHttp';

const DAY = 86_400_000;

/** Templates of Northwind (10) and Blue Sky (20), a package of subscriber 7, and the resellers' balances. */
export function seedPackages(db: MockDatabase) {
  const template = (id: number, name: string, resellerId: number, periodDays: number, price: number, dataMb: number): Row => ({
    id,
    name,
    resellerId,
    priority: 0,
    locationZoneId: 1,
    destinationZoneId: null,
    periodDays,
    moCallMinutes: 0,
    mtCallMinutes: 0,
    moSms: 20,
    mtSms: 20,
    price,
    dataMb,
    unlimitedData: false,
    bitrate: 0,
    slices: 1,
  });
  db.tables.prepaidTemplate = [
    template(1, 'Europe 30 days 5 GB', 10, 30, 19.99, 5120),
    template(2, 'Europe week pass 1 GB', 10, 7, 6.5, 1024),
    template(3, 'Americas 30 days', 20, 30, 45, 10240),
  ];
  const now = Date.now();
  db.tables.prepaidPackage = [
    packageRow(db, 1, 7, db.tables.prepaidTemplate[0], 'purchase', 'nora', new Date(now - 3 * DAY), { dataUsageMb: 1200.5, smsOutUsed: 4 }),
  ];
  db.tables.ledgerBalance = [
    { resellerId: 10, balance: 5000 },
    { resellerId: 11, balance: 750 },
    { resellerId: 20, balance: 2500 },
  ];
}

function packageRow(
  db: MockDatabase,
  id: number,
  subscriberId: number,
  template: Row,
  saleKind: 'assign' | 'purchase',
  soldBy: string,
  at: Date,
  extra: Partial<PrepaidPackage> = {},
  firstUse = false,
): Row {
  const subscriber = (db.tables.subscriber ?? []).find((s) => s.subscriberId === subscriberId);
  const periodDays = Number(template.periodDays);
  return {
    id,
    templateId: template.id,
    templateName: template.name,
    subscriberId,
    subscriberName: subscriber?.name,
    resellerId: subscriber?.resellerId ?? template.resellerId,
    accountId: subscriber?.accountId,
    locationZoneId: template.locationZoneId,
    periodDays,
    priority: template.priority,
    activationDate: firstUse ? undefined : at.toISOString(),
    expirationDate: firstUse ? undefined : new Date(at.getTime() + periodDays * DAY).toISOString(),
    mocMinutes: template.moCallMinutes,
    mtcMinutes: template.mtCallMinutes,
    smsOut: template.moSms,
    smsOutUsed: 0,
    smsIn: template.mtSms,
    smsInUsed: 0,
    bitrate: template.bitrate,
    dataMb: template.dataMb,
    unlimitedData: template.unlimitedData,
    dataUsageMb: 0,
    dataSlices: template.slices,
    status: firstUse ? 'pending' : 'active',
    price: saleKind === 'purchase' ? template.price : 0,
    saleKind,
    purchaseDate: at.toISOString(),
    paymentDate: saleKind === 'purchase' ? at.toISOString() : undefined,
    activateUponFirstUse: firstUse,
    soldBy,
    ...extra,
  };
}

const packagesOf = (db: MockDatabase) => (db.tables.prepaidPackage ??= []);

export function packageHandlers(db: MockDatabase, base: string): HttpHandler[] {
  const http = openApiHttp(base);
  /** The caller when signed in with one of the privileges, else the error response to send. */
  const caller = (request: Request, privileges: string[], sub?: string): MockUser | Response => {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!privileges.some((p) => hasPrivilege(user.privileges, p, sub))) return forbiddenResponse();
    return user;
  };
  const visibleSubscriber = (user: MockUser, id: number) =>
    (db.tables.subscriber ?? []).find((s) => s.subscriberId === id && visibleResellerIds(db, user).has(Number(s.resellerId)));
  const offered = (user: MockUser, subscriber: Row) =>
    (db.tables.prepaidTemplate ?? []).filter((t) => visibleResellerIds(db, user).has(Number(t.resellerId)) && t.resellerId === subscriber.resellerId);

  const sell = (kind: 'assign' | 'purchase') =>
    http.post(`/pre-paid-packages/${kind}` as const, async ({ request }) => {
      const user = caller(request, ['PrePaidPackages']);
      if (user instanceof Response) return user;
      const body = (await request.json()) as Row;
      for (const name of ['subscriberId', 'templateId']) {
        if (!Number.isInteger(body[name]))
          return errorResponse(400, 'VALIDATION_FAILED', 'Some fields are not valid', [fieldError(name, 'required', 'validation.select.required')]);
      }
      const subscriber = visibleSubscriber(user, Number(body.subscriberId));
      const template = subscriber && offered(user, subscriber).find((t) => t.id === body.templateId);
      if (!subscriber || !template) return notFoundResponse();
      if (kind === 'purchase') {
        const account = (db.tables.ledgerBalance ?? []).find((b) => b.resellerId === subscriber.resellerId);
        const left = Math.round((Number(account?.balance ?? 0) - Number(template.price)) * 100) / 100;
        if (!account || left < 0) {
          const field = fieldError('balance', 'insufficientBalance', 'ledger.insufficientBalance');
          return errorResponse(409, 'CONFLICT', field.message, [field]);
        }
        account.balance = left;
      }
      const id = Math.max(0, ...packagesOf(db).map((p) => Number(p.id))) + 1;
      const row = packageRow(db, id, subscriber.subscriberId as number, template, kind, user.username, new Date(), {}, body.activateUponFirstUse === true);
      packagesOf(db).push(row);
      return HttpResponse.json(row, { status: 201 });
    });

  return [
    http.get('/pre-paid-packages/list/{subscriberId}', ({ request, params }) => {
      const user = caller(request, ['PrePaidPackages']);
      if (user instanceof Response) return user;
      const subscriber = visibleSubscriber(user, Number(params.subscriberId));
      if (!subscriber) return notFoundResponse();
      const showExpired = new URL(request.url).searchParams.get('show_expired') === 'true';
      const rows = packagesOf(db).filter((p) => p.subscriberId === subscriber.subscriberId && (showExpired || p.status !== 'expired'));
      return HttpResponse.json({ subscriberPackages: [...rows].sort((a, b) => Number(b.id) - Number(a.id)) });
    }),
    http.get('/pre-paid-packages/templates', ({ request }) => {
      const user = caller(request, ['PrePaidTemplates', 'PrePaidPackages']);
      if (user instanceof Response) return user;
      const subscriberId = new URL(request.url).searchParams.get('subscriber_id');
      const subscriber = subscriberId ? visibleSubscriber(user, Number(subscriberId)) : undefined;
      if (subscriberId && !subscriber) return notFoundResponse();
      const rows = subscriber
        ? offered(user, subscriber)
        : (db.tables.prepaidTemplate ?? []).filter((t) => visibleResellerIds(db, user).has(Number(t.resellerId)));
      // The server answers the template list's fields, an empty one left out, the highest priority first.
      type Template = Answer<'/pre-paid-packages/templates', 'get'>[number];
      const choice = (t: Row): Template => {
        const zone = (table: string, id: unknown) => (db.tables[table] ?? []).find((z) => z.id === id)?.name;
        const optional = {
          locationZoneName: zone('locationZone', t.locationZoneId),
          destinationZoneId: t.destinationZoneId ?? undefined,
          destinationZoneName: t.destinationZoneId == null ? undefined : zone('destinationZone', t.destinationZoneId),
          dataMb: t.dataMb ?? undefined,
        };
        return {
          id: Number(t.id),
          name: String(t.name),
          resellerId: Number(t.resellerId),
          resellerName: db.resellers.find((r) => r.id === t.resellerId)?.name ?? '',
          priority: Number(t.priority ?? 0),
          locationZoneId: Number(t.locationZoneId),
          periodDays: Number(t.periodDays),
          price: Number(t.price),
          unlimitedData: t.unlimitedData === true,
          ...(Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined && v !== null)) as Partial<Template>),
        };
      };
      return HttpResponse.json(rows.map(choice).sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name)));
    }),
    sell('assign'),
    sell('purchase'),
    http.post('/pre-paid-packages/api/expire', async ({ request }) => {
      const user = caller(request, ['PrePaidPackages']);
      if (user instanceof Response) return user;
      const { packageId } = (await request.json()) as Row;
      const row = packagesOf(db).find((p) => p.id === packageId && visibleResellerIds(db, user).has(Number(p.resellerId)));
      if (!row) return notFoundResponse();
      if (row.status === 'expired') {
        const field = fieldError('packageId', 'expired', 'prepaid.package.alreadyExpired');
        return errorResponse(409, 'CONFLICT', field.message, [field]);
      }
      Object.assign(row, { status: 'expired', expirationDate: new Date().toISOString() });
      return HttpResponse.json(row);
    }),
    http.post('/pre-paid-packages/sales', async ({ request }) => {
      const user = caller(request, ['PrePaidPackages'], 'Sales');
      if (user instanceof Response) return user;
      const req = normaliseListRequest(packageSchema, (await request.json()) as ListRequest, user.resellerId === -1);
      return HttpResponse.json(
        pageInMemory(
          packageSchema,
          packagesOf(db).filter((p) => visibleResellerIds(db, user).has(Number(p.resellerId))),
          req,
        ),
      );
    }),
    http.get('/ledger/balance', ({ request }) => {
      const user = caller(request, ['PrePaidPackages', 'Resellers', 'PaymentMethods']);
      if (user instanceof Response) return user;
      const resellerId = Number(new URL(request.url).searchParams.get('reseller_id') ?? user.resellerId);
      if (!visibleResellerIds(db, user).has(resellerId)) return notFoundResponse();
      const row = (db.tables.ledgerBalance ?? []).find((b) => b.resellerId === resellerId);
      const balance = Number(row?.balance ?? 0);
      const creditLimit = Number(row?.creditLimit ?? 0);
      // The mock backend places no orders: nothing is held.
      return HttpResponse.json({ resellerId, balance, currency: 'USD', creditLimit, held: 0, availableCredit: creditLimit + balance });
    }),
  ];
}
