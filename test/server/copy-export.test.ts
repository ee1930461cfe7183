import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyBatches, copyCsv, crlf, queryBatches } from '@server/engine/csv';
import Papa from 'papaparse';
import { csvLine } from '@shared/csv';
import { listValue } from '@shared/customFields';
import { customFieldsOf } from '@server/engine/customFields';
import { EntityRepository } from '@server/engine/repository';
import { loadSchemas } from '@server/engine/schemas';
import { jobPrincipal } from '@server/domains/subscribers/bulk';
import { normaliseListRequest, type EntitySchema } from '@shared/schema';
import { testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, unknown>;

/** Text a CSV writer must escape, quote or guard, and text COPY's own format escapes. */
const AWKWARD = ['Tab\there', 'two\nlines', 'back\\slash', 'say "hi", twice', "=HYPERLINK('x')", ' padded ', 'Ünïcødé 中文 שלום', "O'Brien \r end"];

describe.skipIf(!process.env.TEST_DATABASE_URL)('the subscriber export through COPY on PostgreSQL', () => {
  let ctx: Ctx;
  let schema: EntitySchema;
  let ids: number[];

  beforeAll(async () => {
    ctx = await testApp('postgres');
    schema = loadSchemas().find((s) => s.$id === 'subscriber')!;
    const admin = await ctx.as('admin');
    for (const field of [
      { key: 'region', label: 'Region', type: 'choice', choices: ['North', 'South'] },
      { key: 'capacity', label: 'Capacity', type: 'number' },
      { key: 'note', label: 'Note', type: 'text' },
    ])
      expect((await admin.post('/portal/custom-fields', { entity: 'subscriber', ...field })).statusCode).toBe(201);
    ids = (await sql<{ id: number }>`select subscriber_id as id from subscriber order by subscriber_id limit ${AWKWARD.length}`.execute(ctx.db)).rows.map((r) =>
      Number(r.id),
    );
    for (const [i, name] of AWKWARD.entries())
      await sql`update subscriber set name = ${name}, device = ${i % 2 ? null : name}, balance = ${i % 3 ? '-12.50' : '0.10'},
        custom = ${JSON.stringify({ region: 'North', capacity: i * 1.5, note: name })}::jsonb where subscriber_id = ${ids[i]}`.execute(ctx.db);
  });
  afterAll(async () => ctx?.close());

  /** The rows of a search by both readers: COPY and the cursor. */
  async function bothWays(userName: string, body: Row) {
    const userId = (await sql<{ id: number }>`select id from app_user where username = ${userName}`.execute(ctx.db)).rows[0]?.id;
    const principal = await jobPrincipal(ctx.db, Number(userId));
    const custom = await customFieldsOf(ctx.db).forPath('subscriber', principal.resellerPath);
    const req = normaliseListRequest(schema, body as never, principal.isAdmin, custom);
    const query = new EntityRepository(ctx.db, schema).exportQuery(req, { principal });
    const read = async (batches: AsyncIterable<Row[]>) => {
      const rows: Row[] = [];
      for await (const batch of batches) rows.push(...batch);
      return rows;
    };
    const copied = copyBatches(ctx.db, query);
    expect(copied).toBeDefined();
    return { copied: await read(copied!), cursor: await read(queryBatches(ctx.db, 'postgres', query, 97)) };
  }

  it('reads every row with the same values, types and order as the cursor', async () => {
    const { copied, cursor } = await bothWays('admin', {});
    expect(copied.length).toBeGreaterThan(100);
    expect(copied).toEqual(cursor);
    const awkward = copied.filter((r) => ids.includes(Number(r.subscriberId)));
    expect(awkward.map((r) => r.name)).toEqual(AWKWARD);
    expect(awkward[0].lastLocationAt).toBeInstanceOf(Date);
  });

  it("keeps the caller's tenancy, searches with quotes in them, and sorts", async () => {
    for (const [user, body] of [
      ['northwind', {}],
      ['northwind', { searchBy: 'multi', searchKey: "O'Brien" }],
      ['admin', { searchBy: 'multi', searchKey: 'Tab\there' }],
      ['admin', { sortBy: 'name', sortDir: 'desc' }],
      ['admin', { searchBy: 'custom.region', searchKey: 'North' }],
    ] as const) {
      const { copied, cursor } = await bothWays(user, body);
      expect(copied, `${user} ${JSON.stringify(body)}`).toEqual(cursor);
    }
    expect((await bothWays('admin', { searchBy: 'multi', searchKey: "O'Brien" })).copied.map((r) => r.name)).toEqual(["O'Brien \r end"]);
  });

  it('sends the same CSV as the cursor would: header, quoting, formula guard, custom columns', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.post('/portal/subscribers/list/download', { searchBy: 'subscriberId', searchKey: String(ids[4]) });
    expect(res.statusCode).toBe(200);
    const [header, line] = res.body.replace(/^\uFEFF/, '').split('\r\n');
    const columns = header.split(',');
    expect(columns.slice(-3).sort()).toEqual(['custom.capacity', 'custom.note', 'custom.region']);
    const cells = line.split(',');
    const cell = (name: string) => cells[columns.indexOf(name)];
    expect([cell('name'), cell('device'), cell('custom.note'), cell('custom.capacity'), cell('custom.region')]).toEqual([
      "'=HYPERLINK('x')",
      "'=HYPERLINK('x')",
      "'=HYPERLINK('x')",
      '6',
      'North',
    ]);
    expect(cell('balance')).toBe('-12.50');
  });

  it('writes in the database a CSV that reads as the rows written by csvLine: awkward text, the guard and custom fields', async () => {
    const principal = await jobPrincipal(
      ctx.db,
      Number((await sql<{ id: number }>`select id from app_user where username = 'admin'`.execute(ctx.db)).rows[0].id),
    );
    const custom = await customFieldsOf(ctx.db).forPath('subscriber', principal.resellerPath);
    const repo = new EntityRepository(ctx.db, schema);
    const fields = [...repo.exportFields().filter((f) => f !== 'custom'), ...custom.map((d) => `custom.${d.key}`), 'custom.absent', 'noSuchColumn'];
    const cells = (text: string) => Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    for (const body of [{}, { sortBy: 'name', sortDir: 'desc' }, { searchBy: 'multi', searchKey: 'Tab\there' }]) {
      const query = repo.exportQuery(normaliseListRequest(schema, body as never, true, custom), { principal });
      const written = await copyCsv(ctx.db, query, fields);
      expect(written, 'every subscriber column has a type the database writes').toBeDefined();
      let text = '';
      for await (const part of written!) text += part.toString('utf8');
      let expected = csvLine(fields);
      for await (const rows of queryBatches(ctx.db, 'postgres', query, 97))
        expected += rows.map((row) => csvLine(fields.map((f) => listValue(row, f)))).join('');
      const read = cells(text);
      expect(read.length, JSON.stringify(body)).toBeGreaterThan(1);
      expect(read, JSON.stringify(body)).toEqual(cells(expected));
    }
    // The guard and the quotes as a spreadsheet meets them.
    const query = repo.exportQuery(normaliseListRequest(schema, { searchBy: 'subscriberId', searchKey: String(ids[4]) } as never, true, custom), { principal });
    let text = '';
    for await (const part of (await copyCsv(ctx.db, query, ['name', 'custom.note', 'balance']))!) text += part.toString('utf8');
    expect(text).toBe(`name,custom.note,balance\r\n'=HYPERLINK('x'),'=HYPERLINK('x'),-12.50\r\n`);
  });
});

describe('line ends of a CSV written by the database', () => {
  it('ends lines with CR LF and leaves line feeds inside quoted values, across chunks', () => {
    const ends = crlf();
    const parts = ['a,"two\nli', 'nes",b\n"say ""hi""', '\n",c\nd,e\n'].map((p) => ends(Buffer.from(p)).toString());
    expect(parts.join('')).toBe('a,"two\nlines",b\r\n"say ""hi""\n",c\r\nd,e\r\n');
  });

  it('gives what a byte-by-byte reading gives, for any text cut anywhere', () => {
    // The reference: every line feed outside quotes (a quote turns the state) becomes CR LF.
    const byBytes = (text: string) => {
      let quoted = false;
      let out = '';
      for (const c of text) {
        if (c === '"') quoted = !quoted;
        out += c === '\n' && !quoted ? '\r\n' : c;
      }
      return out;
    };
    let seed = 7;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: random(80) }, () => 'ab,"\n\n x'[random(10)]).join('');
      const cuts = [0, ...Array.from({ length: random(4) }, () => random(text.length + 1)).sort((a, b) => a - b), text.length];
      const ends = crlf();
      const out = cuts.slice(1).map((to, i) => ends(Buffer.from(text.slice(cuts[i], to))).toString());
      expect(out.join(''), JSON.stringify({ text, cuts })).toBe(byBytes(text));
    }
  });
});
