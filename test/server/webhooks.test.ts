import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import { openDatabase } from '@server/db';
import { isPublicAddress } from '@server/domains/webhooks/address';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A receiver on 127.0.0.1 that answers `status()` and keeps what it got. */
async function receiver() {
  const got: Received[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    got,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    answer: (code: number) => (status = code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const webhooks = { allowPrivate: true, pollMs: 50, backoffSeconds: 0.2, maxAttempts: 3, timeoutMs: 2000 };

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhook addresses', () => {
  it('takes public unicast addresses only', () => {
    for (const a of ['8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
});

describe.each(engines)('webhooks on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  let hook: Awaited<ReturnType<typeof receiver>>;
  /** The server that takes over after the restart. */
  let restarted: Awaited<ReturnType<typeof buildApp>> | undefined;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    hook = await receiver();
    ctx = await testApp(engine, { webhooks });
    await ctx.app.ready();
    [admin, northwind, iot, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
  });
  afterAll(async () => {
    await restarted?.close();
    await ctx?.close();
    await hook?.close();
  });

  const deliveriesOf = async (c: Client, resellerId: number) => {
    const res = await c.get(`/portal/reseller-info/webhook-deliveries?reseller_id=${resellerId}&size=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as Row[];
  };
  const secretOf = async (resellerId: number) =>
    (await ctx.db.selectFrom('webhookSecret').select('secret').where('resellerId', '=', resellerId).executeTakeFirstOrThrow()).secret;
  const verify = (r: Received, secret: string) => {
    const expected = createHmac('sha256', secret).update(`${r.headers['x-portal-timestamp']}.${r.body}`).digest('hex');
    return r.headers['x-portal-signature'] === `v1=${expected}`;
  };

  it('saves one URL per reseller and event type, replaces it, deletes it, and makes a secret', async () => {
    const nw = ids['Northwind Mobile'];
    const first = await northwind.post('/portal/reseller-info/webhook-urls', { eventType: 'VOIP', url: hook.url('/a') });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ resellerId: nw, hasSecret: true });
    const again = await northwind.post('/portal/reseller-info/webhook-urls', { eventType: 'VOIP', url: hook.url('/b') });
    expect(again.json().items.find((i: Row) => i.eventType === 'VOIP').url).toBe(hook.url('/b'));
    const read = (await northwind.get('/portal/reseller-info/webhook-urls')).json();
    expect(read.items.map((i: Row) => i.eventType)).toEqual([
      'MOBILE_EVENT',
      'ESIM_STATUS',
      'LOCATION_UPDATE',
      'VOIP',
      'SUBSCRIPTION_STATUS_UPDATE',
      'PAYMENT',
    ]);
    expect(read.items.filter((i: Row) => i.url).map((i: Row) => i.url)).toEqual([hook.url('/b')]);
    const gone = await northwind.delete(`/portal/reseller-info/webhook-urls?event_type=VOIP&reseller_id=${nw}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().items.every((i: Row) => i.url === null)).toBe(true);
    // The secret shows once when rotated, and signs from then on.
    const rotated = await northwind.post(`/portal/reseller-info/webhook-secret?reseller_id=${nw}`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await secretOf(nw)).toBe(rotated.json().secret);
    expect((await northwind.get('/portal/reseller-info/webhook-urls')).body).not.toContain(rotated.json().secret);
  });

  it('refuses bad input naming the field', async () => {
    const fields = async (body: Row) => {
      const res = await northwind.post('/portal/reseller-info/webhook-urls', body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().fields.map((f: Row) => `${f.field}:${f.messageId}`);
    };
    expect(await fields({ eventType: 'NOPE', url: 'https://example.com/x' })).toEqual(['eventType:webhook.eventType.invalid']);
    expect(await fields({ eventType: 'VOIP', url: 'ftp://example.com/x' })).toEqual(['url:validation.url.https']);
    expect(await fields({ eventType: 'VOIP', url: 'not a url' })).toEqual(['url:validation.url.https']);
    // Plain HTTP to a non-loopback host is refused even when private addresses are allowed.
    expect(await fields({ eventType: 'VOIP', url: 'http://10.0.0.1/x' })).toEqual(['url:validation.url.https']);
    expect(await fields({ eventType: 'VOIP' })).toEqual(['url:validation.required']);
  });

  it('keeps tenants apart: a sibling reseller neither reads nor sets, an account user is refused', async () => {
    const nw = ids['Northwind Mobile'];
    expect((await bluesky.get(`/portal/reseller-info/webhook-urls?reseller_id=${nw}`)).statusCode).toBe(404);
    expect((await bluesky.post('/portal/reseller-info/webhook-urls', { resellerId: nw, eventType: 'VOIP', url: 'https://example.com/' })).statusCode).toBe(404);
    expect((await bluesky.delete(`/portal/reseller-info/webhook-urls?reseller_id=${nw}&event_type=VOIP`)).statusCode).toBe(404);
    expect((await bluesky.post(`/portal/reseller-info/webhook-secret?reseller_id=${nw}`)).statusCode).toBe(404);
    expect((await bluesky.get(`/portal/reseller-info/webhook-deliveries?reseller_id=${nw}`)).statusCode).toBe(404);
    // A sub-reseller cannot reach its parent; the parent reaches the sub-reseller.
    expect((await iot.get(`/portal/reseller-info/webhook-urls?reseller_id=${nw}`)).statusCode).toBe(404);
    expect((await northwind.get(`/portal/reseller-info/webhook-urls?reseller_id=${ids['Northwind IoT']}`)).statusCode).toBe(200);
    expect((await admin.get(`/portal/reseller-info/webhook-urls?reseller_id=${nw}`)).statusCode).toBe(200);
    expect((await harbor.get('/portal/reseller-info/webhook-urls')).statusCode).toBe(403);
    expect((await harbor.post('/portal/reseller-info/webhook-urls', { eventType: 'VOIP', url: 'https://example.com/' })).statusCode).toBe(403);
  });

  it('delivers a subscriber status change once to the reseller and to the reseller above that has a URL, signed', async () => {
    const nw = ids['Northwind Mobile'];
    const io = ids['Northwind IoT'];
    await northwind.post('/portal/reseller-info/webhook-urls', { eventType: 'SUBSCRIPTION_STATUS_UPDATE', url: hook.url('/status') });
    const sub = await ctx.db
      .selectFrom('subscriber')
      .select(['subscriberId', 'imsi'])
      .where('resellerId', '=', io)
      .where('status', '=', 'active')
      .orderBy('subscriberId')
      .executeTakeFirstOrThrow();
    const res = await iot.post('/portal/subscriber-info/api/', { operation: 'suspend', subscriberId: sub.subscriberId });
    expect(res.statusCode, res.body).toBe(202);
    await ctx.app.coreNetwork.idle();
    const mine = () => hook.got.filter((r) => r.body.includes(`"subscriberId":${sub.subscriberId},`));
    await until(async () => mine().length > 0);
    const got = mine();
    await new Promise((r) => setTimeout(r, 300));
    expect(mine()).toHaveLength(1);
    const body = JSON.parse(got[0].body);
    expect(body).toMatchObject({
      type: 'SUBSCRIPTION_STATUS_UPDATE',
      resellerId: nw,
      data: { subscriberId: sub.subscriberId, imsi: sub.imsi, status: 'suspended', previousStatus: 'active', resellerId: io },
    });
    expect(got[0].headers['x-portal-event-id']).toBe(body.id);
    expect(Math.abs(Number(got[0].headers['x-portal-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(verify(got[0], await secretOf(nw))).toBe(true);
    expect(verify(got[0], 'another secret')).toBe(false);
    // Nothing for the sub-reseller (no URL of its own); the log shows the delivered attempt.
    expect(await deliveriesOf(iot, io)).toEqual([]);
    const [delivery] = (await deliveriesOf(northwind, nw)).filter((d) => d.eventType === 'SUBSCRIPTION_STATUS_UPDATE');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, url: hook.url('/status') });
    expect(delivery.attemptLog).toEqual([expect.objectContaining({ statusCode: 200, latencyMs: expect.any(Number) })]);
  });

  it('tells the paying reseller of a payment credited or declined, with its figures, and nothing while it is pending', async () => {
    const bs = ids['Blue Sky Telecom'];
    await bluesky.post('/portal/reseller-info/webhook-urls', { eventType: 'PAYMENT', url: hook.url('/payments') });
    const card = (number: string) => ({
      number,
      holderName: 'Bella Blue',
      holderIdNumber: '123456782',
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 2,
    });
    const paid = await bluesky.post('/portal/payments/submit', { method: 'CREDIT_CARD', amount: 12.5, card: card('4242424242424242') });
    expect(paid.statusCode, paid.body).toBe(201);
    const declined = await bluesky.post('/portal/payments/submit', { method: 'CREDIT_CARD', amount: 7, card: card('4000000000000002') });
    expect(declined.statusCode, declined.body).toBe(402);
    const events = () => hook.got.filter((r) => r.body.includes('"PAYMENT"')).map((r) => JSON.parse(r.body));
    await until(async () => events().length >= 2 || undefined);
    const byId = (id: number) => events().filter((e) => e.data.paymentId === id);
    expect(byId(paid.json().id)).toHaveLength(1);
    expect(byId(paid.json().id)[0]).toMatchObject({
      type: 'PAYMENT',
      resellerId: bs,
      data: { resellerId: bs, method: 'CREDIT_CARD', status: 'confirmed', previousStatus: 'pending', creditedAmount: 12.5, currency: 'USD' },
    });
    expect(byId(declined.json().payment.id)[0].data).toMatchObject({ status: 'declined', failure: 'payment.failure' });
    // A change that leaves the status alone is no event.
    const before = events().length;
    await ctx.db.updateTable('payment').set({ description: 'touched' }).where('id', '=', paid.json().id).execute();
    await new Promise((r) => setTimeout(r, 300));
    expect(events()).toHaveLength(before);
    await bluesky.delete(`/portal/reseller-info/webhook-urls?event_type=PAYMENT&reseller_id=${bs}`);
  });

  it('turns a location report of the network into a LOCATION_UPDATE', async () => {
    const bs = ids['Blue Sky Telecom'];
    await bluesky.post('/portal/reseller-info/webhook-urls', { eventType: 'LOCATION_UPDATE', url: hook.url('/location') });
    const sub = await ctx.db
      .selectFrom('subscriber')
      .select(['subscriberId', 'imsi'])
      .where('resellerId', '=', bs)
      .orderBy('subscriberId')
      .executeTakeFirstOrThrow();
    const plmn = (await ctx.db.selectFrom('network').select('plmn').orderBy('plmn').executeTakeFirstOrThrow()).plmn;
    const event = (operation: string, result: string) => ({
      requestId: `r-${operation}-${result}`,
      protocol: 'SS7',
      operation,
      imsi: sub.imsi,
      plmn,
      result,
      detail: 'report',
      resellerId: bs,
      subscriberId: sub.subscriberId,
    });
    await ctx.db
      .insertInto('networkEvent')
      .values([event('updateLocation', 'success'), event('updateLocation', 'failure'), event('refreshSim', 'success')])
      .execute();
    const got = await until(async () => hook.got.find((r) => r.body.includes('"LOCATION_UPDATE"')));
    expect(JSON.parse(got.body).data).toMatchObject({ subscriberId: sub.subscriberId, plmn, operation: 'updateLocation' });
    expect((await deliveriesOf(bluesky, bs)).filter((d) => d.eventType === 'LOCATION_UPDATE')).toHaveLength(1);
  });

  it('turns what the network does to a device (an SMS, a detach) into a MOBILE_EVENT, failures included', async () => {
    const bs = ids['Blue Sky Telecom'];
    await bluesky.post('/portal/reseller-info/webhook-urls', { eventType: 'MOBILE_EVENT', url: hook.url('/mobile') });
    const sub = await ctx.db
      .selectFrom('subscriber')
      .select(['subscriberId', 'imsi'])
      .where('resellerId', '=', bs)
      .orderBy('subscriberId', 'desc')
      .executeTakeFirstOrThrow();
    const event = (operation: string, result: string) => ({
      requestId: `m-${operation}-${result}`,
      protocol: 'SS7',
      operation,
      imsi: sub.imsi,
      result,
      detail: `${operation} ${result}`,
      resellerId: bs,
      subscriberId: sub.subscriberId,
    });
    await ctx.db
      .insertInto('networkEvent')
      .values([event('sendSms', 'failure'), event('updateLocation', 'success'), event('detach', 'success')])
      .execute();
    const mobile = () => hook.got.filter((r) => r.body.includes('"MOBILE_EVENT"') && r.body.includes(`"subscriberId":${sub.subscriberId}`));
    await until(async () => mobile().length >= 2 || undefined);
    expect(
      mobile()
        .map((r) => JSON.parse(r.body).data.operation)
        .sort(),
    ).toEqual(['detach', 'sendSms']);
    expect(
      mobile()
        .map((r) => JSON.parse(r.body).data)
        .find((d) => d.operation === 'sendSms'),
    ).toMatchObject({ result: 'failure', imsi: sub.imsi });
    await bluesky.delete(`/portal/reseller-info/webhook-urls?event_type=MOBILE_EVENT&reseller_id=${bs}`);
  });

  it('retries a failing receiver with backoff, logs each attempt, fails after the last, and redelivers on request', async () => {
    const bs = ids['Blue Sky Telecom'];
    await bluesky.post('/portal/reseller-info/webhook-urls', { eventType: 'MOBILE_EVENT', url: hook.url('/failing') });
    hook.answer(500);
    try {
      const test = await bluesky.post(`/portal/reseller-info/webhook-urls/test?event_type=MOBILE_EVENT`);
      expect(test.statusCode, test.body).toBe(202);
      const id = test.json().id;
      const failed = await until(async () => (await deliveriesOf(bluesky, bs)).find((d) => d.id === id && d.status === 'failed'));
      expect(failed).toMatchObject({ eventType: 'TEST', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500' });
      expect(failed.attemptLog.map((a: Row) => a.statusCode)).toEqual([500, 500, 500]);
      // Backoff: the gaps grow (0.2 s, then 0.4 s).
      const times = failed.attemptLog.map((a: Row) => new Date(a.attemptedAt).getTime());
      expect(times[2] - times[1]).toBeGreaterThan(times[1] - times[0]);
      hook.answer(200);
      expect((await northwind.post(`/portal/reseller-info/webhook-deliveries/${id}/redeliver`)).statusCode).toBe(404);
      const again = await bluesky.post(`/portal/reseller-info/webhook-deliveries/${id}/redeliver`);
      expect(again.statusCode, again.body).toBe(202);
      const delivered = await until(async () => (await deliveriesOf(bluesky, bs)).find((d) => d.id === id && d.status === 'delivered'));
      expect(delivered.attemptLog.map((a: Row) => a.statusCode)).toEqual([500, 500, 500, 200]);
      expect((await bluesky.post(`/portal/reseller-info/webhook-urls/test?event_type=VOIP`)).statusCode).toBe(409);
    } finally {
      hook.answer(200);
    }
  });

  it('refuses private addresses and plain HTTP without the option, at save and at delivery', async () => {
    // Only the strict server delivers meanwhile.
    await ctx.app.webhooks.stop();
    const strict = await buildApp({ database: ctx.database, jwtSecret: 'test-secret', webhooks: { ...webhooks, allowPrivate: false } });
    try {
      const token = (await strict.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'bluesky', password: ctx.demoPassword } })).json().jwt;
      const save = (url: string) =>
        strict.inject({
          method: 'POST',
          url: '/portal/reseller-info/webhook-urls',
          headers: { authorization: `Bearer ${token}` },
          payload: { eventType: 'VOIP', url },
        });
      for (const [url, messageId] of [
        [hook.url(), 'validation.url.https'],
        ['https://127.0.0.1/x', 'webhook.url.private'],
        ['https://[::1]/x', 'webhook.url.private'],
        ['https://169.254.169.254/latest', 'webhook.url.private'],
        ['https://10.0.0.8/x', 'webhook.url.private'],
        ['https://localhost/x', 'webhook.url.private'],
      ]) {
        const res = await save(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().fields, url).toEqual([expect.objectContaining({ field: 'url', messageId })]);
      }
      // A URL stored while private addresses were allowed is checked again when delivered, and not called.
      await strict.ready();
      const before = hook.got.length;
      const { id } = await ctx.db
        .insertInto('webhookDelivery')
        .values({ resellerId: ids['Blue Sky Telecom'], eventType: 'TEST', url: 'https://127.0.0.1:1/x', data: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await until(async () => ctx.db.selectFrom('webhookDelivery').selectAll().where('id', '=', id).where('attempts', '>', 0).executeTakeFirst());
      expect(row.lastError).toMatch(/non-public/);
      expect(row.lastStatusCode).toBeNull();
      expect(hook.got.length).toBe(before);
    } finally {
      await strict.close();
      ctx.app.webhooks.start();
    }
  });

  it('delivers after a restart what was left pending', async () => {
    const nw = ids['Northwind Mobile'];
    await ctx.app.close();
    // Changed while no server runs: the trigger queues it; the next server delivers it.
    const sub = await ctx.db
      .selectFrom('subscriber')
      .select('subscriberId')
      .where('resellerId', '=', nw)
      .where('status', '=', 'active')
      .orderBy('subscriberId')
      .executeTakeFirstOrThrow();
    await ctx.db.updateTable('subscriber').set({ status: 'suspended' }).where('subscriberId', '=', sub.subscriberId).execute();
    const pending = await ctx.db
      .selectFrom('webhookDelivery')
      .select(['id', 'status'])
      .where('status', '=', 'pending')
      .where('eventType', '=', 'SUBSCRIPTION_STATUS_UPDATE')
      .execute();
    expect(pending).toHaveLength(1);
    restarted = await buildApp({ database: ctx.database, jwtSecret: 'test-secret', webhooks });
    await restarted.ready();
    const got = await until(async () => hook.got.find((r) => JSON.parse(r.body).id && r.body.includes(`"subscriberId":${sub.subscriberId},`)));
    expect(JSON.parse(got.body).data.status).toBe('suspended');
    const row = await until(async () =>
      ctx.db.selectFrom('webhookDelivery').select(['status', 'attempts']).where('id', '=', pending[0].id).where('status', '<>', 'pending').executeTakeFirst(),
    );
    expect(row).toEqual({ status: 'delivered', attempts: 1 });
  });

  it.runIf(engine === 'postgres')('delivers each event exactly once with two servers on one database', async () => {
    const url = (ctx.database as { url?: string }).url!;
    const second = await openDatabase({ databaseUrl: url });
    const other = await buildApp({ database: second, jwtSecret: 'test-secret', webhooks });
    try {
      await other.ready();
      const nw = ids['Northwind Mobile'];
      const subs = await ctx.db
        .selectFrom('subscriber')
        .select('subscriberId')
        .where('resellerId', '=', nw)
        .where('status', '=', 'active')
        .orderBy('subscriberId')
        .limit(20)
        .execute();
      const before = hook.got.length;
      await ctx.db
        .updateTable('subscriber')
        .set({ status: 'suspended' })
        .where(
          'subscriberId',
          'in',
          subs.map((s) => s.subscriberId),
        )
        .execute();
      await until(async () => hook.got.length - before >= subs.length);
      await new Promise((r) => setTimeout(r, 500));
      const events = hook.got.slice(before).map((r) => JSON.parse(r.body).id as string);
      expect(events).toHaveLength(subs.length);
      expect(new Set(events).size).toBe(subs.length);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id where d.event_id = any(${events}::uuid[])`.execute(
        ctx.db,
      );
      expect(rows[0].n).toBe(subs.length);
    } finally {
      await other.close();
      await second.close();
    }
  });
});
