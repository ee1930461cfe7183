import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_FIELDS } from '@server/domains/pricing/rules';
import type { SchemaDrivenDb } from '@server/engine/repository';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

const LOCAL = '/portal/pricing-plans/local';
const BOUNDARY = '----rules-upload';

/** A multipart body with one file part, as a browser's form sends it. */
function multipart(content: string | Buffer, field = 'pricingPlanFile') {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="rules.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

const HEADER = 'country,mcc,mnc,dataRate,startDate';
/** n short rules (so 50,000 fit under 4 MB); the rows at `bad` break one rule each. */
function ruleFile(n: number, plmns: { mcc: string; mnc: string }[], bad: Set<number> = new Set()) {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) {
    const { mcc, mnc } = plmns[i % plmns.length];
    const rate = `0.${String(i % 1000000).padStart(6, '0')}`;
    lines.push(`DE,${mcc},${bad.has(i) ? '1' : mnc},${rate},2026-01-01T00:00:00Z`);
  }
  return `${lines.join('\n')}\n`;
}

describe.each(engines)('rule files on %s', (engine) => {
  let ctx: Ctx;
  let northwind: Client;
  let token: string;
  let planId: number;
  let db: Kysely<Database>;
  let plmns: { mcc: string; mnc: string }[];

  const upload = (id: number, body: Buffer, confirm = false, jwt = token) =>
    ctx.app.inject({
      method: 'POST',
      url: `${LOCAL}/${id}/by-csv${confirm ? '?confirm=true' : ''}`,
      payload: body,
      headers: { authorization: `Bearer ${jwt}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
  const rulesOf = async (id: number) =>
    (
      await (db as SchemaDrivenDb)
        .selectFrom('roamingRule')
        .select([...RULE_FIELDS, 'plmn'])
        .where('planId', '=', id)
        .orderBy('id')
        .execute()
    ).map((r) => JSON.stringify(r));

  beforeAll(async () => {
    ctx = await testApp(engine);
    db = ctx.db;
    token = await ctx.login('northwind');
    northwind = ctx.client(token);
    plmns = await db.selectFrom('network').select(['mcc', 'mnc']).orderBy('plmn').execute();
    planId = (await northwind.post(`${LOCAL}/paged`, { searchBy: 'planName', searchKey: 'Europe IoT Standard' })).json().items[0].id;
  });
  afterAll(async () => ctx?.close());

  it('previews exactly the 10 bad rows of 50,000 and writes nothing until confirmed', async () => {
    const bad = new Set([0, 7, 999, 5000, 12345, 23456, 34567, 40000, 45678, 49999]);
    const file = Buffer.from(ruleFile(50000, plmns, bad));
    expect(file.length).toBeLessThan(4 * 1024 * 1024);
    const before = await rulesOf(planId);
    const preview = await upload(planId, multipart(file));
    expect(preview.statusCode, preview.body.slice(0, 300)).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({ total: 50000, valid: 49990, applied: 0 });
    expect(body.rejected.map((r: { line: number }) => r.line)).toEqual([...bad].map((i) => i + 2));
    expect(body.rejected[0]).toEqual({
      line: 2,
      values: { country: 'DE', mcc: plmns[0].mcc, mnc: '1', dataRate: '0.000000', startDate: '2026-01-01T00:00:00Z' },
      fields: [{ field: 'mnc', rule: 'pattern', messageId: 'validation.mnc.invalid', message: 'MNC must be 2 or 3 digits' }],
    });
    expect(await rulesOf(planId)).toEqual(before);

    const applied = await upload(planId, multipart(file), true);
    expect(applied.json()).toMatchObject({ total: 50000, valid: 49990, applied: 49990 });
    const count = await db
      .selectFrom('roamingRule')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('planId', '=', planId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(49990);
    const third = await db
      .selectFrom('roamingRule')
      .select(['mcc', 'mnc', 'plmn', 'dataRate'])
      .where('planId', '=', planId)
      .orderBy('id')
      .offset(1)
      .limit(1)
      .executeTakeFirstOrThrow();
    expect({ ...third, dataRate: String(third.dataRate) }).toEqual({ ...plmns[2], plmn: `${plmns[2].mcc}${plmns[2].mnc}`, dataRate: '0.000002' });
  }, 120_000);

  it('leaves the old rules intact when the apply fails', async () => {
    const other = (await northwind.post(`${LOCAL}/`, { name: 'Failing apply plan' })).json().id;
    await northwind.post(`${LOCAL}/${other}/rules`, { country: 'FR', mcc: '208', mnc: '01', startDate: '2026-01-01T00:00:00Z', dataRate: 0.5 });
    const before = await rulesOf(other);
    // A valid file whose last row the database refuses (a network name beyond what the column takes would pass
    // the schema, so break the table instead): the whole apply rolls back.
    await db.schema
      .alterTable('roaming_rule')
      .addCheckConstraint('test_no_xx', (await import('kysely')).sql`country <> 'ZW'`)
      .execute();
    try {
      const res = await upload(other, multipart(`${HEADER}\nDE,262,01,0.1,2026-01-01T00:00:00Z\nZW,262,02,0.2,2026-01-01T00:00:00Z\n`), true);
      expect(res.statusCode).toBe(500);
    } finally {
      await db.schema.alterTable('roaming_rule').dropConstraint('test_no_xx').execute();
    }
    expect(await rulesOf(other)).toEqual(before);
  });

  it('downloads the rules in the upload columns; uploading the download gives identical rules', async () => {
    const source = (await northwind.post(`${LOCAL}/paged`, { searchBy: 'planName', searchKey: 'Global Fleet Premium' })).json().items[0].id;
    await northwind.post(`${LOCAL}/${source}/rules`, {
      country: 'GB',
      mcc: '234',
      mnc: '15',
      network: '+44 "Vodafone", UK',
      currency: 'GBP',
      dataRate: 123456.789012,
      sponsorId: 7,
      sponsorName: '=cmd',
      displaySponsorName: ' padded ',
      dailyCap: true,
      dailyCapLimit: 0.000001,
      dailyCapTimeZone: 'Europe/London',
      discounted: true,
      hidden: true,
      startDate: '2026-03-01T10:15:00Z',
      endDate: '2027-03-01T10:15:00.5Z',
    });
    const csv = await northwind.post(`${LOCAL}/${source}/download`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(RULE_FIELDS.join(','));
    expect(csv.body).toContain('123456.789012');
    const target = (await northwind.post(`${LOCAL}/`, { name: 'Round trip plan' })).json().id;
    const res = await upload(target, multipart(csv.rawPayload), true);
    expect(res.json(), res.body.slice(0, 500)).toMatchObject({ rejected: [], applied: 11 });
    expect(await rulesOf(target)).toEqual(await rulesOf(source));
  });

  it('reads a date without a time as the start of that day in UTC, next to the full forms', async () => {
    const plan = (await northwind.post(`${LOCAL}/`, { name: 'Date only plan' })).json().id;
    const file = [
      'country,mcc,mnc,dataRate,startDate,endDate',
      'DE,262,01,0.1,2026-03-01,2026-12-31',
      'DE,262,02,0.2,2026-03-01T08:30:00+02:00,2026-12-31T23:59:59Z',
      'DE,262,03,0.3,2026-02-30,',
      'DE,262,09,0.4,2026-12-31,2026-03-01',
    ].join('\n');
    const preview = (await upload(plan, multipart(file))).json();
    expect(
      preview.rejected.map((r: { line: number; fields: { field: string; message: string }[] }) => [r.line, r.fields.map((f) => [f.field, f.message])]),
    ).toEqual([
      [4, [['startDate', 'A valid date and time is required']]],
      [5, [['endDate', 'End date must be after the start date']]],
    ]);
    expect((await upload(plan, multipart(file), true)).json()).toMatchObject({ applied: 2 });
    const rules = (await northwind.post(`${LOCAL}/${plan}/rules/paged`, { sortBy: 'mnc', sortDir: 'asc' })).json().items;
    expect(rules.map((r: Record<string, unknown>) => [r.mnc, r.startDate, r.endDate])).toEqual([
      ['01', '2026-03-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z'],
      ['02', '2026-03-01T06:30:00.000Z', '2026-12-31T23:59:59.000Z'],
    ]);
  });

  it('tells what applying would change, old and new values, before writing anything', async () => {
    const plan = (await northwind.post(`${LOCAL}/`, { name: 'Changes plan' })).json().id;
    const rule = (mnc: string, rate: number, startDate = '2026-01-01T00:00:00Z') => ({ country: 'DE', mcc: '262', mnc, dataRate: rate, startDate });
    for (const r of [rule('01', 0.1), rule('02', 0.2), rule('03', 0.3), rule('01', 0.4, '2027-01-01T00:00:00Z')]) {
      expect((await northwind.post(`${LOCAL}/${plan}/rules`, r)).statusCode).toBe(201);
    }
    const before = await rulesOf(plan);
    // 01 as it is (a date alone is the same instant), 02 with a new rate and an end, 03 gone, 09 new; 01 of 2027 gone.
    const file = [
      'country,mcc,mnc,dataRate,startDate,endDate',
      'DE,262,01,0.100000,2026-01-01,',
      'DE,262,02,0.25,2026-01-01T00:00:00Z,2026-06-30T00:00:00Z',
      'DE,262,09,0.7,2026-01-01T00:00:00Z,',
    ].join('\n');
    const preview = (await upload(plan, multipart(file))).json();
    expect(preview).toMatchObject({ applied: 0, changes: { added: 1, changed: 1, removed: 2, unchanged: 1 } });
    const { samples } = preview.changes;
    expect(samples.added).toEqual([expect.objectContaining({ mnc: '09', plmn: '26209', dataRate: 0.7 })]);
    expect(samples.changed).toEqual([
      {
        before: expect.objectContaining({ mnc: '02', dataRate: 0.2 }),
        after: expect.objectContaining({ mnc: '02', dataRate: 0.25, endDate: '2026-06-30T00:00:00Z' }),
        fields: ['dataRate', 'endDate'],
      },
    ]);
    expect(samples.changed[0].before).not.toHaveProperty('endDate');
    expect(samples.removed.map((r: Record<string, unknown>) => [r.mnc, r.startDate])).toEqual([
      ['03', '2026-01-01T00:00:00.000Z'],
      ['01', '2027-01-01T00:00:00.000Z'],
    ]);
    expect(await rulesOf(plan)).toEqual(before);
  });

  it("refuses a missing file, one of 4 MB or more, and a file without the rules' columns", async () => {
    const fields = (res: { json(): { fields: { field: string; message: string }[] } }) => res.json().fields.map((f) => [f.field, f.message]);
    expect(fields(await upload(planId, multipart('', 'pricingPlanFile')))).toEqual([['pricingPlanFile', 'Please select a file.']]);
    expect(fields(await upload(planId, multipart('x', 'otherField')))).toEqual([['pricingPlanFile', 'Please select a file.']]);
    const big = await upload(planId, multipart(Buffer.alloc(4 * 1024 * 1024, 'a')));
    expect(big.statusCode).toBe(400);
    expect(fields(big)).toEqual([['pricingPlanFile', 'File size should be less than 4 MB!']]);
    expect(fields(await upload(planId, multipart('name,price\nx,1\n')))[0][0]).toBe('pricingPlanFile');
    const noneValid = await upload(planId, multipart(`${HEADER}\nDE,262,1,0.1,2026-01-01T00:00:00Z\n`), true);
    expect(fields(noneValid)).toEqual([['pricingPlanFile', 'The file has no valid rule to apply']]);
    const shape = (await upload(planId, multipart(`${HEADER}\nDE,262,01\n`))).json();
    expect(shape.rejected[0].fields[0].message).toBe("This line does not have the file's number of columns");
  });

  it("keeps another reseller's plan out of reach", async () => {
    const bluesky = await ctx.login('bluesky');
    expect((await upload(planId, multipart(`${HEADER}\nDE,262,01,0.1,2026-01-01T00:00:00Z\n`), true, bluesky)).statusCode).toBe(404);
    expect((await ctx.client(bluesky).post(`${LOCAL}/${planId}/download`)).statusCode).toBe(404);
  });
});
