import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentAdapters } from '@server/adapters/payments';
import { createStripeProcessor } from '@server/adapters/payments/stripe';
import { hashPassword } from '@server/domains/auth/password';
import { israeliIdValid, luhnValid } from '@shared/payments';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const P = '/portal/payments';
const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
const ERROR = '4000000000000119';
/** A valid ID number (check digit included). */
const ID_NUMBER = '123456782';
const card = (number = GOOD, more: Row = {}) => ({
  number,
  holderName: 'Nora Demo',
  holderIdNumber: ID_NUMBER,
  expiryMonth: 12,
  expiryYear: 2099,
  cvv: '123',
  ...more,
});
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A fake Stripe API on loopback: pm_ok succeeds, pm_declined is a card error, anything else a 500. */
async function fakeStripe() {
  const seen: { path: string; body: string; idempotencyKey?: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
      const params = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/payment_intents' && params.get('payment_method') === 'pm_ok') {
        res.end(
          JSON.stringify({ id: 'pi_test_1', object: 'payment_intent', status: 'succeeded', latest_charge: 'ch_test_1', amount: Number(params.get('amount')) }),
        );
      } else if (params.get('payment_method') === 'pm_declined') {
        res.statusCode = 402;
        res.end(JSON.stringify({ error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } }));
      } else {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function form(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----payment-form';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('payment rules', () => {
  it('checks card numbers by Luhn and ID numbers by their check digit', () => {
    expect(luhnValid(GOOD)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(israeliIdValid(ID_NUMBER)).toBe(true);
    expect(israeliIdValid('123456789')).toBe(false);
    expect(israeliIdValid('12345678')).toBe(false);
  });
  it('offers Stripe only when its key is set', () => {
    expect(createPaymentAdapters({}).stripe).toBeUndefined();
    expect(createPaymentAdapters({ stripeSecretKey: 'sk_test_x' }).stripe?.name).toBe('stripe');
  });
});

describe.each(engines)('payments on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  let payer: Client;
  let stripe: Awaited<ReturnType<typeof fakeStripe>>;
  let harborAccount: number;
  let alpineAccount: number;

  const balance = async (resellerId: number) =>
    (await sql<{ b: string }>`select balance::text as b from reseller_standing where reseller_id = ${resellerId}`.execute(ctx.db)).rows[0].b;
  const ledgerBalance = async (resellerId: number) =>
    (
      await sql<{
        b: string;
      }>`select coalesce((select balance_after from ledger_entry where reseller_id = ${resellerId} order by id desc limit 1), 0)::text as b`.execute(ctx.db)
    ).rows[0].b;
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(ctx.db)).rows[0].n);
  const cents = (v: string | number) => Math.round(Number(v) * 100);
  const pay = (client: Client, body: Row, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: `${P}/submit`, headers: { ...(client as any).headers, ...headers }, payload: body });
  const fields = (res: { json: () => Row }) => res.json().fields.map((f: Row) => `${f.field}:${f.messageId}`);
  const setLimits = async (resellerId: number, body: Row, by: Client = admin) => {
    const res = await by.put(`${P}/parameters/resellers/${resellerId}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    stripe = await fakeStripe();
    ctx = await testApp(engine, {
      payments: {
        bitPaySandboxConfirmSeconds: 1,
        sweepMs: 150,
        stripeSecretKey: 'sk_test_fake',
        stripeHost: '127.0.0.1',
        stripePort: stripe.port,
        stripeProtocol: 'http',
      },
    });
    await ctx.app.ready();
    harborAccount = (await ctx.db.selectFrom('account').select('accountId').where('name', '=', 'Harbor Logistics').executeTakeFirstOrThrow()).accountId;
    alpineAccount = (await ctx.db.selectFrom('account').select('accountId').where('name', '=', 'Alpine Sensors').executeTakeFirstOrThrow()).accountId;
    // An account user of Harbor Logistics who may pay.
    const role = await ctx.db
      .insertInto('role')
      .values({ name: 'Account payer', resellerId: 1, privileges: JSON.stringify([{ privilege: 'PaymentMethods', subPrivileges: [] }]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('appUser')
      .values({
        username: 'harbor-payer',
        email: 'harbor-payer@demo.example',
        passwordHash: await hashPassword('Payer@2026x'),
        firstName: 'Hana',
        lastName: null,
        resellerId: 1,
        accountId: harborAccount,
        roleId: role.id,
        preferences: null,
      })
      .execute();
    for (const u of ['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor']) tokens[u] = await ctx.login(u);
    tokens.payer = await ctx.login('harbor-payer', 'Payer@2026x');
    const mk = (u: string) => Object.assign(ctx.client(tokens[u]), { headers: { authorization: `Bearer ${tokens[u]}` } });
    [admin, northwind, iot, bluesky, harbor, payer] = ['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor', 'payer'].map(mk);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await stripe?.close();
  });

  it('answers every validation message naming the field, and writes nothing', async () => {
    const before = await count('payment');
    const cases: [Row, string][] = [
      [{ method: 'CREDIT_CARD', amount: 10, card: card('4242-4242-4242-424x') }, 'card.number:validation.input.invalid'],
      [{ method: 'CREDIT_CARD', amount: 10, card: card('4242424242424241') }, 'card.number:validation.card.invalid'],
      [{ method: 'CREDIT_CARD', amount: 10, card: card(GOOD, { holderIdNumber: '' }) }, 'card.holderIdNumber:validation.idNumber.required'],
      [{ method: 'CREDIT_CARD', amount: 10, card: card(GOOD, { holderIdNumber: '123456789' }) }, 'card.holderIdNumber:validation.idNumber.invalid'],
      [{ method: 'CREDIT_CARD', amount: 10, card: card(GOOD, { expiryYear: 2020 }) }, 'card.expiryYear:validation.expiry.invalid'],
      [{ method: 'CREDIT_CARD', amount: 10, card: card(GOOD, { cvv: '12' }) }, 'card.cvv:validation.cvv.invalid'],
      [{ method: 'CREDIT_CARD', amount: 99999.99, card: card() }, 'amount:payment.amount.tooHigh'],
      [{ method: 'CREDIT_CARD', amount: 100000, card: card() }, 'amount:payment.amount.tooHigh'],
      [{ method: 'CREDIT_CARD', amount: 1.234, card: card() }, 'amount:validation.amount.invalid'],
      [{ method: 'CREDIT_CARD', amount: 0, card: card() }, 'amount:validation.amount.range'],
      [{ method: 'CREDIT_CARD', amount: -5, card: card() }, 'amount:validation.amount.range'],
      [{ method: 'CREDIT_CARD', card: card() }, 'amount:validation.amount.required'],
      [{ method: 'CREDIT_CARD', amount: 10 }, 'cardId:payment.card.required'],
      [{ method: 'CREDIT_CARD', amount: 10, cardId: 999999 }, 'cardId:validation.reference.unknown'],
      [{ method: 'PAYPAL', amount: 10 }, 'method:payment.method.invalid'],
    ];
    for (const [body, expected] of cases) {
      const res = await pay(northwind, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(fields(res), JSON.stringify(body)).toContain(expected);
    }
    const manual = async (amount: unknown) => admin.post(`${P}/submit/manual`, { resellerId: 1, amount, description: 'Correction' });
    expect(fields(await manual(-100000))).toEqual(['amount:payment.amount.tooLow']);
    expect(fields(await manual(99999.99))).toEqual(['amount:payment.amount.tooHigh']);
    expect(fields(await manual(0))).toEqual(['amount:validation.amount.range']);
    expect(fields(await admin.post(`${P}/submit/manual`, { resellerId: 2147483000, amount: 5, description: 'x' }))).toEqual([
      'description:validation.description.invalid',
      'resellerId:validation.reference.unknown',
    ]);
    const wire = (f: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) =>
      ctx.app.inject({
        method: 'POST',
        url: `${P}/submit/bank-wire`,
        ...form(f, file),
        headers: { ...form(f, file).headers, authorization: `Bearer ${tokens.northwind}` },
      });
    const pdf = { name: 'proof.pdf', type: 'application/pdf', bytes: PDF };
    expect(fields(await wire({ amount: '100', reference: 'abc' }, pdf))).toEqual(['reference:validation.reference.invalid']);
    expect(fields(await wire({ amount: '100', reference: 'x'.repeat(17) }, pdf))).toEqual(['reference:validation.reference.tooLong']);
    expect(fields(await wire({ amount: '100' }, pdf))).toEqual(['reference:validation.reference.required']);
    expect(fields(await wire({ amount: '100000', reference: 'WIRE-2026-01' }, pdf))).toEqual(['amount:payment.amount.tooHigh']);
    expect(fields(await wire({ amount: '100', reference: 'WIRE-2026-01' }))).toEqual(['file:validation.file.required']);
    // A .pdf that is really text is refused by its content; so is anything over 4 MB.
    expect(fields(await wire({ amount: '100', reference: 'WIRE-2026-01' }, { ...pdf, bytes: Buffer.from('just some text, not a PDF') }))).toEqual([
      'file:payment.proof.type',
    ]);
    const big = Buffer.concat([PDF, Buffer.alloc(4 * 1024 * 1024)]);
    expect(fields(await wire({ amount: '100', reference: 'WIRE-2026-01' }, { ...pdf, bytes: big }))).toEqual(['file:validation.file.tooLarge']);
    const save = await northwind.post(`${P}/methods/credit-cards`, card('4242424242424241'));
    expect(save.statusCode).toBe(400);
    expect(fields(save)).toEqual(['number:validation.card.invalid']);
    expect(await count('payment')).toBe(before);
    expect(await count('payment_card')).toBe(0);
  });

  it('credits a card payment at once: balance, standing and ledger raised by the amount, fee on top, confirmation kept', async () => {
    const before = await balance(1);
    const res = await pay(northwind, { method: 'CREDIT_CARD', amount: 123.45, card: card(), saveCard: true, description: 'Top up' });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    // Default card fee rate 3 %: 3.7035 rounds to 3.70.
    expect(p).toMatchObject({ method: 'CREDIT_CARD', status: 'confirmed', creditedAmount: 123.45, fee: 3.7, paidAmount: 127.15, cardLast4: '4242' });
    expect(p.confirmationCode).toMatch(/^[0-9A-F]{10}$/);
    expect(cents(await balance(1))).toBe(cents(before) + 12345);
    expect(await ledgerBalance(1)).toBe(await balance(1));
    const entry = await ctx.db.selectFrom('ledgerEntry').selectAll().where('id', '=', p.ledgerEntryId).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'payment', method: 'CREDIT_CARD', confirmationCode: p.confirmationCode, resellerId: 1 });
    expect(String(entry.amount)).toBe('123.45');
    expect(String(entry.fee)).toBe('3.70');
    expect(p.balanceAfter).toBe(Number(entry.balanceAfter));
    // The card is saved as a token: never its number.
    const cards = (await northwind.get(`${P}/methods/credit-cards`)).json();
    expect(cards).toEqual([expect.objectContaining({ last4: '4242', brand: 'VISA', holderName: 'Nora Demo' })]);
    const stored = JSON.stringify(await ctx.db.selectFrom('paymentCard').selectAll().execute());
    expect(stored).not.toContain(GOOD);
    expect(stored).not.toContain(ID_NUMBER);
    // A saved card pays again by its id.
    const again = await pay(northwind, { method: 'CREDIT_CARD', amount: 10, cardId: cards[0].id });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ status: 'confirmed', cardLast4: '4242' });
    // Another reseller cannot use or remove it.
    expect(fields(await pay(bluesky, { method: 'CREDIT_CARD', amount: 10, cardId: cards[0].id }))).toEqual(['cardId:validation.reference.unknown']);
    expect((await bluesky.delete(`${P}/methods/credit-cards/${cards[0].id}`)).statusCode).toBe(404);
  });

  it('records declined and failed card payments without credit and answers 402 with the message', async () => {
    const before = await balance(1);
    const entries = await count('ledger_entry');
    const keptBefore = (await northwind.get(`${P}/methods/credit-cards`)).json().length;
    const declined = await pay(northwind, { method: 'CREDIT_CARD', amount: 20, card: card(DECLINED), saveCard: true });
    expect(declined.statusCode, declined.body).toBe(402);
    expect(fields(declined)).toEqual(['card:payment.failure']);
    expect(declined.json().payment).toMatchObject({ status: 'declined', creditedAmount: 20, failure: 'payment.failure', cardLast4: '0002' });
    // Asked to be kept, but declined: not offered again.
    expect((await northwind.get(`${P}/methods/credit-cards`)).json()).toHaveLength(keptBefore);
    const failed = await pay(northwind, { method: 'CREDIT_CARD', amount: 20, card: card(ERROR) });
    expect(failed.statusCode, failed.body).toBe(402);
    expect(fields(failed)).toEqual(['card:payment.processor.failed']);
    expect(failed.json().payment.status).toBe('failed');
    expect(await balance(1)).toBe(before);
    expect(await count('ledger_entry')).toBe(entries);
    const list = (await northwind.post(`${P}/paged`, { status: 'declined' })).json();
    expect(list.items.map((p: Row) => p.id)).toContain(declined.json().payment.id);
  });

  it('pays with Stripe through its client, with the payment as idempotency key; a card error is a decline', async () => {
    const methods = (await northwind.get(`${P}/methods`)).json().map((m: Row) => m.code);
    expect(methods).toEqual(['CREDIT_CARD', 'STRIPE', 'BIT_PAY', 'BANK_WIRE']);
    expect((await admin.get(`${P}/methods`)).json().map((m: Row) => m.code)).toContain('MANUAL');
    const before = await balance(3);
    const ok = await pay(bluesky, { method: 'STRIPE', amount: 50, paymentMethodId: 'pm_ok' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ method: 'STRIPE', status: 'confirmed', confirmationCode: 'ch_test_1', processorRef: 'pi_test_1', fee: 1.5 });
    const call = stripe.seen.at(-1)!;
    expect(new URLSearchParams(call.body).get('amount')).toBe('5150');
    expect(call.idempotencyKey).toBe(`payment-${ok.json().id}`);
    expect(cents(await balance(3))).toBe(cents(before) + 5000);
    const declined = await pay(bluesky, { method: 'STRIPE', amount: 50, paymentMethodId: 'pm_declined' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().payment.status).toBe('declined');
    const processor = createStripeProcessor('sk_test_fake', { host: '127.0.0.1', port: stripe.port, protocol: 'http' });
    expect((await processor.charge({ source: 'pm_other', amountCents: 100, currency: 'USD', description: 'x', idempotencyKey: 'k1' })).outcome).toBe('failed');
    expect(cents(await balance(3))).toBe(cents(before) + 5000);
  });

  it('answers the first payment for a repeated idempotency key, credited once, also for 10 at the same time', async () => {
    const before = await balance(2);
    const first = await pay(iot, { method: 'CREDIT_CARD', amount: 7.77, card: card() }, { 'idempotency-key': 'order-1' });
    expect(first.statusCode, first.body).toBe(201);
    const second = await pay(iot, { method: 'CREDIT_CARD', amount: 7.77, card: card() }, { 'idempotency-key': 'order-1' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    const viaBody = await pay(iot, { method: 'CREDIT_CARD', amount: 7.77, card: card(), idempotencyKey: 'order-1' });
    expect(viaBody.json().id).toBe(first.json().id);
    const other = await pay(iot, { method: 'CREDIT_CARD', amount: 8, card: card() }, { 'idempotency-key': 'order-1' });
    expect(other.statusCode).toBe(409);
    expect(fields(other)).toEqual(['idempotencyKey:payment.idempotencyKey.reused']);
    const together = await Promise.all(
      Array.from({ length: 10 }, () => pay(iot, { method: 'CREDIT_CARD', amount: 3.33, card: card() }, { 'idempotency-key': 'order-2' })),
    );
    expect(together.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect(together.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(new Set(together.map((r) => r.json().id)).size).toBe(1);
    expect(together.every((r) => r.json().status === 'confirmed')).toBe(true);
    expect(cents(await balance(2))).toBe(cents(before) + 777 + 333);
    const rows = await ctx.db.selectFrom('payment').select('id').where('resellerId', '=', 2).where('idempotencyKey', 'in', ['order-1', 'order-2']).execute();
    expect(rows).toHaveLength(2);
  });

  it('keeps the ledger exact under 100 concurrent payments and package purchases for one reseller', async () => {
    const templateRes = await northwind.post('/portal/pre-paid-packages/templates', {
      name: 'Concurrency package',
      locationZoneId: (await ctx.db.selectFrom('locationZone').select('id').where('name', '=', 'Europe').executeTakeFirstOrThrow()).id,
      destinationZoneId: null,
      periodDays: 30,
      price: 1.11,
      priority: 1,
      moCallMinutes: 0,
      mtCallMinutes: 0,
      moSms: 0,
      mtSms: 0,
      dataMb: 10,
      unlimitedData: false,
      bitrate: 0,
      slices: 1,
    });
    expect(templateRes.statusCode, templateRes.body).toBe(201);
    const subscriberId = (await sql<{ id: number }>`select min(subscriber_id) as id from subscriber where reseller_id = 1`.execute(ctx.db)).rows[0].id;
    const startId = Number((await sql<{ id: string }>`select coalesce(max(id), 0) as id from ledger_entry`.execute(ctx.db)).rows[0].id);
    const before = await balance(1);
    const calls = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? pay(northwind, { method: 'CREDIT_CARD', amount: 2.5, card: card() })
        : northwind.post('/portal/pre-paid-packages/purchase/', { subscriberId, templateId: templateRes.json().id }),
    );
    const results = await Promise.all(calls);
    expect(results.map((r) => r.statusCode).filter((s) => s !== 201)).toEqual([]);
    const rows = (
      await sql<{
        amount: string;
        after: string;
      }>`select amount::text as amount, balance_after::text as after from ledger_entry where reseller_id = 1 order by id`.execute(ctx.db)
    ).rows;
    let running = 0;
    for (const r of rows) {
      running += cents(r.amount);
      expect(cents(r.after)).toBe(running);
    }
    const mine = (
      await sql<{ n: string; s: string }>`select count(*) as n, sum(amount)::text as s from ledger_entry where reseller_id = 1 and id > ${startId}`.execute(
        ctx.db,
      )
    ).rows[0];
    expect(Number(mine.n)).toBe(100);
    expect(cents(mine.s)).toBe(50 * 250 - 50 * 111);
    expect(cents(await balance(1))).toBe(cents(before) + 50 * 250 - 50 * 111);
    expect(cents(await ledgerBalance(1))).toBe(running);
  }, 120_000);

  it('never lets parallel payments pass a personal daily limit together', async () => {
    // Northwind sets its sub-reseller's card limit; nobody sets its own.
    expect((await iot.put(`${P}/parameters/resellers/2`, { cardDailyLimit: 1 })).statusCode).toBe(403);
    expect((await northwind.put(`${P}/parameters/resellers/1`, { cardDailyLimit: 1 })).statusCode).toBe(403);
    expect((await iot.put(`${P}/parameters/resellers/1`, { cardDailyLimit: 1 })).statusCode).toBe(404);
    const used = (await iot.get(`${P}/parameters`)).json().used.cardToday;
    const set = await setLimits(2, { cardDailyLimit: used + 100 }, northwind);
    expect(set.creditCard.dailyLimit).toBe(used + 100);
    const results = await Promise.all(Array.from({ length: 10 }, () => pay(iot, { method: 'CREDIT_CARD', amount: 30, card: card() })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.every((r) => r.statusCode === 409 && fields(r)[0] === 'amount:payment.limit.daily')).toBe(true);
    expect((await iot.get(`${P}/parameters`)).json().used.cardToday).toBe(used + 90);
    await setLimits(2, { cardDailyLimit: null }, northwind);
  });

  it('refuses each limit with its message: monthly, crypto off, crypto total, provider-wide', async () => {
    const refusal = async (client: Client, body: Row) => {
      const res = await pay(client, body);
      expect(res.statusCode, res.body).toBe(409);
      return fields(res);
    };
    await setLimits(3, { cardMonthlyLimit: 10 });
    expect(await refusal(bluesky, { method: 'CREDIT_CARD', amount: 20, card: card() })).toEqual(['amount:payment.limit.monthly']);
    await setLimits(3, { cardMonthlyLimit: null, cryptoEnabled: false });
    expect(await refusal(bluesky, { method: 'BIT_PAY', amount: 20 })).toEqual(['method:payment.crypto.disabled']);
    expect((await bluesky.get(`${P}/methods`)).json().map((m: Row) => m.code)).not.toContain('BIT_PAY');
    await setLimits(3, { cryptoEnabled: null, cryptoTotalLimit: 30 });
    const pending = await pay(bluesky, { method: 'BIT_PAY', amount: 20 });
    expect(pending.statusCode, pending.body).toBe(201);
    expect(await refusal(bluesky, { method: 'BIT_PAY', amount: 20 })).toEqual(['amount:payment.limit.cryptoTotal']);
    await setLimits(3, { cryptoTotalLimit: null });
    await setLimits(3, { cryptoDailyLimit: 25 });
    expect(await refusal(bluesky, { method: 'BIT_PAY', amount: 10 })).toEqual(['amount:payment.limit.daily']);
    await setLimits(3, { cryptoDailyLimit: null });
    // Provider-wide: the defaults, the administrator's only; a reseller may not set them for another.
    expect((await northwind.put(`${P}/parameters/resellers/-1`, { providerDailyLimit: 1 })).statusCode).toBe(403);
    expect(fields(await admin.put(`${P}/parameters/resellers/3`, { providerDailyLimit: 1 }))).toEqual(['providerDailyLimit:payment.parameters.providerOnly']);
    const defaults = (await admin.get(`${P}/parameters?reseller_id=-1`)).json();
    await setLimits(-1, { providerDailyLimit: 1 });
    expect(await refusal(bluesky, { method: 'CREDIT_CARD', amount: 5, card: card() })).toEqual(['amount:payment.limit.provider']);
    await setLimits(-1, { providerDailyLimit: defaults.provider.dailyLimit });
    expect(fields(await admin.put(`${P}/parameters/resellers/-1`, { cardFeeRate: null }))).toEqual(['cardFeeRate:validation.required']);
    expect((await pay(bluesky, { method: 'CREDIT_CARD', amount: 5, card: card() })).statusCode).toBe(201);
  });

  it('credits a crypto payment once its sandbox invoice confirms, by the status call or by the sweep; an expired invoice fails', async () => {
    const before = await balance(3);
    const asked = await pay(bluesky, { method: 'BIT_PAY', amount: 40 });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ status: 'pending', fee: 0.4, paidAmount: 40.4 });
    expect(asked.json().invoiceUrl).toMatch(/^https:\/\//);
    const status = await bluesky.get(`${P}/bit-pay/${asked.json().id}`);
    expect(status.json()).toMatchObject({ invoiceStatus: 'new', payment: { status: 'pending' } });
    await new Promise((r) => setTimeout(r, 1100));
    const confirmed = await bluesky.get(`${P}/bit-pay/${asked.json().id}`);
    expect(confirmed.json().payment.status).toBe('confirmed');
    // The earlier pending one (from the limits test) is credited by the sweep without anyone asking.
    const deadline = Date.now() + 10_000;
    while (
      (await ctx.db.selectFrom('payment').select('status').where('method', '=', 'BIT_PAY').where('status', '=', 'pending').execute()).length &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(cents(await balance(3))).toBe(cents(before) + 4000 + 2000);
    // Asking again credits nothing more.
    await bluesky.get(`${P}/bit-pay/${asked.json().id}`);
    expect(cents(await balance(3))).toBe(cents(before) + 6000);
    // The sandbox lets an invoice whose amount ends in .66 expire: 66 plus its 1 % fee is 66.66.
    const expiring = await pay(bluesky, { method: 'BIT_PAY', amount: 66 });
    await new Promise((r) => setTimeout(r, 1100));
    const failed = await bluesky.get(`${P}/bit-pay/${expiring.json().id}`);
    expect(failed.json()).toMatchObject({
      invoiceStatus: 'expired',
      payment: { status: 'failed', failure: 'payment.crypto.failure', failureMessage: 'Crypto payment failure' },
    });
    expect(cents(await balance(3))).toBe(cents(before) + 6000);
    expect((await northwind.get(`${P}/bit-pay/${asked.json().id}`)).statusCode).toBe(404);
  });

  it('finishes a card charge a stopped server left open, charging it once by its idempotency key', async () => {
    const before = await balance(3);
    // As a server leaves it when it stops between recording the payment and the processor's answer.
    const token = (await ctx.app.payments.card.tokenise({ number: GOOD, holderName: 'Bella Demo', expiryMonth: 12, expiryYear: 2099 })).token;
    const { id } = await ctx.db
      .insertInto('payment')
      .values({
        resellerId: 3,
        method: 'CREDIT_CARD',
        status: 'pending',
        amount: '10.30',
        fee: '0.30',
        creditedAmount: '10.00',
        processorRef: token,
        createdAt: sql<Date>`now() - interval '1 hour'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deadline = Date.now() + 10_000;
    while ((await ctx.db.selectFrom('payment').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'pending' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const done = await ctx.db.selectFrom('payment').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(done.status).toBe('confirmed');
    expect(done.processorRef).toMatch(/^ch_sandbox_/);
    expect(cents(await balance(3))).toBe(cents(before) + 1000);
  });

  it('takes a bank wire with its proof, queues it for the administrator, credits it once on confirmation', async () => {
    const before = await balance(1);
    const send = (f: Record<string, string>, key?: string) => {
      const body = form(f, { name: 'wire proof.pdf', type: 'application/pdf', bytes: PDF });
      return ctx.app.inject({
        method: 'POST',
        url: `${P}/submit/bank-wire`,
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${tokens.northwind}`, ...(key ? { 'idempotency-key': key } : {}) },
      });
    };
    const res = await send({ amount: '2500.50', reference: 'WIRE-2026-0001' }, 'wire-1');
    expect(res.statusCode, res.body).toBe(201);
    const wire = res.json();
    expect(wire).toMatchObject({ method: 'BANK_WIRE', status: 'pending', creditedAmount: 2500.5, fee: 0, reference: 'WIRE-2026-0001', hasProof: true });
    expect((await send({ amount: '2500.50', reference: 'WIRE-2026-0001' }, 'wire-1')).json().id).toBe(wire.id);
    expect(await balance(1)).toBe(before);
    const queue = await admin.get(`${P}/bank-wires/pending`);
    expect(queue.json().items.map((p: Row) => p.id)).toContain(wire.id);
    expect((await northwind.get(`${P}/bank-wires/pending`)).statusCode).toBe(403);
    const proof = await admin.get(`${P}/bank-wires/${wire.id}/proof`);
    expect(proof.statusCode).toBe(200);
    expect(proof.headers['content-type']).toBe('application/pdf');
    expect(proof.headers['content-disposition']).toContain('attachment');
    expect(proof.rawPayload.equals(PDF)).toBe(true);
    expect((await northwind.get(`${P}/bank-wires/${wire.id}/proof`)).statusCode).toBe(403);
    const confirms = await Promise.all([admin.post(`${P}/bank-wires/${wire.id}/confirm`), admin.post(`${P}/bank-wires/${wire.id}/confirm`)]);
    expect(confirms.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(cents(await balance(1))).toBe(cents(before) + 250050);
    expect((await northwind.post(`${P}/bank-wires/${wire.id}/confirm`)).statusCode).toBe(403);
    const second = await send({ amount: '10', reference: 'WIRE-2026-0002' });
    const rejected = await admin.post(`${P}/bank-wires/${second.json().id}/reject`);
    expect(rejected.json()).toMatchObject({ status: 'declined', failure: 'payment.wire.rejected' });
    expect(fields(await admin.post(`${P}/bank-wires/${second.json().id}/confirm`))).toEqual(['id:payment.notPending']);
    expect(cents(await balance(1))).toBe(cents(before) + 250050);
  });

  it("takes the administrator's manual payments and resets confirmed payments with a reset row each", async () => {
    const before = await balance(3);
    const manual = await admin.post(`${P}/submit/manual`, { resellerId: 3, amount: 75.25, description: 'Goodwill credit' });
    expect(manual.statusCode, manual.body).toBe(201);
    expect(manual.json()).toMatchObject({ method: 'MANUAL', status: 'confirmed', creditedAmount: 75.25, fee: 0 });
    const negative = await admin.post(`${P}/submit/manual`, { resellerId: 3, amount: -5.25, description: 'Correction' });
    expect(negative.json()).toMatchObject({ status: 'confirmed', creditedAmount: -5.25 });
    expect(cents(await balance(3))).toBe(cents(before) + 7000);
    expect((await northwind.post(`${P}/submit/manual`, { resellerId: 3, amount: 5, description: 'Mine' })).statusCode).toBe(403);
    const declined = (await ctx.db.selectFrom('payment').select('id').where('status', '=', 'declined').executeTakeFirstOrThrow()).id;
    const reset = await admin.post(`${P}/reset`, { paymentIds: [manual.json().id, declined, 2147483000] });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().results.map((r: Row) => r.outcome)).toEqual(['reset', 'notConfirmed', 'notFound']);
    const row = await ctx.db.selectFrom('ledgerEntry').selectAll().where('id', '=', reset.json().results[0].ledgerEntryId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'reset', method: 'MANUAL', resellerId: 3 });
    expect(String(row.amount)).toBe('-75.25');
    expect(cents(await balance(3))).toBe(cents(before) - 525);
    const twice = await Promise.all([
      admin.post(`${P}/reset`, { paymentIds: [negative.json().id] }),
      admin.post(`${P}/reset`, { paymentIds: [negative.json().id] }),
    ]);
    expect(twice.map((r) => r.json().results[0].outcome).sort()).toEqual(['notConfirmed', 'reset']);
    expect(cents(await balance(3))).toBe(cents(before));
    expect((await northwind.post(`${P}/reset`, { paymentIds: [negative.json().id] })).statusCode).toBe(403);
  });

  it("keeps payments to their tenants: a sibling or a sub-reseller never sees them, an account user only its account's", async () => {
    const nwPayment = (await northwind.post(`${P}/paged`, {})).json().items[0];
    expect((await bluesky.get(`${P}/${nwPayment.id}`)).statusCode).toBe(404);
    expect((await iot.get(`${P}/${nwPayment.id}`)).statusCode).toBe(404);
    expect((await northwind.get(`${P}/${nwPayment.id}`)).statusCode).toBe(200);
    expect((await bluesky.post(`${P}/paged`, { resellerId: 1 })).statusCode).toBe(404);
    expect((await iot.post(`${P}/paged`, { resellerId: 1 })).statusCode).toBe(404);
    expect((await iot.get(`${P}/parameters?reseller_id=1`)).statusCode).toBe(404);
    // The parent reads its sub-reseller's payments, alone or with its own.
    const ofIot = (await northwind.post(`${P}/paged`, { resellerId: 2 })).json();
    expect(ofIot.items.length).toBeGreaterThan(0);
    expect(ofIot.items.every((p: Row) => p.resellerId === 2)).toBe(true);
    const both = (await northwind.post(`${P}/paged`, { includeSubResellers: true, page: { page: 0, size: 500 } })).json();
    expect(new Set(both.items.map((p: Row) => p.resellerId))).toEqual(new Set([1, 2]));
    // Sorting and paging on the server.
    const sorted = (await northwind.post(`${P}/paged`, { sortBy: 'creditedAmount', sortDir: 'desc', page: { page: 0, size: 3 } })).json();
    expect(sorted.items).toHaveLength(3);
    expect(sorted.items[0].creditedAmount).toBeGreaterThanOrEqual(sorted.items[1].creditedAmount);
    expect(sorted.totalItemsCount).toBeGreaterThan(3);
    expect((await northwind.post(`${P}/paged`, { searchKey: 'WIRE-2026-0001' })).json().items).toHaveLength(1);
    // An account user's payments carry its account; it sees those only.
    const own = await pay(payer, { method: 'CREDIT_CARD', amount: 12, card: card() });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ accountId: harborAccount, resellerId: 1 });
    const seen = (await payer.post(`${P}/paged`, {})).json();
    expect(seen.items.map((p: Row) => p.id)).toEqual([own.json().id]);
    expect((await payer.get(`${P}/${nwPayment.id}`)).statusCode).toBe(404);
    expect((await payer.get(`${P}/methods/credit-cards`)).json()).toEqual([]);
    const accountList = await payer.get(`/portal/accounts/${harborAccount}/payments`);
    expect(accountList.json().map((p: Row) => p.id)).toEqual([own.json().id]);
    expect((await payer.get(`/portal/accounts/${alpineAccount}/payments`)).statusCode).toBe(404);
    expect((await harbor.post(`/portal/accounts/${harborAccount}/payments/paged`, {})).json().items.map((p: Row) => p.id)).toEqual([own.json().id]);
    expect((await harbor.post(`${P}/submit`, { method: 'CREDIT_CARD', amount: 1, card: card() })).statusCode).toBe(403);
    expect((await bluesky.get(`/portal/accounts/${harborAccount}/payments`)).statusCode).toBe(404);
    expect((await northwind.get(`/portal/accounts/${harborAccount}/payments?unprocessedOnly=true`)).json()).toEqual([]);
    expect((await iot.post(`/portal/accounts/${harborAccount}/payments/paged`, {})).statusCode).toBe(404);
    expect((await northwind.post(`/portal/accounts/${alpineAccount}/payments/paged`, {})).statusCode).toBe(200);
  });

  it('previews fees and lists currencies', async () => {
    const fee = await northwind.post(`${P}/submit/calculate-fee`, { method: 'BIT_PAY', amount: 200 });
    expect(fee.json()).toMatchObject({ amount: 200, fee: 2, creditedAmount: 200, paidAmount: 202, currency: 'USD' });
    expect((await northwind.post(`${P}/submit/calculate-fee`, { method: 'BANK_WIRE', amount: 200 })).json().fee).toBe(0);
    expect(fields(await northwind.post(`${P}/submit/calculate-fee`, { method: 'CREDIT_CARD', amount: 100000 }))).toEqual(['amount:payment.amount.tooHigh']);
    expect((await northwind.get(`${P}/currencies`)).json()).toEqual([{ code: 'USD', symbol: '$' }]);
  });

  it('keeps every payment confirmed exactly when its ledger row exists', async () => {
    const { rows } = await sql<{ bad: string }>`
      select count(*) as bad from payment p left join ledger_entry l on l.id = p.ledger_entry_id
      where (p.status in ('confirmed', 'reset')) <> (l.id is not null)
         or (l.id is not null and (l.amount <> p.credited_amount or l.reseller_id <> p.reseller_id or l.kind <> 'payment'))`.execute(ctx.db);
    expect(Number(rows[0].bad)).toBe(0);
    expect(await count('payment')).toBeGreaterThan(60);
  });
});
