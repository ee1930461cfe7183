import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '@server/adapters/core-network/http';
import type { SimulatorControls } from '@server/adapters/core-network/simulator';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

describe.each(engines)("SMS to a subscriber's SIM on %s", (engine) => {
  let ctx: Ctx;
  let northwind: Client;
  let bluesky: Client;
  let harbor: Client;
  let sim: SimulatorControls;
  /** Active subscribers of Northwind Mobile outside Harbor Logistics, one per test. */
  let nw: number[];

  beforeAll(async () => {
    ctx = await testApp(engine);
    [northwind, bluesky, harbor] = await Promise.all(['northwind', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    sim = ctx.app.coreNetwork.simulator!;
    sim.setFailureRate(0); // failures only on demand
    nw = (
      await sql<{ id: number }>`select subscriber_id as id from subscriber where reseller_id = 1 and status = 'active'
      and account_id <> (select account_id from subscriber where subscriber_id = 1) order by subscriber_id limit 5`.execute(ctx.db)
    ).rows.map((r) => r.id);
  });
  afterAll(async () => ctx?.close());

  const send = (c: Client, id: number, body: unknown) => c.post(`/portal/subscriber-info/${id}/sms`, body);
  const imsiOf = async (id: number) => (await sql<Row>`select imsi from subscriber where subscriber_id = ${id}`.execute(ctx.db)).rows[0].imsi as string;
  const events = async (imsi: string) =>
    (await sql<Row>`select operation, protocol, result, detail from network_event where imsi = ${imsi} order by id`.execute(ctx.db)).rows;
  const audits = async (id: number) =>
    (await sql<Row>`select action, username, after from subscriber_audit where subscriber_id = ${id} order by id`.execute(ctx.db)).rows.map((a) => ({
      ...a,
      after: typeof a.after === 'string' ? JSON.parse(a.after) : a.after,
    }));
  const settle = async (op: Row) => {
    await ctx.app.coreNetwork.idle();
    return (await northwind.get(`/portal/subscriber-info/operations/${op.id}`)).json();
  };
  const fields = (res: { json: () => any }) => res.json().fields.map((f: Row) => ({ field: f.field, rule: f.rule, messageId: f.messageId }));

  it('sends the text through the core network: pending at once, then delivered, in the events panel and the audit log', async () => {
    const id = nw[0];
    const imsi = await imsiOf(id);
    sim.pause();
    let op: Row;
    try {
      const res = await send(northwind, id, { text: 'APN=iot.example;RESET' });
      expect(res.statusCode, res.body).toBe(202);
      op = res.json();
      expect(op).toMatchObject({
        subscriberId: id,
        operation: 'send-sms',
        status: 'pending',
        username: 'northwind',
        request: { text: 'APN=iot.example;RESET', encoding: 'GSM-7' },
      });
      expect(sim.received.at(-1)).toMatchObject({
        operation: 'sendSms',
        imsi,
        subscriberId: id,
        resellerId: 1,
        payload: { text: 'APN=iot.example;RESET', encoding: 'GSM-7' },
      });
      expect(await events(imsi)).toEqual([]); // the answer has not arrived
    } finally {
      sim.resume();
    }
    expect(await settle(op)).toMatchObject({ status: 'success', finishedAt: expect.any(String) });
    expect(await events(imsi)).toEqual([{ operation: 'sendSms', protocol: 'SS7', result: 'success', detail: 'SMS delivered to the SIM (MAP MT-ForwardSM)' }]);
    const panel = (await northwind.post(`/portal/subscriber-info/network-events/${imsi}`, { page: { page: 0, size: 10 } })).json();
    expect(panel.items[0]).toMatchObject({ operation: 'sendSms', result: 'success' });
    expect(await audits(id)).toEqual([{ action: 'send-sms', username: 'northwind', after: { sms: 'APN=iot.example;RESET' } }]);
  });

  it('takes 70 characters of other scripts, and reports a failed delivery without an audit entry', async () => {
    const id = nw[1];
    const imsi = await imsiOf(id);
    sim.failNext(1, 'SMS delivery failed: MAP error 27 absent subscriber');
    const res = await send(northwind, id, { text: 'ж'.repeat(70) });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().request).toEqual({ text: 'ж'.repeat(70), encoding: 'UCS-2' });
    expect(await settle(res.json())).toMatchObject({
      status: 'failed',
      error: { code: 'NETWORK_FAILED', messageId: 'subscriberOperation.failed.notOnline', detail: 'SMS delivery failed: MAP error 27 absent subscriber' },
    });
    expect(await events(imsi)).toEqual([
      { operation: 'sendSms', protocol: 'SS7', result: 'failure', detail: 'SMS delivery failed: MAP error 27 absent subscriber' },
    ]);
    expect(await audits(id)).toEqual([]);
  });

  it('refuses text that is missing, blank, not text, or longer than one message, naming the field; nothing is sent', async () => {
    const id = nw[2];
    const sent = sim.received.length;
    const cases: [unknown, { field: string; rule: string; messageId: string }[]][] = [
      [{}, [{ field: 'text', rule: 'required', messageId: 'validation.sms.required' }]],
      [{ text: '' }, [{ field: 'text', rule: 'required', messageId: 'validation.sms.required' }]],
      [{ text: ' \n ' }, [{ field: 'text', rule: 'required', messageId: 'validation.sms.required' }]],
      [{ text: 42 }, [{ field: 'text', rule: 'type', messageId: 'validation.sms.required' }]],
      [{ text: 'a'.repeat(161) }, [{ field: 'text', rule: 'maxLength', messageId: 'validation.sms.tooLong' }]],
      [{ text: '€'.repeat(81) }, [{ field: 'text', rule: 'maxLength', messageId: 'validation.sms.tooLong' }]], // € takes two GSM-7 characters
      [{ text: `${'a'.repeat(70)}ж` }, [{ field: 'text', rule: 'maxLength', messageId: 'validation.sms.tooLong' }]], // one Cyrillic letter: UCS-2, 70 at most
      [{ text: '😀'.repeat(36) }, [{ field: 'text', rule: 'maxLength', messageId: 'validation.sms.tooLong' }]], // an emoji takes two
      [{ text: 'hi', to: '+15550100' }, [{ field: 'to', rule: 'additionalProperties', messageId: 'validation.unknownField' }]],
    ];
    for (const [body, expected] of cases) {
      const res = await send(northwind, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fields(res), JSON.stringify(body)).toEqual(expected);
      expect(res.json().fields[0].message).toBeTruthy();
    }
    expect((await send(northwind, id, { text: 'a'.repeat(160) })).statusCode).toBe(202);
    await ctx.app.coreNetwork.idle();
    expect((await send(northwind, id, { text: '€'.repeat(80) })).statusCode).toBe(202);
    await ctx.app.coreNetwork.idle();
    expect(sim.received.length).toBe(sent + 2);
  });

  it('answers 404 for a subscriber the caller cannot see and 403 without the network events panel; nothing is sent', async () => {
    const sent = sim.received.length;
    expect((await send(bluesky, nw[3], { text: 'hello' })).statusCode).toBe(404); // another reseller's
    expect((await send(northwind, 999999999, { text: 'hello' })).statusCode).toBe(404);
    expect((await send(harbor, 1, { text: 'hello' })).statusCode).toBe(403); // an account user without the panel
    expect((await northwind.post('/portal/subscriber-info/abc/sms', { text: 'hello' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'POST', url: `/portal/subscriber-info/${nw[3]}/sms`, payload: { text: 'hello' } })).statusCode).toBe(401);
    expect(sim.received.length).toBe(sent);
    expect(await audits(nw[3])).toEqual([]);
  });

  it('waits while another network operation on the subscriber is pending', async () => {
    const id = nw[4];
    sim.pause();
    try {
      expect((await send(northwind, id, { text: 'first' })).statusCode).toBe(202);
      const second = await send(northwind, id, { text: 'second' });
      expect(second.statusCode).toBe(409);
      expect(fields(second)).toEqual([{ field: 'subscriberId', rule: 'pending', messageId: 'error.operation.pending' }]);
    } finally {
      sim.resume();
    }
    await ctx.app.coreNetwork.idle();
  });
});

describe('the core-network gateway', () => {
  it('receives an SMS as POST {url}/sendSms with the request as JSON', async () => {
    const seen: { url?: string; body: Row }[] = [];
    const gateway = createServer(async (req: IncomingMessage, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      seen.push({ url: req.url, body: JSON.parse(text) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, detail: 'accepted by the SMSC' }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = gateway.address() as AddressInfo;
      const transport = createHttpTransport(`http://127.0.0.1:${port}/core/`);
      const answer = await transport.deliver(
        { operation: 'sendSms', resellerId: 1, imsi: '001010000000001', subscriberId: 7, payload: { text: 'Grüße', encoding: 'GSM-7' } },
        'req-1',
      );
      expect(answer).toEqual({ ok: true, detail: 'accepted by the SMSC', data: undefined });
      expect(seen).toEqual([
        {
          url: '/core/sendSms',
          body: {
            requestId: 'req-1',
            operation: 'sendSms',
            resellerId: 1,
            imsi: '001010000000001',
            subscriberId: 7,
            payload: { text: 'Grüße', encoding: 'GSM-7' },
          },
        },
      ]);
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});
