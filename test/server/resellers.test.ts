import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '@server/domains/ledger';
import { holdCredit, releaseHold } from '@server/domains/ledger/holds';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, unknown>;

const fieldsOf = (res: { json(): { fields?: { field: string; rule: string }[] } }) => res.json().fields?.map((f) => `${f.field}:${f.rule}`);

describe.each(engines)('resellers on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  const ids: Record<string, number> = {};

  const names = async (c: Client, url = '/portal/reseller-info/paged', body: Row = {}) => ((await c.post(url, body)).json().items as Row[]).map((r) => r.name);
  const pathOf = async (id: number) => (await ctx.db.selectFrom('reseller').select('path').where('id', '=', id).executeTakeFirstOrThrow()).path;
  const standing = async (id: number) => (await admin.get(`/portal/reseller-info/credit-limits/${id}`)).json() as Row;

  beforeAll(async () => {
    ctx = await testApp(engine);
    [admin, northwind, iot, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
  });
  afterAll(async () => ctx?.close());

  it("lists the caller's subtree: the administrator all, a reseller itself and those below it, never a sibling", async () => {
    expect(await names(admin)).toEqual(expect.arrayContaining(['Connectivity Provider', 'Northwind Mobile', 'Northwind IoT', 'Blue Sky Telecom']));
    expect(await names(northwind)).toEqual(['Northwind IoT', 'Northwind Mobile']);
    expect(await names(bluesky)).toEqual(['Blue Sky Telecom']);
    expect((await bluesky.get(`/portal/reseller-info/${ids['Northwind Mobile']}`)).statusCode).toBe(404);
    // An account user has no Resellers privilege.
    expect((await harbor.post('/portal/reseller-info/paged', {})).statusCode).toBe(403);
    // A parent's children, and the search by name, e-mail, type and an account the reseller owns.
    expect(await names(northwind, `/portal/reseller-info/list/${ids['Northwind Mobile']}`)).toEqual(['Northwind IoT']);
    expect(await names(bluesky, `/portal/reseller-info/list/${ids['Northwind Mobile']}`)).toEqual([]);
    const account = await ctx.db.selectFrom('account').select('accountId').where('name', '=', 'Harbor Logistics').executeTakeFirstOrThrow();
    expect(await names(admin, '/portal/reseller-info/search', { searchBy: 'accountId', searchKey: String(account.accountId) })).toEqual(['Northwind Mobile']);
    expect(await names(admin, '/portal/reseller-info/search', { searchBy: 'accountId', searchKey: 'not a number' })).toEqual([]);
  });

  it('creates a reseller below the caller (or the parent it names in its subtree) with the path of its place', async () => {
    const res = await northwind.post('/portal/reseller-info', { name: 'Northwind Retail', email: 'retail@northwind.example', resellerType: 'DISTRIBUTOR' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Row;
    ids['Northwind Retail'] = created.id as number;
    expect(created).toMatchObject({ parentId: ids['Northwind Mobile'], parentName: 'Northwind Mobile', balance: 0, creditLimit: 0, subscriberCount: 0 });
    expect(created.path).toBe(`/-1/${ids['Northwind Mobile']}/${created.id}/`);

    const under = await northwind.post('/portal/reseller-info', { name: 'Northwind Kiosks', parentId: ids['Northwind Retail'] });
    expect(under.statusCode, under.body).toBe(201);
    ids['Northwind Kiosks'] = under.json().id;
    expect(under.json().path).toBe(`/-1/${ids['Northwind Mobile']}/${ids['Northwind Retail']}/${ids['Northwind Kiosks']}/`);

    // Another tenant's reseller as parent, a taken name, bad fields: refused naming the field, nothing written.
    const before = await ctx.db.selectFrom('reseller').select('id').execute();
    expect(fieldsOf(await northwind.post('/portal/reseller-info', { name: 'Elsewhere', parentId: ids['Blue Sky Telecom'] }))).toEqual(['parentId:reference']);
    expect((await northwind.post('/portal/reseller-info', { name: 'northwind retail' })).statusCode).toBe(409);
    const bad = await northwind.post('/portal/reseller-info', {
      name: 'Bad fields',
      email: 'no-at-sign',
      tadigCode: 'gbr1',
      esimStatusRelayUrl: 'http://hooks.example.com/x',
      resellerType: 'PIRATE',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      fieldsOf(bad)
        ?.map((f) => f.split(':')[0])
        .sort(),
    ).toEqual(['email', 'esimStatusRelayUrl', 'resellerType', 'tadigCode']);
    expect(await ctx.db.selectFrom('reseller').select('id').execute()).toHaveLength(before.length);
  });

  it('moves a reseller with its subtree, and refuses a move under itself or its own subtree', async () => {
    const retail = ids['Northwind Retail'];
    const kiosks = ids['Northwind Kiosks'];
    const cycle = await northwind.put('/portal/reseller-info', { id: retail, parentId: kiosks });
    expect(cycle.statusCode).toBe(400);
    expect(fieldsOf(cycle)).toEqual(['parentId:cycle']);
    expect(fieldsOf(await northwind.put('/portal/reseller-info', { id: retail, parentId: retail }))).toEqual(['parentId:cycle']);
    expect(fieldsOf(await admin.put('/portal/reseller-info', { id: -1, parentId: ids['Northwind Mobile'] }))).toEqual(['parentId:root']);

    const moved = await northwind.put('/portal/reseller-info', { id: retail, parentId: ids['Northwind IoT'] });
    expect(moved.statusCode, moved.body).toBe(200);
    const iotPath = await pathOf(ids['Northwind IoT']);
    expect(await pathOf(retail)).toBe(`${iotPath}${retail}/`);
    expect(await pathOf(kiosks)).toBe(`${iotPath}${retail}/${kiosks}/`);
    // Northwind IoT's manager now sees them as its own sub-resellers.
    expect(await names(iot)).toEqual(['Northwind IoT', 'Northwind Kiosks', 'Northwind Retail']);
  });

  it("keeps a reseller's own commercial fields and terms to those above it", async () => {
    const own = (await iot.get(`/portal/reseller-info/${ids['Northwind IoT']}`)).json() as Row;
    const res = await iot.put('/portal/reseller-info', { id: own.id, parentId: ids['Connectivity Provider'] });
    expect(res.statusCode).toBe(403);
    expect(fieldsOf(res)).toEqual(['parentId:protected']);
    // Its own contact details are its to change.
    expect((await iot.put('/portal/reseller-info', { id: own.id, phone: '+44 20 7946 0001', version: own.version })).statusCode).toBe(200);
    for (const [url, body] of [
      [`/portal/reseller-info/credit-limits/${own.id}`, { creditLimit: 1000 }],
      [`/portal/reseller-info/${own.id}/disputed-amount`, { disputedAmount: 10 }],
      [`/portal/reseller-info/${own.id}/reset-usage-date`, undefined],
    ] as const)
      expect((await iot.post(url, body)).statusCode, url).toBe(403);
    expect((await bluesky.post(`/portal/reseller-info/credit-limits/${own.id}`, { creditLimit: 1 })).statusCode).toBe(404);
  });

  it('derives available credit from the limit and the ledger, and refuses a limit below the credit in use', async () => {
    const id = ids['Northwind IoT'];
    expect(fieldsOf(await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: -1 }))).toEqual(['creditLimit:range']);
    expect(fieldsOf(await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 1.005 }))).toEqual(['creditLimit:multipleOf']);
    const set = await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 300 });
    expect(set.statusCode, set.body).toBe(200);
    const before = Number((await standing(id)).balance);
    expect(await standing(id)).toMatchObject({ creditLimit: 300, availableCredit: before + 300 });

    // A purchase may now take the balance down to -300, not past it.
    const spend = (amount: number) => ctx.db.transaction().execute((trx) => post(trx, { resellerId: id, amount: -amount, kind: 'purchase', mustCover: true }));
    await spend(before + 250);
    expect(await standing(id)).toMatchObject({ balance: -250, creditUsed: 250, availableCredit: 50 });
    await expect(spend(60)).rejects.toMatchObject({ statusCode: 409 });
    expect(Number((await standing(id)).balance)).toBe(-250);

    const low = await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 200 });
    expect(low.statusCode).toBe(409);
    expect(low.json()).toMatchObject({ message: 'credit limit too high for used credit', fields: [{ field: 'creditLimit', rule: 'usedCredit' }] });
    expect((await standing(id)).creditLimit).toBe(300);

    const disputed = await northwind.post(`/portal/reseller-info/${id}/disputed-amount`, { disputedAmount: 42.5 });
    expect(disputed.json()).toMatchObject({ disputedAmount: 42.5 });
    expect((await northwind.get(`/portal/reseller-info/${id}`)).json()).toMatchObject({ disputedAmount: 42.5, openBalance: 250, availableCredit: 50 });
    const reset = await northwind.post(`/portal/reseller-info/${id}/reset-usage-date`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().usageResetAt).toBeTruthy();
  });

  it('refuses a credit limit below the credit in use plus what open orders hold, and names the rule', async () => {
    const id = ids['Northwind IoT'];
    // From the previous test: balance -250 under a limit of 300. An open order now holds 40 of the 50 left.
    const holdId = await ctx.db.transaction().execute((trx) => holdCredit(trx, id, '40.00', 'sim-order:test-hold', 'total'));
    expect(await standing(id)).toMatchObject({ creditLimit: 300, creditUsed: 250, held: 40, minimumCreditLimit: 290 });
    const below = await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 289.99 });
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({ fields: [{ field: 'creditLimit', rule: 'heldCredit', messageId: 'entity.reseller.creditLimit.belowHeld' }] });
    expect((await standing(id)).creditLimit).toBe(300);
    // Below the credit in use alone, the older rule answers first.
    expect(fieldsOf(await admin.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 100 }))).toEqual(['creditLimit:usedCredit']);
    // Exactly what is used plus held is allowed; once the order lets its hold go, lower still.
    expect((await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 290 })).json()).toMatchObject({ creditLimit: 290, held: 40 });
    await ctx.db.transaction().execute((trx) => releaseHold(trx, holdId));
    const lower = await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 250 });
    expect(lower.json()).toMatchObject({ creditLimit: 250, held: 0, minimumCreditLimit: 250 });
    await northwind.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 300 });
  });

  it("draws a reseller's balance history from the ledger: closing balance per day, credits and debits", async () => {
    const id = ids['Northwind Retail'];
    const at = async (day: string, amount: number) => {
      const { id: entry } = await ctx.db.transaction().execute((trx) => post(trx, { resellerId: id, amount, kind: 'adjustment' }));
      await ctx.db
        .updateTable('ledgerEntry')
        .set({ createdAt: new Date(`${day}T12:00:00Z`) })
        .where('id', '=', entry)
        .execute();
    };
    await at('2026-03-01', 100);
    await at('2026-03-01', -30.5);
    await at('2026-03-03', 10);
    const res = await northwind.post('/portal/graphs/balanceHistory', { resellerId: id, from: '2026-02-28', to: '2026-03-04' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().points).toEqual([
      { date: '2026-02-28', balance: 0, credits: 0, debits: 0 },
      { date: '2026-03-01', balance: 69.5, credits: 100, debits: -30.5 },
      { date: '2026-03-02', balance: 69.5, credits: 0, debits: 0 },
      { date: '2026-03-03', balance: 79.5, credits: 10, debits: 0 },
      { date: '2026-03-04', balance: 79.5, credits: 0, debits: 0 },
    ]);
    const monthly = await northwind.post('/portal/graphs/balanceHistory', { resellerId: id, from: '2026-02-01', to: '2026-03-31', interval: 'month' });
    expect(monthly.json().points).toEqual([
      { date: '2026-02-01', balance: 0, credits: 0, debits: 0 },
      { date: '2026-03-01', balance: 79.5, credits: 110, debits: -30.5 },
    ]);
    expect(fieldsOf(await northwind.post('/portal/graphs/balanceHistory', { resellerId: id, from: '2026-03-05', to: '2026-03-01' }))).toEqual(['to:order']);
    expect(fieldsOf(await northwind.post('/portal/graphs/balanceHistory', { resellerId: id, from: '2020-01-01', to: '2026-01-01' }))).toEqual([
      'from:maxItems',
    ]);
    expect(fieldsOf(await northwind.post('/portal/graphs/balanceHistory', { from: '2026-13-01' }))).toEqual(['from:format']);
    expect((await bluesky.post('/portal/graphs/balanceHistory', { resellerId: id })).statusCode).toBe(404);
  });

  it('counts subscribers as they are added, moved and removed', async () => {
    const count = async (name: string) =>
      Number(
        (
          await ctx.db
            .selectFrom('subscriber')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('resellerId', '=', ids[name])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const shown = async (name: string) => (await standing(ids[name])).subscriberCount;
    for (const name of ['Northwind Mobile', 'Northwind IoT', 'Blue Sky Telecom']) expect(await shown(name), name).toBe(await count(name));
    const one = await ctx.db.selectFrom('subscriber').select('subscriberId').where('resellerId', '=', ids['Northwind IoT']).executeTakeFirstOrThrow();
    await ctx.db.updateTable('subscriber').set({ resellerId: ids['Northwind Mobile'] }).where('subscriberId', '=', one.subscriberId).execute();
    for (const name of ['Northwind Mobile', 'Northwind IoT']) expect(await shown(name), name).toBe(await count(name));
  });

  it('records the last sign-in of a reseller and streams a parent’s children as CSV', async () => {
    await ctx.as('bluesky');
    const row = (await admin.get(`/portal/reseller-info/${ids['Blue Sky Telecom']}`)).json() as Row;
    expect(row.lastLogin).toBeTruthy();
    expect(row.lastIp).toBeTruthy();
    const csv = await admin.post(`/portal/reseller-info/list/download/${ids['Northwind Mobile']}`, {});
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toContain('name');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Northwind IoT']);
  });

  it('keeps custom fields of resellers per tenant', async () => {
    expect(
      (await northwind.post('/portal/custom-fields', { entity: 'reseller', key: 'region', label: 'Region', type: 'choice', choices: ['North', 'South'] }))
        .statusCode,
    ).toBe(201);
    const iotRow = (await northwind.get(`/portal/reseller-info/${ids['Northwind IoT']}`)).json() as Row;
    const bad = await northwind.put('/portal/reseller-info', { id: iotRow.id, custom: { region: 'East' } });
    expect(bad.statusCode).toBe(400);
    const ok = await northwind.put('/portal/reseller-info', { id: iotRow.id, custom: { region: 'North' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().custom).toEqual({ region: 'North' });
    expect(await names(northwind, '/portal/reseller-info/search', { searchBy: 'custom.region', searchKey: 'north' })).toEqual(['Northwind IoT']);
  });
});
