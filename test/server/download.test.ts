import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { xlsxStream } from '@server/engine/xlsx';
import { normaliseListRequest } from '@shared/schema';
import { queryBatches } from '@server/engine/csv';
import { EntityRepository } from '@server/engine/repository';
import { loadSchemas } from '@server/engine/schemas';
import type { Engine } from '@server/db';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

/** Rows of a CSV answer as objects keyed by its header, after checking the mark that tells spreadsheets it is UTF-8. */
function rowsOf(body: string): Record<string, string>[] {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** The first worksheet of an Excel answer: its header, its rows as cell values, and the header's look. */
async function sheetOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  const rows: unknown[][] = [];
  for (let n = 2; n <= sheet.rowCount; n++) rows.push(values(n));
  return { sheet, header: values(1) as string[], rows };
}

/**
 * Whether an Excel cell holds what the CSV field says: a number cell the same number, a date cell the same instant,
 * text the same text (without the CSV's formula guard, which a workbook's text cell does not need), empty as empty.
 */
function sameValue(cell: unknown, field: string): boolean {
  if (cell === undefined || cell === null) return field === '';
  if (typeof cell === 'number') return field !== '' && Number(field) === cell;
  if (cell instanceof Date) return Date.parse(field) === cell.getTime();
  if (typeof cell === 'boolean') return String(cell) === field;
  return String(cell) === field || `'${String(cell)}` === field;
}

describe.each(engines)('streamed CSV downloads on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
  });
  afterAll(async () => ctx?.close());

  const download = (c: Client, body: object, query = '?include_inventory=true') => c.post(`/portal/accounts/list/download${query}`, body);
  const paged = (c: Client, body: object, query = '?include_inventory=true') =>
    c.post(`/portal/accounts/paged${query}`, { ...body, page: { page: 0, size: 200 } });

  it('sends every row of the search as an attachment, one column per property', async () => {
    const res = await download(admin, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="account-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = rowsOf(res.body);
    const page = (await paged(admin, {})).json();
    expect(rows).toHaveLength(page.totalItemsCount);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['accountId', 'name', 'resellerId', 'resellerName', 'usageCredit']));
    expect(rows.map((r) => Number(r.accountId))).toEqual(page.items.map((a: { accountId: number }) => a.accountId));
  });

  it('follows the search and the sort of the list', async () => {
    const body = { searchBy: 'name', searchKey: 'a', sortBy: 'name', sortDir: 'desc' };
    const rows = rowsOf((await download(admin, body)).body);
    const page = (await paged(admin, body)).json();
    expect(rows.map((r) => r.name)).toEqual(page.items.map((a: { name: string }) => a.name));
    expect(rows.length).toBeLessThan((await paged(admin, {})).json().totalItemsCount);
  });

  it("keeps a reseller to its own subtree's rows", async () => {
    const northwind = await ctx.as('northwind');
    const rows = rowsOf((await download(northwind, {})).body);
    const page = (await paged(northwind, {})).json();
    expect(rows).toHaveLength(page.totalItemsCount);
    expect(new Set(rows.map((r) => r.resellerName))).toEqual(new Set(page.items.map((a: { resellerName: string }) => a.resellerName)));
    expect(rows.length).toBeLessThan(rowsOf((await download(admin, {})).body).length);
  });

  it('neutralises formulas and keeps exact decimals', async () => {
    const created = await admin.post('/portal/accounts/', { name: 'Formula Test', city: '=HYPERLINK("http://evil")', usageCredit: 1234.5, resellerId: 1 });
    expect(created.statusCode).toBe(201);
    const [row] = rowsOf((await download(admin, { searchBy: 'name', searchKey: 'Formula Test' })).body);
    expect(row.city).toBe(`'=HYPERLINK("http://evil")`);
    expect(row.usageCredit).toMatch(/^1234\.50?$/);
  });

  it('refuses a sort outside the whitelist and a caller without the privilege, writing nothing', async () => {
    const bad = await download(admin, { sortBy: 'password_hash' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('sortBy');
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/portal/accounts/list/download', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never writes a password hash into the users download', async () => {
    const res = await admin.post('/portal/user/list/download', {});
    expect(res.statusCode).toBe(200);
    const header = res.body.slice(1).split('\r\n')[0];
    expect(header).toContain('username');
    expect(header.toLowerCase()).not.toContain('password');
  });

  describe('as an Excel workbook (?format=xlsx)', () => {
    const xlsx = (c: Client, url: string, body: object) => c.send('POST', url, body);

    it("has the CSV's columns and rows, numbers as numbers, the header bold and frozen", async () => {
      const body = { sortBy: 'name', sortDir: 'asc' };
      const csv = rowsOf((await download(admin, body)).body);
      const res = await download(admin, body, '?include_inventory=true&format=xlsx');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="account-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const { sheet, header, rows } = await sheetOf(res.rawPayload);
      expect(header).toEqual(Object.keys(csv[0]));
      expect(rows).toHaveLength(csv.length);
      rows.forEach((row, i) =>
        header.forEach((column, j) => expect(sameValue(row[j], csv[i][column]), `${column} of row ${i + 2}: ${String(row[j])}`).toBe(true)),
      );
      const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
      expect(column('accountId').every((v) => typeof v === 'number')).toBe(true);
      expect(column('usageCredit').some((v) => typeof v === 'number' && !Number.isInteger(v))).toBe(true);
      expect(sheet.getRow(1).font?.bold).toBe(true);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    });

    it('writes dates as dates and text as text, never as a formula', async () => {
      const {
        rows: [account],
      } = await sheetOf((await download(admin, { searchBy: 'name', searchKey: 'Formula Test' }, '?include_inventory=true&format=xlsx')).rawPayload);
      expect(account).toContain('=HYPERLINK("http://evil")');
      const when = new Date('2026-03-04T05:06:07Z');
      await ctx.db
        .updateTable('subscriber' as never)
        .set({ lastLocationAt: when } as never)
        .where('subscriberId' as never, '=', 7 as never)
        .execute();
      const search = { searchBy: 'subscriberId', searchKey: '7' };
      const csv = rowsOf((await admin.post('/portal/subscribers/list/download', search)).body);
      const { header, rows, sheet } = await sheetOf((await xlsx(admin, '/portal/subscribers/list/download?format=xlsx', search)).rawPayload);
      const at = header.indexOf('lastLocationAt');
      expect(rows[0][at]).toEqual(when);
      expect(sheet.getRow(2).getCell(at + 1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      header.forEach((column, j) => expect(sameValue(rows[0][j], csv[0][column]), column).toBe(true));
    });

    it('keeps a reseller to its own rows, and refuses an unknown format naming it', async () => {
      const northwind = await ctx.as('northwind');
      const csv = rowsOf((await download(northwind, {})).body);
      const { rows } = await sheetOf((await download(northwind, {}, '?include_inventory=true&format=xlsx')).rawPayload);
      expect(rows).toHaveLength(csv.length);
      const bad = await download(admin, {}, '?format=pdf');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.map((f: { field: string; messageId: string }) => [f.field, f.messageId])).toEqual([
        ['format', 'validation.downloadFormat.invalid'],
      ]);
    });

    it('streams: rows are read from the database only as fast as the client takes the file', async () => {
      let batchesRead = 0;
      const BATCHES = 100;
      async function* batches() {
        for (let b = 0; b < BATCHES; b++) {
          batchesRead++;
          yield Array.from({ length: 500 }, (_, i) => ({
            id: b * 500 + i,
            name: `row ${b * 500 + i} ${'x'.repeat(40)}`,
            at: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
          }));
        }
      }
      const stream = xlsxStream('rows', ['id', 'name', 'at'], ['number', 'text', 'dateTime'], batches(), (r) => [r.id, r.name, r.at]);
      const chunks: Buffer[] = [];
      const first = new Promise((resolve) => stream.once('data', resolve));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The client takes the first chunk, then stops reading a while: the writer waits for it.
      await first;
      stream.pause();
      const wait = () => new Promise((resolve) => setTimeout(resolve, 300));
      // What was already written drains into the reply's buffers (compressed on the way), then reading stops.
      let whilePaused = -1;
      for (let i = 0; i < 20 && whilePaused !== batchesRead; i++) {
        whilePaused = batchesRead;
        await wait();
      }
      expect(batchesRead).toBe(whilePaused);
      expect(whilePaused).toBeLessThan(BATCHES / 4);
      stream.resume();
      await new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
      expect(batchesRead).toBe(BATCHES);
      const { rows } = await sheetOf(Buffer.concat(chunks));
      expect(rows).toHaveLength(BATCHES * 500);
      expect(rows[BATCHES * 500 - 1]).toEqual([BATCHES * 500 - 1, `row ${BATCHES * 500 - 1} ${'x'.repeat(40)}`, new Date(Date.UTC(2026, 0, 1 + (499 % 28)))]);
    });
  });

  it('reads a query batch by batch, every row once, in order', async () => {
    const schema = loadSchemas().find((s) => s.$id === 'account')!;
    const repo = new EntityRepository(ctx.db, schema);
    const req = normaliseListRequest(schema, { sortBy: 'name', sortDir: 'asc' }, true);
    const adminPrincipal = { isAdmin: true } as never;
    const batches: number[] = [];
    const names: string[] = [];
    for await (const rows of queryBatches(
      ctx.db,
      engine as Engine,
      repo.exportQuery(req, { principal: adminPrincipal, query: { include_inventory: 'true' } }),
      4,
    )) {
      batches.push(rows.length);
      names.push(...rows.map((r) => String(r.name)));
    }
    const all = (await paged(admin, { sortBy: 'name', sortDir: 'asc' })).json().items.map((a: { name: string }) => a.name);
    expect(names).toEqual(all);
    expect(batches.slice(0, -1).every((n) => n === 4)).toBe(true);
    expect(batches.length).toBe(Math.ceil(all.length / 4));
  });
});
