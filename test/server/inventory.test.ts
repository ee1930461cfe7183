import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidIccid, luhnDigit } from '@shared/iccid';
import { addSimBatch, DEFAULT_ICCID_PREFIX } from '@server/domains/inventory/batches';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

describe.each(engines)('SIM inventory on %s', (engine) => {
  let ctx: Ctx;
  let ids: Record<string, number>;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let iot: Client;
  let harbor: Client;
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(ctx.db)).rows as Row[];

  beforeAll(async () => {
    ctx = await testApp(engine);
    const rows = await ctx.db.selectFrom('reseller').select(['id', 'name']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.name, r.id]));
    [admin, northwind, bluesky, iot, harbor] = await Promise.all(['admin', 'northwind', 'bluesky', 'northwind-iot', 'harbor'].map((u) => ctx.as(u)));
  });
  const fields = (res: { json: () => any }) => res.json().fields.map((f: Row) => ({ field: f.field, rule: f.rule }));
  const rangeOf = async (c: Client, name: string) => ((await c.get('/portal/inventory/ranges')).json().ranges as Row[]).find((r) => r.name === name);
  const accountOf = async (name: string) =>
    await ctx.db.selectFrom('account').select(['accountId', 'resellerId']).where('name', '=', name).executeTakeFirstOrThrow();
  afterAll(async () => ctx?.close());

  it("computes the database's Luhn check digits as the shared code does", async () => {
    const rows = await q(sql`select n::text as body, luhn_digit(n::text) as digit, iccid_valid(n::text || luhn_digit(n::text)) as valid
      from (select (898822800000000000 + g * 7919)::bigint as n from generate_series(1, 500) g) x`);
    expect(rows.every((r) => r.digit === luhnDigit(r.body) && r.valid)).toBe(true);
    expect(await q(sql`select iccid_valid('8988228000000000013') as a, iccid_valid('12345') as b, iccid_valid('89882280000000000a2') as c`)).toEqual([
      { a: false, b: false, c: false },
    ]);
  });

  describe('adding a batch of SIM cards', () => {
    it('gives every seeded card a batch, and the demo resellers cards in inventory', async () => {
      expect(await q(sql`select count(*)::int as n from sim_card where batch_id is null`)).toEqual([{ n: 0 }]);
      const [wrong] = await q(
        sql`select count(*)::int as n from sim_card c join sim_batch b on b.id = c.batch_id where b.reseller_id <> c.reseller_id or b.name <> c.batch`,
      );
      expect(wrong.n).toBe(0);
      const stock = await q(sql`select reseller_id, count(*)::int as n from sim_card where status = 'inventory' group by 1`);
      expect(stock.length).toBeGreaterThanOrEqual(3);
    });

    it('writes consecutive 19-digit ICCIDs with their check digits, the next free range of the provider when none is given', async () => {
      const reseller = ids['Blue Sky Telecom'];
      const first = await ctx.db.transaction().execute((trx) =>
        addSimBatch(trx, {
          resellerId: reseller,
          name: 'Test first',
          quantity: 25,
          simType: 'esim',
          serviceProviderName: 'Test provider',
          cost: '1.10',
          userId: null,
        }),
      );
      expect(first.iccidStart).toHaveLength(19);
      expect(first.iccidStart.startsWith(DEFAULT_ICCID_PREFIX)).toBe(true);
      expect(isValidIccid(first.iccidStart) && isValidIccid(first.iccidEnd)).toBe(true);
      const cards = await q(
        sql`select iccid, status, batch, sim_type, activation_code, cost::text as cost from sim_card where batch_id = ${first.batchId} order by iccid`,
      );
      expect(cards).toHaveLength(25);
      expect(
        cards.every((c) => isValidIccid(c.iccid) && c.status === 'inventory' && c.batch === 'Test first' && c.simType === 'esim' && c.cost === '1.10'),
      ).toBe(true);
      expect(cards.every((c) => /^LPA:1\$/.test(c.activationCode))).toBe(true);
      const bodies = cards.map((c) => BigInt(c.iccid.slice(0, 18)));
      expect(bodies.every((b, i) => b === bodies[0] + BigInt(i))).toBe(true);
      expect([cards[0].iccid, cards.at(-1)!.iccid]).toEqual([first.iccidStart, first.iccidEnd]);

      // The next batch of the same provider continues where the first ended.
      const second = await ctx.db.transaction().execute((trx) =>
        addSimBatch(trx, {
          resellerId: reseller,
          name: 'Test second',
          quantity: 10,
          simType: 'physical',
          serviceProviderName: 'Test provider',
          userId: null,
        }),
      );
      expect(BigInt(second.iccidStart.slice(0, 18))).toBe(BigInt(first.iccidEnd.slice(0, 18)) + 1n);
    });

    it('refuses a range that overlaps cards already present, a bad first ICCID and a name in use, writing nothing', async () => {
      const reseller = ids['Blue Sky Telecom'];
      const [{ iccidStart }] = await q(sql`select iccid_start from sim_batch where name = 'Test first'`);
      const add = (over: Partial<Parameters<typeof addSimBatch>[1]>) =>
        ctx.db
          .transaction()
          .execute((trx) => addSimBatch(trx, { resellerId: reseller, name: 'Clash', quantity: 5, simType: 'physical', userId: null, ...over }));
      const before = await q(sql`select count(*)::int as n from sim_card`);
      await expect(add({ iccidStart })).rejects.toMatchObject({ statusCode: 409, fields: [{ field: 'iccidStart', rule: 'available' }] });
      await expect(add({ iccidStart: iccidStart.slice(0, -1) + String((Number(iccidStart.slice(-1)) + 1) % 10) })).rejects.toMatchObject({
        statusCode: 400,
        fields: [{ field: 'iccidStart', rule: 'format' }],
      });
      await expect(add({ name: 'test FIRST' })).rejects.toMatchObject({ statusCode: 409, fields: [{ field: 'name', rule: 'unique' }] });
      await expect(add({ quantity: 0 })).rejects.toMatchObject({ statusCode: 400, fields: [{ field: 'quantity' }] });
      expect(await q(sql`select count(*)::int as n from sim_card`)).toEqual(before);
      expect(await q(sql`select count(*)::int as n from sim_batch where name = 'Clash'`)).toEqual([{ n: 0 }]);
    });
  });

  describe('the batches call and the ranges', () => {
    it('lets only the administrator add a batch, refusing bad input by field and writing nothing', async () => {
      const body = {
        resellerId: ids['Northwind IoT'],
        name: 'Call batch',
        quantity: 40,
        simType: 'physical',
        cost: 2.25,
        serviceProviderName: 'Connectivity Provider',
      };
      expect((await northwind.post('/portal/inventory/batches/sim-cards', body)).statusCode).toBe(403);
      const bad = await admin.post('/portal/inventory/batches/sim-cards', { ...body, quantity: 0, simType: 'nano' });
      expect(bad.statusCode).toBe(400);
      expect(
        fields(bad)
          .map((f: Row) => f.field)
          .sort(),
      ).toEqual(['quantity', 'simType']);
      expect((await admin.post('/portal/inventory/batches/sim-cards', { ...body, resellerId: 999999 })).statusCode).toBe(400);
      const res = await admin.post('/portal/inventory/batches/sim-cards', body);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: 'Call batch', quantity: 40 });
      expect(await rangeOf(iot, 'Call batch')).toMatchObject({
        total: 40,
        allocated: 0,
        available: 40,
        rangeStart: res.json().iccidStart,
        rangeEnd: res.json().iccidEnd,
      });
    });

    it("shows a reseller its subtree's ranges and cards only, never another reseller's", async () => {
      const bs = (await bluesky.get('/portal/inventory/ranges')).json();
      expect(bs.ranges.length).toBeGreaterThan(0);
      expect(bs.ranges.every((r: Row) => r.resellerId === ids['Blue Sky Telecom'])).toBe(true);
      const nw = (await northwind.get('/portal/inventory/ranges')).json();
      expect(new Set(nw.ranges.map((r: Row) => r.resellerName))).toEqual(new Set(['Northwind Mobile', 'Northwind IoT']));
      expect((await iot.get('/portal/inventory/ranges')).json().ranges.every((r: Row) => r.resellerId === ids['Northwind IoT'])).toBe(true);
      expect((await bluesky.get(`/portal/inventory/ranges?reseller_id=${ids['Northwind Mobile']}`)).json().ranges).toEqual([]);
      // The card list and its download.
      const batch = await rangeOf(northwind, 'NW-2026-01');
      const page = (await bluesky.post(`/portal/inventory/sim-cards?batch_id=${batch!.batchId}`, {})).json();
      expect(page.totalItemsCount).toBe(0);
      const own = await northwind.post(`/portal/inventory/sim-cards?batch_id=${batch!.batchId}`, {
        sortBy: 'iccid',
        sortDir: 'desc',
        page: { page: 0, size: 10 },
      });
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().totalItemsCount).toBe(500);
      expect(own.json().items[0].iccid).toBe(batch!.rangeEnd);
      const csv = await northwind.post(`/portal/inventory/sim-cards/download?batch_id=${batch!.batchId}`, {});
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.trim().split('\n')).toHaveLength(501);
      expect((await harbor.get('/portal/inventory/ranges')).statusCode).toBe(403);
      for (const after of ['abc', 2147483648]) expect((await northwind.post('/portal/inventory/sim-cards', { page: { after } })).statusCode).toBe(400);
    });
  });

  describe('assigning a range from inventory to an account', () => {
    it('creates a subscriber for every card of the range in one go, and the counts are exact after', async () => {
      const range = (await rangeOf(northwind, 'NW-2026-01'))!;
      const account = await accountOf('Harbor Logistics');
      const cards = await q(sql`select iccid from sim_card where batch_id = ${range.batchId} order by iccid limit 120`);
      const [start, end] = [cards[0].iccid, cards[119].iccid];
      const subscribersBefore = await q(sql`select count(*)::int as n from subscriber where account_id = ${account.accountId}`);
      const res = await northwind.post('/portal/inventory/assign', { accountId: account.accountId, iccidStart: start, iccidEnd: end, quantity: 120 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ accountId: account.accountId, assigned: 120 });
      const after = (await rangeOf(northwind, 'NW-2026-01'))!;
      expect(after).toMatchObject({ total: 500, allocated: 120, available: 380 });
      const [subs] = await q(sql`select count(*)::int as n, count(distinct imsi)::int as imsis from subscriber where account_id = ${account.accountId}`);
      expect(subs.n).toBe(subscribersBefore[0].n + 120);
      const created = await q(
        sql`select s.imsi, s.reseller_id, c.status from subscriber s join sim_card c using (iccid) where c.iccid between ${start} and ${end} and length(c.iccid) = 19`,
      );
      expect(created).toHaveLength(120);
      expect(created.every((r) => /^90128\d{10}$/.test(r.imsi) && r.resellerId === account.resellerId && r.status === 'active')).toBe(true);
      expect(await q(sql`select count(*)::int as n from subscriber_audit where action = 'assign-from-inventory'`)).toEqual([{ n: 120 }]);
      // The harbor account user sees them in its subscriber list.
      const list = (await harbor.post('/portal/subscribers/paged', { searchBy: 'iccid', searchKey: start })).json();
      expect(list.totalItemsCount).toBe(1);
      // The stock reflects the rate of use.
      const stock = ((await northwind.get('/portal/inventory/ranges')).json().stock as Row[]).find((s) => s.resellerId === ids['Northwind Mobile'])!;
      expect(stock.perDay).toBeGreaterThan(0);
      expect(stock.nextRange).toBe('NW-2026-01');
      expect(stock.nextRangeDaysLeft).toBe(Math.floor(380 / stock.perDay));
    });

    it('refuses an end not after the start, a wrong quantity, cards no longer in stock, and another tenant, assigning nothing', async () => {
      const range = (await rangeOf(northwind, 'NW-2026-01'))!;
      const account = await accountOf('Harbor Logistics');
      const cards = await q(sql`select iccid, status from sim_card where batch_id = ${range.batchId} order by iccid`);
      const free = cards.filter((c) => c.status === 'inventory');
      const before = await q(sql`select count(*)::int as n from subscriber`);
      const assign = (c: Client, body: object) => c.post('/portal/inventory/assign', { accountId: account.accountId, ...body });
      const backwards = await assign(northwind, { iccidStart: free[5].iccid, iccidEnd: free[0].iccid, quantity: 6 });
      expect([backwards.statusCode, fields(backwards)]).toEqual([400, [{ field: 'iccidEnd', rule: 'order' }]]);
      const wrong = await assign(northwind, { iccidStart: free[0].iccid, iccidEnd: free[9].iccid, quantity: 11 });
      expect([wrong.statusCode, fields(wrong)]).toEqual([400, [{ field: 'quantity', rule: 'count' }]]);
      const taken = await assign(northwind, { iccidStart: cards[100].iccid, iccidEnd: cards[130].iccid, quantity: 31 });
      expect([taken.statusCode, fields(taken)]).toEqual([409, [{ field: 'iccidStart', rule: 'available' }]]);
      // Blue Sky sees neither Northwind's cards nor its account.
      expect((await assign(bluesky, { iccidStart: free[0].iccid, iccidEnd: free[9].iccid, quantity: 10 })).statusCode).toBe(404);
      const bsAccount = await ctx.db
        .selectFrom('account')
        .select('accountId')
        .where('resellerId', '=', ids['Blue Sky Telecom'])
        .where('inventoryAccount', '=', false)
        .executeTakeFirstOrThrow();
      const foreign = await bluesky.post('/portal/inventory/assign', {
        accountId: bsAccount.accountId,
        iccidStart: free[0].iccid,
        iccidEnd: free[9].iccid,
        quantity: 10,
      });
      expect([foreign.statusCode, fields(foreign)]).toEqual([400, [{ field: 'quantity', rule: 'count' }]]);
      // Cards flow down the tree, but Northwind IoT's own users do not see their parent's cards.
      const iotAccount = await ctx.db
        .selectFrom('account')
        .select('accountId')
        .where('resellerId', '=', ids['Northwind IoT'])
        .where('inventoryAccount', '=', false)
        .executeTakeFirst();
      if (iotAccount) {
        const up = await iot.post('/portal/inventory/assign', {
          accountId: iotAccount.accountId,
          iccidStart: free[0].iccid,
          iccidEnd: free[9].iccid,
          quantity: 10,
        });
        expect(up.statusCode).toBe(400);
      }
      const tooLarge = await assign(northwind, { iccidStart: free[0].iccid, iccidEnd: '8988228999999999990', quantity: 10 });
      expect(tooLarge.statusCode).toBe(400);
      expect(await q(sql`select count(*)::int as n from subscriber`)).toEqual(before);
    });

    it("keeps the subscribers' references to their account, reseller and card, and the audit entries' to their subscriber", async () => {
      // Each attempt in a transaction of its own, rolled back: the error is the foreign key's (23503, its name).
      const refused = async (query: ReturnType<typeof sql>) => {
        const error = await ctx.db
          .transaction()
          .execute(async (trx) => {
            await query.execute(trx);
            throw new Error('accepted');
          })
          .catch((e: { code?: string; message: string }) => e);
        return [error.code, error.message];
      };
      const [s] = await q(sql`select subscriber_id, account_id, reseller_id, iccid from subscriber order by subscriber_id limit 1`);
      const [free] = await q(sql`select iccid from sim_card where status = 'inventory' limit 1`);
      const fk = (name: string) => ['23503', expect.stringContaining(`"${name}"`)];
      // A valid ICCID that no card has.
      const unused = `898822899999999999${luhnDigit('898822899999999999')}`;
      const add = (accountId: number, resellerId: number, iccid: string) =>
        sql`insert into subscriber (imsi, iccid, account_id, reseller_id) values ('901289999999999', ${iccid}, ${accountId}, ${resellerId})`;
      expect(await refused(add(2_000_000_000, s.resellerId, free.iccid))).toEqual(fk('subscriber_account_id_fkey'));
      expect(await refused(add(s.accountId, 2_000_000_000, free.iccid))).toEqual(fk('subscriber_reseller_id_fkey'));
      expect(await refused(add(s.accountId, s.resellerId, unused))).toEqual(fk('subscriber_iccid_fkey'));
      expect(await refused(sql`update subscriber set account_id = 2000000000 where subscriber_id = ${s.subscriberId}`)).toEqual(
        fk('subscriber_account_id_fkey'),
      );
      expect(await refused(sql`delete from account where account_id = ${s.accountId}`)).toEqual(['23503', expect.any(String)]);
      expect(await refused(sql`delete from sim_card where iccid = ${s.iccid}`)).toEqual(fk('subscriber_iccid_fkey'));
      expect(await refused(sql`update sim_card set iccid = ${unused} where iccid = ${s.iccid}`)).toEqual(fk('subscriber_iccid_fkey'));
      expect(await refused(sql`insert into subscriber_audit (subscriber_id, username, action) values (2000000000, 'x', 'y')`)).toEqual(
        fk('subscriber_audit_subscriber_id_fkey'),
      );
      expect(
        await refused(sql`insert into subscriber_operation (subscriber_id, operation, status, username) values (2000000000, 'x', 'success', 'y')`),
      ).toEqual(fk('subscriber_operation_subscriber_id_fkey'));
      // A record moved to a subscriber that does not exist, and a subscriber's id changed under its records (a new
      // subscriber's, which nothing else refers to).
      const withOperation = (then: string) =>
        sql.raw(`do $$ declare mine integer; begin
          insert into subscriber (imsi, iccid, account_id, reseller_id) values ('901289999999999', '${free.iccid}', ${Number(s.accountId)}, ${Number(s.resellerId)})
            returning subscriber_id into mine;
          insert into subscriber_operation (subscriber_id, operation, status, username) values (mine, 'x', 'success', 'y');
          ${then};
        end $$`);
      expect(await refused(withOperation('update subscriber_operation set subscriber_id = 2000000000 where subscriber_id = mine'))).toEqual(
        fk('subscriber_operation_subscriber_id_fkey'),
      );
      expect(await refused(withOperation('update subscriber set subscriber_id = 2000000000 where subscriber_id = mine'))).toEqual(
        fk('subscriber_operation_subscriber_id_fkey'),
      );
      // Deleting a subscriber deletes its audit entries and operation records; a whole insert of good rows passes.
      const left = await ctx.db
        .transaction()
        .execute(async (trx) => {
          await add(s.accountId, s.resellerId, free.iccid).execute(trx);
          const [mine] = (await sql<Row>`select subscriber_id from subscriber where iccid = ${free.iccid}`.execute(trx)).rows;
          await sql`insert into subscriber_audit (subscriber_id, username, action) values (${mine.subscriberId}, 'x', 'y')`.execute(trx);
          await sql`insert into subscriber_operation (subscriber_id, operation, status, username) values (${mine.subscriberId}, 'x', 'success', 'y')`.execute(
            trx,
          );
          const [written] = (await sql<Row>`select count(*)::int as n from subscriber_operation where subscriber_id = ${mine.subscriberId}`.execute(trx)).rows;
          expect(written.n).toBe(1);
          await sql`delete from subscriber where subscriber_id = ${mine.subscriberId}`.execute(trx);
          const [audit] = (await sql<Row>`select count(*)::int as n from subscriber_audit where subscriber_id = ${mine.subscriberId}`.execute(trx)).rows;
          const [operations] = (await sql<Row>`select count(*)::int as n from subscriber_operation where subscriber_id = ${mine.subscriberId}`.execute(trx))
            .rows;
          throw Object.assign(new Error('rolled back'), { left: (audit.n as number) + (operations.n as number) });
        })
        .catch((e: { left?: number; message: string }) => e.left ?? e.message);
      expect(left).toBe(0);
    });

    it("gives subscribers their cards' own IMSI and MSISDN, the sequence's IMSI only to cards without one, and refuses ones in use", async () => {
      const reseller = ids['Northwind Mobile'];
      const account = await accountOf('Harbor Logistics');
      const batch = (name: string, more: Row) =>
        ctx.db.transaction().execute((trx) => addSimBatch(trx, { resellerId: reseller, name, quantity: 10, simType: 'physical', userId: null, ...more }));
      const carried = await batch('Carried resources', { imsiStart: '204049990000000', msisdnStart: '31699000000' });
      const cards = await q(sql`select iccid, imsi, msisdn from sim_card where batch_id = ${carried.batchId} order by iccid`);
      expect(cards.map((c) => [c.imsi, c.msisdn])).toEqual(Array.from({ length: 10 }, (_, i) => [`20404999000000${i}`, `3169900000${i}`]));
      // A batch over IMSIs or MSISDNs other cards have, or with a first one that is none, is refused.
      const clash = await batch('Clash', { imsiStart: '204049990000005' }).catch((e) => e);
      expect([clash.statusCode, clash.fields?.map((f: Row) => f.field)]).toEqual([409, ['imsiStart']]);
      const clashMsisdn = await batch('Clash', { msisdnStart: '31699000009' }).catch((e) => e);
      expect([clashMsisdn.statusCode, clashMsisdn.fields?.map((f: Row) => f.field)]).toEqual([409, ['msisdnStart']]);
      const overflow = await batch('Overflow', { imsiStart: '999999999999995' }).catch((e) => e);
      expect([overflow.statusCode, overflow.fields?.map((f: Row) => f.field)]).toEqual([400, ['imsiStart']]);

      const assign = (first: number, last: number) =>
        northwind.post('/portal/inventory/assign', {
          accountId: account.accountId,
          iccidStart: cards[first].iccid,
          iccidEnd: cards[last].iccid,
          quantity: last - first + 1,
        });
      const done = await assign(0, 3);
      expect(done.statusCode, done.body).toBe(200);
      const made =
        await q(sql`select s.subscriber_id, s.imsi, s.msisdn, (select array_agg(m.msisdn) from subscriber_msisdn m where m.subscriber_id = s.subscriber_id) as numbers
        from subscriber s where s.iccid = any(${cards.slice(0, 4).map((c) => c.iccid)}) order by s.iccid`);
      expect(made.map((r) => [r.imsi, r.msisdn, r.numbers])).toEqual(cards.slice(0, 4).map((c) => [c.imsi, c.msisdn, [c.msisdn]]));
      const [audit] = await q(sql`select after from subscriber_audit where subscriber_id = ${made[0].subscriberId} and action = 'assign-from-inventory'`);
      expect(audit.after).toMatchObject({ imsi: cards[0].imsi, msisdn: cards[0].msisdn });

      // A subscriber already has the IMSI (or the MSISDN) of a card: 409 naming the field, nothing assigned.
      const before = await q(sql`select count(*)::int as n from subscriber`);
      await sql`update subscriber set imsi = ${cards[5].imsi} where subscriber_id = ${made[0].subscriberId}`.execute(ctx.db);
      const imsiUsed = await assign(4, 6);
      expect([imsiUsed.statusCode, fields(imsiUsed)]).toEqual([409, [{ field: 'imsi', rule: 'unique' }]]);
      await sql`update subscriber set imsi = ${cards[0].imsi} where subscriber_id = ${made[0].subscriberId}`.execute(ctx.db);
      await sql`update subscriber_msisdn set msisdn = ${cards[6].msisdn} where msisdn = ${cards[0].msisdn}`.execute(ctx.db);
      const msisdnUsed = await assign(4, 6);
      expect([msisdnUsed.statusCode, fields(msisdnUsed)]).toEqual([409, [{ field: 'msisdn', rule: 'unique' }]]);
      await sql`update subscriber_msisdn set msisdn = ${cards[0].msisdn} where msisdn = ${cards[6].msisdn}`.execute(ctx.db);
      expect(await q(sql`select count(*)::int as n from subscriber`)).toEqual(before);
      expect(await q(sql`select count(*)::int as n from sim_card where batch_id = ${carried.batchId} and status = 'inventory'`)).toEqual([{ n: 6 }]);

      // Cards without resources of their own: the inventory's home network and no number.
      const bare = await batch('No resources', {});
      const [b] = await q(sql`select iccid_start, iccid_end from sim_batch where id = ${bare.batchId}`);
      const plain = await northwind.post('/portal/inventory/assign', {
        accountId: account.accountId,
        iccidStart: b.iccidStart,
        iccidEnd: b.iccidEnd,
        quantity: 10,
      });
      expect(plain.statusCode, plain.body).toBe(200);
      const own = await q(sql`select s.imsi, s.msisdn from subscriber s join sim_card c using (iccid) where c.batch_id = ${bare.batchId}`);
      expect(own.every((r) => /^90128\d{10}$/.test(r.imsi) && r.msisdn === null)).toBe(true);
    });
  });

  describe('the MSISDN pool', () => {
    it('lists suppliers, countries and numbers of the caller only, with valid E.164 numbers', async () => {
      const nwCountries = (await northwind.get('/portal/inventory/msisdn-countries')).json();
      expect(nwCountries.map((c: Row) => c.country).sort()).toEqual(['DE', 'NL', 'SE']);
      const bsCountries = (await bluesky.get('/portal/inventory/msisdn-countries')).json();
      expect(bsCountries).toEqual([{ country: 'US', total: expect.any(Number), free: expect.any(Number) }]);
      const suppliers = (await bluesky.get('/portal/inventory/msisdn-suppliers')).json();
      expect(suppliers.map((s: Row) => s.name)).toEqual(['Bandwidth Numbers']);
      const page = (await northwind.post('/portal/inventory/msisdn-list', { country: 'SE', assigned: false, page: { page: 0, size: 5 } })).json();
      expect(page.items).toHaveLength(5);
      expect(page.items.every((n: Row) => n.msisdn.startsWith('4670174') && !n.assigned)).toBe(true);
      expect((await bluesky.post('/portal/inventory/msisdn-list', { country: 'SE' })).json().totalItemsCount).toBe(0);
      const bad = await northwind.post('/portal/inventory/msisdn-list', { country: 'Sweden', extra: 1 });
      expect(bad.statusCode).toBe(400);
    });

    it("gives a free number of the pool to a subscriber, refusing one already taken (409) or of another reseller's pool (403)", async () => {
      const subscriber = await ctx.db
        .selectFrom('subscriber')
        .select(['subscriberId', 'msisdn'])
        .where('resellerId', '=', ids['Northwind Mobile'])
        .orderBy('subscriberId')
        .executeTakeFirstOrThrow();
      const other = await ctx.db
        .selectFrom('subscriber')
        .select('subscriberId')
        .where('resellerId', '=', ids['Northwind Mobile'])
        .orderBy('subscriberId', 'desc')
        .executeTakeFirstOrThrow();
      const [number] = (await northwind.post('/portal/inventory/msisdn-list', { country: 'SE', assigned: false, page: { page: 0, size: 1 } })).json().items;
      const change = (id: number, msisdn: string, c = northwind) =>
        c.post('/portal/subscriber-info/api/', { operation: 'modify-msisdn', subscriberId: id, msisdn });
      const ok = await change(subscriber.subscriberId, number.msisdn);
      expect(ok.statusCode, ok.body).toBe(202);
      await ctx.app.coreNetwork.idle();
      // The network's answer is settled by the operation's own writer, which may still be at it.
      await expect
        .poll(
          async () =>
            (await ctx.db.selectFrom('subscriber').select('msisdn').where('subscriberId', '=', subscriber.subscriberId).executeTakeFirstOrThrow()).msisdn,
          { timeout: 15_000 },
        )
        .toBe(number.msisdn);
      const listed = (await northwind.post('/portal/inventory/msisdn-list', { searchKey: number.msisdn })).json().items[0];
      expect(listed).toMatchObject({ assigned: true, subscriberId: subscriber.subscriberId });
      const again = await change(other.subscriberId, number.msisdn);
      expect([again.statusCode, fields(again)]).toEqual([409, [{ field: 'msisdn', rule: 'unique' }]]);
      const [us] = (await bluesky.post('/portal/inventory/msisdn-list', { assigned: false, page: { page: 0, size: 1 } })).json().items;
      const foreign = await change(other.subscriberId, us.msisdn);
      expect([foreign.statusCode, fields(foreign)]).toEqual([403, [{ field: 'msisdn', rule: 'tenant' }]]);
      // A Northwind IoT number does not go to a subscriber of its parent.
      const [de] = (await northwind.post('/portal/inventory/msisdn-list', { country: 'DE', assigned: false, page: { page: 0, size: 1 } })).json().items;
      expect((await change(other.subscriberId, de.msisdn)).statusCode).toBe(403);
    });
  });

  describe('devices', () => {
    it("lists the devices of the caller's subscribers with make and model from the TAC, and the IMEI changes as events", async () => {
      const page = (await northwind.post('/portal/inventory/devices', { page: { page: 0, size: 500 } })).json();
      expect(page.totalItemsCount).toBeGreaterThan(0);
      expect(page.items.every((d: Row) => d.tac === d.imei.slice(0, 8))).toBe(true);
      expect(page.items.some((d: Row) => d.make && d.model)).toBe(true);
      const visible = await q(
        sql`select count(*)::int as n from subscriber s join reseller r on r.id = s.reseller_id where s.imei is not null and r.path like ${'/-1/' + ids['Northwind Mobile'] + '/%'}`,
      );
      expect(page.totalItemsCount).toBe(visible[0].n);
      const changed = page.items.find((d: Row) => d.changes > 0)!;
      const events = (await northwind.get(`/portal/inventory/devices/${changed.subscriberId}/changes`)).json();
      expect(events[0]).toMatchObject({ iccid: changed.iccid, imei: changed.imei });
      expect((await bluesky.get(`/portal/inventory/devices/${changed.subscriberId}/changes`)).statusCode).toBe(404);
      // A new device in the SIM is an event.
      await sql`update subscriber set imei = '352266110000008' where subscriber_id = ${changed.subscriberId}`.execute(ctx.db);
      const latest = (await northwind.get(`/portal/inventory/devices/${changed.subscriberId}/changes`)).json()[0];
      expect(latest).toMatchObject({ imei: '352266110000008', previousImei: changed.imei, make: 'Apple' });
    });
  });
});
