/**
 * Input is parsed once at the edge: each mistake answers 400 naming the field before any query runs, and what the
 * database could not hold never reaches it.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Res = Awaited<ReturnType<Client['get']>>;

const fields = (res: Res) => (res.json().fields ?? []).map((f: { field: string; rule: string }) => [f.field, f.rule]);
const BOUNDARY = '----edge';
const multipart = (field: string, bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="f.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

describe.each(engines)('input at the edge on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let token: string;
  let subscriber: { subscriberId: number; imsi: string; iccid: string; name: string };

  beforeAll(async () => {
    ctx = await testApp(engine);
    token = await ctx.login('admin');
    admin = ctx.client(token);
    subscriber = (await admin.post('/portal/subscribers/paged', { sortBy: 'subscriberId', sortDir: 'asc', page: { page: 0, size: 1 } })).json().items[0];
  });
  afterAll(async () => ctx?.close());

  it('finds a subscriber by its full 15-digit IMSI in the multi-field search, and downloads the whole of it', async () => {
    const search = { searchBy: 'multi', searchKey: subscriber.imsi };
    const page = await admin.post('/portal/subscribers/search', search);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().items.map((s: { subscriberId: number }) => s.subscriberId)).toEqual([subscriber.subscriberId]);
    const download = await admin.post('/portal/subscribers/list/download', search);
    expect(download.statusCode).toBe(200);
    expect(download.body.endsWith('\n')).toBe(true);
    const { data } = Papa.parse<Record<string, string>>(download.body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(data.map((row) => row.imsi)).toEqual([subscriber.imsi]);
  });

  it('answers 400 naming the id for an id past an integer, in a path and in a body, and reads nothing', async () => {
    for (const url of [
      '/portal/accounts/2147483648',
      '/portal/subscribers/2147483648',
      '/portal/jobs/2147483648',
      '/portal/allowed-lists/99999999999999999999',
      '/portal/pricing-plans/local/1/rules/2147483648',
    ]) {
      const res = await admin.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(
        fields(res).map(([field]: string[]) => field),
        url,
      ).toEqual([url.includes('rules') ? 'ruleId' : 'id']);
    }
    expect(fields(await admin.get('/portal/accounts/2147483648'))).toEqual([['id', 'range']]);
    expect(fields(await admin.get('/portal/pricing-plans/local/1/rules/2147483648'))).toEqual([['ruleId', 'range']]);
    const body = await admin.post('/portal/accounts/', { name: 'Range Check Ltd', resellerId: 2147483648 });
    expect(body.statusCode).toBe(400);
    expect(fields(body)).toContainEqual(['resellerId', 'maximum']);
    const operation = await admin.post('/portal/subscriber-info/api/', { operation: 'suspend', subscriberId: 2147483648 });
    expect(fields(operation)).toEqual([['subscriberId', 'type']]);
    const move = await admin.post('/portal/subscribers/move', { accountId: 1, subscriberIds: [2147483648] });
    expect(fields(move)).toEqual([['subscriberIds', 'type']]);
  });

  it('refuses a NUL byte and a lone surrogate anywhere, sign-in included, naming the field, and saves nothing', async () => {
    const signIn = await ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'ad\u0000min', password: 'x' } });
    expect(signIn.statusCode).toBe(400);
    expect(fields(signIn)).toEqual([['userName', 'characters']]);
    const surrogate = await admin.post('/portal/accounts/', { name: 'Surrogate \ud800 Ltd' });
    expect(surrogate.statusCode).toBe(400);
    expect(fields(surrogate)).toEqual([['name', 'characters']]);
    expect(surrogate.json().fields[0].message).toBe('Character not allowed.');
    const saved = (await admin.post('/portal/accounts/search', { searchBy: 'name', searchKey: 'Surrogate' })).json();
    expect(saved.totalItemsCount).toBe(0);
    // Nested: the path names where it is.
    expect(fields(await admin.post('/portal/accounts/paged', { page: { after: 'a\u0000' } }))).toEqual([['page.after', 'characters']]);
    expect(fields(await admin.post('/portal/pricing-plans/local/1/rules/batch', { save: [{ network: 'x\udc00' }] }))).toEqual([
      ['save[0].network', 'characters'],
    ]);
    expect(fields(await admin.get('/portal/networks?searchKey=a%00b'))).toEqual([['searchKey', 'characters']]);
    expect(fields(await admin.get('/portal/accounts/1%00'))).toEqual([['id', 'characters']]);
  });

  it('bounds a list request: a text page.after, page 1e308 and over-long search text are refused before any query', async () => {
    const sales = await admin.post('/portal/pre-paid-packages/sales', { page: { page: 0, size: 10, after: 'abc' } });
    expect(sales.statusCode).toBe(400);
    expect(fields(sales)).toEqual([['page.after', 'type']]);
    expect(fields(await admin.post('/portal/accounts/paged', { page: { page: 1e308 } }))).toEqual([['page.page', 'range']]);
    const long = await admin.post('/portal/subscribers/search', { searchBy: 'name', searchKey: 'x'.repeat(1_000_000) });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual([
      expect.objectContaining({ field: 'searchKey', rule: 'maxLength', message: 'Search text can have at most 200 characters' }),
    ]);
    expect((await admin.post('/portal/subscribers/search', { searchBy: 'name', searchKey: 'x'.repeat(200) })).statusCode).toBe(200);
    expect(fields(await admin.get('/portal/jobs?page=1e308'))).toEqual([['page', 'maximum']]);
    expect(fields(await admin.get('/portal/ledger/entries?page=1e308'))).toEqual([['page', 'maximum']]);
  });

  it('refuses a time the database cannot hold (year 0) on the signalling log, naming it', async () => {
    const res = await admin.get('/portal/network-events/ss7?from=0000-01-01T00:00:00Z');
    expect(res.statusCode).toBe(400);
    expect(fields(res)).toEqual([['from', 'range']]);
    expect(fields(await admin.get('/portal/network-events/ss7?from=0000-01-01'))).toEqual([['from', 'format']]);
    expect((await admin.get('/portal/network-events/ss7?from=2026-01-01T00:00:00Z')).statusCode).toBe(200);
  });

  it('refuses an uploaded file that is not UTF-8 or holds a NUL byte, naming the file field', async () => {
    const upload = (bytes: Buffer) =>
      ctx.app.inject({
        method: 'POST',
        url: '/portal/subscribers/bulk/csv',
        payload: multipart('file', bytes),
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
    const surrogate = await upload(Buffer.concat([Buffer.from(`iccid,name\n${subscriber.iccid},A`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\n')]));
    expect(surrogate.statusCode).toBe(400);
    expect(fields(surrogate)).toEqual([['file', 'encoding']]);
    const nul = await upload(Buffer.from(`iccid,name\n${subscriber.iccid},A\u0000B\n`));
    expect(fields(nul)).toEqual([['file', 'characters']]);
    const after = (await admin.get(`/portal/subscribers/${subscriber.subscriberId}`)).json();
    expect(after.name).toBe(subscriber.name);
  });

  it('rejects a CSV line whose id is past an integer, naming its column', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/portal/subscribers/bulk/csv',
      payload: multipart('file', Buffer.from(`iccid,pricingPlanId\n${subscriber.iccid},2147483648\n`)),
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejected.map((r: { line: number; fields: { field: string }[] }) => [r.line, r.fields.map((f) => f.field)])).toEqual([
      [2, ['pricingPlanId']],
    ]);
  });

  it('refuses over-long SMS text and non-object rule rows at once, without measuring them', async () => {
    const started = Date.now();
    const sms = await admin.post(`/portal/subscriber-info/${subscriber.subscriberId}/sms`, { text: 'x'.repeat(1_000_000) });
    expect(sms.statusCode).toBe(400);
    expect(fields(sms)).toEqual([['text', 'maxLength']]);
    const batch = await admin.post('/portal/pricing-plans/local/1/rules/batch', { save: ['x'.repeat(1_000_000)] });
    expect(batch.statusCode).toBe(400);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('parses query values by the route schema: a wrong flag or reseller id answers 400 naming the parameter', async () => {
    const expired = await admin.get(`/portal/pre-paid-packages/list/${subscriber.subscriberId}?show_expired=maybe`);
    expect(expired.statusCode, expired.body).toBe(400);
    expect(fields(expired).map(([field]: [string]) => field)).toEqual(['show_expired']);
    expect((await admin.get(`/portal/pre-paid-packages/list/${subscriber.subscriberId}?show_expired=true`)).statusCode).toBe(200);
    for (const value of ['abc', '', '1e99']) {
      const balance = await admin.get(`/portal/ledger/balance?reseller_id=${value}`);
      expect(balance.statusCode, `${value}: ${balance.body}`).toBe(400);
      expect(fields(balance).map(([field]: [string]) => field)).toEqual(['reseller_id']);
    }
  });
});
