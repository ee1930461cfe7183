/**
 * Reseller pricing in memory: the plans assigned to the mock resellers, their prices per network and zone, the
 * paged price list with its CSV, and the margin preview. Prices are kept in millionths, so the margins read as
 * exactly as the server's numeric arithmetic gives them.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { csvLine } from '@shared/csv';
import { hasPrivilege } from '@shared/privileges';
import {
  MARGIN_FIELDS,
  networkPriceSchema,
  PRICE_CSV_FIELDS,
  type AreaPrice,
  type CountryPrice,
  type MarginRow,
  type NetworkPrice,
  type ResellerPricingSummary,
  type ZonePrice,
} from '@shared/resellerPricing';
import { ListRequestError, normaliseListRequest, pageInMemory } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import type { MockDatabase, MockUser, Row } from './data';
import { errorResponse, fieldError, forbiddenResponse, notFoundResponse, unauthorizedResponse } from './http';
import { callerOf, isAdmin, visibleResellerIds } from './session';
import { openApiHttp } from './openapiHttp';

interface MockPlan {
  id: number;
  name: string;
  resellerId: number;
  currency: string;
  useDefaultPrices: boolean;
  /** plmn → [dataRate, moCallRate, moSmsRate]. */
  rules: Record<string, [number, number, number]>;
}

const NETWORKS: [string, string, string, string][] = [
  ['DE', '262', '01', 'Telekom Deutschland'],
  ['DE', '262', '02', 'Vodafone Germany'],
  ['FR', '208', '01', 'Orange France'],
  ['CH', '228', '01', 'Swisscom'],
  ['IL', '425', '01', 'Partner'],
];

/** Plans and their assignment: the provider's plan prices Northwind (10) and Blue Sky (20); Northwind's prices Harbor IoT (11). */
export function seedResellerPricing(db: MockDatabase) {
  const plans: MockPlan[] = [
    {
      id: 1,
      name: 'Provider Standard',
      resellerId: -1,
      currency: 'EUR',
      useDefaultPrices: true,
      rules: { 26201: [0.002, 0.06, 0.02], 22801: [0.018, 0.06, 0.02] },
    },
    {
      id: 2,
      name: 'Northwind Europe',
      resellerId: 10,
      currency: 'EUR',
      useDefaultPrices: false,
      rules: { 26201: [0.0035, 0.09, 0.04], 20801: [0.0038, 0.09, 0.04], 22801: [0.015, 0.09, 0.04] },
    },
    { id: 3, name: 'Northwind Premium', resellerId: 10, currency: 'EUR', useDefaultPrices: true, rules: { 26201: [0.005, 0.12, 0.05] } },
  ];
  db.tables.resellerPricingPlan = plans as unknown as Row[];
  db.tables.resellerPricingAssignment = [
    { resellerId: 10, planId: 1 },
    { resellerId: 11, planId: 2 },
    { resellerId: 20, planId: 1 },
  ];
}

const DEFAULTS: [number, number, number] = [0.008, 0.1, 0.03];
const plansOf = (db: MockDatabase) => (db.tables.resellerPricingPlan ?? []) as unknown as MockPlan[];
const planOfReseller = (db: MockDatabase, resellerId: number) => {
  const id = (db.tables.resellerPricingAssignment ?? []).find((a) => a.resellerId === resellerId)?.planId;
  return plansOf(db).find((p) => p.id === id);
};

function prices(plan: MockPlan | undefined): (NetworkPrice & Row)[] {
  if (!plan) return [];
  return NETWORKS.flatMap(([country, mcc, mnc, network]) => {
    const plmn = `${mcc}${mnc}`;
    const rule = plan.rules[plmn];
    if (!rule && !plan.useDefaultPrices) return [];
    const [dataRate, moCallRate, moSmsRate] = rule ?? DEFAULTS;
    return [
      {
        country,
        mcc,
        mnc,
        plmn,
        network,
        source: rule ? 'rule' : 'default',
        currency: plan.currency,
        dataRate,
        moCallRate,
        mtCallRate: 0.01,
        moSmsRate,
        mtSmsRate: 0,
      } satisfies NetworkPrice as NetworkPrice & Row,
    ];
  });
}

const micro = (v: number) => Math.round(v * 1e6);

export function resellerPricingHandlers(db: MockDatabase, base: string): HttpHandler[] {
  const http = openApiHttp(base);
  const caller = (request: Request): MockUser | ReturnType<typeof unauthorizedResponse> => {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!hasPrivilege(user.privileges, 'Pricing')) return forbiddenResponse();
    return user;
  };
  /** The reseller asked for (`reseller_id`, else the caller's), when in the caller's subtree. */
  const priced = (request: Request, user: MockUser) => {
    const raw = new URL(request.url).searchParams.get('reseller_id');
    const id = raw === null ? user.resellerId : Number(raw);
    return visibleResellerIds(db, user).has(id) ? db.resellers.find((r) => r.id === id) : undefined;
  };
  const listOf = async (request: Request, user: MockUser) => {
    const body = (await request.json().catch(() => ({}))) as ListRequest;
    return normaliseListRequest(networkPriceSchema, body, isAdmin(user));
  };
  /** Runs `handler` for the priced reseller; the answer keeps the handler's type, so the document checks its body. */
  const scoped =
    <T extends Response>(handler: (request: Request, user: MockUser, resellerId: number) => Promise<T> | T) =>
    async ({ request }: { request: Request }) => {
      const user = caller(request);
      if (user instanceof Response) return user;
      const reseller = priced(request, user);
      if (!reseller) return notFoundResponse();
      try {
        return await handler(request, user, reseller.id);
      } catch (e) {
        if (e instanceof ListRequestError)
          return errorResponse(400, 'VALIDATION_FAILED', 'Some fields are not valid', [fieldError(e.field, e.rule, e.messageId)]);
        throw e;
      }
    };
  /** The highest rate of each kind among the priced networks of these countries. */
  const areaPrice = (resellerId: number, countries: string[]): AreaPrice => {
    const inArea = prices(planOfReseller(db, resellerId)).filter((p) => countries.includes(p.country));
    const max = (f: 'dataRate' | 'moCallRate' | 'mtCallRate' | 'moSmsRate' | 'mtSmsRate') =>
      inArea.length ? Math.max(...inArea.map((p) => p[f] as number)) : null;
    return {
      currency: inArea[0]?.currency ?? 'EUR',
      networkCount: inArea.length,
      dataRate: max('dataRate'),
      moCallRate: max('moCallRate'),
      mtCallRate: max('mtCallRate'),
      moSmsRate: max('moSmsRate'),
      mtSmsRate: max('mtSmsRate'),
    };
  };
  const zones = (resellerId: number, kind: 'location' | 'destination'): ZonePrice[] => {
    const zone = (zoneId: number, zoneName: string, countries: string[]): ZonePrice => ({ zoneId, zoneName, countries, ...areaPrice(resellerId, countries) });
    return kind === 'location' ? [zone(1, 'Europe', ['DE', 'FR', 'CH'])] : [zone(2, 'EU calls', ['DE', 'FR'])];
  };
  const countries = (resellerId: number): CountryPrice[] =>
    [...new Set(prices(planOfReseller(db, resellerId)).map((p) => p.country))].sort().map((country) => ({ country, ...areaPrice(resellerId, [country]) }));

  return [
    http.get(
      '/reseller-pricing',
      scoped((request, user, resellerId) => {
        const plan = planOfReseller(db, resellerId);
        const visible = visibleResellerIds(db, user);
        const reseller = db.resellers.find((r) => r.id === resellerId)!;
        const summary = (id: number) => {
          const r = db.resellers.find((x) => x.id === id)!;
          return { id: r.id, name: r.name, parentId: r.parentId, pricingPlanId: planOfReseller(db, r.id)?.id ?? null };
        };
        const body: ResellerPricingSummary = {
          reseller: summary(reseller.id),
          plan: plan
            ? {
                id: plan.id,
                name: plan.name,
                currency: plan.currency,
                usdConvertRate: 1.085,
                useDefaultPrices: plan.useDefaultPrices,
                defaults: { data: DEFAULTS[0], outgoingVoice: DEFAULTS[1], incomingVoice: 0.01, moSms: DEFAULTS[2], mtSms: 0 },
              }
            : null,
          resellers: db.resellers.filter((r) => visible.has(r.id)).map((r) => summary(r.id)),
          subResellers: db.resellers.filter((r) => r.parentId === user.resellerId).map((r) => summary(r.id)),
          assignablePlans: plansOf(db)
            .filter((p) => p.resellerId === user.resellerId)
            .map((p) => ({ id: p.id, name: p.name, currency: p.currency })),
        };
        return HttpResponse.json(body);
      }),
    ),
    http.get(
      '/reseller-pricing/networks',
      scoped((_r, _u, resellerId) => HttpResponse.json({ items: prices(planOfReseller(db, resellerId)) })),
    ),
    http.get(
      '/reseller-pricing/countries',
      scoped((_r, _u, resellerId) => HttpResponse.json({ items: countries(resellerId) })),
    ),
    http.get(
      '/reseller-pricing/location-zones',
      scoped((_r, _u, resellerId) => HttpResponse.json({ items: zones(resellerId, 'location') })),
    ),
    http.get(
      '/reseller-pricing/destination-zones',
      scoped((_r, _u, resellerId) => HttpResponse.json({ items: zones(resellerId, 'destination') })),
    ),
    http.post(
      '/reseller-pricing/paged',
      scoped(async (request, user, resellerId) =>
        HttpResponse.json(pageInMemory(networkPriceSchema, prices(planOfReseller(db, resellerId)), await listOf(request, user))),
      ),
    ),
    // Untyped body: the answer is a CSV file streamed from the database, which the document describes no JSON schema for
    // (a plain Response, as `response.untyped` would give).
    http.post(
      '/reseller-pricing/download',
      scoped(async (request, user, resellerId) => {
        const rows = prices(planOfReseller(db, resellerId));
        const { items } = pageInMemory(networkPriceSchema, rows, { ...(await listOf(request, user)), page: 0, size: Math.max(1, rows.length) });
        const csv = `\uFEFF${csvLine(PRICE_CSV_FIELDS)}${items.map((row) => csvLine(PRICE_CSV_FIELDS.map((f) => row[f]))).join('')}`;
        return new Response(csv, {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="reseller-${resellerId}-prices.csv"` },
        });
      }),
    ),
    http.put('/reseller-pricing/plan', async ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      if (!hasPrivilege(user.privileges, 'Resellers')) return forbiddenResponse();
      const body = (await request.json()) as { resellerId?: number; pricingPlanId?: number | null };
      const child = db.resellers.find((r) => r.id === body.resellerId && r.id !== user.resellerId && visibleResellerIds(db, user).has(r.id));
      if (!child) return notFoundResponse();
      const plan = plansOf(db).find((p) => p.id === body.pricingPlanId && p.resellerId === child.parentId);
      if (body.pricingPlanId !== null && !plan)
        return errorResponse(400, 'VALIDATION_FAILED', 'Some fields are not valid', [
          fieldError('pricingPlanId', 'parentPlan', 'resellerPricing.validation.parentPlan'),
        ]);
      const assignments = (db.tables.resellerPricingAssignment ??= []).filter((a) => a.resellerId !== child.id);
      if (plan) assignments.push({ resellerId: child.id, planId: plan.id });
      db.tables.resellerPricingAssignment = assignments;
      return HttpResponse.json({ resellerId: child.id, pricingPlanId: plan?.id ?? null });
    }),
    http.post('/reseller-pricing/margin-preview', async ({ request }) => {
      const user = caller(request);
      if (user instanceof Response) return user;
      const body = (await request.json()) as { resellerId?: number; pricingPlanId?: number };
      const child = db.resellers.find((r) => r.id === body.resellerId && r.id !== user.resellerId && visibleResellerIds(db, user).has(r.id));
      if (!child) return notFoundResponse();
      const plan = plansOf(db).find((p) => p.id === body.pricingPlanId && p.resellerId === child.parentId);
      if (!plan)
        return errorResponse(400, 'VALIDATION_FAILED', 'Some fields are not valid', [
          fieldError('pricingPlanId', 'parentPlan', 'resellerPricing.validation.parentPlan'),
        ]);
      const paid = prices(planOfReseller(db, child.parentId ?? -1));
      const proposed = prices(plan);
      const rows = proposed
        .map((s) => {
          const c = paid.find((p) => p.plmn === s.plmn);
          const row: Row = {
            country: s.country,
            mcc: s.mcc,
            mnc: s.mnc,
            plmn: s.plmn,
            network: s.network,
            callerCurrency: c?.currency ?? null,
            proposedCurrency: s.currency,
          };
          for (const f of MARGIN_FIELDS) {
            const cap = `${f[0].toUpperCase()}${f.slice(1)}`;
            const [x, y] = [c?.[f] ?? null, s[f]];
            const same = x !== null && y !== null && c?.currency === s.currency;
            Object.assign(row, {
              [`caller${cap}`]: x,
              [`proposed${cap}`]: y,
              [`${f}Margin`]: same ? (micro(y!) - micro(x!)) / 1e6 : null,
              [`${f}MarginPercent`]: same && x! > 0 ? Math.round(((micro(y!) - micro(x!)) * 10000) / micro(x!)) / 100 : null,
            });
          }
          return row as unknown as MarginRow;
        })
        .sort(
          (a, b) =>
            (a.dataRateMarginPercent ?? Infinity) - (b.dataRateMarginPercent ?? Infinity) || a.country.localeCompare(b.country) || a.plmn.localeCompare(b.plmn),
        );
      return HttpResponse.json({ resellerId: child.id, pricingPlanId: plan.id, rows, negativeCount: rows.filter((r) => (r.dataRateMargin ?? 0) < 0).length });
    }),
  ];
}
