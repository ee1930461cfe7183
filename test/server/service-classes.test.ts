import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const SEEDED = ['64kbps', '128kbps', '256kbps', '512kbps', '1Mbps'];

describe.each(engines)('service classes on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ctx = await testApp(engine, { coreNetwork: { simulator: { failureRate: 0, minDelayMs: 0, maxDelayMs: 0 } }, jobs: { pollMs: 50 } } as never);
    await ctx.app.ready();
    [admin, northwind, iot, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
  });
  afterAll(async () => ctx?.close());

  const create = async (c: Client, body: Row) => c.post('/portal/service-classes', body);
  const names = async (c: Client) => ((await c.get('/portal/service-classes')).json() as Row[]).map((r) => r.name);
  const qos = async (c: Client) => ((await c.get('/portal/reseller-info/api/qos-speed-limits')).json() as Row[]).map((r) => r.id);
  const speedOf = async (subscriberId: number) => {
    await ctx.app.coreNetwork.idle();
    const { imsi } = await ctx.db.selectFrom('subscriber').select('imsi').where('subscriberId', '=', subscriberId).executeTakeFirstOrThrow();
    return ctx.app.coreNetwork.simulator!.speeds.get(imsi);
  };

  it('seeds the five former speeds as the provider’s classes, seen by everyone, with the same speed ids', async () => {
    const rows = await ctx.db.selectFrom('serviceClass').select(['id', 'code', 'downlinkKbps', 'resellerId']).orderBy('id').execute();
    expect(rows.map((r) => r.code)).toEqual(SEEDED);
    expect(rows.every((r) => r.resellerId === -1)).toBe(true);
    for (const c of [admin, northwind, iot, harbor]) expect(await qos(c)).toEqual(SEEDED);
    const first = (await northwind.get('/portal/reseller-info/api/qos-speed-limits')).json()[0];
    expect(first).toEqual({ id: '64kbps', name: '64 kbit/s', kbps: 64 });
  });

  it('creates, reads, updates and deletes a class; names are unique per owner; others do not see it', async () => {
    const made = await create(northwind, { name: 'Throttled 256k', description: 'Slow lane', downlinkKbps: 256, uplinkKbps: 128 });
    expect(made.statusCode, made.body).toBe(201);
    const row = made.json();
    expect(row).toMatchObject({ resellerId: ids['Northwind Mobile'], downlinkKbps: 256, uplinkKbps: 128, code: `class-${row.id}` });
    const dup = await create(northwind, { name: 'throttled 256K', downlinkKbps: 1, uplinkKbps: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields[0]).toMatchObject({ field: 'name', rule: 'unique' });
    // Another owner may use the same name.
    const other = await create(bluesky, { name: 'Throttled 256k', downlinkKbps: 300, uplinkKbps: 300 });
    expect(other.statusCode, other.body).toBe(201);
    // Visibility: the owner's subtree (IoT sits under Northwind) sees it; Blue Sky does not; the admin sees all.
    expect(await names(iot)).toContain('Throttled 256k');
    expect((await iot.get('/portal/service-classes')).json().filter((r: Row) => r.name === 'Throttled 256k')).toHaveLength(1);
    expect((await bluesky.get(`/portal/service-classes/${row.id}`)).statusCode).toBe(404);
    expect(await qos(iot)).toContain(row.code);
    expect(await qos(bluesky)).not.toContain(row.code);
    // Below the owner: read, never written.
    expect((await iot.put('/portal/service-classes', { id: row.id, downlinkKbps: 1 })).statusCode).toBe(403);
    expect((await iot.delete(`/portal/service-classes/${row.id}`)).statusCode).toBe(403);
    // The provider's classes: read by all, written by the admin only.
    expect((await northwind.put('/portal/service-classes', { id: 1, downlinkKbps: 1 })).statusCode).toBe(403);
    const renamed = await northwind.put('/portal/service-classes', { id: row.id, name: 'Throttled 200k', downlinkKbps: 200 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Throttled 200k', downlinkKbps: 200, uplinkKbps: 128 });
    expect((await bluesky.delete(`/portal/service-classes/${other.json().id}`)).statusCode).toBe(204);
    expect((await bluesky.get(`/portal/service-classes/${other.json().id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with the field, the rule and a message, writing nothing', async () => {
    const before = await ctx.db
      .selectFrom('serviceClass')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [body, field] of [
      [{ name: 'x', downlinkKbps: 1, uplinkKbps: 1 }, 'name'],
      [{ name: 'Zero', downlinkKbps: 0, uplinkKbps: 1 }, 'downlinkKbps'],
      [{ name: 'Text', downlinkKbps: 1, uplinkKbps: 'fast' }, 'uplinkKbps'],
      [{ name: 'Huge', downlinkKbps: 1e12, uplinkKbps: 1 }, 'downlinkKbps'],
      [{ name: 'Other owner', downlinkKbps: 1, uplinkKbps: 1, resellerId: ids['Blue Sky Telecom'] }, 'resellerId'],
    ] as const) {
      const res = await create(northwind, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields.map((f: Row) => f.field)).toContain(field);
    }
    const after = await ctx.db
      .selectFrom('serviceClass')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('assigns classes to resellers, accounts and subscribers; the effective class is the nearest; the network gets the speed', async () => {
    const mine = (await create(northwind, { name: 'Reseller lane', downlinkKbps: 2048, uplinkKbps: 512 })).json();
    const acct = (await create(northwind, { name: 'Account lane', downlinkKbps: 1000, uplinkKbps: 100 })).json();
    const own = (await create(northwind, { name: 'Own lane', downlinkKbps: 77, uplinkKbps: 33 })).json();
    const sub = await ctx.db
      .selectFrom('subscriber')
      .select(['subscriberId', 'accountId'])
      .where('resellerId', '=', ids['Northwind Mobile'])
      .orderBy('subscriberId')
      .executeTakeFirstOrThrow();
    const iotSub = await ctx.db.selectFrom('subscriber').select('subscriberId').where('resellerId', '=', ids['Northwind IoT']).executeTakeFirstOrThrow();

    // The parent reseller's class reaches its subtree, from above (the admin sets it: a protected field to Northwind).
    expect((await northwind.put('/portal/reseller-info', { id: ids['Northwind Mobile'], serviceClassId: mine.id })).statusCode).toBe(403);
    const set = await admin.put('/portal/reseller-info', { id: ids['Northwind Mobile'], serviceClassId: mine.id });
    expect(set.statusCode, set.body).toBe(200);
    expect(await speedOf(sub.subscriberId)).toEqual({ serviceClassId: mine.id, downlinkKbps: 2048, uplinkKbps: 512 });
    expect(await speedOf(iotSub.subscriberId)).toEqual({ serviceClassId: mine.id, downlinkKbps: 2048, uplinkKbps: 512 });

    // The account's class wins over the reseller's.
    const a = await northwind.put('/portal/accounts/', { accountId: sub.accountId, serviceClassId: acct.id });
    expect(a.statusCode, a.body).toBe(200);
    expect((await speedOf(sub.subscriberId))?.serviceClassId).toBe(acct.id);

    // The subscriber's own class wins over both; cleared, the account's applies again.
    const s = await northwind.post(`/portal/subscriber-info/${sub.subscriberId}`, { subscriberId: sub.subscriberId, serviceClassId: own.id });
    expect(s.statusCode, s.body).toBe(200);
    expect(await speedOf(sub.subscriberId)).toEqual({ serviceClassId: own.id, downlinkKbps: 77, uplinkKbps: 33 });
    await northwind.post(`/portal/subscriber-info/${sub.subscriberId}`, { subscriberId: sub.subscriberId, serviceClassId: null });
    expect((await speedOf(sub.subscriberId))?.serviceClassId).toBe(acct.id);

    // A change of the class's speeds reaches the subscribers using it.
    await northwind.put('/portal/service-classes', { id: acct.id, downlinkKbps: 999 });
    expect((await speedOf(sub.subscriberId))?.downlinkKbps).toBe(999);

    // The list counts the subscribers using each class, among those the caller sees.
    const page = (await northwind.post('/portal/service-classes/paged', { page: { page: 0, size: 100 } })).json();
    const count = (id: number) => page.items.find((r: Row) => r.id === id)?.subscriberCount;
    const accountSubs = await ctx.db
      .selectFrom('subscriber')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('accountId', '=', sub.accountId)
      .executeTakeFirstOrThrow();
    expect(count(acct.id)).toBe(Number(accountSubs.n));
    expect(count(mine.id)).toBeGreaterThan(0);

    // A reference the caller cannot see is refused.
    const hidden = (await create(bluesky, { name: 'Blue lane', downlinkKbps: 5, uplinkKbps: 5 })).json();
    const refused = await northwind.post(`/portal/subscriber-info/${sub.subscriberId}`, { subscriberId: sub.subscriberId, serviceClassId: hidden.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields[0]).toMatchObject({ field: 'serviceClassId', rule: 'reference' });
    // And throttling takes only the speed ids the caller sees.
    const throttle = await northwind.post('/portal/subscriber-info/daily-limit', {
      subscriberId: sub.subscriberId,
      dailyLimitBytes: 1000,
      qosThrottling: hidden.code,
    });
    expect(throttle.statusCode).toBe(400);
    expect(throttle.json().fields[0]).toMatchObject({ field: 'qosThrottling', messageId: 'validation.qos.invalid' });
    const ok = await northwind.post('/portal/subscriber-info/daily-limit', { subscriberId: sub.subscriberId, dailyLimitBytes: 1000, qosThrottling: own.code });
    expect(ok.statusCode, ok.body).toBe(200);
    // A class named by throttling is not deleted.
    expect((await northwind.delete(`/portal/service-classes/${own.id}`)).statusCode).toBe(409);
  });

  it('re-applies many subscribers as a background job', async () => {
    const big = (await create(admin, { name: 'Everyone lane', downlinkKbps: 4096, uplinkKbps: 1024, resellerId: -1 })).json();
    const res = await admin.put('/portal/reseller-info', { id: -1, serviceClassId: big.id });
    expect(res.statusCode, res.body).toBe(200);
    const job = await ctx.db.selectFrom('job').select(['id', 'kind']).where('kind', '=', 'service-class-apply').orderBy('id', 'desc').executeTakeFirst();
    expect(job).toBeDefined();
    const until = Date.now() + 30_000;
    let status = '';
    while (Date.now() < until) {
      status = (await admin.get(`/portal/jobs/${job!.id}`)).json().status;
      if (status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('done');
    // Blue Sky names no class of its own: the provider's now applies to its subscribers.
    const bs = await ctx.db.selectFrom('subscriber').select('subscriberId').where('resellerId', '=', ids['Blue Sky Telecom']).executeTakeFirstOrThrow();
    expect((await speedOf(bs.subscriberId))?.serviceClassId).toBe(big.id);
  });

  it('keeps the routes behind the privilege: an account user reads the provider’s classes but writes none', async () => {
    expect((await harbor.get('/portal/service-classes/paged')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await harbor.post('/portal/service-classes', { name: 'Mine', downlinkKbps: 1, uplinkKbps: 1 })).statusCode).toBe(403);
    expect((await harbor.get('/portal/service-classes')).statusCode).toBe(200);
  });

  it('keeps a reseller’s accent and form styles: checked, written from above or by itself, applied to its users', async () => {
    const nw = ids['Northwind Mobile'];
    const styles = { primaryHex: '#AA3377', secondaryHex: '#224466', font: 'georgia', radiusPx: 10 };
    const read = await northwind.get(`/portal/resellers/${nw}/settings`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ resellerId: nw, formStyles: null, ownReseller: true, mayEdit: true });
    const saved = await northwind.put(`/portal/resellers/${nw}/settings`, { formStyles: styles, accentColorHex: '#c99a2e' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().formStyles).toEqual({ ...styles, primaryHex: '#aa3377' });
    // Its users and those below it take them; others keep the portal's look.
    expect((await northwind.get('/portal/user')).json().resellerInfo.formStyles).toMatchObject({ font: 'georgia', radiusPx: 10 });
    expect((await iot.get('/portal/user')).json().resellerInfo.formStyles).toMatchObject({ primaryHex: '#aa3377' });
    expect((await bluesky.get('/portal/user')).json().resellerInfo.formStyles).toBeNull();
    // Bad input: named field and rule, nothing written.
    for (const [body, field] of [
      [{ formStyles: { ...styles, primaryHex: 'red' } }, 'formStyles.primaryHex'],
      [{ formStyles: { ...styles, font: 'Comic Sans' } }, 'formStyles.font'],
      [{ formStyles: { ...styles, radiusPx: 99 } }, 'formStyles.radiusPx'],
      [{ accentColorHex: '#12345' }, 'accentColorHex'],
      [{ formStyles: { ...styles, extra: 1 } }, 'formStyles.extra'],
    ] as const) {
      const res = await northwind.put(`/portal/resellers/${nw}/settings`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields.map((f: Row) => f.field)).toContain(field);
    }
    expect((await northwind.get(`/portal/resellers/${nw}/settings`)).json().formStyles.font).toBe('georgia');
    // Tenancy: from above yes, from below or beside no; an account user reads its reseller's, writes nothing.
    expect((await northwind.put(`/portal/resellers/${ids['Northwind IoT']}/settings`, { accentColorHex: '#112233' })).statusCode).toBe(200);
    expect((await iot.put(`/portal/resellers/${nw}/settings`, { accentColorHex: '#112233' })).statusCode).toBe(404);
    expect((await bluesky.get(`/portal/resellers/${nw}/settings`)).statusCode).toBe(404);
    expect((await harbor.get(`/portal/resellers/${nw}/settings`)).json().mayEdit).toBe(false);
    expect((await harbor.put(`/portal/resellers/${nw}/settings`, { accentColorHex: '#112233' })).statusCode).toBe(403);
    expect((await admin.put(`/portal/resellers/${nw}/settings`, { formStyles: null })).json().formStyles).toBeNull();
  });
});
