import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

const BASE = '/portal/reseller-pricing';
type Price = { country: string; plmn: string; network: string; source: string; currency: string; dataRate: number; moCallRate: number; moSmsRate: number };

describe.each(engines)('reseller pricing on %s', (engine) => {
  let ctx: Ctx;
  let db: Kysely<Database>;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  const ids: Record<string, number> = {};
  const plans: Record<string, number> = {};
  let networkCount = 0;

  beforeAll(async () => {
    ctx = await testApp(engine);
    db = ctx.db;
    [admin, northwind, iot, bluesky] = await Promise.all([ctx.as('admin'), ctx.as('northwind'), ctx.as('northwind-iot'), ctx.as('bluesky')]);
    for (const r of await db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
    for (const p of await db.selectFrom('pricingPlan').select(['id', 'name']).execute()) plans[p.name] = p.id;
    networkCount = Number(
      (
        await db
          .selectFrom('network')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('withdrawnAt', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  });
  afterAll(async () => ctx?.close());

  it('gives the caller its plan, currency and defaults, and its sub-resellers with the plans it may assign', async () => {
    const res = await northwind.get(BASE);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.reseller).toMatchObject({ id: ids['Northwind Mobile'], pricingPlanId: plans['Provider Wholesale'] });
    expect(body.plan).toMatchObject({
      name: 'Provider Wholesale',
      currency: 'EUR',
      useDefaultPrices: true,
      usdConvertRate: 1.085,
      defaults: { data: 0.008, outgoingVoice: 0.1, incomingVoice: 0.01, moSms: 0.03, mtSms: 0 },
    });
    expect(body.subResellers.map((r: { name: string }) => r.name)).toEqual(['Northwind IoT']);
    expect(body.assignablePlans.map((p: { name: string }) => p.name)).toEqual(['Europe IoT Standard', 'Global Fleet Premium']);
    const sub = (await northwind.get(`${BASE}?reseller_id=${ids['Northwind IoT']}`)).json();
    expect(sub.plan).toMatchObject({ name: 'Europe IoT Standard', useDefaultPrices: false });
  });

  it('derives exact rates per network from the rules, and from the defaults where a rule is missing', async () => {
    const nres = await northwind.get(`${BASE}/networks`);
    expect(nres.statusCode, nres.body).toBe(200);
    const items: Price[] = nres.json().items;
    // The wholesale plan uses default prices: every network of the catalogue is priced.
    expect(items).toHaveLength(networkCount);
    expect(items.find((p) => p.plmn === '26201')).toMatchObject({ source: 'rule', currency: 'EUR', dataRate: 0.002, moCallRate: 0.06, moSmsRate: 0.02 });
    expect(items.find((p) => p.plmn === '22801')).toMatchObject({ source: 'rule', dataRate: 0.018 });
    expect(items.find((p) => p.plmn === '42501')).toMatchObject({ source: 'default', dataRate: 0.008, moCallRate: 0.1, moSmsRate: 0.03 });
    // The sub-reseller's plan has no default prices: only its rules' networks.
    const sub: Price[] = (await iot.get(`${BASE}/networks`)).json().items;
    expect(sub.map((p) => p.plmn).sort()).toEqual(['20408', '20801', '21407', '22801', '24201', '26201', '26202', '310410', '42501', '44010']);
    expect(sub.find((p) => p.plmn === '26202')).toMatchObject({ source: 'rule', dataRate: 0.004 });
  });

  it('uses the defaults once a rule ends, and a rule of six decimals exactly', async () => {
    const planRes = await northwind.post('/portal/pricing-plans/local/', {
      name: 'Exact Plan Test',
      currency: 'EUR',
      defaultData: 0.123456,
      useDefaultPrices: true,
    });
    expect(planRes.statusCode, planRes.body).toBe(201);
    const planId = planRes.json().id;
    const rule = {
      country: 'DE',
      mcc: '262',
      mnc: '01',
      network: 'Telekom Deutschland',
      currency: 'EUR',
      dataRate: 0.000001,
      startDate: '2020-01-01T00:00:00.000Z',
    };
    expect((await northwind.post(`/portal/pricing-plans/local/${planId}/rules`, rule)).statusCode).toBe(201);
    expect(
      (
        await northwind.post(`/portal/pricing-plans/local/${planId}/rules`, {
          ...rule,
          mnc: '02',
          network: 'Vodafone Germany',
          dataRate: 0.5,
          endDate: '2021-01-01T00:00:00.000Z',
        })
      ).statusCode,
    ).toBe(201);
    expect((await northwind.put(`${BASE}/plan`, { resellerId: ids['Northwind IoT'], pricingPlanId: planId })).statusCode).toBe(200);
    const items: Price[] = (await iot.get(`${BASE}/networks`)).json().items;
    expect(items.find((p) => p.plmn === '26201')).toMatchObject({ source: 'rule', dataRate: 0.000001 });
    expect(items.find((p) => p.plmn === '26202')).toMatchObject({ source: 'default', dataRate: 0.123456 });
    // Countries and zones take the highest rate among their networks.
    const de = (await iot.get(`${BASE}/countries`)).json().items.find((c: { country: string }) => c.country === 'DE');
    expect(de).toMatchObject({ currency: 'EUR', dataRate: 0.123456 });
    expect(de.networkCount).toBeGreaterThanOrEqual(2);
    expect((await northwind.put(`${BASE}/plan`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Europe IoT Standard'] })).statusCode).toBe(200);
  });

  it('prices zones by the highest rate among their countries', async () => {
    const zones = (await northwind.get(`${BASE}/location-zones?reseller_id=${ids['Northwind IoT']}`)).json().items;
    const europe = zones.find((z: { zoneName: string }) => z.zoneName === 'Europe');
    // Europe IoT Standard: Swisscom at 0.015 is the dearest European network.
    expect(europe).toMatchObject({ currency: 'EUR', dataRate: 0.015 });
    const nordics = zones.find((z: { zoneName: string }) => z.zoneName === 'Nordics');
    expect(nordics).toMatchObject({ dataRate: 0.0055, networkCount: 1 });
    // The sub-reseller sees its own zones, not its parent's.
    expect((await iot.get(`${BASE}/location-zones`)).json().items.map((z: { zoneName: string }) => z.zoneName)).toEqual(['Nordics']);
    const calls = (await northwind.get(`${BASE}/destination-zones`)).json().items;
    expect(calls.find((z: { zoneName: string }) => z.zoneName === 'EU calls')).toMatchObject({ dataRate: 0.008 });
  });

  it('pages, sorts and searches the price list, and downloads the same rows', async () => {
    const page = (await iot.post(`${BASE}/paged`, { sortBy: 'dataRate', sortDir: 'desc', page: { page: 0, size: 3 } })).json();
    expect(page).toMatchObject({ totalItemsCount: 10, totalPageCount: 4, currentPage: 0 });
    expect(page.items.map((p: Price) => p.dataRate)).toEqual([0.015, 0.012, 0.009]);
    const byNetwork = (await iot.post(`${BASE}/paged`, { searchBy: 'network', searchKey: 'telekom' })).json();
    expect(byNetwork.items.map((p: Price) => p.plmn)).toEqual(['26201']);
    const byCountry = (await iot.post(`${BASE}/paged`, { searchBy: 'country', searchKey: 'de' })).json();
    expect(byCountry.totalItemsCount).toBe(2);
    const bad = await iot.post(`${BASE}/paged`, { sortBy: 'password' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0]).toMatchObject({ field: 'sortBy', rule: 'enum' });
    const csv = await northwind.post(`${BASE}/download`, {});
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('country,mcc,mnc,plmn,network,source,currency,dataRate,moCallRate,mtCallRate,moSmsRate,mtSmsRate');
    expect(lines).toHaveLength(networkCount + 1);
    const searched = await iot.post(`${BASE}/download`, { searchBy: 'country', searchKey: 'DE' });
    expect(searched.body.trim().split('\r\n')).toHaveLength(3);
  });

  it("keeps every call within the caller's subtree", async () => {
    const calls = ['', '/networks', '/countries', '/location-zones', '/destination-zones'];
    for (const path of calls) {
      // A parent's and a sibling's pricing answer 404; the own plan, set by the parent, is readable.
      expect((await iot.get(`${BASE}${path}?reseller_id=${ids['Northwind Mobile']}`)).statusCode, path).toBe(404);
      expect((await bluesky.get(`${BASE}${path}?reseller_id=${ids['Northwind IoT']}`)).statusCode, path).toBe(404);
      expect((await northwind.get(`${BASE}${path}?reseller_id=${ids['Blue Sky Telecom']}`)).statusCode, path).toBe(404);
      expect((await northwind.get(`${BASE}${path}?reseller_id=abc`)).statusCode, path).toBe(400);
      expect((await admin.get(`${BASE}${path}?reseller_id=${ids['Northwind IoT']}`)).statusCode, path).toBe(200);
    }
    for (const path of ['/paged', '/download']) {
      expect((await iot.post(`${BASE}${path}?reseller_id=${ids['Northwind Mobile']}`, {})).statusCode, path).toBe(404);
      expect((await bluesky.post(`${BASE}${path}?reseller_id=${ids['Northwind IoT']}`, {})).statusCode, path).toBe(404);
    }
    expect((await iot.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind Mobile'], pricingPlanId: plans['Sensors Low Data'] })).statusCode).toBe(404);
    expect((await bluesky.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Blue Sky Worldwide'] })).statusCode).toBe(
      404,
    );
    expect((await bluesky.put(`${BASE}/plan`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Blue Sky Worldwide'] })).statusCode).toBe(404);
    expect((await iot.put(`${BASE}/plan`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Sensors Low Data'] })).statusCode).toBe(404);
  });

  it("refuses an account user the prices of its reseller's sub-resellers, even with the Resellers privilege", async () => {
    // Harbor's reseller, Northwind Mobile, is Northwind IoT's parent.
    const before = await db.selectFrom('reseller').select('pricingPlanId').where('id', '=', ids['Northwind IoT']).executeTakeFirstOrThrow();
    const plan = await db.selectFrom('pricingPlan').select('id').where('resellerId', '=', ids['Northwind Mobile']).executeTakeFirstOrThrow();
    await ctx.withPrivileges('harbor', ['Resellers'], async (harbor) => {
      for (const pricingPlanId of [plan.id, null]) {
        const res = await harbor.put(`${BASE}/plan`, { resellerId: ids['Northwind IoT'], pricingPlanId });
        expect(res.statusCode, res.body).toBe(403);
      }
      expect((await harbor.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind IoT'], pricingPlanId: plan.id })).statusCode).toBe(403);
    });
    expect(await db.selectFrom('reseller').select('pricingPlanId').where('id', '=', ids['Northwind IoT']).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('previews the margin of a proposed plan per network, exactly, writing nothing', async () => {
    const res = await northwind.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Global Fleet Premium'] });
    expect(res.statusCode, res.body).toBe(200);
    const same = (await northwind.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Europe IoT Standard'] })).json();
    const row = (plmn: string) => same.rows.find((r: { plmn: string }) => r.plmn === plmn);
    // Telekom: pays 0.002, would sell at 0.0035: margin 0.0015, 75 %.
    expect(row('26201')).toMatchObject({
      callerCurrency: 'EUR',
      proposedCurrency: 'EUR',
      callerDataRate: 0.002,
      proposedDataRate: 0.0035,
      dataRateMargin: 0.0015,
      dataRateMarginPercent: 75,
      callerMoCallRate: 0.06,
      proposedMoCallRate: 0.09,
      moCallRateMargin: 0.03,
      moCallRateMarginPercent: 50,
    });
    // Swisscom: pays 0.018, would sell at 0.015: a loss of 16.67 %.
    expect(row('22801')).toMatchObject({ dataRateMargin: -0.003, dataRateMarginPercent: -16.67 });
    // Partner: the parent pays its defaults (0.008), the proposed rule asks 0.009.
    expect(row('42501')).toMatchObject({ callerDataRate: 0.008, proposedDataRate: 0.009, dataRateMargin: 0.001, dataRateMarginPercent: 12.5 });
    // One row per network the proposed plan prices, the worst data margin first.
    expect(same.rows).toHaveLength(10);
    expect(same.rows.every((r: { proposedDataRate: number | null }) => r.proposedDataRate !== null)).toBe(true);
    expect(same.rows[0].plmn).toBe('22801');
    expect(same.negativeCount).toBe(1);
    // Prices of two currencies have no margin.
    const usd = res.json().rows.find((r: { plmn: string }) => r.plmn === '26201');
    expect(usd).toMatchObject({ callerCurrency: 'EUR', proposedCurrency: 'USD', dataRateMargin: null, dataRateMarginPercent: null });
    // Nothing was written.
    expect((await db.selectFrom('reseller').select('pricingPlanId').where('id', '=', ids['Northwind IoT']).executeTakeFirstOrThrow()).pricingPlanId).toBe(
      plans['Europe IoT Standard'],
    );
    // The administrator compares with what the sub-reseller's parent pays.
    const byAdmin = (await admin.post(`${BASE}/margin-preview`, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Europe IoT Standard'] })).json();
    expect(byAdmin.rows.find((r: { plmn: string }) => r.plmn === '26201')).toMatchObject({ dataRateMargin: 0.0015 });
  });

  it('refuses a bad margin preview or assignment with the field and the rule', async () => {
    const cases: [Client, Record<string, unknown>, string, string][] = [
      [northwind, {}, 'resellerId', 'required'],
      [northwind, { resellerId: ids['Northwind IoT'], pricingPlanId: 'x' }, 'pricingPlanId', 'type'],
      [northwind, { resellerId: ids['Northwind IoT'], pricingPlanId: 1, extra: 1 }, 'extra', 'additionalProperties'],
      // A plan not of the sub-reseller's parent.
      [northwind, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Sensors Low Data'] }, 'pricingPlanId', 'parentPlan'],
      [admin, { resellerId: ids['Northwind IoT'], pricingPlanId: plans['Provider Wholesale'] }, 'pricingPlanId', 'parentPlan'],
    ];
    for (const [client, body, field, rule] of cases) {
      for (const [method, url] of [
        ['POST', `${BASE}/margin-preview`],
        ['PUT', `${BASE}/plan`],
      ] as const) {
        const res = await client.send(method, url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(res.json().fields.map((f: { field: string; rule: string }) => [f.field, f.rule])).toContainEqual([field, rule]);
      }
    }
    const stored = await db.selectFrom('reseller').select(['name', 'pricingPlanId']).orderBy('id').execute();
    expect(stored.find((r) => r.name === 'Northwind IoT')?.pricingPlanId).toBe(plans['Europe IoT Standard']);
  });
});
