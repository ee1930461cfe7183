import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidIccid } from '@shared/iccid';
import { addSimBatch, DEFAULT_ICCID_PREFIX } from '@server/domains/inventory/batches';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, any>;

describe.each(engines)('SIM inventory on %s', (engine) => {
  let ctx: Ctx;
  let ids: Record<string, number>;
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(ctx.db)).rows as Row[];

  beforeAll(async () => {
    ctx = await testApp(engine);
    const rows = await ctx.db.selectFrom('reseller').select(['id', 'name']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  });
  afterAll(async () => ctx?.close());

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
      const first = await ctx.db
        .transaction()
        .execute((trx) =>
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
      const second = await ctx.db
        .transaction()
        .execute((trx) =>
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
});
