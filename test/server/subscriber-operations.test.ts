import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnDigit } from '@shared/iccid';
import type { SimulatorControls } from '@server/adapters/core-network/simulator';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

describe.each(engines)('subscriber operations on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let harbor: Client;
  let sim: SimulatorControls;
  /** Subscribers of Northwind Mobile (reseller 1), each test taking its own. */
  let nw: number[];

  beforeAll(async () => {
    ctx = await testApp(engine);
    [admin, northwind, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    sim = ctx.app.coreNetwork.simulator!;
    sim.setFailureRate(0); // failures only on demand
    nw = (
      await sql<{
        id: number;
      }>`select subscriber_id as id from subscriber where reseller_id = 1 and status = 'active' and account_id <> (select account_id from subscriber where subscriber_id = 1)
      and subscriber_id not in (select subscriber_id from sponsor_imsi) order by subscriber_id`.execute(ctx.db)
    ).rows.map((r) => r.id);
  });
  afterAll(async () => ctx?.close());

  const row = async (id: number) =>
    (
      await sql<Row>`select s.*, s.balance::text as balance_text, c.status as sim_status from subscriber s join sim_card c using (iccid) where subscriber_id = ${id}`.execute(
        ctx.db,
      )
    ).rows[0];
  const audits = async (id: number) =>
    (await sql<Row>`select action, username, before, after from subscriber_audit where subscriber_id = ${id} order by id`.execute(ctx.db)).rows.map((a) => ({
      action: a.action,
      username: a.username,
      before: typeof a.before === 'string' ? JSON.parse(a.before) : a.before,
      after: typeof a.after === 'string' ? JSON.parse(a.after) : a.after,
    }));
  const api = (c: Client, body: object) => c.post('/portal/subscriber-info/api/', body);
  /** Waits for the network's answers, then reads the operation as the web app polls it. */
  const settle = async (c: Client, op: Row) => {
    await ctx.app.coreNetwork.idle();
    const res = await c.get(`/portal/subscriber-info/operations/${op.id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const fields = (res: { json: () => any }) => res.json().fields.map((f: Row) => ({ field: f.field, rule: f.rule, messageId: f.messageId }));

  describe('network operations through the core-network adapter', () => {
    it('suspend is pending until the network answers, then changes status and SIM with an audit entry and a network event', async () => {
      const id = nw[0];
      const before = await row(id);
      sim.pause();
      let op: Row;
      try {
        const res = await api(northwind, { operation: 'suspend', subscriberId: id });
        expect(res.statusCode, res.body).toBe(202);
        op = res.json();
        expect(op).toMatchObject({ subscriberId: id, operation: 'suspend', status: 'pending', username: 'northwind', finishedAt: null });
        expect((await northwind.get(`/portal/subscriber-info/operations/${op.id}`)).json().status).toBe('pending');
        expect((await row(id)).status).toBe('active');
        const again = await api(northwind, { operation: 'refresh-sim', subscriberId: id });
        expect(again.statusCode).toBe(409);
        expect(fields(again)).toEqual([{ field: 'subscriberId', rule: 'pending', messageId: 'error.operation.pending' }]);
      } finally {
        sim.resume();
      }
      const done = await settle(northwind, op);
      expect(done).toMatchObject({ status: 'success', finishedAt: expect.any(String) });
      expect(done.error).toBeUndefined();
      const after = await row(id);
      expect(after.status).toBe('suspended');
      expect(after.simStatus).toBe('suspended');
      expect(await audits(id)).toEqual([{ action: 'suspend', username: 'northwind', before: { status: 'active' }, after: { status: 'suspended' } }]);
      const events = (await sql<Row>`select operation, result, protocol from network_event where imsi = ${before.imsi}`.execute(ctx.db)).rows;
      expect(events).toEqual([{ operation: 'suspendSubscriber', result: 'success', protocol: 'Diameter' }]);

      const twice = await api(northwind, { operation: 'suspend', subscriberId: id });
      expect(twice.statusCode).toBe(409);
      expect(fields(twice)[0].messageId).toBe('validation.status.alreadySuspended');
      const back = await settle(northwind, (await api(northwind, { operation: 'reactivate', subscriberId: id })).json());
      expect(back.status).toBe('success');
      expect((await row(id)).status).toBe('active');
      const list = (await northwind.get(`/portal/subscriber-info/${id}/operations`)).json();
      expect(list.map((o: Row) => o.operation)).toEqual(['reactivate', 'suspend']);
    });

    it('a failed SIM refresh says why (OTA delivery failed, subscriber not online) and leaves the subscriber unchanged', async () => {
      const id = nw[1];
      const before = await row(id);
      sim.failNext(1);
      const ota = await settle(northwind, (await api(northwind, { operation: 'refresh-sim', subscriberId: id })).json());
      expect(ota).toMatchObject({
        status: 'failed',
        error: { code: 'NETWORK_FAILED', messageId: 'subscriberOperation.failed.ota', message: 'OTA delivery failed', detail: expect.stringContaining('OTA') },
      });
      sim.failNext(1, 'subscriber not online: MAP error 27 absent subscriber');
      const offline = await settle(northwind, (await api(northwind, { operation: 'refresh-sim', subscriberId: id })).json());
      expect(offline.error).toMatchObject({ messageId: 'subscriberOperation.failed.notOnline', message: 'Subscriber not online' });
      const ok = await settle(northwind, (await api(northwind, { operation: 'refresh-sim', subscriberId: id })).json());
      expect(ok.status).toBe('success');
      expect(await row(id)).toEqual(before);
      expect(await audits(id)).toEqual([]);
      const results = (
        await sql<Row>`select result from network_event where imsi = ${before.imsi} and operation = 'refreshSim' order by id`.execute(ctx.db)
      ).rows.map((r) => r.result);
      expect(results).toEqual(['failure', 'failure', 'success']);
    });

    it('a network outage fails a suspend: status, SIM and audit log stay as they were', async () => {
      const id = nw[2];
      const before = await row(id);
      sim.setOutage(true);
      try {
        const op = await settle(northwind, (await api(northwind, { operation: 'suspend', subscriberId: id })).json());
        expect(op.status).toBe('failed');
        expect(op.error.messageId).toMatch(/^subscriberOperation\.failed\./);
      } finally {
        sim.setOutage(false);
      }
      expect(await row(id)).toEqual(before);
      expect(await audits(id)).toEqual([]);
    });

    it('cancel location clears the serving network on success, and fails with its own message', async () => {
      const id = nw[3];
      const before = await row(id);
      sim.failNext(1);
      const failed = await settle(northwind, (await northwind.post(`/portal/subscriber-info/${id}/cancel-location`)).json());
      expect(failed.error).toMatchObject({
        messageId: 'subscriberOperation.failed.cancelLocation',
        message: 'Cancel location failed',
        detail: expect.stringContaining('cancel location failure'),
      });
      expect(await row(id)).toEqual(before);
      const res = await northwind.post(`/portal/subscriber-info/${id}/cancel-location`);
      expect(res.statusCode).toBe(202);
      expect((await settle(northwind, res.json())).status).toBe('success');
      const after = await row(id);
      expect([after.network, after.country]).toEqual([null, null]);
      expect(await audits(id)).toEqual([
        {
          action: 'cancel-location',
          username: 'northwind',
          before: { network: before.network, country: before.country },
          after: { network: null, country: null },
        },
      ]);
    });

    it('modify-msisdn replaces the default number once the network confirms; a number in use or malformed is refused', async () => {
      const id = nw[4];
      const before = await row(id);
      const taken = (await row(nw[5])).msisdn;
      const inUse = await api(northwind, { operation: 'modify-msisdn', subscriberId: id, msisdn: taken });
      expect(inUse.statusCode).toBe(409);
      expect(fields(inUse)).toEqual([{ field: 'msisdn', rule: 'unique', messageId: 'validation.msisdn.inUse' }]);
      const bad = await api(northwind, { operation: 'modify-msisdn', subscriberId: id, msisdn: '+44 7700' });
      expect(bad.statusCode).toBe(400);
      expect(fields(bad)).toEqual([{ field: 'msisdn', rule: 'pattern', messageId: 'validation.msisdn.invalid' }]);
      sim.failNext(1);
      expect((await settle(northwind, (await api(northwind, { operation: 'modify-msisdn', subscriberId: id, msisdn: '4915112345678' })).json())).status).toBe(
        'failed',
      );
      expect((await row(id)).msisdn).toBe(before.msisdn);
      const ok = await settle(northwind, (await api(northwind, { operation: 'modify-msisdn', subscriberId: id, msisdn: '4915112345678' })).json());
      expect(ok.status).toBe('success');
      expect((await row(id)).msisdn).toBe('4915112345678');
      const numbers = (await northwind.get(`/portal/msisdn/${id}`)).json();
      expect(numbers).toContainEqual({ msisdn: '4915112345678', isDefault: true });
      expect(numbers.map((n: Row) => n.msisdn)).not.toContain(before.msisdn);
      expect((await audits(id)).at(-1)).toMatchObject({ action: 'modify-msisdn', before: { msisdn: before.msisdn }, after: { msisdn: '4915112345678' } });
    });

    it("writes a roaming profile to the HSS only when approved, of the subscriber's reseller, and with slots for a multi-IMSI SIM", async () => {
      const profiles = (await sql<Row>`select id, reseller_id, slots, review_state from roaming_profile order by id`.execute(ctx.db)).rows;
      const approvedSingle = profiles.find((p) => p.resellerId === 1 && p.reviewState === 'approved' && p.slots === 1)!;
      const pending = profiles.find((p) => p.reviewState !== 'approved')!;
      const foreign = profiles.find((p) => p.resellerId === 3 && p.reviewState === 'approved')!;
      expect([approvedSingle, pending, foreign].every(Boolean)).toBe(true);
      const id = nw[6];
      const current = (await northwind.get(`/portal/subscribers/${id}/roaming-profile`)).json();
      expect(current).toMatchObject({ subscriberId: id, multiImsi: false, lastHssUpdate: null });
      const put = (sub: number, body: object) => northwind.put(`/portal/subscribers/${sub}/roaming-profile/hss`, body);
      expect(pending.resellerId).toBe(1);
      expect(fields(await put(id, { roamingProfileId: pending.id }))).toEqual([
        { field: 'roamingProfileId', rule: 'approved', messageId: 'validation.roamingProfile.notApproved' },
      ]);
      expect(fields(await put(id, { roamingProfileId: foreign.id }))[0]).toMatchObject({
        field: 'roamingProfileId',
        rule: 'exists',
        messageId: 'validation.roamingProfile.unknown',
      });
      const multi = (
        await sql<{
          id: number;
        }>`select s.subscriber_id as id from subscriber s where s.reseller_id = 1 and exists (select 1 from sponsor_imsi i where i.subscriber_id = s.subscriber_id) limit 1`.execute(
          ctx.db,
        )
      ).rows[0].id;
      const single = await put(multi, { roamingProfileId: approvedSingle.id });
      expect(single.statusCode).toBe(400);
      expect(fields(single)).toEqual([{ field: 'roamingProfileId', rule: 'multiImsi', messageId: 'validation.roamingProfile.singleImsi' }]);
      await sql`update subscriber set roaming_profile_id = null where subscriber_id = ${id}`.execute(ctx.db);
      const ok = await put(id, { roamingProfileId: approvedSingle.id });
      expect(ok.statusCode, ok.body).toBe(202);
      expect((await settle(northwind, ok.json())).status).toBe('success');
      const after = (await northwind.get(`/portal/subscribers/${id}/roaming-profile`)).json();
      expect(after).toMatchObject({ roamingProfileId: approvedSingle.id, roamingProfile: { id: approvedSingle.id }, lastHssUpdate: { status: 'success' } });
      expect((await audits(id)).at(-1)).toMatchObject({
        action: 'roaming-profile-hss',
        before: { roamingProfileId: null },
        after: { roamingProfileId: approvedSingle.id },
      });
    });

    it('writes to the HSS only a profile the caller sees when it names one; the current one, whoever set it, again', async () => {
      const provider = (
        await sql<Row>`insert into roaming_profile (name, reference, slots, reseller_id, review_state)
          values ('Provider HSS only', 'PROV-HSS-1', 1, -1, 'approved') returning id`.execute(ctx.db)
      ).rows[0];
      const id = nw[7];
      await sql`update subscriber set roaming_profile_id = null where subscriber_id = ${id}`.execute(ctx.db);
      const named = await northwind.put(`/portal/subscribers/${id}/roaming-profile/hss`, { roamingProfileId: provider.id });
      expect(named.statusCode, named.body).toBe(400);
      expect(fields(named)[0]).toMatchObject({ field: 'roamingProfileId', rule: 'exists' });
      expect((await sql<Row>`select roaming_profile_id from subscriber where subscriber_id = ${id}`.execute(ctx.db)).rows[0].roamingProfileId).toBeNull();
      // Set from above, it is written again on the reseller's request.
      await sql`update subscriber set roaming_profile_id = ${provider.id} where subscriber_id = ${id}`.execute(ctx.db);
      const again = await northwind.put(`/portal/subscribers/${id}/roaming-profile/hss`, {});
      expect(again.statusCode, again.body).toBe(202);
      expect((await settle(northwind, again.json())).status).toBe('success');
      await sql`update subscriber set roaming_profile_id = null where subscriber_id = ${id}`.execute(ctx.db);
      await sql`delete from roaming_profile where id = ${provider.id}`.execute(ctx.db);
    });

    it('resets allowed networks, sets a sponsor IMSI pending and pushes pending IMSIs over the air', async () => {
      const { id, imsi } = (
        await sql<{
          id: number;
          imsi: string;
        }>`select i.subscriber_id as id, i.imsi from sponsor_imsi i join subscriber s using (subscriber_id) where s.reseller_id = 1 and not i.pending order by i.imsi limit 1`.execute(
          ctx.db,
        )
      ).rows[0];
      const reset = await northwind.post(`/portal/subscribers/${id}/allowed-networks`);
      expect(reset.statusCode).toBe(202);
      expect((await settle(northwind, reset.json())).status).toBe('success');
      await sql`update sponsor_imsi set pending = false where subscriber_id = ${id}`.execute(ctx.db);
      const none = await northwind.post(`/portal/subscribers/${id}/push-pending-imsis`);
      expect(none.statusCode).toBe(409);
      expect(fields(none)[0].messageId).toBe('validation.sponsorImsi.nonePending');
      expect((await northwind.put(`/portal/subscribers/${id}/12345/pending`)).statusCode).toBe(400);
      expect((await northwind.put(`/portal/subscribers/${id}/901280000000000/pending`)).statusCode).toBe(404);
      const set = await northwind.put(`/portal/subscribers/${id}/${imsi}/pending`);
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ imsi, pending: true });
      expect((await audits(id)).at(-1)).toMatchObject({ action: 'imsi-pending', before: { pendingImsis: [] }, after: { pendingImsis: [imsi] } });
      sim.failNext(1);
      expect((await settle(northwind, (await northwind.post(`/portal/subscribers/${id}/push-pending-imsis`)).json())).error.messageId).toBe(
        'subscriberOperation.failed.ota',
      );
      const stillPending = (await sql<Row>`select pending from sponsor_imsi where imsi = ${imsi}`.execute(ctx.db)).rows[0].pending;
      expect(stillPending).toBe(true);
      const pushed = await northwind.post(`/portal/subscribers/${id}/push-pending-imsis`);
      expect(pushed.json().request).toEqual({ imsis: [imsi] });
      expect((await settle(northwind, pushed.json())).status).toBe('success');
      expect((await sql<Row>`select pending from sponsor_imsi where imsi = ${imsi}`.execute(ctx.db)).rows[0].pending).toBe(false);
      const ops = (await sql<Row>`select operation from network_event where subscriber_id = ${id} order by id`.execute(ctx.db)).rows.map((r) => r.operation);
      expect(ops).toEqual(['resetAllowedNetworks', 'pushPendingImsis', 'pushPendingImsis']);
    });
  });

  describe('billing', () => {
    it('credit needs a pricing plan first; then amounts add and subtract exactly, each with a charge row and an audit entry', async () => {
      const id = nw[7];
      await sql`update subscriber set pricing_plan_id = null, balance = 0 where subscriber_id = ${id}`.execute(ctx.db);
      const refused = await api(northwind, { operation: 'credit', subscriberId: id, amount: 10 });
      expect(refused.statusCode).toBe(400);
      expect(fields(refused)).toEqual([{ field: 'pricingPlanId', rule: 'planBeforeCredit', messageId: 'validation.credit.planRequired' }]);
      expect(refused.json().fields[0].message).toBe('A pricing plan must be chosen before adding credit');
      expect((await row(id)).balanceText).toBe('0.00');
      const blueskyPlan = (await sql<{ id: number }>`select id from pricing_plan where reseller_id = 3 limit 1`.execute(ctx.db)).rows[0].id;
      expect(fields(await api(northwind, { operation: 'pricing-plan', subscriberId: id, pricingPlanId: blueskyPlan }))).toEqual([
        { field: 'pricingPlanId', rule: 'reference', messageId: 'validation.pricingPlan.unknown' },
      ]);
      const plan = (await sql<{ id: number }>`select id from pricing_plan where reseller_id = 1 limit 1`.execute(ctx.db)).rows[0].id;
      const chosen = await api(northwind, { operation: 'pricing-plan', subscriberId: id, pricingPlanId: plan });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json()).toMatchObject({ operation: 'pricing-plan', status: 'success', subscriber: { pricingPlanId: plan } });
      for (const amount of [0.1, '0.20']) expect((await api(northwind, { operation: 'credit', subscriberId: id, amount })).statusCode).toBe(200);
      expect((await row(id)).balanceText).toBe('0.30');
      const charged = await api(northwind, { operation: 'charge-on-wallet', subscriberId: id, amount: 0.3, description: 'Top-up reversal' });
      expect(charged.json().subscriber.balance).toBe(0);
      expect((await row(id)).balanceText).toBe('0.00');
      const tooMuch = await api(northwind, { operation: 'charge-on-wallet', subscriberId: id, amount: 0.01 });
      expect(fields(tooMuch)).toEqual([{ field: 'amount', rule: 'balance', messageId: 'validation.balance.insufficient' }]);
      const account = await api(northwind, { operation: 'charge-on-account', subscriberId: id, amount: '1234.56' });
      expect(account.statusCode).toBe(200);
      expect((await row(id)).balanceText).toBe('0.00');
      const charges = (await northwind.post(`/portal/subscriber-info/charges/${id}`, { page: { page: 0, size: 10 } })).json();
      expect(charges.totalItemsCount).toBe(4);
      expect(charges.items.map((c: Row) => [c.kind, c.amount])).toEqual([
        ['account', 1234.56],
        ['wallet', 0.3],
        ['credit', 0.2],
        ['credit', 0.1],
      ]);
      expect(charges.items[1].description).toBe('Top-up reversal');
      expect((await audits(id)).map((a) => [a.action, a.after])).toEqual([
        ['pricing-plan', { pricingPlanId: plan }],
        ['credit', { balance: 0.1 }],
        ['credit', { balance: 0.3 }],
        ['charge-on-wallet', { balance: 0 }],
        ['charge-on-account', { accountCharge: 1234.56 }],
      ]);
    });

    it('refuses bad bodies naming each field and rule, and writes nothing', async () => {
      const id = nw[8];
      const before = await row(id);
      const empty = await api(northwind, {});
      expect(empty.statusCode).toBe(400);
      expect(fields(empty)).toEqual([
        { field: 'operation', rule: 'required', messageId: 'validation.operation.invalid' },
        { field: 'subscriberId', rule: 'required', messageId: 'validation.subscriberId.required' },
      ]);
      expect(fields(await api(northwind, { operation: 'teleport', subscriberId: id }))[0]).toMatchObject({ field: 'operation', rule: 'enum' });
      expect(fields(await api(northwind, { operation: 'credit', subscriberId: id }))).toEqual([
        { field: 'amount', rule: 'required', messageId: 'validation.amount.required' },
      ]);
      expect(fields(await api(northwind, { operation: 'credit', subscriberId: id, amount: 1.005 }))).toEqual([
        { field: 'amount', rule: 'multipleOf', messageId: 'validation.amount.invalid' },
      ]);
      expect(fields(await api(northwind, { operation: 'credit', subscriberId: id, amount: 0 }))).toEqual([
        { field: 'amount', rule: 'exclusiveMinimum', messageId: 'validation.amount.range' },
      ]);
      expect(fields(await api(northwind, { operation: 'credit', subscriberId: id, amount: -5 }))).toEqual([
        { field: 'amount', rule: 'exclusiveMinimum', messageId: 'validation.amount.range' },
      ]);
      expect(fields(await api(northwind, { operation: 'credit', subscriberId: id, amount: '1e3' }))).toEqual([
        { field: 'amount', rule: 'pattern', messageId: 'validation.amount.invalid' },
      ]);
      expect(fields(await api(northwind, { operation: 'charge-on-wallet', subscriberId: id, amount: 100000 }))).toEqual([
        { field: 'amount', rule: 'exclusiveMaximum', messageId: 'validation.amount.range' },
      ]);
      expect(fields(await api(northwind, { operation: 'pricing-plan', subscriberId: id }))).toEqual([
        { field: 'pricingPlanId', rule: 'required', messageId: 'validation.pricingPlan.required' },
      ]);
      expect(fields(await api(northwind, { operation: 'suspend', subscriberId: id, status: 'x' }))).toEqual([
        { field: 'status', rule: 'additionalProperties', messageId: 'validation.unknownField' },
      ]);
      expect(await row(id)).toEqual(before);
      expect(await audits(id)).toEqual([]);
    });
  });

  describe('daily limit and QoS', () => {
    it('requires a limit above 0; when usage reaches it the subscriber is blocked, or throttled to the chosen QoS speed', async () => {
      const id = nw[9];
      const speeds = (await northwind.get('/portal/reseller-info/api/qos-speed-limits')).json();
      expect(speeds.map((s: Row) => s.id)).toContain('128kbps');
      await sql`update subscriber set usage_today_bytes = 5000000 where subscriber_id = ${id}`.execute(ctx.db);
      const before = await row(id);
      const post = (body: object) => northwind.post('/portal/subscriber-info/daily-limit', body);
      expect(fields(await post({ subscriberId: id }))).toEqual([{ field: 'dailyLimitBytes', rule: 'required', messageId: 'validation.dailyLimit.required' }]);
      const zero = await post({ subscriberId: id, dailyLimitBytes: 0 });
      expect(zero.statusCode).toBe(400);
      expect(zero.json().fields[0]).toMatchObject({
        field: 'dailyLimitBytes',
        rule: 'exclusiveMinimum',
        messageId: 'validation.dailyLimit.positive',
        message: 'Daily limit must be greater than 0',
      });
      expect(fields(await post({ subscriberId: id, dailyLimitBytes: 1.5 }))[0]).toMatchObject({ field: 'dailyLimitBytes', rule: 'type' });
      expect(fields(await post({ subscriberId: id, dailyLimitBytes: 10, qosThrottling: '9Gbps' }))).toEqual([
        { field: 'qosThrottling', rule: 'enum', messageId: 'validation.qos.invalid' },
      ]);
      expect(await row(id)).toEqual(before);

      const blocked = await post({ subscriberId: id, dailyLimitBytes: 4000000 });
      expect(blocked.statusCode, blocked.body).toBe(200);
      expect(blocked.json()).toEqual({
        subscriberId: id,
        dailyLimitBytes: 4000000,
        qosThrottling: 'BLOCK',
        usageTodayBytes: 5000000,
        reached: true,
        effect: 'blocked',
      });
      expect((await post({ subscriberId: id, dailyLimitBytes: 4000000, qosThrottling: '128kbps' })).json()).toMatchObject({
        reached: true,
        effect: 'throttled',
        qosThrottling: '128kbps',
      });
      expect((await post({ subscriberId: id, dailyLimitBytes: 1e9, qosThrottling: '128kbps' })).json()).toMatchObject({ reached: false, effect: null });
      expect((await harbor.get(`/portal/subscriber-info/daily-limit/${id}`)).statusCode).toBe(404); // another account
      expect((await northwind.get(`/portal/subscriber-info/daily-limit/${id}`)).json()).toMatchObject({ dailyLimitBytes: 1e9, usageTodayBytes: 5000000 });
      expect((await audits(id))[0]).toMatchObject({ action: 'daily-limit', after: { dailyLimitBytes: 4000000, qosThrottling: 'BLOCK' } });
    });
  });

  describe('privileges and tenancy', () => {
    it('a role without the detail panel gets 403; another reseller gets 404, nothing reaches the network and the row is unchanged', async () => {
      const id = 1; // Harbor Logistics, Northwind Mobile
      const before = await row(id);
      const sent = sim.received.length;
      for (const [method, url, body] of [
        ['POST', '/portal/subscriber-info/api/', { operation: 'suspend', subscriberId: id }],
        ['POST', '/portal/subscriber-info/api/', { operation: 'credit', subscriberId: id, amount: 5 }],
        ['POST', `/portal/subscriber-info/${id}/cancel-location`, undefined],
        ['PUT', `/portal/subscribers/${id}/roaming-profile/hss`, {}],
        ['POST', `/portal/subscribers/${id}/allowed-networks`, undefined],
        ['POST', `/portal/msisdn/${id}/modify-default`, { msisdn: before.msisdn }],
        ['GET', `/portal/subscriber-info/apn/${id}`, undefined],
        ['GET', `/portal/summa/subscriber-migration/${id}`, undefined],
        ['GET', `/portal/subscriber-info/usage-logs/${id}`, undefined],
        ['POST', `/portal/subscriber-info/network-events/${before.imsi}`, {}],
      ] as const) {
        expect((await harbor.send(method, url, body)).statusCode, `harbor ${method} ${url}`).toBe(403);
        expect((await bluesky.send(method, url, body)).statusCode, `bluesky ${method} ${url}`).toBe(404);
      }
      expect((await bluesky.post('/portal/subscriber-info/daily-limit', { subscriberId: id, dailyLimitBytes: 5 })).statusCode).toBe(404);
      expect((await harbor.get(`/portal/subscriber-info/daily-limit/${id}`)).statusCode).toBe(200); // always granted with Subscribers
      expect(sim.received.length).toBe(sent);
      expect(await row(id)).toEqual(before);
      const op = (await api(northwind, { operation: 'refresh-sim', subscriberId: id })).json();
      await ctx.app.coreNetwork.idle();
      expect((await bluesky.get(`/portal/subscriber-info/operations/${op.id}`)).statusCode).toBe(404);
      expect((await harbor.get(`/portal/subscriber-info/operations/${op.id}`)).statusCode).toBe(200);
    });
  });

  describe('panels and lists', () => {
    it('reads the APN and migration status; makes another own MSISDN the default through the core network', async () => {
      const two = (
        await sql<{
          id: number;
        }>`select subscriber_id as id from subscriber_msisdn m join subscriber s using (subscriber_id) where s.reseller_id = 1 group by subscriber_id having count(*) = 2 order by 1 limit 1`.execute(
          ctx.db,
        )
      ).rows[0].id;
      const sub = await row(two);
      expect((await northwind.get(`/portal/subscriber-info/apn/${two}`)).json()).toEqual({ subscriberId: two, apn: sub.apn });
      expect((await northwind.get(`/portal/summa/subscriber-migration/${two}`)).json()).toEqual({ subscriberId: two, migrationStatus: null });
      await sql`update subscriber set migration_status = 'pending' where subscriber_id = ${two}`.execute(ctx.db);
      expect((await northwind.get(`/portal/summa/subscriber-migration/${two}`)).json().migrationStatus).toBe('pending');
      const numbers = (await northwind.get(`/portal/msisdn/${two}`)).json();
      expect(numbers).toHaveLength(2);
      const other = numbers.find((n: Row) => !n.isDefault).msisdn;
      expect(fields(await northwind.post(`/portal/msisdn/${two}/modify-default`, { msisdn: (await row(nw[0])).msisdn }))).toEqual([
        { field: 'msisdn', rule: 'own', messageId: 'validation.msisdn.notOwn' },
      ]);
      expect(fields(await northwind.post(`/portal/msisdn/${two}/modify-default`, { msisdn: sub.msisdn }))).toEqual([
        { field: 'msisdn', rule: 'state', messageId: 'validation.msisdn.alreadyDefault' },
      ]);
      const auditsBefore = (await audits(two)).length;

      // The network refuses: the default stays, nothing is audited, the failure says why.
      sim.failNext(1, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      const refused = await northwind.post(`/portal/msisdn/${two}/modify-default`, { msisdn: other });
      expect(refused.statusCode, refused.body).toBe(202);
      expect(await settle(northwind, refused.json())).toMatchObject({
        operation: 'msisdn-default',
        status: 'failed',
        error: { code: 'NETWORK_FAILED', messageId: 'subscriberOperation.failed.network', detail: 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY' },
      });
      expect((await row(two)).msisdn).toBe(sub.msisdn);
      expect(await audits(two)).toHaveLength(auditsBefore);

      // Pending until the network answers, then the default changes with an audit entry and a network event.
      sim.pause();
      let op: Row;
      try {
        const res = await northwind.post(`/portal/msisdn/${two}/modify-default`, { msisdn: other });
        expect(res.statusCode, res.body).toBe(202);
        op = res.json();
        expect(op).toMatchObject({ subscriberId: two, operation: 'msisdn-default', status: 'pending', request: { msisdn: other, previous: sub.msisdn } });
        expect((await row(two)).msisdn).toBe(sub.msisdn);
        expect((await northwind.get(`/portal/msisdn/${two}`)).json()).toContainEqual({ msisdn: sub.msisdn, isDefault: true });
      } finally {
        sim.resume();
      }
      expect((await settle(northwind, op)).status).toBe('success');
      expect((await row(two)).msisdn).toBe(other);
      expect((await northwind.get(`/portal/msisdn/${two}`)).json()).toContainEqual({ msisdn: other, isDefault: true });
      expect((await audits(two)).slice(auditsBefore)).toEqual([
        { action: 'msisdn-default', username: 'northwind', before: { msisdn: sub.msisdn }, after: { msisdn: other } },
      ]);
      const events = (await sql<Row>`select operation, result from network_event where subscriber_id = ${two} order by id`.execute(ctx.db)).rows;
      expect(events).toEqual([
        { operation: 'modifyMsisdn', result: 'failure' },
        { operation: 'modifyMsisdn', result: 'success' },
      ]);
    });

    it("pages an IMSI's network events and downloads them as CSV with formula cells neutralised", async () => {
      const sub = await row(nw[1]); // three refreshes above
      await sql`insert into network_event (request_id, protocol, operation, imsi, result, detail, reseller_id, subscriber_id) values ('x', 'SS7', 'refreshSim', ${sub.imsi}, 'failure', '=HYPERLINK("http://evil.example")', 1, ${sub.subscriberId})`.execute(
        ctx.db,
      );
      const page = (await northwind.post(`/portal/subscriber-info/network-events/${sub.imsi}`, { page: { page: 0, size: 2 } })).json();
      expect(page).toMatchObject({ totalItemsCount: 4, totalPageCount: 2, currentPage: 0 });
      expect(page.items[0]).toMatchObject({ imsi: sub.imsi, operation: 'refreshSim', detail: '=HYPERLINK("http://evil.example")' });
      expect((await northwind.post(`/portal/subscriber-info/network-events/${sub.imsi}`, { page: { page: 0, size: 501 } })).statusCode).toBe(400);
      expect((await northwind.post('/portal/subscriber-info/network-events/12ab', {})).statusCode).toBe(400);
      const csv = await northwind.post(`/portal/subscriber-info/network-events/${sub.imsi}/download`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('createdAt,protocol,operation,imsi,plmn,result,detail,subject,requestId');
      expect(lines).toHaveLength(5);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      expect((await bluesky.post(`/portal/subscriber-info/network-events/${sub.imsi}/download`)).statusCode).toBe(404);
    });

    it('shows at most 250 usage records (CCR), newest first', async () => {
      const sub = await row(nw[10]);
      expect((await northwind.get(`/portal/subscriber-info/usage-logs/${sub.subscriberId}`)).json()).toHaveLength(3); // the demo's session
      await sql`delete from usage_record where subscriber_id = ${sub.subscriberId}`.execute(ctx.db);
      await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
        select ${sub.subscriberId}, ${sub.imsi}, now() - make_interval(mins => g), case when g % 3 = 0 then 'INITIAL' else 'UPDATE' end, g, g * 10 from generate_series(1, 300) g`.execute(
        ctx.db,
      );
      const rows = (await northwind.get(`/portal/subscriber-info/usage-logs/${sub.subscriberId}`)).json();
      expect(rows).toHaveLength(250);
      expect(rows[0]).toMatchObject({ bytesUp: 1, bytesDown: 10, requestType: 'UPDATE' });
      expect(rows[249].bytesUp).toBe(250);
      expect((await northwind.get(`/portal/subscriber-info/usage-logs/${sub.subscriberId}?size=251`)).statusCode).toBe(400);
    });

    it("ranks the top users of the last 24 hours within the caller's tenancy or one reseller subtree", async () => {
      // The demo's sessions spread over the year: every subscriber uses some data in the last hour as well.
      await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
        select subscriber_id, imsi, now() - interval '30 minutes', 'UPDATE', subscriber_id * 10, subscriber_id * 100 from subscriber`.execute(ctx.db);
      const top = (await northwind.post('/portal/subscriber-info/top24Hours', { size: 20 })).json();
      expect(top).toHaveLength(20);
      const usage = top.map((r: Row) => r.totalMb);
      expect(usage).toEqual([...usage].sort((a, b) => b - a));
      expect(new Set(top.map((r: Row) => r.resellerName)).has('Blue Sky Telecom')).toBe(false);
      const iot = (await admin.post('/portal/subscriber-info/top24Hours/2', {})).json();
      expect(iot).toHaveLength(10);
      expect(new Set(iot.map((r: Row) => r.resellerName))).toEqual(new Set(['Northwind IoT']));
      expect((await northwind.post('/portal/subscriber-info/top24Hours/3', {})).statusCode).toBe(404);
      const harborTop = (await harbor.post('/portal/subscriber-info/top24Hours', {})).json();
      expect(new Set(harborTop.map((r: Row) => r.accountId))).toEqual(new Set([(await row(1)).accountId]));
    });

    it('names every demo device from its IMEI through the stored TAC table', async () => {
      const subs = (await sql<Row>`select imei, device, device_type from subscriber where imei is not null`.execute(ctx.db)).rows;
      for (const s of subs.slice(0, 30)) {
        const res = await northwind.post('/portal/misc/equipment', { imei: s.imei });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(`${body.make} ${body.model}`).toBe(s.device);
        expect(body).toMatchObject({ imei: s.imei, tac: s.imei.slice(0, 8), deviceType: s.deviceType });
      }
      const tacs = (
        await sql<{ n: number }>`select count(*)::int as n from subscriber where substr(imei, 1, 8) not in (select tac from equipment_tac)`.execute(ctx.db)
      ).rows[0].n;
      expect(tacs).toBe(0);
      const imei = subs[0].imei as string;
      const wrong = `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`;
      expect(fields(await northwind.post('/portal/misc/equipment', { imei: wrong }))).toEqual([
        { field: 'imei', rule: 'checkDigit', messageId: 'validation.imei.checkDigit' },
      ]);
      expect(fields(await northwind.post('/portal/misc/equipment', { imei: 'abc' }))).toEqual([
        { field: 'imei', rule: 'pattern', messageId: 'validation.imei.invalid' },
      ]);
      const unknownImei = `99000001000000${luhnDigit('99000001000000')}`;
      const res = await northwind.post('/portal/misc/equipment', { imei: unknownImei });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("No device is known for this IMEI's type allocation code (TAC)");
    });
  });

  describe('SIM cards', () => {
    it("lists the caller's SIM cards and mails an eSIM's activation QR code", async () => {
      const list = (await northwind.get('/portal/sim-cards?size=500')).json();
      expect(list.totalItemsCount).toBeGreaterThan(0);
      expect(list.items.every((c: Row) => ['Northwind Mobile', 'Northwind IoT'].includes(c.resellerName))).toBe(true);
      const harborList = (await harbor.get('/portal/sim-cards?size=500')).json();
      expect(harborList.totalItemsCount).toBe(10);
      const esim = (
        await sql<Row>`select c.iccid, c.activation_code from sim_card c join subscriber s using (iccid) where s.reseller_id = 1 and c.sim_type = 'esim' limit 1`.execute(
          ctx.db,
        )
      ).rows[0];
      const physical = (
        await sql<Row>`select c.iccid from sim_card c join subscriber s using (iccid) where s.reseller_id = 1 and c.sim_type = 'physical' limit 1`.execute(
          ctx.db,
        )
      ).rows[0];
      expect((await northwind.get(`/portal/sim-cards/${esim.iccid}`)).json()).toMatchObject({
        iccid: esim.iccid,
        simType: 'esim',
        activationCode: esim.activationCode,
      });
      const hidden = await bluesky.get(`/portal/sim-cards/${esim.iccid}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('No SIM card found for this ICCID');
      expect((await northwind.get('/portal/sim-cards/8988228000001')).statusCode).toBe(400);
      expect(fields(await northwind.post(`/portal/sim-cards/${esim.iccid}`, { email: 'not-an-address' }))).toEqual([
        { field: 'email', rule: 'format', messageId: 'validation.email.invalid' },
      ]);
      expect(fields(await northwind.post(`/portal/sim-cards/${physical.iccid}`, { email: 'ops@example.com' }))).toEqual([
        { field: 'iccid', rule: 'esim', messageId: 'validation.simCard.notEsim' },
      ]);
      expect((await bluesky.post(`/portal/sim-cards/${esim.iccid}`, { email: 'ops@example.com' })).statusCode).toBe(404);
      const sent = await northwind.post(`/portal/sim-cards/${esim.iccid}`, { email: 'ops@example.com' });
      expect(sent.statusCode, sent.body).toBe(200);
      const mails = (await sql<Row>`select "to", subject, text, html from outbox where "to" = 'ops@example.com'`.execute(ctx.db)).rows;
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toContain(esim.iccid);
      expect(mails[0].text).toContain(esim.activationCode);
      expect(mails[0].html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+"/);
    });
  });

  it('documents the operations call and its body in the OpenAPI document', async () => {
    const doc = (await admin.get('/portal/v3/api-docs')).json();
    const op = doc.paths['/portal/subscriber-info/api/'].post;
    expect(op.description).toContain('pricing-plan');
    expect(op.requestBody.content['application/json'].schema.properties.operation.enum).toContain('modify-msisdn');
    expect(doc.paths['/portal/subscriber-info/daily-limit'].post).toBeDefined();
  });
});
