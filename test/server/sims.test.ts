import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_NETWORK_OPERATIONS, CORE_NETWORK_REPORTS } from '@server/adapters/core-network/operations';
import { HISTORY_DAYS } from '@server/db/seedNetworkEvents';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const CATALOGUE: Record<string, { protocol: string; summary: string; failures?: readonly string[] }> = { ...CORE_NETWORK_OPERATIONS, ...CORE_NETWORK_REPORTS };

describe.each(engines)('SIM cards and the demo network history on %s', (engine) => {
  let ctx: Ctx;
  let northwind: Client;
  let bluesky: Client;
  let harbor: Client;
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(ctx.db)).rows as Row[];

  beforeAll(async () => {
    ctx = await testApp(engine, {}, { networkEvents: true });
    [northwind, bluesky, harbor] = await Promise.all(['northwind', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
  });
  afterAll(async () => ctx?.close());

  describe("the demo seed's network events", () => {
    it('gives every demo subscriber a month of events shaped as the core-network adapter writes them', async () => {
      const [totals] = await q(sql`select count(*)::int as events, count(distinct subscriber_id)::int as subscribers,
        (select count(*)::int from subscriber) as all_subscribers,
        count(*) filter (where e.created_at > now() + interval '1 minute' or e.created_at < now() - make_interval(days => ${HISTORY_DAYS + 1}))::int as outside,
        count(distinct request_id)::int as request_ids,
        count(*) filter (where e.reseller_id <> s.reseller_id or e.imsi <> s.imsi)::int as foreign_rows
        from network_event e join subscriber s using (subscriber_id)`);
      expect(totals.subscribers).toBe(totals.allSubscribers);
      expect(totals.events).toBeGreaterThan(totals.allSubscribers * 5);
      expect(totals.outside).toBe(0);
      expect(totals.requestIds).toBe(totals.events);
      expect(totals.foreignRows).toBe(0);

      const kinds = await q(sql`select operation, protocol, result, detail, count(*)::int as n from network_event group by 1, 2, 3, 4`);
      for (const k of kinds) {
        const spec = CATALOGUE[k.operation];
        expect(spec, k.operation).toBeDefined();
        expect(k.protocol).toBe(spec.protocol);
        if (k.result === 'success') expect(k.detail).toBe(spec.summary);
        else expect(spec.failures).toContain(k.detail);
      }
      const operations = new Set(kinds.map((k) => k.operation));
      for (const op of ['attach', 'detach', 'updateLocation', 'updateGprsLocation', 'cancelLocation', 'refreshSim', 'suspendSubscriber'])
        expect(operations).toContain(op);
      expect(kinds.some((k) => k.result === 'failure')).toBe(true);

      // The latest location update is where and when the subscriber was last located; every network is in the catalogue.
      const latest =
        await q(sql`select distinct on (e.subscriber_id) e.created_at, s.last_location_at from network_event e join subscriber s using (subscriber_id)
        where e.operation = 'updateLocation' and e.result = 'success' order by e.subscriber_id, e.created_at desc`);
      expect(latest.every((r) => new Date(r.createdAt).getTime() === new Date(r.lastLocationAt).getTime())).toBe(true);
      const [unknown] = await q(sql`select count(*)::int as n from network_event where plmn not in (select plmn from network)`);
      expect(unknown.n).toBe(0);
      // A suspended subscriber's barring is in its history.
      // The load rebuilt the log's indexes after filling it.
      const indexes = (await q(sql`select indexname from pg_indexes where tablename = 'network_event' and schemaname = current_schema()`)).map(
        (r) => r.indexname,
      );
      expect(indexes).toEqual(
        expect.arrayContaining(['network_event_pkey', 'network_event_time_idx', 'network_event_imsi_idx', 'network_event_subscriber_plmn_idx']),
      );
      const [barred] = await q(sql`select count(*)::int as n from subscriber s where s.status = 'suspended'
        and not exists (select 1 from network_event e where e.subscriber_id = s.subscriber_id and e.operation = 'suspendSubscriber')`);
      expect(barred.n).toBe(0);
    });

    it("serves the seeded history through the network events call, newest first, paged and within the caller's tenancy", async () => {
      const [sub] = await q(sql`select s.subscriber_id, s.imsi, count(*)::int as n from subscriber s join network_event e using (subscriber_id)
        where s.reseller_id = 1 group by 1, 2 order by n desc, 1 limit 1`);
      expect(sub.n).toBeGreaterThan(20);
      const res = await northwind.post(`/portal/subscriber-info/network-events/${sub.imsi}`, { page: { page: 0, size: 20 } });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page).toMatchObject({ totalItemsCount: sub.n, totalPageCount: Math.ceil(sub.n / 20), currentPage: 0 });
      expect(page.items).toHaveLength(20);
      const times = page.items.map((e: Row) => Date.parse(e.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(page.items[0]).toMatchObject({ imsi: sub.imsi, protocol: expect.stringMatching(/^(SS7|Diameter)$/), requestId: expect.any(String) });
      const last = (await northwind.post(`/portal/subscriber-info/network-events/${sub.imsi}`, { page: { page: page.totalPageCount - 1, size: 20 } })).json();
      expect(last.items.at(-1).operation).toBe('attach'); // the month starts with the device attaching
      expect((await bluesky.post(`/portal/subscriber-info/network-events/${sub.imsi}`, {})).statusCode).toBe(404);
    });
  });

  describe('SIM cards', () => {
    it("names the subscriber a SIM card belongs to, pages the list and keeps to the caller's tenancy", async () => {
      const [esim] = await q(sql`select c.iccid, c.activation_code, s.subscriber_id, s.name from sim_card c join subscriber s using (iccid)
        where s.reseller_id = 1 and c.sim_type = 'esim' order by c.iccid limit 1`);
      const card = (await northwind.get(`/portal/sim-cards/${esim.iccid}`)).json();
      expect(card).toMatchObject({
        iccid: esim.iccid,
        simType: 'esim',
        activationCode: esim.activationCode,
        subscriberId: esim.subscriberId,
        subscriberName: esim.name,
        resellerName: 'Northwind Mobile',
      });

      const first = (await northwind.get('/portal/sim-cards?size=7')).json();
      const second = (await northwind.get('/portal/sim-cards?size=7&page=1')).json();
      expect(first.items).toHaveLength(7);
      expect(second.currentPage).toBe(1);
      expect(second.items[0].iccid > first.items[6].iccid).toBe(true);
      const esims = (await northwind.get('/portal/sim-cards?simType=esim&size=500')).json();
      expect(esims.items.every((c: Row) => c.simType === 'esim')).toBe(true);
      const search = (await northwind.get(`/portal/sim-cards?searchKey=${esim.iccid.slice(-8)}`)).json();
      expect(search.items.map((c: Row) => c.iccid)).toEqual([esim.iccid]);

      const harborCards = (await harbor.get('/portal/sim-cards?size=500')).json();
      const [harborCount] = await q(
        sql`select count(*)::int as n from subscriber where account_id = (select account_id from app_user where username = 'harbor')`,
      );
      expect(harborCards.totalItemsCount).toBe(harborCount.n);
      const hidden = await bluesky.get(`/portal/sim-cards/${esim.iccid}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('No SIM card found for this ICCID');
    });
  });
});
