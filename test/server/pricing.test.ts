import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

const LOCAL = '/portal/pricing-plans/local';
const rule = (over: Record<string, unknown> = {}) => ({
  country: 'DE',
  mcc: '262',
  mnc: '01',
  network: 'Telekom Deutschland',
  currency: 'EUR',
  dataRate: 0.0035,
  moCallRate: 0.09,
  mtCallRate: 0.01,
  moSmsRate: 0.04,
  mtSmsRate: 0,
  dailyCap: true,
  dailyCapLimit: 5,
  dailyCapTimeZone: 'Europe/Berlin',
  discounted: false,
  startDate: '2026-01-01T00:00:00.000Z',
  endDate: '2026-12-31T23:59:59.000Z',
  hidden: false,
  ...over,
});
const fieldsOf = (body: { fields?: { field: string; rule: string; message: string }[] }) => body.fields?.map((f) => [f.field, f.message]);

describe.each(engines)('pricing plans on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let planId: number;
  let db: Kysely<Database>;

  beforeAll(async () => {
    ctx = await testApp(engine);
    db = ctx.db;
    [admin, northwind, bluesky] = await Promise.all([ctx.as('admin'), ctx.as('northwind'), ctx.as('bluesky')]);
    const created = await northwind.post(`${LOCAL}/`, { name: 'Test Plan Alpha', currency: 'EUR', defaultData: 0.123456, usdConvertRate: 1.085 });
    expect(created.statusCode, created.body).toBe(201);
    planId = created.json().id;
  });
  afterAll(async () => ctx?.close());

  describe('plans', () => {
    it('gives every message of the plan fields', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{}, 'name', 'Pricing plan name is required'],
        [{ name: 'Plan5' }, 'name', 'Pricing plan name must be more than 5 characters'],
        [{ name: 'x'.repeat(51) }, 'name', 'Pricing plan name must be at most 50 characters'],
        [{ name: 'Valid name', defaultData: 0.0000001 }, 'defaultData', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
        [{ name: 'Valid name', defaultMoSms: -1 }, 'defaultMoSms', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
        [{ name: 'Valid name', currency: 'euro' }, 'currency', 'Please choose a currency (three capital letters, e.g. USD)'],
        [{ name: 'Valid name', usdConvertRate: 0 }, 'usdConvertRate', 'Please enter a conversion rate above 0 with at most 6 decimals'],
      ];
      for (const [body, field, message] of cases) {
        const res = await northwind.post(`${LOCAL}/`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(res.json())).toEqual([[field, message]]);
      }
      expect((await northwind.post(`${LOCAL}/`, { name: 'Exactly6' })).statusCode).toBe(201);
    });

    it('keeps rates exact in numeric columns', async () => {
      const read = (await northwind.get(`${LOCAL}/${planId}`)).json();
      expect(read).toMatchObject({ defaultData: 0.123456, usdConvertRate: 1.085, currency: 'EUR', resellerName: 'Northwind Mobile' });
      const stored = await db.selectFrom('pricingPlan').select(['defaultData', 'usdConvertRate']).where('id', '=', planId).executeTakeFirstOrThrow();
      expect([String(stored.defaultData), String(stored.usdConvertRate)]).toEqual(['0.123456', '1.085000']);
    });

    it('keeps names unique per reseller, ignoring case', async () => {
      const dup = await northwind.post(`${LOCAL}/`, { name: 'test plan ALPHA' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'A plan with this name already exists' });
      expect((await bluesky.post(`${LOCAL}/`, { name: 'Test Plan Alpha' })).statusCode).toBe(201);
    });

    it('lists by plan name descending by default, with the plan name and plan id filters', async () => {
      const page = (await northwind.post(`${LOCAL}/paged`, {})).json();
      const names = page.items.map((p: { name: string }) => p.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => b.localeCompare(a)));
      expect(names).toContain('Sensors Low Data'); // the sub-reseller's plan
      expect(names).not.toContain('Blue Sky Worldwide');
      expect((await northwind.post(`${LOCAL}/paged`, { searchBy: 'planName', searchKey: 'alpha' })).json().items.map((p: { id: number }) => p.id)).toEqual([
        planId,
      ]);
      expect((await northwind.post(`${LOCAL}/paged`, { searchBy: 'planId', searchKey: String(planId) })).json().totalItemsCount).toBe(1);
    });

    it('serves the plan lists of the caller subtree', async () => {
      const mine = (await northwind.get('/portal/pricing-plans/')).json();
      expect(mine.pricingPlans).toContainEqual({ pricingPlanId: planId, pricingPlanName: 'Test Plan Alpha', assignable: true });
      expect(mine.pricingPlans.map((p: { pricingPlanName: string }) => p.pricingPlanName)).not.toContain('Blue Sky Worldwide');
      expect(mine.internationalPricingPlans).toEqual([expect.objectContaining({ internationalPricingPlanName: 'International Calls Basic' })]);
      const all = (await admin.get('/portal/pricing-plans/')).json();
      expect(all.pricingPlans.length).toBeGreaterThan(mine.pricingPlans.length);
      // Every signed-in user reads the lists that name plans on other screens.
      expect((await (await ctx.as('harbor')).get('/portal/pricing-plans/')).statusCode).toBe(200);
    });

    it('refuses to delete a plan an account uses; deleting another removes its rules', async () => {
      const used = (await northwind.post(`${LOCAL}/`, { name: 'Plan in use' })).json().id;
      await ctx.db.updateTable('account').set({ pricingPlanId: used }).where('name', '=', 'Harbor Logistics').execute();
      const refused = await northwind.delete(`${LOCAL}/${used}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('This plan is still assigned and cannot be deleted');
      await ctx.db.updateTable('account').set({ pricingPlanId: null }).where('name', '=', 'Harbor Logistics').execute();
      expect((await northwind.post(`${LOCAL}/${used}/rules`, rule())).statusCode).toBe(201);
      expect((await northwind.delete(`${LOCAL}/${used}`)).statusCode).toBe(204);
      expect((await db.selectFrom('roamingRule').select('id').where('planId', '=', used).execute()).length).toBe(0);
    });
  });

  describe('account users', () => {
    it('read the plans their account is on and write no plan or rule of either kind, even with the privileges', async () => {
      const onAccount = (await northwind.post(`${LOCAL}/`, { name: 'Harbor contract plan' })).json().id;
      expect((await northwind.post(`${LOCAL}/${onAccount}/rules`, rule())).statusCode).toBe(201);
      const created = await northwind.post('/portal/pricing-plans/international/', { name: 'Harbor calls plan', defaultPrice: 0.1 });
      expect(created.statusCode, created.body).toBe(201);
      const international = created.json().id;
      await db
        .updateTable('account')
        .set({ pricingPlanId: onAccount, internationalPricingPlanId: international })
        .where('name', '=', 'Harbor Logistics')
        .execute();
      const before = await db.selectFrom('roamingRule').selectAll().where('planId', '=', onAccount).execute();
      await ctx.withPrivileges('harbor', ['PricingPlans', 'IntPricingPlans'], async (harbor) => {
        const plan = (await harbor.get(`${LOCAL}/${onAccount}`)).json();
        // Reads: its account's plans and their rules; not the reseller's other plans.
        expect((await harbor.post(`${LOCAL}/${onAccount}/rules/paged`, {})).json().totalItemsCount).toBe(before.length);
        expect((await harbor.post(`${LOCAL}/${planId}/rules/paged`, {})).statusCode).toBe(404);
        // Writes: none, whatever the call.
        const writes = [
          harbor.put(`${LOCAL}/`, { ...plan, defaultData: 0 }),
          harbor.post(`${LOCAL}/${onAccount}`, { defaultData: 0 }),
          harbor.post(`${LOCAL}/`, { name: 'Harbor own plan' }),
          harbor.delete(`${LOCAL}/${onAccount}`),
          harbor.post(`${LOCAL}/${onAccount}/rules`, rule({ dataRate: 0 })),
          harbor.post(`${LOCAL}/${onAccount}/rules/${before[0].id}`, { dataRate: 0 }),
          harbor.delete(`${LOCAL}/${onAccount}/rules/${before[0].id}`),
          harbor.post(`${LOCAL}/${onAccount}/rules/batch`, { delete: [before[0].id] }),
          harbor.post(`/portal/pricing-plans/international/`, { name: 'Harbor own calls' }),
          harbor.put(`/portal/pricing-plans/international/`, { id: international, name: 'Harbor calls plan', defaultPrice: 0 }),
          harbor.delete(`/portal/pricing-plans/international/${international}`),
        ];
        for (const res of await Promise.all(writes)) expect(res.statusCode, res.body).toBe(403);
        expect(await db.selectFrom('roamingRule').selectAll().where('planId', '=', onAccount).execute()).toEqual(before);
        expect((await harbor.get(`${LOCAL}/${onAccount}`)).json()).toEqual(plan);
        expect((await db.selectFrom('pricingPlan').select('id').where('name', '=', 'Harbor own plan').execute()).length).toBe(0);
        // The reseller's own users still write them.
        expect((await northwind.post(`${LOCAL}/${onAccount}`, { defaultData: 0.5 })).statusCode).toBe(200);
      });
      await db.updateTable('account').set({ pricingPlanId: null, internationalPricingPlanId: null }).where('name', '=', 'Harbor Logistics').execute();
    });
  });

  describe('rules', () => {
    it('creates a rule with the PLMN from MCC and MNC and exact rates', async () => {
      const res = await northwind.post(`${LOCAL}/${planId}/rules`, rule({ dataRate: 0.000001, moCallRate: 123456.789012 }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ ...rule({ dataRate: 0.000001, moCallRate: 123456.789012 }), plmn: '26201', planId });
      const stored = await db.selectFrom('roamingRule').select(['dataRate', 'moCallRate']).where('id', '=', res.json().id).executeTakeFirstOrThrow();
      expect([String(stored.dataRate), String(stored.moCallRate)]).toEqual(['0.000001', '123456.789012']);
    });

    it('gives every message of the rule fields and writes nothing', async () => {
      const before = (await northwind.post(`${LOCAL}/${planId}/rules/paged`, {})).json().totalItemsCount;
      const cases: [Record<string, unknown>, string, string][] = [
        [{ country: 'Germany' }, 'country', 'Please choose a country'],
        // Two capital letters that name no country.
        [{ country: 'XX' }, 'country', 'Please choose a country'],
        [{ mcc: '26' }, 'mcc', 'MCC must be 3 digits'],
        [{ mnc: '1' }, 'mnc', 'MNC must be 2 or 3 digits'],
        [{ mcc: '999', mnc: '99' }, 'mnc', 'No mobile network of the catalogue has this MCC and MNC'],
        [{ currency: 'eu' }, 'currency', 'Please choose a currency (three capital letters, e.g. USD)'],
        [{ dataRate: 0.1234567 }, 'dataRate', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
        [{ mtSmsRate: -0.01 }, 'mtSmsRate', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
        [{ dailyCapLimit: 1e7 }, 'dailyCapLimit', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
        [{ dailyCapTimeZone: 'Mars time' }, 'dailyCapTimeZone', 'Please choose a time zone such as Europe/Berlin or UTC'],
        [{ sponsorName: 'x'.repeat(51) }, 'sponsorName', 'Max 50 characters allowed.'],
        [{ displaySponsorName: 'x'.repeat(51) }, 'displaySponsorName', 'Max 50 characters allowed.'],
        [{ sponsorId: 'abc' }, 'sponsorId', 'Please provide a valid number.'],
        [{ network: 'x'.repeat(101) }, 'network', 'Max 100 characters allowed.'],
        [{ startDate: '2026-13-01' }, 'startDate', 'A valid date and time is required'],
        [{ startDate: undefined }, 'startDate', 'A valid date and time is required'],
        [{ endDate: 'tomorrow' }, 'endDate', 'A valid date and time is required'],
        [{ endDate: '2025-12-31T00:00:00Z' }, 'endDate', 'End date must be after the start date'],
        [{ endDate: '2026-01-01T00:00:00Z' }, 'endDate', 'End date must be after the start date'],
      ];
      for (const [over, field, message] of cases) {
        const res = await northwind.post(`${LOCAL}/${planId}/rules`, rule(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(fieldsOf(res.json())).toEqual([[field, message]]);
      }
      expect((await northwind.post(`${LOCAL}/${planId}/rules/paged`, {})).json().totalItemsCount).toBe(before);
    });

    it('updates the fields sent, checks the dates against the stored ones, and deletes', async () => {
      const id = (await northwind.post(`${LOCAL}/${planId}/rules`, rule({ country: 'FR', mcc: '208', mnc: '01' }))).json().id;
      const updated = await northwind.post(`${LOCAL}/${planId}/rules/${id}`, { mnc: '10', dataRate: 0.5 });
      expect(updated.json()).toMatchObject({ country: 'FR', mnc: '10', plmn: '20810', dataRate: 0.5, moCallRate: 0.09 });
      const bad = await northwind.post(`${LOCAL}/${planId}/rules/${id}`, { startDate: '2027-01-01T00:00:00Z' });
      expect(fieldsOf(bad.json())).toEqual([['endDate', 'End date must be after the start date']]);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${id}`)).json().startDate).toBe('2026-01-01T00:00:00.000Z');
      expect((await northwind.delete(`${LOCAL}/${planId}/rules/${id}`)).statusCode).toBe(204);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${id}`)).statusCode).toBe(404);
    });

    it('pages, sorts and searches the rules of one plan only', async () => {
      const seeded = (await admin.post(`${LOCAL}/paged`, { searchBy: 'planName', searchKey: 'Europe IoT Standard' })).json().items[0].id;
      const page = (await northwind.post(`${LOCAL}/${seeded}/rules/paged`, { sortBy: 'dataRate', sortDir: 'desc', page: { page: 0, size: 3 } })).json();
      expect(page.totalItemsCount).toBe(10);
      expect(page.items.map((r: { network: string }) => r.network)).toEqual(['Swisscom', 'NTT Docomo', 'Partner']);
      expect(page.items.every((r: { planId: number }) => r.planId === seeded)).toBe(true);
      const found = (await northwind.post(`${LOCAL}/${seeded}/rules/paged`, { searchBy: 'multi', searchKey: '26202' })).json();
      expect(found.items.map((r: { network: string }) => r.network)).toEqual(['Vodafone Germany']);
      expect((await northwind.post(`${LOCAL}/${seeded}/rules/paged`, { sortBy: 'plan_id; drop table x' })).statusCode).toBe(400);
    });

    it('saves changed and new rows in one request, or none when a row is bad', async () => {
      const a = (await northwind.post(`${LOCAL}/${planId}/rules`, rule({ country: 'ES', mcc: '214', mnc: '07' }))).json();
      const b = (await northwind.post(`${LOCAL}/${planId}/rules`, rule({ country: 'NL', mcc: '204', mnc: '08' }))).json();
      const refused = await northwind.post(`${LOCAL}/${planId}/rules/batch`, {
        save: [{ ...a, dataRate: 0.7 }, rule({ country: 'IT', mcc: '222', mnc: '1' })],
        delete: [b.id],
      });
      expect(refused.statusCode).toBe(400);
      expect(fieldsOf(refused.json())).toEqual([['save[1].mnc', 'MNC must be 2 or 3 digits']]);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${a.id}`)).json().dataRate).toBe(0.0035);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${b.id}`)).statusCode).toBe(200);
      const saved = await northwind.post(`${LOCAL}/${planId}/rules/batch`, {
        save: [{ ...a, dataRate: 0.7 }, rule({ country: 'IT', mcc: '222', mnc: '01' })],
        delete: [b.id],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().saved[0]).toBe(a.id);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${a.id}`)).json().dataRate).toBe(0.7);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${saved.json().saved[1]}`)).json().plmn).toBe('22201');
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${b.id}`)).statusCode).toBe(404);
    });

    it('keeps another reseller out of a plan and its rules', async () => {
      const id = (await northwind.post(`${LOCAL}/${planId}/rules`, rule())).json().id;
      expect((await bluesky.get(`${LOCAL}/${planId}`)).statusCode).toBe(404);
      expect((await bluesky.post(`${LOCAL}/${planId}/rules/paged`, {})).statusCode).toBe(404);
      expect((await bluesky.get(`${LOCAL}/${planId}/rules/${id}`)).statusCode).toBe(404);
      expect((await bluesky.post(`${LOCAL}/${planId}/rules`, rule())).statusCode).toBe(404);
      expect((await bluesky.post(`${LOCAL}/${planId}/rules/${id}`, { dataRate: 9 })).statusCode).toBe(404);
      expect((await bluesky.post(`${LOCAL}/${planId}/rules/batch`, { delete: [id] })).statusCode).toBe(404);
      expect((await bluesky.delete(`${LOCAL}/${planId}/rules/${id}`)).statusCode).toBe(404);
      // A rule id of another plan is not reachable through a plan the caller sees either.
      const own = (await bluesky.post(`${LOCAL}/paged`, {})).json().items[0].id;
      expect((await bluesky.get(`${LOCAL}/${own}/rules/${id}`)).statusCode).toBe(404);
      expect((await bluesky.post(`${LOCAL}/${own}/rules/batch`, { save: [{ id, dataRate: 1 }] })).statusCode).toBe(404);
      expect((await northwind.get(`${LOCAL}/${planId}/rules/${id}`)).json().dataRate).toBe(0.0035);
      // The sub-reseller sees its own plans, not its parent's.
      expect((await (await ctx.as('northwind-iot')).get(`${LOCAL}/${planId}`)).statusCode).toBe(404);
    });
  });
});
