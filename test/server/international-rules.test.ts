import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

const INTL = '/portal/pricing-plans/international';
const rule = (over: Record<string, unknown> = {}) => ({
  price: 0.12,
  country: 'DE',
  prefix: '4915',
  countryName: 'Germany',
  countryGroup: 'Mobile',
  description: 'German mobiles',
  startDate: '2026-01-01T00:00:00.000Z',
  endDate: '2026-12-31T23:59:59.000Z',
  fromDate: '2026-01-01T00:00:00.000Z',
  hidden: false,
  ...over,
});
const fieldsOf = (body: { fields?: { field: string; message: string }[] }) => body.fields?.map((f) => [f.field, f.message]);

describe.each(engines)('international rules on %s', (engine) => {
  let ctx: Ctx;
  let northwind: Client;
  let bluesky: Client;
  let planId: number;
  let db: Kysely<Database>;

  beforeAll(async () => {
    ctx = await testApp(engine);
    db = ctx.db;
    [northwind, bluesky] = await Promise.all([ctx.as('northwind'), ctx.as('bluesky')]);
    const created = await northwind.post(`${INTL}/`, { name: 'Intl Test Plan', defaultPrice: 0.2 });
    expect(created.statusCode, created.body).toBe(201);
    planId = created.json().id;
  });
  afterAll(async () => ctx?.close());

  it('creates a rule with an exact price and reads it back', async () => {
    const res = await northwind.post(`${INTL}/${planId}/rules`, rule({ price: 123456.654321 }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ...rule({ price: 123456.654321 }), planId });
    const stored = await db.selectFrom('internationalRule').select('price').where('id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(String(stored.price)).toBe('123456.654321');
    expect((await northwind.get(`${INTL}/${planId}/rules/${res.json().id}`)).json().price).toBe(123456.654321);
  });

  it('gives every message of the rule fields and writes nothing', async () => {
    const before = (await northwind.post(`${INTL}/${planId}/rules/paged`, {})).json().totalItemsCount;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: undefined }, 'price', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
      [{ price: -1 }, 'price', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
      [{ price: 0.0000001 }, 'price', 'Please enter a rate from 0 to 999999.999999 with at most 6 decimals'],
      [{ country: 'Germany' }, 'country', 'Please choose a country'],
      [{ prefix: '+49' }, 'prefix', 'Prefix must be 1 to 15 digits'],
      [{ prefix: undefined }, 'prefix', 'Prefix must be 1 to 15 digits'],
      [{ countryGroup: 'Satellite' }, 'countryGroup', 'Please choose Land or Mobile'],
      [{ countryName: 'x'.repeat(101) }, 'countryName', 'Max 100 characters allowed.'],
      [{ description: 'x' }, 'description', 'Description must have 2 to 250 characters'],
      [{ description: 'x'.repeat(251) }, 'description', 'Description must have 2 to 250 characters'],
      [{ startDate: '2026-02-30' }, 'startDate', 'A valid date and time is required'],
      [{ fromDate: 'soon' }, 'fromDate', 'A valid date and time is required'],
      [{ endDate: '2025-06-01T00:00:00Z' }, 'endDate', 'End date must be after the start date'],
      [{ endDate: '2026-01-01T00:00:00Z' }, 'endDate', 'End date must be after the start date'],
    ];
    for (const [over, field, message] of cases) {
      const res = await northwind.post(`${INTL}/${planId}/rules`, rule(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(fieldsOf(res.json()), JSON.stringify(over)).toEqual([[field, message]]);
    }
    expect((await northwind.post(`${INTL}/${planId}/rules/paged`, {})).json().totalItemsCount).toBe(before);
  });

  it('updates the fields sent, checks the dates against the stored ones, and deletes', async () => {
    const id = (await northwind.post(`${INTL}/${planId}/rules`, rule({ country: 'FR', prefix: '336', countryGroup: 'Mobile' }))).json().id;
    const updated = await northwind.post(`${INTL}/${planId}/rules/${id}`, { price: 0.5, countryGroup: 'Land', prefix: '331' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ country: 'FR', prefix: '331', countryGroup: 'Land', price: 0.5, description: 'German mobiles' });
    const bad = await northwind.post(`${INTL}/${planId}/rules/${id}`, { startDate: '2027-01-01T00:00:00Z' });
    expect(fieldsOf(bad.json())).toEqual([['endDate', 'End date must be after the start date']]);
    expect((await northwind.get(`${INTL}/${planId}/rules/${id}`)).json().startDate).toBe('2026-01-01T00:00:00.000Z');
    expect((await northwind.delete(`${INTL}/${planId}/rules/${id}`)).statusCode).toBe(204);
    expect((await northwind.get(`${INTL}/${planId}/rules/${id}`)).statusCode).toBe(404);
  });

  it('pages, sorts and searches the rules of one plan only', async () => {
    for (const [country, prefix, price] of [
      ['ES', '34', 0.3],
      ['IT', '39', 0.1],
      ['NL', '31', 0.2],
    ] as const) {
      expect((await northwind.post(`${INTL}/${planId}/rules`, rule({ country, prefix, price, countryName: country }))).statusCode).toBe(201);
    }
    const page = (await northwind.post(`${INTL}/${planId}/rules/paged`, { sortBy: 'price', sortDir: 'desc', page: { page: 0, size: 2 } })).json();
    expect(page.items.map((r: { price: number }) => r.price)).toEqual([123456.654321, 0.3]);
    expect(page.totalPageCount).toBe(Math.ceil(page.totalItemsCount / 2));
    const found = (await northwind.post(`${INTL}/${planId}/rules/paged`, { searchBy: 'prefix', searchKey: '39' })).json();
    expect(found.items.map((r: { country: string }) => r.country)).toEqual(['IT']);
    expect((await northwind.post(`${INTL}/${planId}/rules/paged`, { sortBy: 'plan_id; drop table x' })).statusCode).toBe(400);
  });

  it('keeps another reseller out of the plan and its rules', async () => {
    const id = (await northwind.post(`${INTL}/${planId}/rules`, rule())).json().id;
    expect((await bluesky.post(`${INTL}/${planId}/rules/paged`, {})).statusCode).toBe(404);
    expect((await bluesky.get(`${INTL}/${planId}/rules/${id}`)).statusCode).toBe(404);
    expect((await bluesky.post(`${INTL}/${planId}/rules`, rule())).statusCode).toBe(404);
    expect((await bluesky.post(`${INTL}/${planId}/rules/${id}`, { price: 9 })).statusCode).toBe(404);
    expect((await bluesky.delete(`${INTL}/${planId}/rules/${id}`)).statusCode).toBe(404);
    // Through a plan of its own, another plan's rule id is not reachable either.
    const own = (await bluesky.post(`${INTL}/`, { name: 'Blue Sky Intl' })).json().id;
    expect((await bluesky.get(`${INTL}/${own}/rules/${id}`)).statusCode).toBe(404);
    expect((await bluesky.post(`${INTL}/${own}/rules/batch`, { save: [{ id, price: 1 }] })).statusCode).toBe(404);
    expect((await northwind.get(`${INTL}/${planId}/rules/${id}`)).json().price).toBe(0.12);
    // A user without the privilege is refused.
    expect((await (await ctx.as('harbor')).post(`${INTL}/${planId}/rules/paged`, {})).statusCode).toBe(403);
  });

  it('deleting the plan deletes its rules', async () => {
    const other = (await northwind.post(`${INTL}/`, { name: 'Intl Short Lived' })).json().id;
    expect((await northwind.post(`${INTL}/${other}/rules`, rule())).statusCode).toBe(201);
    expect((await northwind.delete(`${INTL}/${other}`)).statusCode).toBe(204);
    expect((await db.selectFrom('internationalRule').select('id').where('planId', '=', other).execute()).length).toBe(0);
  });

  it("lists the caller's visible international plans", async () => {
    const mine = (await northwind.get('/portal/pricing-plans/api/list-international')).json().resultObject;
    expect(mine).toContainEqual(expect.objectContaining({ id: planId, name: 'Intl Test Plan', defaultPrice: 0.2 }));
    expect(mine.map((p: { name: string }) => p.name)).not.toContain('Blue Sky Intl');
    const theirs = (await bluesky.get('/portal/pricing-plans/api/list-international')).json().resultObject;
    expect(theirs.map((p: { name: string }) => p.name)).toEqual(['Blue Sky Intl', 'Blue Sky Voice World']);
  });
});
