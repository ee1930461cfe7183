import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabStates } from '@server/domains/labs/switches';
import { effectiveLab, LABS } from '@shared/labs';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Lab = { key: string; enabled: boolean; locked: boolean; own: boolean | null; updatedBy: string | null };

const BOUNDARY = 'labs-boundary';
const csvUpload = (text: string) => ({
  payload: Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(text),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]),
  'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
});

describe('the effective rule', () => {
  const lab = { key: 'x', defaultEnabled: false, name: '', description: '' };
  const path = [-1, 1, 2];
  it('takes the default when nobody switched the lab', () => {
    expect(effectiveLab(lab, path, new Map())).toEqual({ enabled: false, locked: false });
    expect(effectiveLab({ ...lab, defaultEnabled: true }, path, new Map())).toEqual({ enabled: true, locked: false });
  });
  it('is on when the tenant or a reseller above switched it on', () => {
    expect(effectiveLab(lab, path, new Map([[2, true]]))).toEqual({ enabled: true, locked: false });
    expect(effectiveLab(lab, path, new Map([[-1, true]]))).toEqual({ enabled: true, locked: false });
  });
  it('is off, and locked below, when a reseller above switched it off, whatever the tenant says', () => {
    expect(effectiveLab({ ...lab, defaultEnabled: true }, path, new Map([[2, false]]))).toEqual({ enabled: false, locked: false });
    expect(
      effectiveLab(
        lab,
        path,
        new Map([
          [1, false],
          [2, true],
        ]),
      ),
    ).toEqual({ enabled: false, locked: true });
    expect(
      effectiveLab(
        lab,
        path,
        new Map([
          [-1, true],
          [1, false],
        ]),
      ),
    ).toEqual({ enabled: false, locked: true });
  });
});

describe.each(engines)('labs on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client, northwind: Client, iot: Client, bluesky: Client, harbor: Client;
  const ids: Record<string, number> = {};
  // A fresh subscriber for each SMS: one whose earlier operation is still pending would answer 409.
  let subscriberIds: number[];
  let sent = 0;

  const labsOf = async (client: Client, query = '') => {
    const res = await client.get(`/portal/labs${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { resellerId: number; labs: Lab[] };
  };
  const lab = async (client: Client, key: string, query = '') => (await labsOf(client, query)).labs.find((l) => l.key === key)!;
  const sendSms = (client: Client, body: object = { text: 'Hello' }) => client.post(`/portal/subscriber-info/${subscriberIds[sent++]}/sms`, body);
  const stored = () => ctx.db.selectFrom('labSwitch').selectAll().orderBy('resellerId').orderBy('lab').execute();

  beforeAll(async () => {
    ctx = await testApp(engine);
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
    [admin, northwind, iot, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    const subs = await ctx.db
      .selectFrom('subscriber')
      .select('subscriberId')
      .where('resellerId', '=', ids['Northwind IoT'])
      .orderBy('subscriberId')
      .limit(30)
      .execute();
    subscriberIds = subs.map((s) => Number(s.subscriberId));
  });
  afterAll(async () => ctx?.close());

  it("lists every lab of the caller's tenant at its default, for any signed-in user", async () => {
    for (const client of [admin, northwind, harbor]) {
      const { labs } = await labsOf(client);
      expect(labs.map((l) => l.key)).toEqual(LABS.map((l) => l.key));
      expect(labs.every((l) => l.enabled && !l.locked && l.own === null && l.updatedBy === null)).toBe(true);
    }
    expect((await labsOf(northwind)).resellerId).toBe(ids['Northwind Mobile']);
    expect((await ctx.app.inject({ method: 'GET', url: '/portal/labs' })).statusCode).toBe(401);
  });

  it('refuses an unknown lab, a missing state and a bad reseller naming the field, writing nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['/portal/labs/teleport', { enabled: false }, 'lab'],
      ['/portal/labs/subscriberSms', {}, 'enabled'],
      ['/portal/labs/subscriberSms', { enabled: 'no' }, 'enabled'],
      ['/portal/labs/subscriberSms', { enabled: false, colour: 'red' }, 'colour'],
    ];
    for (const [url, body, field] of cases) {
      const res = await northwind.put(url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const unknown = await admin.put('/portal/labs/subscriberSms', { enabled: false, resellerId: 987654 });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().fields[0]).toMatchObject({ field: 'resellerId', rule: 'reference' });
    expect(await stored()).toEqual([]);
  });

  it("keeps each tenant to its own labs: a reseller cannot switch another tenant's, an account user none", async () => {
    // Another tenant, below it or beside it: refused, and nothing written.
    for (const resellerId of [ids['Northwind IoT'], ids['Blue Sky Telecom'], -1]) {
      const res = await northwind.put('/portal/labs/subscriberSms', { enabled: false, resellerId });
      expect(res.statusCode, `${resellerId}: ${res.body}`).toBe(403);
      expect((await northwind.get(`/portal/labs?resellerId=${resellerId}`)).statusCode).toBe(403);
    }
    expect((await harbor.put('/portal/labs/subscriberSms', { enabled: false })).statusCode).toBe(403);
    // An account user never switches its reseller's labs, even with a role that holds Labs.
    await ctx.withPrivileges('harbor', ['Labs'], async (withLabs) =>
      expect((await withLabs.put('/portal/labs/subscriberSms', { enabled: false })).statusCode).toBe(403),
    );
    // A provider user holding Labs without being the administrator: the provider's switches reach everyone, so not its.
    const assistant = ctx.client(await ctx.providerUser('lab.assistant', ['Labs']));
    expect((await assistant.put('/portal/labs/subscriberSms', { enabled: false })).statusCode).toBe(403);
    expect((await assistant.get('/portal/labs')).statusCode).toBe(200);
    expect(await stored()).toEqual([]);
    // Its own tenant, named or not.
    const own = await northwind.put('/portal/labs/subscriberCsvUpdate', { enabled: true, resellerId: ids['Northwind Mobile'] });
    expect(own.statusCode, own.body).toBe(200);
    expect(await stored()).toMatchObject([{ resellerId: ids['Northwind Mobile'], lab: 'subscriberCsvUpdate', enabled: true }]);
  });

  it('gates a route on its lab: 403 LAB_OFF while off for the tenant or above it, and back on', async () => {
    expect((await sendSms(iot)).statusCode).toBe(202);
    // Northwind Mobile switches SMS off: its sub-reseller loses it too, Blue Sky keeps it.
    const off = await northwind.put('/portal/labs/subscriberSms', { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().labs.find((l: Lab) => l.key === 'subscriberSms')).toMatchObject({ enabled: false, locked: false, own: false, updatedBy: 'northwind' });
    for (const client of [northwind, iot]) {
      const res = await sendSms(client);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'LAB_OFF' });
      expect(res.json().message).toContain('subscriberSms');
    }
    // Refused before the body is looked at, and before anything is sent.
    expect((await sendSms(iot, {})).json().code).toBe('LAB_OFF');
    expect(await lab(bluesky, 'subscriberSms')).toMatchObject({ enabled: true, locked: false });

    // Below, it is locked: switching it on is refused naming the lab; switching it off is allowed.
    expect(await lab(iot, 'subscriberSms')).toMatchObject({ enabled: false, locked: true, own: null });
    const on = await iot.put('/portal/labs/subscriberSms', { enabled: true });
    expect(on.statusCode, on.body).toBe(409);
    expect(on.json()).toMatchObject({ code: 'LAB_LOCKED', fields: [{ field: 'lab', rule: 'locked' }] });
    expect(on.json().message).toContain('subscriberSms');
    expect((await iot.put('/portal/labs/subscriberSms', { enabled: false })).statusCode).toBe(200);

    // Back on at Northwind Mobile: the sub-reseller's own switch still holds it off there.
    expect((await northwind.put('/portal/labs/subscriberSms', { enabled: true })).statusCode).toBe(200);
    expect((await sendSms(northwind)).statusCode).toBe(202);
    expect((await sendSms(iot)).json().code).toBe('LAB_OFF');
    expect(await lab(iot, 'subscriberSms')).toMatchObject({ enabled: false, locked: false, own: false });
    expect((await iot.put('/portal/labs/subscriberSms', { enabled: true })).statusCode).toBe(200);
    const back = await sendSms(iot);
    expect(back.statusCode, back.body).toBe(202);
  });

  it('lets the administrator switch the provider, for every tenant, and any reseller it picks', async () => {
    const off = await admin.put('/portal/labs/subscriberCsvUpdate', { enabled: false, resellerId: ids['Blue Sky Telecom'] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().resellerId).toBe(ids['Blue Sky Telecom']);
    expect(await lab(admin, 'subscriberCsvUpdate', `?resellerId=${ids['Blue Sky Telecom']}`)).toMatchObject({ enabled: false, own: false, updatedBy: 'admin' });
    const { payload, 'content-type': contentType } = csvUpload('iccid,name\n');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/portal/subscribers/bulk/csv',
      headers: { authorization: `Bearer ${await ctx.login('bluesky')}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('LAB_OFF');
    expect((await admin.put('/portal/labs/subscriberCsvUpdate', { enabled: true, resellerId: ids['Blue Sky Telecom'] })).statusCode).toBe(200);

    // The provider's switch reaches everyone, locks it below, and the administrator itself.
    expect((await admin.put('/portal/labs/subscriberSms', { enabled: false, resellerId: -1 })).statusCode).toBe(200);
    for (const client of [bluesky, northwind, iot]) {
      expect(await lab(client, 'subscriberSms')).toMatchObject({ enabled: false, locked: true });
      expect((await sendSms(client)).json().code).toBe('LAB_OFF');
    }
    expect(await lab(admin, 'subscriberSms')).toMatchObject({ enabled: false, locked: false, own: false });
    expect((await bluesky.put('/portal/labs/subscriberSms', { enabled: true })).statusCode).toBe(409);
    expect((await admin.put('/portal/labs/subscriberSms', { enabled: true })).statusCode).toBe(200);
    expect((await sendSms(iot)).statusCode).toBe(202);
  });

  it('sees a switch written by any code of this server at once, not only through its own call', async () => {
    const write = (enabled: boolean) =>
      ctx.db
        .insertInto('labSwitch')
        .values({ resellerId: ids['Northwind IoT'], lab: 'subscriberSms', enabled })
        .onConflict((oc) => oc.columns(['resellerId', 'lab']).doUpdateSet({ enabled }))
        .execute();
    expect((await sendSms(iot)).statusCode).toBe(202);
    await write(false);
    expect((await sendSms(iot)).json().code).toBe('LAB_OFF');
    await write(true);
    expect((await sendSms(iot)).statusCode).toBe(202);
  });

  it("keeps a tenant's states briefly: a switch written by another server shows once they run out", async () => {
    const states = new LabStates(ctx.db, 200);
    const path = `/-1/${ids['Blue Sky Telecom']}/`;
    expect((await states.of(path)).subscriberCsvUpdate.enabled).toBe(true);
    // As another process would write it: straight into the table, unseen by this one's states.
    await ctx.db
      .insertInto('labSwitch')
      .values({ resellerId: ids['Blue Sky Telecom'], lab: 'subscriberCsvUpdate', enabled: false })
      .onConflict((oc) => oc.columns(['resellerId', 'lab']).doUpdateSet({ enabled: false }))
      .execute();
    expect((await states.of(path)).subscriberCsvUpdate.enabled).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await states.of(path)).subscriberCsvUpdate.enabled).toBe(false);
    await ctx.db.deleteFrom('labSwitch').where('resellerId', '=', ids['Blue Sky Telecom']).where('lab', '=', 'subscriberCsvUpdate').execute();
    states.forget();
    expect((await states.of(path)).subscriberCsvUpdate.enabled).toBe(true);
  });
});
