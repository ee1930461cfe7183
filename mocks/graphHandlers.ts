/**
 * The dashboard's calls in memory: deterministic series for the graph calls (`tables.graphEmpty` set to any row makes
 * every range answer zeros and no keys), the countries of the map, the trends, the top subscribers, the balance
 * summary and support requests (kept in `tables.supportTicket`). The privilege rules are the server's.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import type { MockDatabase, MockUser } from './data';
import { errorResponse, fieldError, forbiddenResponse, unauthorizedResponse } from './http';
import { callerOf } from './session';
import { openApiHttp } from './openapiHttp';

type RangeName = 'last24Hours' | 'last3Days' | 'day' | 'week' | 'last7Days' | 'last30Days' | 'last12Months' | 'month' | 'quarter' | 'year' | 'custom';
interface RangeBody {
  range?: RangeName;
  from?: string;
  to?: string;
}

const BUCKETS: Record<RangeName, { bucket: 'hour' | 'day' | 'month'; count: number }> = {
  last24Hours: { bucket: 'hour', count: 24 },
  last3Days: { bucket: 'hour', count: 72 },
  day: { bucket: 'hour', count: 24 },
  week: { bucket: 'day', count: 7 },
  last7Days: { bucket: 'day', count: 7 },
  last30Days: { bucket: 'day', count: 30 },
  last12Months: { bucket: 'month', count: 12 },
  month: { bucket: 'day', count: 30 },
  quarter: { bucket: 'day', count: 90 },
  year: { bucket: 'month', count: 12 },
  custom: { bucket: 'day', count: 10 },
};
const FROM = Date.parse('2026-11-01T00:00:00Z');
const STEP = { hour: 3_600_000, day: 86_400_000, month: 30 * 86_400_000 };

/** The range's buckets, from a fixed start so the answers never depend on the clock. */
function resolve(body: RangeBody, zone: string) {
  const range = body.range ?? 'last7Days';
  const { bucket, count } = BUCKETS[range];
  const starts = Array.from({ length: count }, (_, i) => new Date(FROM + i * STEP[bucket]).toISOString().replace('.000', ''));
  const to = new Date(FROM + count * STEP[bucket]).toISOString().replace('.000', '');
  return { range, timeZone: zone, bucket, from: starts[0], to, starts };
}

const local = (iso: string) => iso.slice(0, 16);

export function graphHandlers(db: MockDatabase, base: string): HttpHandler[] {
  const http = openApiHttp(base);
  const caller = (request: Request, privileges: string[]): MockUser | Response => {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!privileges.some((p) => hasPrivilege(user.privileges, p))) return forbiddenResponse();
    return user;
  };
  const empty = () => (db.tables.graphEmpty ?? []).length > 0;
  const zoneOf = (request: Request) => request.headers.get('x-time-zone') ?? 'UTC';
  const ranged = async (request: Request) => {
    const user = caller(request, ['Dashboard']);
    if (user instanceof Response) return user;
    const body = ((await request.json()) ?? {}) as RangeBody;
    if (body.range === 'custom' && (!body.from || !body.to))
      return errorResponse(400, 'VALIDATION_FAILED', 'Invalid', [fieldError('from', 'required', 'validation.date.invalid')]);
    return resolve(body, zoneOf(request));
  };
  const keyItems = (keys: [string, string | null][]) =>
    empty() ? [] : keys.map(([key, label], i) => ({ key, label, value: 100 - i * 20, count: 10 - i * 2 }));
  const shape = (r: ReturnType<typeof resolve>) => ({ range: r.range, timeZone: r.timeZone, bucket: r.bucket, from: r.from, to: r.to });

  return [
    http.post('/graphs/usage', async ({ request }) => {
      const r = await ranged(request);
      if (r instanceof Response) return r;
      return HttpResponse.json({
        ...shape(r),
        points: r.starts.map((start, i) => {
          const down = empty() ? 0 : ((i * 7919) % 13) * 1_048_576;
          return { start, local: local(start), value: down / 1_048_576, bytesUp: 0, bytesDown: down, records: empty() ? 0 : 3 };
        }),
      });
    }),
    http.post('/graphs/sales', async ({ request }) => {
      const r = await ranged(request);
      if (r instanceof Response) return r;
      return HttpResponse.json({
        ...shape(r),
        currency: 'USD',
        points: r.starts.map((start, i) => ({ start, local: local(start), value: empty() ? 0 : (i % 5) * 12.5, count: empty() ? 0 : i % 5 })),
      });
    }),
    ...(
      [
        [
          '/graphs/salesTotalByCountry',
          [
            ['DE', null],
            ['US', null],
            ['', null],
          ],
        ],
        [
          '/graphs/salesTotalByCustomer',
          [
            ['5', 'Harbor Logistics'],
            ['6', 'Alpine Fleet'],
          ],
        ],
        [
          '/graphs/salesTotalByOperator',
          [
            ['26201', 'Telekom'],
            ['', null],
          ],
        ],
        ['/graphs/salesTotalByVendor', [['1', 'Northwind Mobile']]],
      ] as const
    ).map(([path, keys]) =>
      http.post(path, async ({ request }) => {
        const r = await ranged(request);
        if (r instanceof Response) return r;
        return HttpResponse.json({ ...shape(r), currency: 'USD', items: keyItems(keys as unknown as [string, string | null][]) });
      }),
    ),
    http.post('/graphs/countries', async ({ request }) => {
      const r = await ranged(request);
      if (r instanceof Response) return r;
      const items = empty()
        ? []
        : [
            { country: 'DE', activeSims: 12, mb: 2048.5, sales: 120 },
            { country: 'US', activeSims: 7, mb: 512, sales: 40.5 },
            { country: 'NL', activeSims: 3, mb: 20, sales: 0 },
          ];
      return HttpResponse.json({ range: r.range, timeZone: r.timeZone, from: r.from, to: r.to, currency: 'USD', items });
    }),
    http.post('/graphs/trends', async ({ request }) => {
      const user = caller(request, ['Dashboard']);
      if (user instanceof Response) return user;
      return HttpResponse.json({
        usage: { last24Hours: 1200, previousDailyAverage: 1000, direction: 'up', percent: 20, unit: 'MB' },
        sales: { last24Hours: 40, previousDailyAverage: 50, direction: 'down', percent: -20, unit: 'USD' },
      });
    }),
    http.post('/graphs/balanceHistory', async ({ request }) => {
      const user = caller(request, ['PrePaidPackages', 'Resellers', 'PaymentMethods', 'Dashboard']);
      if (user instanceof Response) return user;
      const body = (await request.json()) as { from?: string; interval?: 'day' | 'week' | 'month' };
      const start = Date.parse(`${body.from ?? '2026-11-01'}T00:00:00Z`);
      return HttpResponse.json({
        resellerId: user.resellerId,
        currency: 'USD',
        interval: body.interval ?? 'day',
        points: Array.from({ length: 5 }, (_, i) => ({
          date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
          balance: 100 + i * 10,
          credits: 10,
          debits: 0,
        })),
      });
    }),
    http.post('/subscriber-info/top24Hours', async ({ request }) => {
      const user = caller(request, ['Subscribers', 'Dashboard']);
      if (user instanceof Response) return user;
      if (empty()) return HttpResponse.json([]);
      return HttpResponse.json([
        {
          subscriberId: 7,
          name: 'Truck 7',
          imsi: '204041200000007',
          accountId: 5,
          resellerId: user.resellerId,
          resellerName: 'Northwind Mobile',
          totalMb: 812.5,
          todayMb: 300,
          chargeUsd: 4.25,
          link: '/subscriber/7',
        },
        {
          subscriberId: 9,
          name: null,
          imsi: '204041200000009',
          accountId: 5,
          resellerId: user.resellerId,
          resellerName: 'Northwind Mobile',
          totalMb: 95,
          todayMb: 95,
          chargeUsd: 0,
          link: '/subscriber/9',
        },
      ]);
    }),
    http.get('/ledger/summary', ({ request }) => {
      const user = caller(request, ['PrePaidPackages', 'Resellers', 'PaymentMethods']);
      if (user instanceof Response) return user;
      const invoices = user.accountId == null && hasPrivilege(user.privileges, 'Resellers');
      return HttpResponse.json({
        resellerId: user.resellerId,
        currency: 'USD',
        balance: 250,
        totalDeposit: 1500,
        openBalance: 75.5,
        invoices: invoices ? [{ id: 3, number: 12, month: '2026-10', closingBalance: -75.5, status: 'open', dueDate: '2026-11-30T00:00:00Z' }] : null,
        transactions: [{ id: 44, kind: 'payment', amount: 500, reference: 'card', createdAt: '2026-11-20T10:00:00Z' }],
      });
    }),
    http.post('/support/tickets', async ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const body = (await request.json()) as { subject?: string; message?: string; category?: string };
      const errors = [
        ...(!body.subject?.trim() ? [fieldError('subject', 'minLength', 'support.subject.required')] : []),
        ...(!body.message?.trim() ? [fieldError('message', 'minLength', 'support.message.required')] : []),
      ];
      if (errors.length) return errorResponse(400, 'VALIDATION_FAILED', 'Invalid', errors);
      const tickets = (db.tables.supportTicket ??= []);
      const id = tickets.length + 1;
      tickets.push({ id, userId: user.id, ...body });
      return HttpResponse.json({ id }, { status: 201 });
    }),
  ];
}
